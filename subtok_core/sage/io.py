"""SaGe traces and models as plain data (JSON, CSV) and back.

>>> model = SageModel(("\u2581a", "a", "\u2581"))
>>> model_from_dict(model_to_dict(model)) == model
True
"""

from __future__ import annotations

from typing import Any

from ..plain import FORMAT_VERSION, csv_text, flag, strings
from ..records import Trace
from .records import SageModel, SageStep


def _scored(rows) -> list[list[Any]]:
    return [[piece, score] for piece, score in rows]


def step_to_dict(step: SageStep, full: bool) -> dict[str, Any]:
    """One prune step: the eq. (1) loss before it (None for a control), whether every
    score was recomputed and the embeddings retrained, the running tokens after it and
    the pruned pieces with their scores. ``full`` adds the whole candidate set. The
    embeddings themselves are never exported (they are arrays of floats per piece)."""
    out: dict[str, Any] = {
        "number": step.number,
        "vocab_size": step.vocab_size,
        "loss": step.loss,
        "recomputed_losses": step.recomputed_losses,
        "retrained_embeddings": step.retrained_embeddings,
        "tokens": step.tokens,
        "pruned": _scored(step.pruned),
    }
    if full:
        out["candidates"] = _scored(step.candidates)
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    start = trace.start
    return {
        "vocab": list(start.vocab),
        "protected": start.protected,
        "sentences": start.sentences,
        "words": start.words,
        "tokens": start.tokens,
    }


def steps_csv(trace: Trace) -> str:
    """One row per prune step: vocab size after it, the loss before it, the running tokens
    after it, and the pruned pieces with their scores."""
    rows = [
        [s.number, s.vocab_size, s.loss, s.recomputed_losses, s.retrained_embeddings, s.tokens,
         " ".join(f"{p}:{v:.6g}" for p, v in s.pruned)]
        for s in trace.steps
    ]  # fmt: skip
    header = ["number", "vocab_size", "loss", "recomputed_losses", "retrained_embeddings"]
    return csv_text([*header, "tokens", "pruned"], rows)


def model_to_dict(model: SageModel) -> dict[str, Any]:
    """A SaGe model is its vocabulary (BPE's order), applied by greedy longest prefix."""
    return {
        "algorithm": "sage",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "vocab": list(model.vocab),
    }


def model_from_dict(data: dict, name: str = "the model") -> SageModel:
    """Check a saved SaGe model field by field and rebuild it."""
    marker = data.get("marker")
    if marker != "sow":
        raise ValueError(f"{name!r} has marker {marker!r}; a SaGe model has the sow marker.")
    split_punct = flag(data, "split_punct", name)
    vocab = strings(data, "vocab", name)
    if not vocab or not all(vocab):
        raise ValueError(f"{name!r} is damaged: its 'vocab' should list non-empty pieces.")
    return SageModel(vocab, marker, split_punct)
