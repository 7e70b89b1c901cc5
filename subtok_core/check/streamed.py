"""A check's corpus when it is a file too big to hold as lines (over the web's 20 MB):
its units are counted by streaming the file (corpus/stream.py), once per way of cutting
it, and kept for the rest of the check.

A file of 20 MB or less is read whole as before (check/sources.py), so every hypothesis
is tried on it. On a bigger file the two that need each line whole (the pattern run over
the file read whole; no pre-split at all) are not tried, and the verdict says so.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from ..corpus import MAX_BYTES, WordCounts
from ..corpus.stream import Split


@dataclass(frozen=True, slots=True)
class FileCorpus:
    """A corpus file read in pieces by `workers` processes (None: one per CPU); its size and
    time of change are part of it, so counts kept for it are those of this content."""

    path: str
    workers: int | None = None
    size: int = 0
    mtime_ns: int = 0

    @classmethod
    def of(cls, path: str, workers: int | None = None) -> FileCorpus:
        stat = os.stat(path)
        return cls(path, workers, stat.st_size, stat.st_mtime_ns)

    def counts(self, split: Split) -> WordCounts:
        """The units of the file cut by `split` (counted once per split, then kept)."""
        return _counts(self, split)


@functools.lru_cache(maxsize=8)
def _counts(corpus: FileCorpus, split: Split) -> WordCounts:
    from .. import stream_cli  # the progress line on a terminal

    return stream_cli.count(corpus.path, split, corpus.workers)


def is_big(name: str) -> bool:
    """Whether --corpus names a file over the web's limit (streamed, not read as lines)."""
    from ..stream_cli import is_file

    return is_file(name) and os.path.isfile(name) and os.path.getsize(name) > MAX_BYTES


NOT_TRIED = (
    "On a file this big (over 20 MB, read in pieces), a trainer that runs the pattern over "
    "the file read whole, or that does not pre-split, was not tried."
)
