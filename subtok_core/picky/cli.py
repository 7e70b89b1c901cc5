"""``subtok train picky``: Picky BPE's options and its events as a table.

>>> from subtok_core.corpus import load
>>> from subtok_core.picky.train import trace_picky
>>> print(table(trace_picky(load("toy:low-lower"), vocab_size=17)))
  #  event  symbol  parts   count  IoS per part
  1  merge  es      e + s       9  e 0.53, s 1.00
  2  merge  est     es + t      9  es 1.00 removed, t 1.00
  3  split  es      e + s       0  es 1.00
  4  merge  ▁l      ▁ + l       7  ▁ 0.44, l 1.00
"""

from __future__ import annotations

from .. import limits
from ..merging import load_words
from ..records import Trace
from .records import MERGE
from .train import SPECIALS, TOP_PAIRS

# the command's line in --help, and what --json --full adds to each step
HELP = "Picky BPE (Chizhov et al., 2024): BPE that removes a part whose IoS exceeds τ"
FULL_HELP = "add every merge's pair table (and segmentations on toys)"
CORPUS_HELP = (
    "toy:NAME, sample:NAME or a .txt path; a file is cut into words at whitespace, and "
    "each word starts with ▁"
)
source = load_words  # what it trains on: the word counts of --corpus


def add(cmd) -> None:
    cmd.add_argument(
        "--vocab-size", type=int, required=True,
        help="stop when the vocabulary reaches N, counted as the authors' trainer counts it: "
        f"its {SPECIALS} special tokens, the characters (▁ included), +1 per merge, -1 per "
        f"split ({limits.describe('vocab_size')})",
    )  # fmt: skip
    cmd.add_argument(
        "--threshold", type=float, default=0.9,
        help="τ: a part whose IoS (the share of its occurrences a merge took) exceeds τ is "
        "removed; above 0, at most 1 (1 removes nothing: plain BPE); default 0.9",
    )  # fmt: skip
    cmd.add_argument(
        "--split-punct",
        action="store_true",
        help="split punctuation off as words of its own before training",
    )


def params(args) -> dict:
    return {"vocab_size": args.vocab_size, "threshold": args.threshold,
            "table_rows": TOP_PAIRS if args.full else 0}  # fmt: skip


def table(trace: Trace) -> str:
    """One event per line: number, merge or split, symbol, parts, count, IoS per part."""
    rows = []
    for s in trace.steps:
        ios = ", ".join(
            f"{c.part} {c.ios:.2f}" + (" removed" if c.removed and s.kind == MERGE else "")
            for c in s.checks
        )
        rows.append((s.number, s.kind, s.symbol, " + ".join(s.parts), s.count, ios))
    w_sym = max([len(r[2]) for r in rows] + [6])
    w_parts = max([len(r[3]) for r in rows] + [5])
    lines = [f"{'#':>3}  event  {'symbol':<{w_sym}}  {'parts':<{w_parts}}  count  IoS per part"]
    for number, kind, symbol, parts, count, ios in rows:
        lines.append(
            f"{number:>3}  {kind:<5}  {symbol:<{w_sym}}  {parts:<{w_parts}}  {count:>5}  {ios}"
        )
    return "\n".join(lines)
