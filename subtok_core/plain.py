"""Plain data shared by every algorithm's ``io``: saved fields checked as they are read,
and the parts of a trace download that the merge lessons (BPE, WordPiece) share.

A damaged model file must fail with a sentence that names the file and the field:

>>> strings({"vocab": ["a", 1]}, "vocab", "m.json")
Traceback (most recent call last):
...
ValueError: 'm.json' is damaged: its 'vocab' field should be a list of symbols.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

FORMAT_VERSION = 1  # bump when a saved model file changes shape


def strings(data: dict, field: str, name: str) -> tuple[str, ...]:
    values = data.get(field)
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{name!r} is damaged: its {field!r} field should be a list of symbols.")
    return tuple(values)


def pieces(data: dict, field: str, name: str) -> tuple[str, ...]:
    """A vocabulary field: strings, none empty, none twice (each piece has one id).

    >>> pieces({"vocab": ["a", "b", "a"]}, "vocab", "m.json")
    Traceback (most recent call last):
    ...
    ValueError: 'm.json' is damaged: the piece 'a' is in its 'vocab' twice.
    """
    values = strings(data, field, name)
    if "" in values:
        raise ValueError(f"{name!r} is damaged: its {field!r} has an empty piece.")
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{name!r} is damaged: the piece {value!r} is in its {field!r} twice.")
        seen.add(value)
    return values


def pairs(data: dict, name: str) -> tuple[tuple[str, str], ...]:
    values = data.get("merges")
    ok = isinstance(values, list) and all(
        isinstance(v, list) and len(v) == 2 and all(isinstance(s, str) for s in v) for v in values
    )
    if not ok:
        raise ValueError(f"{name!r} is damaged: 'merges' should be a list of [left, right] pairs.")
    return tuple((a, b) for a, b in values)


def check_merges(merges, vocab, name: str) -> None:
    """Every merge must join two pieces of the vocabulary into a third one it has: a
    ValueError naming the first merge that does not."""
    known = set(vocab)
    for left, right in merges:
        missing = next((p for p in (left, right, left + right) if p not in known), None)
        if missing is not None:
            raise ValueError(
                f"{name!r} is damaged: the merge {left} + {right} needs {missing!r}, which "
                "is not in its vocabulary."
            )


def flag(data: dict, field: str, name: str, default: bool = False) -> bool:
    value = data.get(field, default)
    if not isinstance(value, bool):
        raise ValueError(f"{name!r} has {field} {value!r}; it should be true or false.")
    return value


def snapshot_fields(record, row_of: Callable) -> dict[str, Any]:
    """What the full download adds to a step or a start: the pair table (each row written
    by `row_of`), the corpus length and, where kept, every word's segmentation."""
    out: dict[str, Any] = {"pair_table": [row_of(row) for row in record.pair_table]}
    if hasattr(record, "vocab_size"):
        out["vocab_size"] = record.vocab_size
    out["corpus_symbols"] = record.corpus_symbols
    if record.segmentations is not None:  # compact traces keep no segmentation
        out["segmentations"] = [list(seg) for seg in record.segmentations]
    return out


def start_fields(start, row_of: Callable) -> dict[str, Any]:
    """The corpus before the first merge (only in the full download)."""
    out = {"words": list(start.words), "counts": list(start.counts), "vocab": list(start.vocab)}
    return {**out, **snapshot_fields(start, row_of)}


def csv_text(header: list[str], rows) -> str:
    """Rows as CSV text with a header line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def trace_fields(trace, full: bool, start: Callable[[], dict], step: Callable, model: dict):
    """A trace as JSON-ready data, from its algorithm's own pieces: parameters, `step(s)`
    per step, the final `model` (as a dict) and why it stopped; with `full`, `start()`.
    What export.trace_to_dict makes through the registry, and byte-level BPE in its byte
    display (bytebpe/io.py) without it."""
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in trace.params}
    out: dict[str, Any] = {"algorithm": trace.algorithm, "params": params}
    if full:
        out["start"] = start()
    out["steps"] = [step(s) for s in trace.steps]
    out["model"] = model
    out["stopped"] = trace.stop_reason
    return out
