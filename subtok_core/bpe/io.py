"""BPE traces and models as plain data (JSON, CSV) and back.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> print(steps_csv(trace_bpe(load("toy:cat-bat"), merges=2)), end="")
number,left,right,new_symbol,count,ties
1,a,t,at,20,0
2,a,g,ag,16,0
>>> model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "none")
>>> model_from_dict(model_to_dict(model)) == model
True
"""

from __future__ import annotations

from typing import Any

from ..plain import (
    FORMAT_VERSION,
    check_merges,
    csv_text,
    flag,
    pairs,
    pieces,
    snapshot_fields,
    start_fields,
)
from ..records import Trace
from .records import MARKERS, BpeModel, BpeStep


def step_to_dict(step: BpeStep, full: bool) -> dict[str, Any]:
    """One merge as plain data; ``full`` adds the snapshot the step carries."""
    out: dict[str, Any] = {
        "pair": list(step.pair),
        "count": step.count,
        "new_symbol": step.new_symbol,
        "tied_with": [list(pair) for pair in step.tied_with],
    }
    if full:
        out.update(snapshot_fields(step, list))
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    return start_fields(trace.start, list)


def steps_csv(trace: Trace) -> str:
    """One row per merge; ``ties`` counts the other pairs that had the same count."""
    rows = [[s.number, *s.pair, s.new_symbol, s.count, len(s.tied_with)] for s in trace.steps]
    return csv_text(["number", "left", "right", "new_symbol", "count", "ties"], rows)


def model_to_dict(model: BpeModel) -> dict[str, Any]:
    return {
        "algorithm": "bpe",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.vocab),
        "merges": [list(pair) for pair in model.merges],
    }


def model_from_dict(data: dict, name: str = "the model") -> BpeModel:
    """Check a saved BPE model field by field and rebuild it."""
    marker = data.get("marker")
    if marker not in MARKERS:
        raise ValueError(
            f"{name!r} has marker {marker!r}; it should be one of {', '.join(MARKERS)}."
        )
    split_punct = flag(data, "split_punct", name)
    alphabet = pieces(data, "alphabet", name)
    vocab = pieces(data, "vocab", name)
    merges = pairs(data, name)
    check_merges(merges, vocab, name)  # merges join pieces it has into one it has
    return BpeModel(merges, vocab, alphabet, marker, split_punct)
