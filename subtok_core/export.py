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
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import sage, unigram, wordpiece
from .bpe import MARKERS, BpeModel, BpeStep, model_from_trace
from .sage import SageModel, SageStep
from .steps import Trace, UnigramStep
from .unigram import UnigramModel
from .wordpiece import ScoredPair, WordPieceModel, WordPieceStep, fraction_text

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
        out.update(_snapshot_fields(step, list))
    return out


def _snapshot_fields(record, row_of) -> dict[str, Any]:
    """What the full download adds to a step or a start: the pair table (each row written
    by `row_of`), the corpus length and, where kept, every word's segmentation."""
    out: dict[str, Any] = {"pair_table": [row_of(row) for row in record.pair_table]}
    if hasattr(record, "vocab_size"):
        out["vocab_size"] = record.vocab_size
    out["corpus_symbols"] = record.corpus_symbols
    if record.segmentations is not None:  # compact traces keep no segmentation
        out["segmentations"] = [list(seg) for seg in record.segmentations]
    return out


def _start_fields(start, row_of) -> dict[str, Any]:
    """The corpus before the first merge (only in the full download)."""
    out = {"words": list(start.words), "counts": list(start.counts), "vocab": list(start.vocab)}
    return {**out, **_snapshot_fields(start, row_of)}


def _bpe_start(trace: Trace) -> dict[str, Any]:
    return _start_fields(trace.start, list)


def _bpe_trace_model(trace: Trace) -> dict[str, Any]:
    model = model_from_trace(trace)
    return {"merges": [list(pair) for pair in model.merges], "vocab": list(model.vocab)}


def _scored_row(row: ScoredPair) -> list[Any]:
    """[left, right, pair_count, left_count, right_count, score, "num/den"]."""
    return [*row[:6], fraction_text(row.score_fraction)]


def _wordpiece_step(step: WordPieceStep, full: bool) -> dict[str, Any]:
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
        out.update(_snapshot_fields(step, _scored_row))
    return out


def _wordpiece_start(trace: Trace) -> dict[str, Any]:
    return {**_start_fields(trace.start, _scored_row), "alphabet": list(trace.start.alphabet)}


def _wordpiece_trace_model(trace: Trace) -> dict[str, Any]:
    return {"vocab": list(wordpiece.model_from_trace(trace).vocab)}


def _unigram_step(step: UnigramStep, full: bool) -> dict[str, Any]:
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


def _unigram_start(trace: Trace) -> dict[str, Any]:
    start = trace.start
    return {
        "words": list(start.words),
        "counts": list(start.counts),
        "alphabet": list(start.alphabet),
        "seed": start.seed,
        "frequencies": {row.piece: row.freq for row in start.vocab},
    }


def _unigram_trace_model(trace: Trace) -> dict[str, Any]:
    return _unigram_to_dict(unigram.model_from_trace(trace))


def _scored(rows) -> list[list[Any]]:
    return [[piece, score] for piece, score in rows]


def _sage_step(step: SageStep, full: bool) -> dict[str, Any]:
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


def _sage_start(trace: Trace) -> dict[str, Any]:
    start = trace.start
    return {
        "vocab": list(start.vocab),
        "protected": start.protected,
        "sentences": start.sentences,
        "words": start.words,
        "tokens": start.tokens,
    }


def _sage_trace_model(trace: Trace) -> dict[str, Any]:
    return _sage_to_dict(sage.model_from_trace(trace))


