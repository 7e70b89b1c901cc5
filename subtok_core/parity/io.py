"""Parity-aware BPE traces and models as plain data (JSON, CSV) and back.

>>> from subtok_core.parity.trace import load, trace_parity
>>> dev = {"en": "low newest widest", "xx": "hug pun bun"}
>>> trace = trace_parity(load("en=toy:low-lower xx=toy:hug-pug"), dev, merges=2)
>>> print(steps_csv(trace), end="")
number,language,dev_before,pair,new_symbol,counts,dev_after,vocab_size
1,en,15 9,s t,st,9 0,13 9,16
2,en,13 9,e st,est,9 0,11 9,17
"""

from __future__ import annotations

from typing import Any

from ..bpe import io as bpe_io
from ..plain import csv_text
from ..records import Trace
from .records import ParityModel, ParityRecord


def step_to_dict(step: ParityRecord, full: bool) -> dict[str, Any]:
    """One merge as plain data: the language served (null: global), the dev tokens per
    language before and after, the pair, its count per language, its ties."""
    out: dict[str, Any] = {
        "language": step.language,
        "dev_before": list(step.dev_before),
        "pair": list(step.pair),
        "new_symbol": step.new_symbol,
        "counts": list(step.counts),
        "tied_with": [list(pair) for pair in step.tied_with],
        "dev_after": list(step.dev_after),
        "vocab_size": step.vocab_size,
    }
    if full:
        out["pair_table"] = [list(row) for row in step.pair_table]
        out["corpus_symbols"] = step.corpus_symbols
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    start = trace.start
    return {
        "languages": list(start.languages),
        "dev": dict(zip(start.languages, start.dev_texts)),
        "dev_lengths": list(start.dev_lengths),
        "vocab": list(start.vocab),
        "corpus_symbols": start.corpus_symbols,
    }


def steps_csv(trace: Trace) -> str:
    """One row per merge; lists per language in the order of ``start.languages``."""
    rows = [
        [s.number, s.language or "(global)", " ".join(map(str, s.dev_before)), " ".join(s.pair),
         s.new_symbol, " ".join(map(str, s.counts)), " ".join(map(str, s.dev_after)),
         s.vocab_size]
        for s in trace.steps
    ]  # fmt: skip
    header = ["number", "language", "dev_before", "pair", "new_symbol", "counts", "dev_after",
              "vocab_size"]  # fmt: skip
    return csv_text(header, rows)


def model_to_dict(model: ParityModel) -> dict[str, Any]:
    return {**bpe_io.model_to_dict(model), "algorithm": "parity"}


def model_from_dict(data: dict, name: str = "the model") -> ParityModel:
    """Checked as a BPE model is (the same fields), rebuilt as parity-aware BPE's."""
    bpe = bpe_io.model_from_dict(data, name)
    return ParityModel(bpe.merges, bpe.vocab, bpe.alphabet, bpe.marker, bpe.split_punct)
