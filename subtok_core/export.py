"""Traces and models as plain data: JSON for downloads and the CLI, CSV for spreadsheets.

A trace becomes a dict with the same keys for every algorithm (``algorithm``, ``params``,
``steps``, ``model``, ``stopped``); what a single step holds is up to the algorithm, so
each one registers its own step-to-dict function in ``STEP_FIELDS``.

>>> from subtok_core.bpe import trace_bpe
>>> from subtok_core.corpus import load
>>> data = trace_to_dict(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"))
>>> [(step["new_symbol"], step["count"]) for step in data["steps"]]
[('es', 9), ('est', 9), ('est</w>', 9), ('lo', 7)]
>>> data["steps"][-1]["tied_with"]
[['o', 'w']]
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .bpe import MARKERS, BpeModel, BpeStep, model_from_trace
from .steps import Trace

FORMAT_VERSION = 1  # bump when a saved model file changes shape


# --- traces ---------------------------------------------------------------------------


def _bpe_step(step: BpeStep, full: bool) -> dict[str, Any]:
    """One merge as plain data; ``full`` adds the snapshot the step carries."""
    out: dict[str, Any] = {
        "pair": list(step.pair),
        "count": step.count,
        "new_symbol": step.new_symbol,
        "tied_with": [list(pair) for pair in step.tied_with],
    }
    if full:
        out["pair_table"] = [list(row) for row in step.pair_table]
        out["vocab_size"] = step.vocab_size
        out["corpus_symbols"] = step.corpus_symbols
        if step.segmentations is not None:  # compact traces keep no segmentation
            out["segmentations"] = [list(seg) for seg in step.segmentations]
    return out


def _bpe_start(trace: Trace) -> dict[str, Any]:
    """The corpus before the first merge (only in the full download)."""
    start = trace.start
    out: dict[str, Any] = {
        "words": list(start.words),
        "counts": list(start.counts),
        "vocab": list(start.vocab),
        "pair_table": [list(row) for row in start.pair_table],
        "corpus_symbols": start.corpus_symbols,
    }
    if start.segmentations is not None:
        out["segmentations"] = [list(seg) for seg in start.segmentations]
    return out


def _bpe_trace_model(trace: Trace) -> dict[str, Any]:
    model = model_from_trace(trace)
    return {"merges": [list(pair) for pair in model.merges], "vocab": list(model.vocab)}


# Per algorithm: how a step, the start state and the final model become plain data.
STEP_FIELDS: dict[str, Callable[[Any, bool], dict[str, Any]]] = {"bpe": _bpe_step}
START_FIELDS: dict[str, Callable[[Trace], dict[str, Any]]] = {"bpe": _bpe_start}
TRACE_MODEL: dict[str, Callable[[Trace], dict[str, Any]]] = {"bpe": _bpe_trace_model}


def _algorithm(trace: Trace) -> str:
    if trace.algorithm not in STEP_FIELDS:
        raise ValueError(f"Exporting a {trace.algorithm!r} trace is not supported yet.")
    return trace.algorithm


def trace_to_dict(trace: Trace, full: bool = False) -> dict[str, Any]:
    """A trace as JSON-ready data: parameters, one dict per step, the final model.

    ``full=True`` also gives every step its snapshot (pair table, vocab size, corpus
    symbols, segmentations when the trace kept them) and adds the ``start`` state.
    See the module docstring for an example.
    """
    algo = _algorithm(trace)
    step_fields = STEP_FIELDS[algo]
    out: dict[str, Any] = {"algorithm": algo, "params": dict(trace.params)}
    if full:
        out["start"] = START_FIELDS[algo](trace)
    out["steps"] = [step_fields(step, full) for step in trace.steps]
    out["model"] = TRACE_MODEL[algo](trace)
    out["stopped"] = trace.stop_reason
    return out


def trace_to_json(trace: Trace, full: bool = False) -> str:
    """trace_to_dict as indented JSON text (UTF-8 symbols such as ▁ kept as they are).

    >>> from subtok_core.bpe import trace_bpe
    >>> from subtok_core.corpus import load
    >>> text = trace_to_json(trace_bpe(load("toy:cat-bat"), merges=1), full=True)
    >>> json.loads(text)["steps"][0]["pair_table"][0]
    ['a', 't', 20]
    """
    return json.dumps(trace_to_dict(trace, full), ensure_ascii=False, indent=2)


def merges_csv(trace: Trace) -> str:
    """The merges of a BPE trace as CSV, one row per merge; ``ties`` counts the other
    pairs that had the same count.

    >>> from subtok_core.bpe import trace_bpe
    >>> from subtok_core.corpus import load
    >>> print(merges_csv(trace_bpe(load("toy:cat-bat"), merges=2)), end="")
    number,left,right,new_symbol,count,ties
    1,a,t,at,20,0
    2,a,g,ag,16,0
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["number", "left", "right", "new_symbol", "count", "ties"])
    for step in trace.steps:
        left, right = step.pair
        writer.writerow(
            [step.number, left, right, step.new_symbol, step.count, len(step.tied_with)]
        )
    return buffer.getvalue()


