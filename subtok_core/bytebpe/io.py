"""Byte-level traces and models as plain data (JSON, CSV) and back.

A model file always spells symbols in GPT-2 letters, as Hugging Face's tokenizer.json and
merges.txt do: that spelling gives every byte string one name and back. A trace's steps
are written in the byte display the reader asks for (``style``): GPT-2 letters, or "hex"
(printable characters as themselves, other bytes as <hex>), which reads better but is not
always reversible (a text "<0A>" and a line break look alike).

>>> from subtok_core.bytebpe.train import model_from_trace, trace_bytebpe
>>> trace = trace_bytebpe(["é é"], merges=1)
>>> step = trace_to_dict(trace, style="gpt2")["steps"][0]
>>> step["pair"], step["new_symbol"]
(['Ã', '©'], 'Ã©')
>>> step = trace_to_dict(trace)["steps"][0]
>>> step["pair"], step["new_symbol"], trace_to_dict(trace)["model"]["merges"]
(['<C3>', '<A9>'], 'é', [['Ã', '©']])
>>> model_from_dict(model_to_dict(model_from_trace(trace))) == model_from_trace(trace)
True
"""

from __future__ import annotations

import json
from typing import Any

from ..plain import FORMAT_VERSION, check_merges, csv_text, pairs, pieces, trace_fields
from ..records import Trace
from .patterns import PATTERNS
from .records import ByteBpeModel
from .symbols import BASE_SYMBOLS, LETTER_BYTES, STYLES, show
from .train import model_from_trace


def step_to_dict(step, full: bool, style: str = "gpt2") -> dict[str, Any]:
    """One merge as plain data, symbols in `style`; ``full`` adds the step's snapshot."""
    out: dict[str, Any] = {
        "pair": [show(s, style) for s in step.pair],
        "count": step.count,
        "new_symbol": show(step.new_symbol, style),
        "tied_with": [[show(s, style) for s in pair] for pair in step.tied_with],
    }
    if full:
        out.update(_snapshot(step, style))
        out["vocab_size"] = step.vocab_size
    return out


def _snapshot(record, style: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "pair_table": [[show(a, style), show(b, style), c] for a, b, c in record.pair_table],
        "corpus_symbols": record.corpus_symbols,
    }
    if record.segmentations is not None:  # compact traces keep no segmentation
        out["segmentations"] = [[show(s, style) for s in seg] for seg in record.segmentations]
    return out


def start_to_dict(trace: Trace, style: str = "gpt2") -> dict[str, Any]:
    """The chunks (as text), their counts, the 256 bytes and the first pair table."""
    start = trace.start
    out = {"words": list(start.words), "counts": list(start.counts),
           "vocab": [show(s, style) for s in start.vocab]}  # fmt: skip
    return {**out, **_snapshot(start, style)}


def check_display(style: str) -> str:
    """`style` if it is a byte display (hex, gpt2), else a ValueError that names them."""
    if style not in STYLES:
        raise ValueError(f"Unknown byte display {style!r}; choose one of {', '.join(STYLES)}.")
    return style


def trace_to_dict(trace: Trace, full: bool = False, style: str = "hex") -> dict[str, Any]:
    """``export.trace_to_dict`` with the steps in the byte display `style`, which the
    parameters name (``byte_display``) so the file says how to read its bytes."""
    check_display(style)
    out = trace_fields(
        trace, full, lambda: start_to_dict(trace, style),
        lambda step: step_to_dict(step, full, style), model_to_dict(model_from_trace(trace)),
    )  # fmt: skip
    out["params"]["byte_display"] = style
    return out


def trace_json(trace: Trace, full: bool = False, style: str = "hex") -> str:
    """trace_to_dict as indented JSON (what ``subtok train bytebpe --json`` prints)."""
    return json.dumps(trace_to_dict(trace, full, style), ensure_ascii=False, indent=2)


def steps_csv(trace: Trace, style: str = "hex") -> str:
    """One row per merge in the byte display `style`; ``ties`` counts the other pairs
    that had the same count."""
    check_display(style)
    rows = [
        [s.number, *(show(x, style) for x in (*s.pair, s.new_symbol)), s.count, len(s.tied_with)]
        for s in trace.steps
    ]
    return csv_text(["number", "left", "right", "new_symbol", "count", "ties"], rows)


def model_to_dict(model: ByteBpeModel) -> dict[str, Any]:
    return {
        "algorithm": "bytebpe",
        "format_version": FORMAT_VERSION,
        "pattern": model.pattern,
        "vocab": list(model.vocab),
        "merges": [list(pair) for pair in model.merges],
    }


def model_from_dict(data: dict, name: str = "the model") -> ByteBpeModel:
    """Check a saved byte-level model field by field and rebuild it."""
    pattern = data.get("pattern")
    if pattern not in PATTERNS:
        raise ValueError(
            f"{name!r} has pattern {pattern!r}; it should be one of {', '.join(PATTERNS)}."
        )
    vocab = pieces(data, "vocab", name)
    merges = pairs(data, name)
    if vocab[:256] != BASE_SYMBOLS:
        raise ValueError(
            f"{name!r} is damaged: its vocabulary should start with the 256 bytes in GPT-2's order."
        )
    stray = next((s for s in vocab if any(ch not in LETTER_BYTES for ch in s)), None)
    if stray is not None:
        raise ValueError(
            f"{name!r} is damaged: the piece {stray!r} is not written in GPT-2's byte letters."
        )
    check_merges(merges, vocab, name)  # merges join pieces it has into one it has
    return ByteBpeModel(merges, vocab, pattern)
