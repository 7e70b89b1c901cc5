"""The command line: train a tokenizer, encode with a saved model or a pretrained tokenizer,
export a saved model as a Hugging Face tokenizer.json, list the corpora and the pretrained
tokenizers.

Run it as ``subtok ...`` (after installing) or ``python -m subtok_core ...``. Every
algorithm of the registry is a ``subtok train NAME`` command with its own options.

>>> main(["train", "bpe", "--corpus", "toy:cat-bat", "--merges", "2"])
  #  pair        new symbol  count  ties
  1  a + t       at             20
  2  a + g       ag             16
Reached the 2 merges asked for. Vocabulary: 8 symbols; marker: none.
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

from . import encode_cli, metrics_cli, warm
from .cli_help import CHECK_HELP
from .vocab import cli as vocab_cli

EXIT_ERROR = 2


def _parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser of every command; only the options of the command `argv` starts with are
    filled in (the others' need the algorithms, so `subtok --help` and `subtok corpora`
    import none), and for ``train NAME`` only that algorithm's."""
    command = argv[0] if argv else None
    parser = argparse.ArgumentParser(
        prog="subtok", description="Subword tokenization lab: train, encode, list corpora."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    train = commands.add_parser("train", help="train a tokenizer on a corpus")
    if command == "train":
        _add_train(train, argv[1] if len(argv) > 1 else None)
    encode = commands.add_parser(
        "encode", help="encode text with a saved model or a pretrained tokenizer"
    )
    if command == "encode":
        encode_cli.add(encode)
    export_cmd = commands.add_parser(
        "export", help="write a saved model as another library's tokenizer file"
    )
    _add_export(export_cmd)
    warm.add(commands)  # subtok warm URL...: fill the disk cache for a lesson
    if command == "check":  # subtok check merges|trainer: where a student's BPE differs
        from .check import cli as check_cli  # the trainers: only for the command itself

        check_cli.add(commands)
    else:
        commands.add_parser("check", help=CHECK_HELP)  # (its module imports the trainers)
    vocab_cli.add(commands)  # subtok vocab: health categories of a vocabulary
    metrics_cli.add(commands)  # subtok metrics: the measures papers report
    listing = commands.add_parser("corpora", help="list the built-in corpora and samples")
    listing.set_defaults(run=_run_corpora)
    pretrained = commands.add_parser(
        "tokenizers", help="list the pretrained tokenizers and where each comes from"
    )
    pretrained.set_defaults(run=_run_tokenizers)
    return parser


def _add_train(train: argparse.ArgumentParser, name: str | None) -> None:
    """`subtok train ALGORITHM`: one command per algorithm of the registry. Given the name
    of one, only its command is made: the registry imports no other algorithm's package
    (`subtok train bpe` does not pay for the numpy of SaGe and Unigram)."""
    from . import registry

    algorithms = train.add_subparsers(dest="algorithm", metavar="ALGORITHM", required=True)
    names = [name] if name in registry.ALGORITHMS else list(registry.ALGORITHMS)
    for algo in map(registry.get, names):
        cmd = algorithms.add_parser(algo.name, help=algo.cli.HELP)
        corpus_help = getattr(algo.cli, "CORPUS_HELP", "toy:NAME, sample:NAME or a .txt path")
        nargs = getattr(algo.cli, "CORPUS_NARGS", None)  # parity: one LANG=CORPUS a language
        cmd.add_argument("--corpus", required=True, help=corpus_help, nargs=nargs)
        algo.cli.add(cmd)
        cmd.add_argument("--json", action="store_true", help="print the trace as JSON")
        cmd.add_argument("--full", action="store_true", help=f"with --json: {algo.cli.FULL_HELP}")
        cmd.add_argument("--out", metavar="FILE", help="save the trained model as JSON")
        cmd.set_defaults(run=_run_train, algo=algo)


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
    from . import export

    algo = args.algo
    trace = algo.trace(algo.cli.source(args), **algo.cli.params(args))
    model = algo.model_at(trace)
    if getattr(args, "split_punct", False):  # the model must read new text the same way
        model = dataclasses.replace(model, split_punct=True)
    if args.out:
        export.save_model(model, args.out)
    shown = getattr(algo.cli, "display", lambda args: {})(args)  # bytebpe: --byte-display
    if args.json:
        print(getattr(algo.cli, "trace_json", export.trace_to_json)(trace, args.full, **shown))
        return _saved(args.out)
    if not args.out:  # with --out the model is in the file: the table would be ~1,900 lines
        print(algo.cli.table(trace, **shown))
    print(_summary(trace, model, getattr(args, "marker", None)))
    _saved(args.out)


def _summary(trace, model, marker: str | None) -> str:
    """The line after the table: why training stopped, the size, and the word marker
    (BPE's default is none; the Compare page trains its BPE with sow, ▁).

    >>> from types import SimpleNamespace as Fake
    >>> _summary(Fake(stop_reason="Done."), Fake(vocab=("a", "b")), "sow")
    'Done. Vocabulary: 2 symbols; marker: sow (▁).'
    """
    said = f"; marker: {marker}{MARKER_SIGNS.get(marker, '')}" if marker else ""
    return f"{trace.stop_reason} Vocabulary: {len(model.vocab)} symbols{said}."


MARKER_SIGNS = {"sow": " (▁)", "eow": " (</w>)", "suffix": " (</w>)"}


def _saved(out: str | None) -> None:
    """Say where the model went: on stderr, so that --json output stays valid JSON."""
    if out:
        print(f"Saved the model to {out}.", file=sys.stderr)


EXPORT_FORMATS = {"hf": "a Hugging Face tokenizer.json"}  # --format NAME -> what it writes


def _add_export(export_cmd: argparse.ArgumentParser) -> None:
    export_cmd.add_argument("--model", metavar="FILE", required=True, help="a model saved by --out")
    export_cmd.add_argument(
        "--format", choices=list(EXPORT_FORMATS), default="hf",
        help="; ".join(f"{name}: {what}" for name, what in EXPORT_FORMATS.items()),
    )  # fmt: skip
    export_cmd.add_argument("--out", metavar="FILE", help="write it here (default: print it)")
    export_cmd.set_defaults(run=_run_export)


def _run_export(args: argparse.Namespace) -> None:
    """Write a saved model as a tokenizer file (stdout without --out); a model the format
    cannot hold faithfully is refused with the reason (subtok_core/hf_export)."""
    from . import export, hf_export  # loads tokenizers only for this command

    model = export.load_model(args.model)
    if args.out:
        hf_export.save_hf(model, args.out)
        print(f"Saved {EXPORT_FORMATS[args.format]} to {args.out}.", file=sys.stderr)
    else:
        print(hf_export.hf_json(model))
    for note in hf_export.notes(model):  # on stderr, so that the JSON on stdout stays valid
        print(f"note: {note}", file=sys.stderr)


def _run_tokenizers(args: argparse.Namespace) -> None:
    """One line per pretrained tokenizer: its name and provenance (its file is read to count
    its vocabulary, no encoder built). A file that cannot be read is reported after the
    others."""
    from .pretrained import DESCRIBE

    width = max(map(len, DESCRIBE))
    failed: list[str] = []
    for name, describe in DESCRIBE.items():
        try:
            line = describe()
        except ValueError as err:
            failed.append(str(err))
            continue
        print(f"{name:<{width}}  {line}")
    if failed:
        raise ValueError(" ".join(failed))


def _run_corpora(args: argparse.Namespace) -> None:
    from . import corpus

    infos = corpus.list_corpora()
    width = max(len(info.name) for info in infos)
    for info in infos:
        print(f"{info.name:<{width}}  {info.title}")
        print(f"{'':<{width}}  source: {info.source}")


# --- entry point ----------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run one command, return the exit status (0 ok, 2 error)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed usage and its own "error:" line
        return stop.code if isinstance(stop.code, int) else EXIT_ERROR
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        status = args.run(args)  # a command may return its own status (check: 1, different)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # `subtok ... | head`: the reader left, which is no error
        _silence_stdout()
        return 0
    except OSError as err:
        print(f"error: {err.strerror or err}.", file=sys.stderr)
        return EXIT_ERROR
    return status if isinstance(status, int) else 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # stdout is not a real file (a test's capture): nothing will flush it


if __name__ == "__main__":
    raise SystemExit(main())
