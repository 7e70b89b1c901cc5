"""The command line: train a tokenizer, encode with a saved model, list the corpora.

Run it as ``subtok ...`` (after installing) or ``python -m subtok_core ...``.

>>> main(["train", "bpe", "--corpus", "toy:cat-bat", "--merges", "2"])
  #  pair        new symbol  count  ties
  1  a + t       at             20
  2  a + g       ag             16
Reached the 2 merges asked for. Vocabulary: 8 symbols.
0

Errors (a bad corpus name, a vocab size below the alphabet, a missing model file) print
``error: <sentence>`` on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from . import bpe, corpus, export
from .steps import Trace

EXIT_ERROR = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="subtok", description="Subword tokenization lab: train, encode, list corpora."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_train(commands)
    _add_encode(commands)
    listing = commands.add_parser("corpora", help="list the built-in corpora and samples")
    listing.set_defaults(run=_run_corpora)
    return parser


def _add_train(commands) -> None:
    train = commands.add_parser("train", help="train a tokenizer on a corpus")
    algorithms = train.add_subparsers(dest="algorithm", metavar="ALGORITHM", required=True)
    bpe_cmd = algorithms.add_parser("bpe", help="byte-pair encoding, one merge at a time")
    bpe_cmd.add_argument("--corpus", required=True, help="toy:NAME, sample:NAME or a .txt path")
    size = bpe_cmd.add_mutually_exclusive_group(required=True)
    size.add_argument("--merges", type=int, help="number of merges to make")
    size.add_argument("--vocab-size", type=int, help="stop when the vocabulary has N symbols")
    bpe_cmd.add_argument(
        "--marker", choices=bpe.MARKERS, default="none", help="word-boundary marker (default: none)"
    )
    bpe_cmd.add_argument(
        "--ties",
        choices=bpe.TIE_RULES,
        default="first",
        help="which pair wins a tie (default: first seen in the corpus)",
    )
    bpe_cmd.add_argument(
        "--split-punct", action="store_true", help="split punctuation off words before counting"
    )
    bpe_cmd.add_argument("--json", action="store_true", help="print the trace as JSON")
    bpe_cmd.add_argument(
        "--full",
        action="store_true",
        help="with --json: add every step's pair table (and segmentations on toys)",
    )
    bpe_cmd.add_argument("--out", metavar="FILE", help="save the trained model as JSON")
    bpe_cmd.set_defaults(run=_run_train_bpe)


def _add_encode(commands) -> None:
    encode = commands.add_parser("encode", help="encode text with a saved model")
    encode.add_argument("--model", required=True, metavar="FILE", help="a model saved by --out")
    encode.add_argument("--trace", action="store_true", help="show each merge applied per word")
    encode.add_argument("text", nargs="+", help="the text to encode")
    encode.set_defaults(run=_run_encode)


# --- commands -------------------------------------------------------------------------


def _run_train_bpe(args: argparse.Namespace) -> None:
    wc = corpus.load(args.corpus, split_punct=args.split_punct)
    # toy corpora keep a snapshot per step, real samples compact steps (see bpe.py)
    trace = bpe.trace_bpe(wc, args.merges, args.vocab_size, args.marker, args.ties)
    model = bpe.model_from_trace(trace, split_punct=args.split_punct)
    if args.out:
        export.save_model(model, args.out)
    if args.json:
        print(export.trace_to_json(trace, full=args.full))
    else:
        print(_merge_table(trace))
        print(f"{trace.stop_reason} Vocabulary: {len(model.vocab)} symbols.")
    if args.out:  # on stderr, so that --json output stays valid JSON
        print(f"Saved the model to {args.out}.", file=sys.stderr)


def _merge_table(trace: Trace) -> str:
    """One merge per line: number, pair, new symbol, count, pairs tied with it."""
    width = max([len(f"{s.pair[0]} + {s.pair[1]}") for s in trace.steps] + [10])
    lines = [f"{'#':>3}  {'pair':<{width}}  {'new symbol':<{width}}  count  ties"]
    for step in trace.steps:
        pair = f"{step.pair[0]} + {step.pair[1]}"
        ties = ", ".join(f"{a} {b}" for a, b in step.tied_with)
        line = f"{step.number:>3}  {pair:<{width}}  {step.new_symbol:<{width}}  {step.count:>5}  "
        lines.append((line + ties).rstrip())
    return "\n".join(lines)


def _run_encode(args: argparse.Namespace) -> None:
    model = export.load_model(args.model)
    encoded = bpe.segment(model, " ".join(args.text))
    if args.trace:
        for word in encoded.words:
            print(f"{word.word}: {' '.join(word.initial)}")
            for number, (a, b), symbols in word.applied:
                print(f"  merge {number:>3} ({a} + {b}): {' '.join(symbols)}")
    print(" ".join(encoded.pieces))


def _run_corpora(args: argparse.Namespace) -> None:
    infos = corpus.list_corpora()
    width = max(len(info.name) for info in infos)
    for info in infos:
        print(f"{info.name:<{width}}  {info.title}")
        print(f"{'':<{width}}  source: {info.source}")


# --- entry point ----------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run one command, return the exit status (0 ok, 2 error)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed usage and its own "error:" line
        return stop.code if isinstance(stop.code, int) else EXIT_ERROR
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        args.run(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # `subtok ... | head`: the reader left, which is no error
        _silence_stdout()
        return 0
    except OSError as err:
        print(f"error: {err.strerror or err}.", file=sys.stderr)
        return EXIT_ERROR
    return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # stdout is not a real file (a test's capture): nothing will flush it


if __name__ == "__main__":
    raise SystemExit(main())
