"""``subtok train sage``: the options carry the paper's names (--k, --M, --m, --l; case
matters), progress goes to stderr, one prune step per line to stdout."""

from __future__ import annotations

import sys
from dataclasses import replace

from .. import limits
from ..records import Trace
from .corpus import sample_sentences
from .records import CONTROLS, PAPER, SCORE_NAMES, SageSettings
from .train import check_settings, steps_needed

# the command's line in --help, and what --json --full adds to each step
HELP = "SaGe: prune a big BPE vocabulary by context loss"
FULL_HELP = "add each candidate set"

FIELDS = ("vocab_size", "initial_size", "n", "k", "M", "m", "l", "window", "dim", "seed")


def add(cmd) -> None:
    cmd.add_argument("--limit", type=int, metavar="N", help="use only the first N lines")
    default = SageSettings()
    options = [
        (
            "--vocab-size",
            "vocab_size",
            int,
            f"final vocab size V (default: {default.vocab_size}; "
            f"{limits.describe('sage_vocab_size')})",
        ),
        ("--initial-size", "initial_size", int, "BPE size to start from (default: round(n x V))"),
        (
            "--n",
            "n",
            float,
            f"overshoot factor without --initial-size (default: {default.n}; "
            f"{limits.describe('sage_n')})",
        ),
        ("--k", "k", int, f"pieces pruned per step (default: {default.k})"),
        ("--M", "M", int, f"size of the candidate set (default: {default.M})"),
        ("--m", "m", int, f"recompute every score every m steps (default: {default.m})"),
        ("--l", "l", int, f"retrain embeddings every l x m steps (default: {default.l})"),
        (
            "--window",
            "window",
            int,
            f"context window of the loss (default: {default.window}; "
            f"{limits.describe('sage_window')})",
        ),
        ("--dim", "dim", int, f"embedding dimensions (default: {default.dim})"),
        ("--seed", "seed", int, f"Word2Vec and random-control seed (default: {default.seed})"),
    ]
    for flag, dest, kind, text in options:
        cmd.add_argument(flag, dest=dest, type=kind, help=text)
    cmd.add_argument(
        "--paper", action="store_true",
        help="start from the paper's Table 6 settings (V 16000, n 1.25, k 100, M 1500, m 10, "
        "l 4); the options above override them",
    )  # fmt: skip
    cmd.add_argument("--control", choices=CONTROLS, help="prune by this rule instead of the loss")


def source(args):
    """The sentences of --corpus (the first --limit lines)."""
    if args.limit is not None and args.limit < 1:
        raise ValueError(f"--limit must be at least 1 line, not {args.limit}.")
    sentences = sample_sentences(args.corpus, args.limit, allow_paths=True)
    print(f"{len(sentences)} sentences, {sum(map(len, sentences))} words", file=sys.stderr)
    return sentences


def params(args) -> dict:
    """The settings (the paper's with --paper), the control, and progress on stderr."""
    base = PAPER if args.paper else SageSettings()
    chosen = {name: getattr(args, name) for name in FIELDS}
    settings = replace(base, **{k: v for k, v in chosen.items() if v is not None})
    check_settings(settings, args.control)  # before n x V is computed and printed (n = inf)
    print(
        f"{settings.start_size} -> {settings.vocab_size} pieces in "
        f"{steps_needed(settings)} prune steps",
        file=sys.stderr,
    )

    def phase(text: str) -> None:
        print(f"  {text} ...", file=sys.stderr)

    def progress(step, total: int) -> None:
        print(f"step {step.number}/{total}: {step.vocab_size} pieces", file=sys.stderr)

    return {"settings": settings, "control": args.control, "on_step": progress,
            "on_phase": phase}  # fmt: skip


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def table(trace: Trace, shown: int = 5) -> str:
    """One prune step per line: pieces left, loss, whether every score was recomputed and
    the embeddings retrained, and the first pruned pieces with their scores."""
    score = SCORE_NAMES[trace.param("control")]
    lines = [f"{'#':>3}  pieces  {'loss':>12}  all scores  retrained  pruned ({score})"]
    for step in trace.steps:
        loss = "-" if step.loss is None else f"{step.loss:.1f}"
        pruned = ", ".join(f"{p} ({v:.3g})" for p, v in step.pruned[:shown])
        more = f", ... ({len(step.pruned)})" if len(step.pruned) > shown else ""
        line = f"{step.number:>3}  {step.vocab_size:>6}  {loss:>12}  "
        flags = f"{_yes(step.recomputed_losses):<10}  {_yes(step.retrained_embeddings):<9}  "
        lines.append(f"{line}{flags}{pruned}{more}".rstrip())
    return "\n".join(lines)
