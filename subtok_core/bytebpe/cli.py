"""``subtok train bytebpe``: byte-level BPE's options and its trace as a table.

In the table, symbols are written in the run's ``--byte-display``: ``hex`` puts each in
brackets (so a space inside shows), ``gpt2`` writes GPT-2's letters (space = Ġ).

>>> from subtok_core.bytebpe.train import trace_bytebpe
>>> print(table(trace_bytebpe(["the cat, the hat"], merges=2)))
  #  pair        new symbol  count  ties
  1  [t] + [h]   [th]            2  [h] [e], [a] [t]
  2  [th] + [e]  [the]           2  [a] [t]
"""

from __future__ import annotations

from .. import limits, stream_cli
from ..merging import TIE_RULES
from ..records import Encoded, Trace
from .encode import encode_text, replay_lines, replay_text
from .io import trace_json  # noqa: F401  (cli.py prints --json through it: --byte-display)
from .patterns import PATTERNS
from .ranks import REPLAY_TOKENIZERS, for_tokenizer
from .symbols import STYLES, show
from .train import Chunked, load

# the command's line in --help, and what --json --full adds to each step
HELP = "byte-level BPE as GPT models train it: a regex pre-split, then merges of bytes"
FULL_HELP = "add every step's pair table (and the chunks' symbols on toys)"
CORPUS_HELP = (
    "toy:NAME, sample:NAME or a .txt path; a file is read as it is, its line breaks "
    "included: they are bytes like any other. A file of any size is read in pieces by "
    "--workers processes"
)


def add(cmd) -> None:
    size = cmd.add_mutually_exclusive_group(required=True)
    size.add_argument(
        "--merges", type=int, help=f"number of merges to make ({limits.describe('merges')})"
    )
    size.add_argument(
        "--vocab-size", type=int,
        help="stop when the vocabulary has N symbols, the 256 bytes included "
        f"({limits.describe('vocab_size')})",
    )  # fmt: skip
    cmd.add_argument(
        "--pattern", choices=PATTERNS, default="gpt2",
        help="how the text is cut into chunks before merging: GPT-2's regex, cl100k_base's, "
        "or none (words split at whitespace, as in the BPE lesson); default gpt2",
    )  # fmt: skip
    cmd.add_argument(
        "--ties", choices=TIE_RULES, default="first",
        help="which pair wins a tie (default: first seen in the corpus)",
    )  # fmt: skip
    cmd.add_argument(
        "--byte-display", choices=STYLES, default="hex",
        help="how bytes are written in the table and the JSON steps: hex (printable "
        "characters as themselves, other bytes as <E2>) or gpt2 (GPT-2's byte letters, as "
        "Hugging Face tokenizers writes merges); saved models always use gpt2",
    )  # fmt: skip
    stream_cli.add_options(cmd)


def source(args):
    """What it trains on: the chunks of a .txt file, streamed (stream_cli), or the lines of
    a built-in corpus; the text cut at each --special token first."""
    from ..corpus.stream import Split, cut_at

    specials = tuple(args.special)
    if stream_cli.is_file(args.corpus):
        split = Split(args.pattern, specials=specials)
        return Chunked(stream_cli.count(args.corpus, split, args.workers), args.pattern)
    lines = load(args.corpus)
    if not specials:
        return lines
    cut = cut_at(Split(specials=specials).specials)
    return tuple(piece for line in lines for piece in cut(line) if piece)


def params(args) -> dict:
    return {"merges": args.merges, "vocab_size": args.vocab_size, "pattern": args.pattern,
            "ties": args.ties, "progress": stream_cli.merge_progress()}  # fmt: skip


def display(args) -> dict:
    """How the table and the JSON write bytes (--byte-display): not a training parameter."""
    return {"style": args.byte_display}


def table(trace: Trace, style: str = "hex") -> str:
    """One merge per line: number, pair, new symbol, count, pairs tied with it."""

    def sym(symbol: str) -> str:
        return show(symbol, "gpt2") if style == "gpt2" else f"[{show(symbol, 'hex')}]"

    rows = [(f"{sym(s.pair[0])} + {sym(s.pair[1])}", sym(s.new_symbol), s) for s in trace.steps]
    width = max([len(pair) for pair, _, _ in rows] + [10])
    lines = [f"{'#':>3}  {'pair':<{width}}  {'new symbol':<{width}}  count  ties"]
    for pair, new, step in rows:
        ties = ", ".join(f"{sym(a)} {sym(b)}" for a, b in step.tied_with)
        line = f"{step.number:>3}  {pair:<{width}}  {new:<{width}}  {step.count:>5}  "
        lines.append((line + ties).rstrip())
    return "\n".join(lines)


# --- subtok encode --tokenizer NAME --replay ----------------------------------------------

REPLAY_HELP = (
    f"with --tokenizer {' or '.join(REPLAY_TOKENIZERS)}: encode with our own byte-level "
    "encoder on the tokenizer's ranks instead of its library (the same tokens and ids); "
    "without --json, print each chunk's merges rank by rank"
)

REPLAY_NEEDS_TOKENIZER = (
    "--replay runs our own encoder on a pretrained tokenizer's ranks: give --tokenizer "
    f"{' or '.join(REPLAY_TOKENIZERS)}. A saved model shows its merges with --trace."
)


def replay(tokenizer: str | None, text: str, show_merges: bool = True) -> Encoded:
    """``subtok encode --tokenizer NAME --replay``: our encoder on the tokenizer's ranks.
    Prints every chunk's merges unless `show_merges` is False (--json); returns the
    tokens, which the caller prints as it prints the library's.

    >>> coded = replay("cl100k_base", "hi 😀", show_merges=True)
    'hi': [h][i]
      rank 6151  [h] + [i]  -> [hi]
    ' 😀': [ ][<F0>][<9F>][<98>][<80>]
      rank 9468  [<F0>] + [<9F>]  -> [ ][<F0 9F>][<98>][<80>]
      rank 11410  [ ] + [<F0 9F>]  -> [ <F0 9F>][<98>][<80>]
      rank 27623  [ <F0 9F>] + [<98>]  -> [ <F0 9F 98>][<80>]
      rank 91416  [ <F0 9F 98>] + [<80>]  -> [ 😀]
    >>> coded.ids  # tiktoken's encode_ordinary("hi 😀") too
    (6151, 91416)
    """
    if tokenizer is None:
        raise ValueError(REPLAY_NEEDS_TOKENIZER)
    encoder = for_tokenizer(tokenizer)
    if show_merges:
        for chunk in replay_text(encoder, text):
            print("\n".join(replay_lines(chunk, "rank")))
    return encode_text(encoder, text)
