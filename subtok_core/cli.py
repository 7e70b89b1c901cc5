"""The command line: train a tokenizer, encode with a saved model, list the corpora.

Run it as ``subtok ...`` (after installing) or ``python -m subtok_core ...``. Every
algorithm of the registry is a ``subtok train NAME`` command with its own options.

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
import dataclasses
import io
import os
import sys
from collections.abc import Sequence

from . import corpus, export, registry
from .records import Algorithm

EXIT_ERROR = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="subtok", description="Subword tokenization lab: train, encode, list corpora."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    train = commands.add_parser("train", help="train a tokenizer on a corpus")
    algorithms = train.add_subparsers(dest="algorithm", metavar="ALGORITHM", required=True)
    for algo in registry.ALGORITHMS.values():
        cmd = algorithms.add_parser(algo.name, help=algo.cli.HELP)
        cmd.add_argument("--corpus", required=True, help="toy:NAME, sample:NAME or a .txt path")
        algo.cli.add(cmd)
        cmd.add_argument("--json", action="store_true", help="print the trace as JSON")
        cmd.add_argument("--full", action="store_true", help=f"with --json: {algo.cli.FULL_HELP}")
        cmd.add_argument("--out", metavar="FILE", help="save the trained model as JSON")
        cmd.set_defaults(run=_run_train, algo=algo)
    _add_encode(commands)
    listing = commands.add_parser("corpora", help="list the built-in corpora and samples")
    listing.set_defaults(run=_run_corpora)
    return parser


def _add_encode(commands) -> None:
    encode = commands.add_parser("encode", help="encode text with a saved model")
    encode.add_argument("--model", required=True, metavar="FILE", help="a model saved by --out")
    encode.add_argument(
        "--trace",
        action="store_true",
        help="show each merge applied (BPE), each longest-match attempt (WordPiece), the "
        "Viterbi path with log-probabilities (Unigram) or the greedy pieces (SaGe) per word",
    )
    encode.add_argument("text", nargs="+", help="the text to encode")
    encode.set_defaults(run=_run_encode)


# --- commands -------------------------------------------------------------------------


def _run_train(args: argparse.Namespace) -> None:
    """Train one algorithm; save the model, print the trace (JSON or a table).

    >>> main(["train", "unigram", "--corpus", "toy:run-bug", "--strict", "--log-base", "10",
    ...       "--vocab-size", "12", "--remove", "un"])
      #  round  kind    pieces     loss  removed
      1      1  E           13   66.109
      2      1  M           13   66.109
      3      1  prune       12   66.109  un
      4      2  E           12   61.165
    Reached the vocab size 12 asked for. Vocabulary: 12 symbols.
    0
    """
    algo: Algorithm = args.algo
    trace = algo.trace(algo.cli.source(args), **algo.cli.params(args))
    model = algo.model_at(trace)
    if getattr(args, "split_punct", False):  # the model must read new text the same way
        model = dataclasses.replace(model, split_punct=True)
    if args.out:
        export.save_model(model, args.out)
    if args.json:
        print(export.trace_to_json(trace, full=args.full))
    else:
        print(algo.cli.table(trace))
        print(f"{trace.stop_reason} Vocabulary: {len(model.vocab)} symbols.")
    if args.out:  # on stderr, so that --json output stays valid JSON
        print(f"Saved the model to {args.out}.", file=sys.stderr)


def _run_encode(args: argparse.Namespace) -> None:
    model = export.load_model(args.model)
    algo = registry.of_model(model)
    encoded = algo.segment(model, " ".join(args.text))
    if args.trace:
        for line in algo.word_lines(encoded, model):
            print(line)
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
