"""SuperBPE and BoundlessBPE as plain data: the model, the steps, the CSV and the JSON of
``subtok train superbpe|boundless --json`` (the merges in order, each with its stage, and
the final vocabulary), all in GPT-2 letters.
"""

from __future__ import annotations

import csv
import io as _io
import json
from typing import Any

from ..bytebpe.symbols import to_bytes
from ..records import Trace
from .records import SUPER, SuperModel


def model_to_dict(model: SuperModel) -> dict[str, Any]:
    return {
        "algorithm": model.algorithm,
        "pattern": model.pattern,
        "merges": [
            [a, b, "super" if s else "ordinary"] for (a, b), s in zip(model.merges, model.supers)
        ],
        "vocab": list(model.vocab),
    }


def model_from_dict(data: dict, name: str = "the model") -> SuperModel:
    try:
        merges = tuple((str(a), str(b)) for a, b, _ in data["merges"])
        supers = tuple(kind == "super" for _, _, kind in data["merges"])
        for a, b in merges:
            to_bytes(a), to_bytes(b)
        return SuperModel(
            str(data["algorithm"]),
            merges,
            supers,
            tuple(map(str, data["vocab"])),
            str(data["pattern"]),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{name} is not a SuperBPE or BoundlessBPE model: {err}") from None


def step_to_dict(step, full: bool) -> dict[str, Any]:
    out = {"number": step.number, "stage": step.stage, "pair": list(step.pair),
           "count": step.count, "new_symbol": step.new_symbol, "words": step.words,
           "tied_with": [list(p) for p in step.tied_with],
           "rival": step.rival and [list(step.rival[0]), step.rival[1]]}  # fmt: skip
    if full:
        out["pair_table"] = [list(row) for row in step.pair_table]
        out["segmentations"] = [list(s) for s in step.segmentations]
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    start = trace.start
    return {"lines": list(start.words), "counts": list(start.counts),
            "corpus_symbols": start.corpus_symbols}  # fmt: skip


def trace_to_dict(trace: Trace, full: bool = False) -> dict[str, Any]:
    model_vocab = list(trace.start.vocab) + [s.new_symbol for s in trace.steps if s.new_in_vocab]
    return {
        "algorithm": trace.algorithm,
        "params": dict(trace.params),
        "stop_reason": trace.stop_reason,
        "start": start_to_dict(trace),
        "merges": [[*s.pair, s.stage] for s in trace.steps],
        "vocab": model_vocab,
        "steps": [step_to_dict(s, full) for s in trace.steps],
    }


def trace_json(trace: Trace, full: bool = False) -> str:
    return json.dumps(trace_to_dict(trace, full), ensure_ascii=False, indent=1)


def steps_csv(trace: Trace) -> str:
    out = _io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "step",
            "stage",
            "left",
            "right",
            "new_symbol",
            "count",
            "words",
            "vocab_size",
            "corpus_tokens",
        ]
    )
    for s in trace.steps:
        writer.writerow(
            [
                s.number,
                s.stage,
                *s.pair,
                s.new_symbol,
                s.count,
                s.words,
                s.vocab_size,
                s.corpus_symbols,
            ]
        )
    return out.getvalue()


def supers_only(trace: Trace) -> list:
    return [s for s in trace.steps if s.stage == SUPER]
