"""``subtok train superbpe``: SuperBPE's options and its trace as a table.

>>> from subtok_core.superbpe.steps import trace_superbpe
>>> print(table(trace_superbpe(["the cat the cat", "the cat"], merges=6, supermerges=1))
...       .splitlines()[-1])
  7  super     ["the"] + [" cat"]  ["the cat"]      2      2
"""

from __future__ import annotations

from .. import limits
from ..bytebpe.symbols import show
from ..bytebpe.train import load
from ..records import Trace
from .io import trace_json  # noqa: F401  (cli.py prints --json through it)
from .merging import TIE_RULES
from .presplit import PATTERNS

HELP = "SuperBPE: ordinary byte-level BPE to a transition point, then supermerges across spaces"
FULL_HELP = "add every step's pair table and the first lines' tokens"
CORPUS_HELP = "toy:NAME, sample:NAME or a .txt path (one document per line)"


def add_common(cmd, merges_help: str) -> None:
    cmd.add_argument("--merges", type=int, required=True,
                     help=f"{merges_help} ({limits.describe('merges')})")  # fmt: skip
    cmd.add_argument(
        "--pattern", choices=PATTERNS, default="o200k",
        help="the pre-split: GPT-4o's o200k (default, as the reference), gpt2 or cl100k",
    )  # fmt: skip
    cmd.add_argument(
        "--ties", choices=TIE_RULES, default="smallest",
        help="which pair wins a tie: smallest (default, BoundlessBPE's reference: the "
        "smallest pair comparing bytes) or first (the pair seen first)",
    )  # fmt: skip


def add(cmd) -> None:
    add_common(cmd, "ordinary merges before the transition point")
    cmd.add_argument("--supermerges", type=int, required=True,
                     help="supermerges after the transition point")  # fmt: skip
    cmd.add_argument(
        "--max-words", type=int, default=0,
        help="the most words (pre-tokens) one token may join: 0 (default) for no limit, as "
        "the reference trainer; the SuperBPE paper uses 4",
    )  # fmt: skip


def source(args):
    """What it trains on: the lines of --corpus, each line one document."""
    return load(args.corpus, allow_paths=True)


def params(args) -> dict:
    return {"merges": args.merges, "supermerges": args.supermerges, "pattern": args.pattern,
            "ties": args.ties, "max_words": args.max_words}  # fmt: skip


def table(trace: Trace) -> str:
    """One merge per line: number, stage, pair, new token, count, words joined."""

    def sym(symbol: str) -> str:
        return f'["{show(symbol, "hex")}"]'

    rows = [(f"{sym(s.pair[0])} + {sym(s.pair[1])}", sym(s.new_symbol), s) for s in trace.steps]
    width = max([len(pair) for pair, _, _ in rows] + [10])
    wide = max([len(new) for _, new, _ in rows] + [10])
    lines = [f"{'#':>3}  {'stage':<8}  {'pair':<{width}}  {'new token':<{wide}}  count  words"]
    for pair, new, s in rows:
        lines.append(
            f"{s.number:>3}  {s.stage:<8}  {pair:<{width}}  {new:<{wide}}  {s.count:>5}"
            f"  {s.words:>5}"
        )
    return "\n".join(lines)