# Per algorithm: how a step, the start state and the final model become plain data.
STEP_FIELDS: dict[str, Callable[[Any, bool], dict[str, Any]]] = {
    "bpe": _bpe_step,
    "wordpiece": _wordpiece_step,
    "unigram": _unigram_step,
    "sage": _sage_step,
}
START_FIELDS: dict[str, Callable[[Trace], dict[str, Any]]] = {
    "bpe": _bpe_start,
    "wordpiece": _wordpiece_start,
    "unigram": _unigram_start,
    "sage": _sage_start,
}
TRACE_MODEL: dict[str, Callable[[Trace], dict[str, Any]]] = {
    "bpe": _bpe_trace_model,
    "wordpiece": _wordpiece_trace_model,
    "unigram": _unigram_trace_model,
    "sage": _sage_trace_model,
}


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
    """The merges of a BPE or WordPiece trace as CSV, one row per merge; ``ties`` counts
    the other pairs that had the same count (BPE) or the same score (WordPiece).

    >>> from subtok_core.bpe import trace_bpe
    >>> from subtok_core.corpus import load
    >>> print(merges_csv(trace_bpe(load("toy:cat-bat"), merges=2)), end="")
    number,left,right,new_symbol,count,ties
    1,a,t,at,20,0
    2,a,g,ag,16,0
    >>> from subtok_core.wordpiece import trace_wordpiece
    >>> print(merges_csv(trace_wordpiece(load("toy:sunflower"), merges=1)), end="")
    number,left,right,new_symbol,score,score_fraction,pair_count,left_count,right_count,ties
    1,s,##u,su,0.3333333333333333,1/3,3,3,3,0
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if trace.algorithm == "wordpiece":
        header = ["score", "score_fraction", "pair_count", "left_count", "right_count"]
    else:
        header = ["count"]
    writer.writerow(["number", "left", "right", "new_symbol", *header, "ties"])
    for step in trace.steps:
        left, right = step.pair
        if trace.algorithm == "wordpiece":
            fraction = fraction_text(step.score_fraction)
            values = [step.score, fraction, step.pair_count, step.left_count, step.right_count]
        else:
            values = [step.count]
        row = [step.number, left, right, step.new_symbol, *values, len(step.tied_with)]
        writer.writerow(row)
    return buffer.getvalue()


def unigram_steps_csv(trace: Trace) -> str:
    """The steps of a Unigram trace as CSV: kind, round, vocab size, loss, pieces removed.

    >>> from subtok_core.unigram import trace_unigram
    >>> from subtok_core.corpus import load
    >>> trace = trace_unigram(load("toy:run-bug"), seed="strict", vocab_size=12, log_base="10")
    >>> print(unigram_steps_csv(trace), end="")
    number,round,kind,vocab_size,loss,removed
    1,1,e,13,66.10893,
    2,1,m,13,66.10893,
    3,1,prune,12,66.10893,ru
    4,2,e,12,65.58267,
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["number", "round", "kind", "vocab_size", "loss", "removed"])
    for step in trace.steps:
        row = [step.number, step.round, step.kind, step.vocab_size, f"{step.loss:.5f}"]
        writer.writerow([*row, " ".join(step.removed)])
    return buffer.getvalue()


# --- models ---------------------------------------------------------------------------


Model = BpeModel | WordPieceModel | UnigramModel | SageModel


def model_to_dict(model: Model) -> dict[str, Any]:
    """A BPE, WordPiece, Unigram or SaGe model as JSON-ready data, tagged with its algorithm.

    >>> model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "none")
    >>> model_to_dict(model)["merges"]
    [['a', 't']]
    >>> model_to_dict(WordPieceModel(("a", "##t", "at"), ("a", "##t")))["algorithm"]
    'wordpiece'
    """
    if isinstance(model, WordPieceModel):
        return _wordpiece_to_dict(model)
    if isinstance(model, UnigramModel):
        return _unigram_to_dict(model)
    if isinstance(model, SageModel):
        return _sage_to_dict(model)
    return {
        "algorithm": "bpe",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.vocab),
        "merges": [list(pair) for pair in model.merges],
    }


def _wordpiece_to_dict(model: WordPieceModel) -> dict[str, Any]:
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


def _unigram_to_dict(model: UnigramModel) -> dict[str, Any]:
    return {
        "algorithm": "unigram",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.pieces),
        "logprobs": list(model.logprobs),
    }


def _sage_to_dict(model: SageModel) -> dict[str, Any]:
    """A SaGe model is its vocabulary (BPE's order), applied by greedy longest prefix."""
    return {
        "algorithm": "sage",
        "format_version": FORMAT_VERSION,
        "marker": model.marker,
        "split_punct": model.split_punct,
        "vocab": list(model.vocab),
    }


