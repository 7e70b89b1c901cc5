"""The command line's reading of a corpus file of any size (``subtok train bpe|bytebpe``,
``subtok check``): streamed by ``corpus.stream`` in pieces on several processes, with a
progress line on stderr when stderr is a terminal (nothing on a pipe or a file).

The web app never comes here: it keeps its 20 MB limit on uploads (corpus/files.py).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from .corpus import is_exercise, is_toy
from .corpus.stream import Split, count_file

WORKERS_HELP = "processes that read a corpus file (default: one per CPU, here {n})"
SPECIAL_HELP = (
    "a special token, e.g. <|endoftext|> (repeat for more): the text is cut at it, no unit "
    "crosses it and it is not counted; a big file is read in pieces cut there"
)


def is_file(name: str) -> bool:
    """Whether a --corpus names a file (not toy:, sample: or exercise:)."""
    return not (is_toy(name) or is_exercise(name) or name.startswith("sample:"))


def add_options(cmd, special: bool = True) -> None:
    """--workers N (and --special TOKEN, repeated) on a command that reads --corpus."""
    cmd.add_argument(
        "--workers", type=_workers, default=None, metavar="N",
        help=WORKERS_HELP.format(n=os.cpu_count() or 1),
    )  # fmt: skip
    if special:
        cmd.add_argument(
            "--special", action="append", default=[], metavar="TOKEN", help=SPECIAL_HELP
        )


def _workers(text: str) -> int:
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= 256:
        raise argparse.ArgumentTypeError(f"give between 1 and 256 processes, not {n}")
    return n


def count(path: str, split: Split, workers: int | None):
    """The file's word or chunk counts, with a progress line on a terminal."""
    bar = Progress(f"Reading {os.path.basename(path)}", unit="MB")
    try:
        return count_file(path, split, workers, progress=bar.update if bar.on else None)
    finally:
        bar.close()


def merge_progress() -> Callable[[int, int], None] | None:
    """A progress callback for the merges (trace_*'s `progress`), on a terminal only."""
    bar = Progress("Merging", unit="merges")
    if not bar.on:
        return None

    def update(done: int, goal: int) -> None:
        bar.update(done, goal)
        if done >= goal:
            bar.close()

    return update


class Progress:
    """One line on stderr, rewritten at most 10 times a second: "Reading x.txt: 45%
    (90/200 MB, 12 s)". Only when stderr is a terminal."""

    def __init__(self, label: str, unit: str, stream=None):
        self.stream = stream or sys.stderr
        self.label, self.unit = label, unit
        self.on = _is_tty(self.stream)
        self.start = self.last = time.monotonic()
        self.shown = False

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.on or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        scale = 1024 * 1024 if self.unit == "MB" else 1
        share = done / total if total else 1.0
        line = (
            f"\r{self.label}: {share:4.0%} ({done / scale:,.0f}/{total / scale:,.0f} "
            f"{self.unit}, {now - self.start:.0f} s)"
        )
        self.stream.write(line)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.on and self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
