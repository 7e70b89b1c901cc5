"""``subtok check merges FILE`` and ``subtok check trainer MODULE:FUNCTION``: where a
student's BPE first leaves the reference run, and why.

Only argparse is imported here; the trainers, the diagnosis and the student's module are
imported when a command runs, so ``subtok --help`` stays light.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..bpe.records import MARKERS
from ..bytebpe.patterns import PATTERNS
from ..cli_help import CHECK_EXIT
from ..cli_help import CHECK_HELP as HELP  # `subtok --help` reads it there, without this module
from .formats import FORMATS
from .rules import AUTO, RULES, rules_help

SAME, DIFFERENT = 0, 1  # and 2 (cli.EXIT_ERROR): unreadable file or bad options

CORPUS_HELP = (
    "toy:NAME, sample:NAME, exercise:NAME (see data/exercises) or a .txt path; byte-level "
    "BPE reads a file as it is, line breaks included"
)


def add(commands) -> None:
    """The `check` subcommand of `subtok`, with `merges` and `trainer` under it."""
    check = commands.add_parser("check", help=HELP, description=f"{HELP}. {CHECK_EXIT}")
    what = check.add_subparsers(dest="check_what", metavar="WHAT", required=True)
    merges = what.add_parser(
        "merges", help="check a merges file",
        description=f"Accepted formats: {FORMATS}. {CHECK_EXIT}",
    )  # fmt: skip
    merges.add_argument("file", metavar="FILE", help=f"your merges: {FORMATS}")
    _settings(merges)
    merges.set_defaults(run=run_merges)
    trainer = what.add_parser(
        "trainer",
        help="run your train_bpe(input_path, vocab_size, special_tokens) and check it",
        description="Imports MODULE and calls FUNCTION(input_path, vocab_size, special_tokens) "
        "as CS336's assignment 1 defines it; it returns (vocab: dict[int, bytes], merges: "
        "list[tuple[bytes, bytes]]). Your code runs on your machine only, never on the web "
        f"server. {CHECK_EXIT}",
    )  # fmt: skip
    trainer.add_argument("function", metavar="MODULE:FUNCTION", help="e.g. my_bpe:train_bpe")
    trainer.add_argument(
        "--vocab-size", type=int, default=300, help="passed to your function (default 300)"
    )
    _settings(trainer, bytelevel_only=True)
    trainer.set_defaults(run=run_trainer)


def _settings(cmd, bytelevel_only: bool = False) -> None:
    cmd.add_argument("--corpus", required=True, help=CORPUS_HELP)
    cmd.add_argument(
        "--ties", choices=(AUTO, *RULES), default=None,
        help=f"the reference's tie rule. {rules_help()}; auto (the default, unless an "
        "exercise sets one): the rule under which the reference follows your list longest",
    )  # fmt: skip
    if not bytelevel_only:
        cmd.add_argument(
            "--marker", choices=MARKERS, default=None, help="character-level BPE's marker"
        )
        cmd.add_argument(
            "--bytebpe", action="store_true",
            help="byte-level BPE (merges in GPT-2 byte letters or lists of byte values)",
        )  # fmt: skip
        cmd.add_argument(
            "--split-punct", action="store_true", help="split punctuation off words first"
        )
    cmd.add_argument(
        "--pattern", choices=PATTERNS, default=None, help="byte-level pre-split (default gpt2)"
    )
    cmd.add_argument(
        "--special", action="append", default=[], metavar="TOKEN",
        help="a special token (byte-level; repeat for more): no pair crosses it",
    )  # fmt: skip
    cmd.add_argument("--json", action="store_true", help="print the verdict as JSON")
    from .. import stream_cli

    stream_cli.add_options(cmd, special=False)  # --workers: a file over 20 MB is streamed


def build_setup(args: argparse.Namespace, bytelevel: bool | None = None):
    """The reference settings: the options given, else the exercise's, else defaults."""
    from . import exercises, streamed
    from .setup import Setup
    from .sources import corpus_lines

    ex = exercises.load(args.corpus) if args.corpus.startswith(exercises.PREFIX) else None
    if bytelevel is None:
        bytelevel = args.bytebpe or bool(ex and ex.bytelevel)
    specials = tuple(args.special) or tuple(
        v for k, v in (ex.settings if ex else ()) if k == "special"
    )
    pick = lambda value, key, default: value or (ex and ex.setting(key)) or default  # noqa: E731
    big = streamed.is_big(args.corpus)  # streamed in pieces, never held as lines
    return Setup(
        () if big else corpus_lines(args.corpus, bytelevel, allow_paths=True),
        bytelevel,
        file=streamed.FileCorpus.of(args.corpus, args.workers) if big else None,
        marker=pick(getattr(args, "marker", None), "marker", "none") if not bytelevel else "none",
        pattern=pick(args.pattern, "pattern", "gpt2"),
        ties=pick(args.ties, "ties", AUTO),
        specials=specials,
        split_punct=getattr(args, "split_punct", False),
    )


def run_merges(args: argparse.Namespace) -> None:
    from pathlib import Path

    from ..corpus import decode_upload
    from .diagnose import check
    from .formats import read_merges

    path = Path(args.file)
    if not path.is_file():
        raise ValueError(f"There is no merges file {args.file!r}.")
    setup = build_setup(args)
    notes: list[str] = []
    text = decode_upload(path.read_bytes(), path.name)
    if path.name.endswith("vocab.json") and (path.parent / "merges.txt").is_file():
        from .modelfiles import vocab_pair_merges

        beside = decode_upload((path.parent / "merges.txt").read_bytes(), "merges.txt")
        merges, notes = vocab_pair_merges(text, beside, lambda t: read_merges(t, setup.bytelevel))
    else:
        merges = read_merges(text, setup.bytelevel)
    status = report(check(setup, merges), args.json)
    for line in notes:
        print(f"vocab: {line}", file=sys.stderr)
    _big_file_note(setup, status)
    return status


def _big_file_note(setup, status: int) -> None:
    """On a streamed file, which hypotheses were not tried (on stderr: JSON stays valid)."""
    from .streamed import NOT_TRIED

    if setup.file is not None and status == DIFFERENT:
        print(f"note: {NOT_TRIED}", file=sys.stderr)


def run_trainer(args: argparse.Namespace) -> None:
    from .diagnose import check
    from .trainer import run_student, vocab_problems

    setup = build_setup(args, bytelevel=True)
    vocab, merges, setup = run_student(args.function, args.corpus, args.vocab_size, setup)
    verdict = check(setup, merges)
    _big_file_note(setup, SAME if verdict.identical else DIFFERENT)
    problems = vocab_problems(vocab, merges, setup.specials)
    if args.json:
        print(json.dumps({**verdict.as_json(), "vocab_problems": problems}, ensure_ascii=False))
        return SAME if verdict.identical and not problems else DIFFERENT
    report(verdict, False)
    for line in problems:
        print(f"vocab: {line}")
    if not problems:
        print(
            f"vocab: its {len(vocab)} ids hold the 256 bytes, the special tokens and every merge."
        )
    return SAME if verdict.identical and not problems else DIFFERENT


def report(verdict, as_json: bool) -> int:
    """Print the verdict; its exit status (0 identical, 1 different)."""
    if as_json:
        print(json.dumps(verdict.as_json(), ensure_ascii=False))
    else:
        print(verdict.summary())
    return SAME if verdict.identical else DIFFERENT
