"""Traces and models as plain data: JSON for downloads and the CLI, CSV for spreadsheets.

A trace becomes a dict with the same keys for every algorithm (``algorithm``, ``params``,
``steps``, ``model``, ``stopped``); what a step holds is up to its algorithm (its
``step_to_dict`` in the registry), and ``model`` is the final model as ``save_model``
writes it, so a downloaded trace's model loads with ``subtok encode --model``.

>>> from subtok_core.bpe import trace_bpe
>>> from subtok_core.corpus import load
>>> data = trace_to_dict(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"))
>>> [(step["new_symbol"], step["count"]) for step in data["steps"]]
[('es', 9), ('est', 9), ('est</w>', 9), ('lo', 7)]
>>> data["steps"][-1]["tied_with"]
[['o', 'w']]
>>> model_from_dict(data["model"]).merges[-1]
('l', 'o')
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from . import registry, userjson
from .plain import FORMAT_VERSION, trace_fields
from .records import Trace

MODEL_MAX_BYTES = 50 * 1024 * 1024  # a model file larger than this is refused unread


def trace_to_dict(trace: Trace, full: bool = False) -> dict[str, Any]:
    """A trace as JSON-ready data: parameters, one dict per step, the final model.

    ``full=True`` also gives every step its snapshot (pair table, vocab size, corpus
    symbols, segmentations when the trace kept them) and adds the ``start`` state.
    """
    algo = registry.of_trace(trace)
    return trace_fields(
        trace, full, lambda: algo.start_to_dict(trace),
        lambda step: algo.step_to_dict(step, full), algo.to_dict(algo.model_at(trace)),
    )  # fmt: skip


def trace_to_json(trace: Trace, full: bool = False) -> str:
    """trace_to_dict as indented JSON text (UTF-8 symbols such as ▁ kept as they are).

    >>> from subtok_core.bpe import trace_bpe
    >>> from subtok_core.corpus import load
    >>> text = trace_to_json(trace_bpe(load("toy:cat-bat"), merges=1), full=True)
    >>> json.loads(text)["steps"][0]["pair_table"][0]
    ['a', 't', 20]
    """
    return json.dumps(trace_to_dict(trace, full), ensure_ascii=False, indent=2)


def steps_csv(trace: Trace) -> str:
    """One CSV row per step, the columns its algorithm chose (see each package's io)."""
    return registry.of_trace(trace).steps_csv(trace)


# --- models ---------------------------------------------------------------------------


def model_to_dict(model) -> dict[str, Any]:
    """Any model as JSON-ready data, tagged with its algorithm.

    >>> from subtok_core.bpe import BpeModel
    >>> model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "none")
    >>> model_to_dict(model)["merges"]
    [['a', 't']]
    """
    return registry.of_model(model).to_dict(model)


def model_from_dict(data: Any, name: str = "the model"):
    """Check saved model data field by field and rebuild the model."""
    if not isinstance(data, dict) or "algorithm" not in data:
        raise ValueError(f"{name!r} is not a subtok model: it has no 'algorithm' field.")
    version = data.get("format_version", FORMAT_VERSION)  # files written before it: 1
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise ValueError(
            f"{name!r} is a model file of format version {version!r}; this subtok reads "
            f"version {FORMAT_VERSION}. Train the model again with this subtok."
        )
    if data["algorithm"] not in registry.ALGORITHMS:
        *most, last = registry.LABELS.values()
        labels = f"{', '.join(most)} and {last}"
        raise ValueError(
            f"{name!r} holds a {data['algorithm']!r} model; only {labels} models load here."
        )
    return registry.get(data["algorithm"]).from_dict(data, name)


def save_model(model, path: str | Path) -> None:
    """Write a model as a JSON file; a path that cannot be written raises ValueError."""
    text = json.dumps(model_to_dict(model), ensure_ascii=False, indent=2) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        reason = err.strerror or str(err)
        raise ValueError(f"Cannot save the model to {str(path)!r}: {reason}.") from None


def load_model(path: str | Path):
    """Read a model saved by save_model; anything else raises ValueError with a sentence.

    >>> import tempfile
    >>> from subtok_core.bpe import BpeModel
    >>> model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "none")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_model(model, folder + "/m.json")
    ...     load_model(folder + "/m.json") == model
    True
    """
    name = str(path)
    try:
        info = Path(path).stat()
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{name!r} is a folder; it cannot be read as a model file.")
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would block or never end
            raise ValueError(f"{name!r} is not a regular file, so it is no model.")
        if info.st_size > MODEL_MAX_BYTES:
            raise ValueError(
                f"{name!r} has {info.st_size:,} bytes; a model file has at most "
                f"{MODEL_MAX_BYTES:,}."
            )
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"There is no model file {name!r}; train one with --out first.") from None
    except (OSError, UnicodeDecodeError):
        raise ValueError(f"{name!r} cannot be read as a text file, so it is no model.") from None
    try:
        data = userjson.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"{name!r} is not a model file: its content is not JSON.") from None
    except ValueError as err:  # nested too deeply
        raise ValueError(f"{name!r} is not a model file: {err}.") from None
    return model_from_dict(data, name)
