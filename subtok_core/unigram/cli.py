"""``subtok train unigram``: the Unigram options (both variants) and its trace as a table.

>>> from subtok_core.corpus import load
>>> from subtok_core.unigram import trace_unigram
>>> trace = trace_unigram(load("toy:run-bug"), seed="strict", vocab_size=12, log_base="10")
>>> print(table(trace))
  #  round  kind    pieces     loss  removed
  1      1  E           13   66.109
  2      1  M           13   66.109
  3      1  prune       12   66.109  ru
  4      2  E           12   65.583
"""

from __future__ import annotations

from .. import limits
from ..merging import load_words
from ..records import Trace
from .seed import SEEDS
from .train import VARIANTS

# the command's line in --help, and what --json --full adds to each step
HELP = "Unigram LM: prune a big seed vocabulary"
FULL_HELP = "add frequencies"
source = load_words  # what it trains on: the word counts of --corpus


def add(cmd) -> None:
    cmd.add_argument("--variant", choices=VARIANTS, default="textbook")
    cmd.add_argument(
        "--vocab-size", type=int,
        help=f"stop at N pieces (default: the characters; {limits.describe('vocab_size')})",
    )  # fmt: skip
    seed = cmd.add_mutually_exclusive_group()
    seed.add_argument("--seed", choices=SEEDS, default="all", help="textbook seed")
    seed.add_argument(
        "--strict", dest="seed", action="store_const", const="strict",
        help="seed with strict substrings only, as the 001 slides",
    )  # fmt: skip
    cmd.add_argument(
        "--seed-size", type=int,
        help=f"pieces in a 'frequent' (or EM) seed ({limits.describe('seed_size')})",
    )  # fmt: skip
    cmd.add_argument("--max-piece-len", type=int, help="longest seed piece, in characters")
    cmd.add_argument("--log-base", choices=("e", "10"), default="e", help="textbook loss base")
    cmd.add_argument(
        "--prune-percent", type=float, default=10.0, help="textbook: %% pruned per round"
    )
    cmd.add_argument(
        "--remove", action="append", default=[], metavar="PIECE",
        help="textbook: remove this piece in the next round (repeat for later rounds)",
    )  # fmt: skip
    cmd.add_argument("--shrink", type=float, help="EM: share of pieces kept per round (0.75)")
    cmd.add_argument(
        "--em-iterations", type=int,
        help=f"EM: E/M pairs per round (2; {limits.describe('em_iterations')})",
    )  # fmt: skip
    cmd.add_argument(
        "--split-punct", action="store_true", help="split punctuation off words before counting"
    )


def params(args) -> dict:
    return {
        "variant": args.variant,
        "vocab_size": args.vocab_size,
        "seed": args.seed,
        "seed_size": args.seed_size,
        "max_piece_len": args.max_piece_len,
        "prune_percent": args.prune_percent,
        "choices": tuple(args.remove),
        "log_base": args.log_base,
        "shrinking_factor": args.shrink,
        "em_iterations": args.em_iterations,
    }


def table(trace: Trace) -> str:
    """One E, M or prune step per line: round, kind, pieces left, loss, pieces removed."""
    lines = [f"{'#':>3}  round  kind    pieces  {'loss':>7}  removed"]
    for step in trace.steps:
        removed = ", ".join(step.removed[:8]) + (" ..." if len(step.removed) > 8 else "")
        kind = step.kind.upper() if len(step.kind) == 1 else step.kind
        line = f"{step.number:>3}  {step.round:>5}  {kind:<6}  {step.vocab_size:>6}  "
        lines.append(f"{line}{step.loss:>7.3f}  {removed}".rstrip())
    return "\n".join(lines)
