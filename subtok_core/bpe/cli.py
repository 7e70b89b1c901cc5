"""``subtok train bpe``: BPE's own options and its trace as a table.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> print(table(trace_bpe(load("toy:low-lower"), merges=2, marker="eow")))
  #  pair        new symbol  count  ties
  1  e + s       es              9  s t, t </w>
  2  es + t      est             9  t </w>
"""

from __future__ import annotations

from .. import stream_cli
from ..merging import add_merge_options, load_words
from ..records import Trace
from .records import MARKERS
from .state import TOP_PAIRS

# the command's line in --help, and what --json --full adds to each step
HELP = "byte-pair encoding, one merge at a time"
FULL_HELP = "add every step's pair table (and segmentations on toys)"
CORPUS_HELP = (
    "toy:NAME, sample:NAME or a .txt path; a file is cut into words at whitespace (line "
    "breaks included), and merges stay inside a word. A file of any size is read in "
    "pieces by --workers processes"
)


def source(args):
    """What it trains on: the word counts of --corpus; a file streamed (stream_cli), the
    text cut at each --special token first."""
    from ..corpus import WordCounts, load_lines
    from ..corpus.stream import Split, count_text

    split = Split(None, args.split_punct, tuple(args.special))
    if stream_cli.is_file(args.corpus):
        return stream_cli.count(args.corpus, split, args.workers)
    if not split.specials:
        return load_words(args)
    counts, _ = count_text("\n".join(load_lines(args.corpus)), split)
    if not counts:
        raise ValueError("The corpus is empty: give it at least one word.")
    return WordCounts(tuple(counts), tuple(counts.values()), args.corpus)


def add(cmd) -> None:
    add_merge_options(cmd)
    cmd.add_argument(
        "--marker", choices=MARKERS, default="none",
        help="word-boundary marker (default: none, as the course's first BPE examples; the "
        "Compare page trains its BPE with sow, ▁ before each word, as SentencePiece)",
    )  # fmt: skip
    stream_cli.add_options(cmd)


def params(args) -> dict:
    # toy corpora keep a snapshot per step, real samples compact steps (see train.py),
    # with no pair table unless --full prints it
    return {"merges": args.merges, "vocab_size": args.vocab_size, "marker": args.marker,
            "ties": args.ties, "table_rows": TOP_PAIRS if args.full else 0,
            "progress": stream_cli.merge_progress()}  # fmt: skip


def table(trace: Trace) -> str:
    """One merge per line: number, pair, new symbol, count, pairs tied with it."""
    width = max([len(f"{s.pair[0]} + {s.pair[1]}") for s in trace.steps] + [10])
    lines = [f"{'#':>3}  {'pair':<{width}}  {'new symbol':<{width}}  count  ties"]
    for step in trace.steps:
        pair = f"{step.pair[0]} + {step.pair[1]}"
        ties = ", ".join(map(" ".join, step.tied_with))  # "a b, c d" (a late step ties hundreds)
        line = f"{step.number:>3}  {pair:<{width}}  {step.new_symbol:<{width}}  {step.count:>5}  "
        lines.append((line + ties).rstrip())
    return "\n".join(lines)
