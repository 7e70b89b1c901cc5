"""``subtok train wordpiece``: WordPiece's own options and its trace as a table.

>>> from subtok_core.corpus import load
>>> from subtok_core.wordpiece import trace_wordpiece
>>> print(table(trace_wordpiece(load("toy:sunflower"), merges=3)))
  #  pair        new symbol  score  = pair / (left x right)  ties
  1  s + ##u     su           1/3   = 3 / (3 x 3)
  2  ##e + ##r   ##er         1/4   = 3 / (4 x 3)            ##e ##d
  3  ##e + ##d   ##ed         1/1   = 1 / (1 x 1)
"""

from __future__ import annotations

from ..merging import add_merge_options, load_words
from ..records import Trace
from .records import PREFIX, fraction_text

# the command's line in --help, and what --json --full adds to each step
HELP = "WordPiece, merging the best-scoring pair"
FULL_HELP = "add every step's scored pair table (and segmentations on toys)"
source = load_words  # what it trains on: the word counts of --corpus


def add(cmd) -> None:
    add_merge_options(cmd)
    cmd.add_argument(
        "--prefix", default=PREFIX, help="prefix of word-internal pieces (default: ##)"
    )
    cmd.add_argument(
        "--special-tokens",
        action="store_true",
        help="put [PAD] [UNK] [CLS] [SEP] [MASK] at the front of the vocabulary",
    )


def params(args) -> dict:
    return {"merges": args.merges, "vocab_size": args.vocab_size, "prefix": args.prefix,
            "ties": args.ties, "special_tokens": args.special_tokens}  # fmt: skip


def table(trace: Trace) -> str:
    """One merge per line: number, pair, new symbol, exact score, its counts, ties."""
    width = max([len(f"{s.pair[0]} + {s.pair[1]}") for s in trace.steps] + [10])
    head = f"{'#':>3}  {'pair':<{width}}  {'new symbol':<{width}}  score  "
    lines = [head + "= pair / (left x right)  ties"]
    for step in trace.steps:
        pair = f"{step.pair[0]} + {step.pair[1]}"
        score = fraction_text(step.score_fraction)
        counts = f"= {step.pair_count} / ({step.left_count} x {step.right_count})"
        ties = ", ".join(f"{a} {b}" for a, b in step.tied_with)
        line = f"{step.number:>3}  {pair:<{width}}  {step.new_symbol:<{width}}  {score:^5}  "
        lines.append(f"{line}{counts:<23}  {ties}".rstrip())
    return "\n".join(lines)
