"""Unigram traces and models as plain data (JSON, CSV) and back.

>>> from subtok_core.unigram import trace_unigram
>>> from subtok_core.corpus import load
>>> trace = trace_unigram(load("toy:run-bug"), seed="strict", vocab_size=12, log_base="10")
>>> print(steps_csv(trace), end="")
number,round,kind,vocab_size,loss,removed
1,1,e,13,66.10893,
2,1,m,13,66.10893,
3,1,prune,12,66.10893,ru
4,2,e,12,65.58267,
"""

from __future__ import annotations

import math
from typing import Any

from ..plain import FORMAT_VERSION, csv_text, flag, pieces
from ..records import Trace
from .records import UnigramModel, UnigramStep


def step_to_dict(step: UnigramStep, full: bool) -> dict[str, Any]:
    """One E, M or prune step: the loss (in the run's log base), every probability, each
    candidate's corpus loss without it, what was removed, and each word's best
    segmentation with its probability. ``full`` adds the frequencies (EM: expected
    counts). Compact traces keep only the most probable rows before the last step."""
    out: dict[str, Any] = {
        "number": step.number,
        "round": step.round,
        "kind": step.kind,
        "loss": step.loss,
        "vocab_size": step.vocab_size,
        "probabilities": {row.piece: row.prob for row in step.vocab},
        "removal_losses": dict(step.removal),
        "removed": list(step.removed),
        "note": step.note,
    }
    if step.segmentations is not None:
        out["segmentations"] = {
            w.word: [list(w.pieces), math.exp(w.logprob)] for w in step.segmentations
        }
    if full:
        out["frequencies"] = {row.piece: row.freq for row in step.vocab}
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    start = trace.start
    return {
        "words": list(start.words),
        "counts": list(start.counts),
        "alphabet": list(start.alphabet),
        "seed": start.seed,
        "frequencies": {row.piece: row.freq for row in start.vocab},
    }


def steps_csv(trace: Trace) -> str:
    """The steps as CSV: number, round, kind, vocab size, loss, pieces removed."""
    rows = [
        [s.number, s.round, s.kind, s.vocab_size, f"{s.loss:.5f}", " ".join(s.removed)]
        for s in trace.steps
    ]
    return csv_text(["number", "round", "kind", "vocab_size", "loss", "removed"], rows)


def model_to_dict(model: UnigramModel) -> dict[str, Any]:
    return {
        "algorithm": "unigram",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.pieces),
        "logprobs": list(model.logprobs),
    }


def model_from_dict(data: dict, name: str = "the model") -> UnigramModel:
    """Check a saved Unigram model field by field and rebuild it."""
    marker = data.get("marker")
    if marker not in ("none", "sow"):
        raise ValueError(f"{name!r} has marker {marker!r}; a Unigram model has none or sow.")
    split_punct = flag(data, "split_punct", name)
    vocab = pieces(data, "vocab", name)
    logprobs = data.get("logprobs")
    ok = isinstance(logprobs, list) and len(logprobs) == len(vocab)
    numbers = ok and all(isinstance(v, int | float) and not isinstance(v, bool) for v in logprobs)
    if not numbers or not all(v <= 0 for v in logprobs):
        raise ValueError(
            f"{name!r} is damaged: 'logprobs' should hold one log-probability (<= 0) per piece."
        )
    alphabet = pieces(data, "alphabet", name)
    return UnigramModel(vocab, tuple(float(v) for v in logprobs), alphabet, marker, split_punct)
