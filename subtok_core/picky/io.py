"""Picky BPE traces and models as plain data (JSON, CSV) and back.

>>> from subtok_core.corpus import load
>>> from subtok_core.picky.train import trace_picky
>>> print(steps_csv(trace_picky(load("toy:low-lower"), vocab_size=17)), end="")
number,kind,symbol,parts,count,ios,vocab_size,size
1,merge,es,e s,9,0.529 1.000,12,16
2,merge,est,es t,9,1.000 1.000,13,17
3,split,es,e s,0,1.000,12,16
4,merge,▁l,▁ l,7,0.438 1.000,13,17
"""

from __future__ import annotations

from typing import Any

from ..plain import FORMAT_VERSION, csv_text, flag, pieces, snapshot_fields, start_fields
from ..records import Trace
from .records import MERGE, SPLIT, PickyModel, PickyStep


def _check(check) -> dict[str, Any]:
    return {"part": check.part, "merged": check.merged, "before": check.before,
            "ios": round(check.ios, 6), "removed": check.removed}  # fmt: skip


def step_to_dict(step: PickyStep, full: bool) -> dict[str, Any]:
    """One event as plain data: a merge's pair, count, ties and IoS per part; a split's
    token, the parts it falls back to and the merge that removed it."""
    out: dict[str, Any] = {"kind": step.kind, "symbol": step.symbol, "parts": list(step.parts)}
    out["count"] = step.count
    if step.kind == MERGE:
        out["tied_with"] = [list(pair) for pair in step.tied_with]
        out["restored"] = step.restored
    else:
        out["after_merge"] = step.after
    out["ios"] = [_check(c) for c in step.checks]
    out["size"] = step.size
    if full:
        out.update(snapshot_fields(step, list))
    return out


def start_to_dict(trace: Trace) -> dict[str, Any]:
    return start_fields(trace.start, list)


def steps_csv(trace: Trace) -> str:
    """One row per event; ``ios`` lists the IoS of each part the event judged."""
    rows = [
        [s.number, s.kind, s.symbol, " ".join(s.parts), s.count,
         " ".join(f"{c.ios:.3f}" for c in s.checks), s.vocab_size, s.size]
        for s in trace.steps
    ]  # fmt: skip
    header = ["number", "kind", "symbol", "parts", "count", "ios", "vocab_size", "size"]
    return csv_text(header, rows)


def model_to_dict(model: PickyModel) -> dict[str, Any]:
    return {
        "algorithm": "picky",
        "format_version": FORMAT_VERSION,
        "split_punct": model.split_punct,
        "alphabet": list(model.alphabet),
        "vocab": list(model.vocab),
        "events": [[kind, symbol, list(parts)] for kind, symbol, parts in model.events],
    }


def model_from_dict(data: dict, name: str = "the model") -> PickyModel:
    """Check a saved Picky BPE model field by field and rebuild it."""
    split_punct = flag(data, "split_punct", name)
    alphabet = pieces(data, "alphabet", name)
    vocab = pieces(data, "vocab", name)
    raw = data.get("events")
    events = []
    for event in raw if isinstance(raw, list) else [None]:
        ok = (
            isinstance(event, list) and len(event) == 3 and event[0] in (MERGE, SPLIT)
            and isinstance(event[1], str) and isinstance(event[2], list)
            and all(isinstance(p, str) and p for p in event[2])
            and "".join(event[2]) == event[1] and len(event[2]) >= 2
            and (event[0] == SPLIT or len(event[2]) == 2)
        )  # fmt: skip
        if not ok:
            raise ValueError(
                f"{name!r} is damaged: 'events' should be a list of [kind, symbol, parts], "
                "kind merge or split, the parts spelling the symbol (two for a merge)."
            )
        events.append((event[0], event[1], tuple(event[2])))
    return PickyModel(tuple(events), vocab, alphabet, "sow", split_punct)
