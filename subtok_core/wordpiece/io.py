"""WordPiece traces and models as plain data (JSON, CSV) and back.

>>> from subtok_core.corpus import load
>>> from subtok_core.wordpiece import trace_wordpiece
>>> print(steps_csv(trace_wordpiece(load("toy:sunflower"), merges=1)), end="")
number,left,right,new_symbol,score,score_fraction,pair_count,left_count,right_count,ties
1,s,##u,su,0.3333333333333333,1/3,3,3,3,0
"""

from __future__ import annotations

from typing import Any

from ..plain import FORMAT_VERSION, csv_text, flag, pieces, snapshot_fields, start_fields, strings
from ..records import UNK, Trace
from .records import MAX_WORD_CHARS, ScoredPair, WordPieceModel, WordPieceStep, fraction_text


def _scored_row(row: ScoredPair) -> list[Any]:
    """[left, right, pair_count, left_count, right_count, score, "num/den"]."""
    return [*row[:6], fraction_text(row.score_fraction)]


def step_to_dict(step: WordPieceStep, full: bool) -> dict[str, Any]:
    """One WordPiece merge as plain data: the score as a float and as an exact fraction
    ("1/3"), its three counts, and the most frequent pair (what BPE would merge)."""
    out: dict[str, Any] = {
        "pair": list(step.pair),
        "new_symbol": step.new_symbol,
        "score": step.score,
        "score_fraction": fraction_text(step.score_fraction),
        "pair_count": step.pair_count,
        "left_count": step.left_count,
        "right_count": step.right_count,
        "tied_with": [list(pair) for pair in step.tied_with],
        "bpe_pair": list(step.bpe_pair),
        "bpe_count": step.bpe_count,
    }
    if full:
        out.update(snapshot_fields(step, _scored_row))
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    return {**start_fields(trace.start, _scored_row), "alphabet": list(trace.start.alphabet)}


def steps_csv(trace: Trace) -> str:
    """One row per merge with its exact score; ``ties`` counts the pairs of equal score."""
    header = ["number", "left", "right", "new_symbol", "score", "score_fraction"]
    header += ["pair_count", "left_count", "right_count", "ties"]
    rows = [
        [s.number, *s.pair, s.new_symbol, s.score, fraction_text(s.score_fraction),
         s.pair_count, s.left_count, s.right_count, len(s.tied_with)]
        for s in trace.steps
    ]  # fmt: skip
    return csv_text(header, rows)


def model_to_dict(model: WordPieceModel) -> dict[str, Any]:
    return {
        "algorithm": "wordpiece",
        "format_version": FORMAT_VERSION,
        "prefix": model.prefix,
        "special_tokens": list(model.special_tokens),
        "unk_token": model.unk_token,
        "max_word_chars": model.max_word_chars,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.vocab),
    }


def model_from_dict(data: dict, name: str = "the model") -> WordPieceModel:
    """Check a saved WordPiece model field by field and rebuild it."""
    prefix = data.get("prefix")
    if not isinstance(prefix, str) or any(ch.isspace() for ch in prefix):
        raise ValueError(f"{name!r} has prefix {prefix!r}; it should be a string such as '##'.")
    unk = data.get("unk_token", UNK)
    if not isinstance(unk, str) or not unk:
        raise ValueError(f"{name!r} has unk_token {unk!r}; it should be a string such as [UNK].")
    limit = data.get("max_word_chars", MAX_WORD_CHARS)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"{name!r} has max_word_chars {limit!r}; it should be a whole number.")
    split_punct = flag(data, "split_punct", name)
    specials = strings({"special_tokens": data.get("special_tokens", [])}, "special_tokens", name)
    alphabet = pieces(data, "alphabet", name)
    vocab = pieces(data, "vocab", name)
    return WordPieceModel(vocab, alphabet, prefix, specials, split_punct, unk, limit)