# --- models ---------------------------------------------------------------------------


def model_to_dict(model: BpeModel) -> dict[str, Any]:
    """A BPE model as JSON-ready data, tagged with its algorithm.

    >>> model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "none")
    >>> model_to_dict(model)["merges"]
    [['a', 't']]
    """
    return {
        "algorithm": "bpe",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.vocab),
        "merges": [list(pair) for pair in model.merges],
    }


def save_model(model: BpeModel, path: str | Path) -> None:
    """Write a model as a JSON file; a path that cannot be written raises ValueError."""
    text = json.dumps(model_to_dict(model), ensure_ascii=False, indent=2) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        reason = err.strerror or str(err)
        raise ValueError(f"Cannot save the model to {str(path)!r}: {reason}.") from None


def load_model(path: str | Path) -> BpeModel:
    """Read a model saved by save_model; anything else raises ValueError with a sentence.

    >>> import tempfile
    >>> model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "none")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_model(model, folder + "/m.json")
    ...     load_model(folder + "/m.json") == model
    True
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"There is no model file {name!r}; train one with --out first.") from None
    except (OSError, UnicodeDecodeError):
        raise ValueError(f"{name!r} cannot be read as a text file, so it is no model.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"{name!r} is not a model file: its content is not JSON.") from None
    return model_from_dict(data, name)


def model_from_dict(data: Any, name: str = "the model") -> BpeModel:
    """Check saved model data field by field and rebuild the model."""
    if not isinstance(data, dict) or "algorithm" not in data:
        raise ValueError(f"{name!r} is not a subtok model: it has no 'algorithm' field.")
    if data["algorithm"] != "bpe":
        raise ValueError(f"{name!r} holds a {data['algorithm']!r} model; only BPE loads here.")
    marker = data.get("marker")
    if marker not in MARKERS:
        raise ValueError(
            f"{name!r} has marker {marker!r}; it should be one of {', '.join(MARKERS)}."
        )
    split_punct = data.get("split_punct", False)
    if not isinstance(split_punct, bool):
        raise ValueError(f"{name!r} has split_punct {split_punct!r}; it should be true or false.")
    alphabet = _strings(data, "alphabet", name)
    vocab = _strings(data, "vocab", name)
    merges = _pairs(data, name)
    return BpeModel(merges, vocab, alphabet, marker, split_punct)


def _strings(data: dict, field: str, name: str) -> tuple[str, ...]:
    values = data.get(field)
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{name!r} is damaged: its {field!r} field should be a list of symbols.")
    return tuple(values)


def _pairs(data: dict, name: str) -> tuple[tuple[str, str], ...]:
    values = data.get("merges")
    ok = isinstance(values, list) and all(
        isinstance(v, list) and len(v) == 2 and all(isinstance(s, str) for s in v) for v in values
    )
    if not ok:
        raise ValueError(f"{name!r} is damaged: 'merges' should be a list of [left, right] pairs.")
    return tuple((a, b) for a, b in values)