def save_model(model: Model, path: str | Path) -> None:
    """Write a model as a JSON file; a path that cannot be written raises ValueError."""
    text = json.dumps(model_to_dict(model), ensure_ascii=False, indent=2) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        reason = err.strerror or str(err)
        raise ValueError(f"Cannot save the model to {str(path)!r}: {reason}.") from None


def load_model(path: str | Path) -> Model:
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


def model_from_dict(data: Any, name: str = "the model") -> Model:
    """Check saved model data field by field and rebuild the model."""
    if not isinstance(data, dict) or "algorithm" not in data:
        raise ValueError(f"{name!r} is not a subtok model: it has no 'algorithm' field.")
    if data["algorithm"] == "wordpiece":
        return _wordpiece_from_dict(data, name)
    if data["algorithm"] == "unigram":
        return _unigram_from_dict(data, name)
    if data["algorithm"] == "sage":
        return _sage_from_dict(data, name)
    if data["algorithm"] != "bpe":
        raise ValueError(
            f"{name!r} holds a {data['algorithm']!r} model; only BPE, WordPiece, Unigram and "
            "SaGe models load here."
        )
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


def _wordpiece_from_dict(data: dict, name: str) -> WordPieceModel:
    """Check a saved WordPiece model field by field and rebuild it."""
    prefix = data.get("prefix")
    if not isinstance(prefix, str) or any(ch.isspace() for ch in prefix):
        raise ValueError(f"{name!r} has prefix {prefix!r}; it should be a string such as '##'.")
    unk = data.get("unk_token", wordpiece.UNK)
    if not isinstance(unk, str) or not unk:
        raise ValueError(f"{name!r} has unk_token {unk!r}; it should be a string such as [UNK].")
    limit = data.get("max_word_chars", wordpiece.MAX_WORD_CHARS)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"{name!r} has max_word_chars {limit!r}; it should be a whole number.")
    split_punct = data.get("split_punct", False)
    if not isinstance(split_punct, bool):
        raise ValueError(f"{name!r} has split_punct {split_punct!r}; it should be true or false.")
    specials = _strings({"special_tokens": data.get("special_tokens", [])}, "special_tokens", name)
    alphabet = _strings(data, "alphabet", name)
    vocab = _strings(data, "vocab", name)
    return WordPieceModel(vocab, alphabet, prefix, specials, split_punct, unk, limit)


def _unigram_from_dict(data: dict, name: str) -> UnigramModel:
    """Check a saved Unigram model field by field and rebuild it."""
    marker = data.get("marker")
    if marker not in ("none", "sow"):
        raise ValueError(f"{name!r} has marker {marker!r}; a Unigram model has none or sow.")
    split_punct = data.get("split_punct", False)
    if not isinstance(split_punct, bool):
        raise ValueError(f"{name!r} has split_punct {split_punct!r}; it should be true or false.")
    vocab = _strings(data, "vocab", name)
    logprobs = data.get("logprobs")
    ok = isinstance(logprobs, list) and len(logprobs) == len(vocab)
    numbers = ok and all(isinstance(v, int | float) and not isinstance(v, bool) for v in logprobs)
    if not numbers or not all(v <= 0 for v in logprobs):
        raise ValueError(
            f"{name!r} is damaged: 'logprobs' should hold one log-probability (<= 0) per piece."
        )
    alphabet = _strings(data, "alphabet", name)
    return UnigramModel(vocab, tuple(float(v) for v in logprobs), alphabet, marker, split_punct)


def _sage_from_dict(data: dict, name: str) -> SageModel:
    """Check a saved SaGe model field by field and rebuild it."""
    marker = data.get("marker")
    if marker != "sow":
        raise ValueError(f"{name!r} has marker {marker!r}; a SaGe model has the sow marker.")
    split_punct = data.get("split_punct", False)
    if not isinstance(split_punct, bool):
        raise ValueError(f"{name!r} has split_punct {split_punct!r}; it should be true or false.")
    vocab = _strings(data, "vocab", name)
    if not vocab or not all(vocab):
        raise ValueError(f"{name!r} is damaged: its 'vocab' should list non-empty pieces.")
    return SageModel(vocab, marker, split_punct)


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
