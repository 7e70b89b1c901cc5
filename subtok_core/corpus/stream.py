"""A text file of any size -> its word (or pre-split chunk) counts, read in pieces by
several processes, in memory bounded by the number of distinct words, not the file's size.

The command line's way to read a big file (CS336 trains on TinyStories, 2.1 GB). The file
is cut into pieces of about ``chunk_bytes`` at a safe place: the start of a special token
(``<|endoftext|>``) or just after a line break, whichever comes first after the cut's
target (only at special tokens when one holds a line break); a file of one line is one
piece. Each piece is decoded, split at the special tokens (which count as nothing), cut
into units (``Split``) and counted in a process of a pool; the counts are added up in file
order, so the units keep their first-appearance order (the tie rule ``first`` reads it).

The counts are those of the file read whole: a unit never crosses a line break (byte-level
BPE cuts each line on its own, as Hugging Face's trainer reads a file; whitespace words end
at one) nor a special token, and every cut is at one of them.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = os.path.join(tmp, "t.txt")
...     _ = open(path, "w").write("the cat<|endoftext|>the hat\\nthe end\\n")
...     count_file(path, Split(specials=("<|endoftext|>",)), workers=1, chunk_bytes=8).items()
[('the', 3), ('cat', 1), ('hat', 1), ('end', 1)]
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .files import _wide_encoding
from .words import WordCounts, split_words

CHUNK_BYTES = 4 * 1024 * 1024  # a piece's size: a worker holds one piece's text at a time
PROBE = 64 * 1024  # bytes read at a time while looking for a safe cut


@dataclass(frozen=True, slots=True)
class Split:
    """How a piece of text becomes units: ``pattern`` (byte-level BPE: "gpt2", "cl100k",
    "none", or "o200k" for subtok check) cuts each line with that pattern; None cuts words
    at whitespace (BPE), with punctuation split off if ``split_punct``. ``specials`` are
    cut out first; ``normal`` ("lower" or "NFKC") changes the text before (subtok check's
    hypotheses)."""

    pattern: str | None = None
    split_punct: bool = False
    specials: tuple[str, ...] = ()
    normal: str | None = None

    def __post_init__(self) -> None:
        if any(not s for s in self.specials):
            raise ValueError("A special token cannot be empty.")


def cuts(path: str | Path, chunk_bytes: int, specials=(), probe: int = PROBE) -> list[int]:
    """The byte offsets where the pieces start, and the file's size last: every cut is at
    the start of a special token or after a line break (see the module docstring)."""
    size = os.path.getsize(path)
    marks = [s.encode("utf-8") for s in specials]
    at_lines = not any(b"\n" in m for m in marks)
    found = [0]
    with open(path, "rb") as fh:
        target = chunk_bytes
        while target < size:
            cut = _next_cut(fh, target, marks, at_lines, probe, size)
            if cut >= size:
                break
            found.append(cut)
            target = cut + chunk_bytes
    return [*found, size]


def _next_cut(fh, target: int, marks: list[bytes], at_lines: bool, probe: int, size: int) -> int:
    """The first safe cut at or after `target` (`size` when there is none): a read can end
    inside a special token, so the last len(token) - 1 bytes are searched again."""
    keep = max((len(m) for m in marks), default=1) - 1
    fh.seek(target)
    carry, start = b"", target
    while True:
        block = fh.read(probe)
        if not block:
            return size
        window = carry + block
        hits = [window.find(m) for m in marks]
        if at_lines and (line := window.find(b"\n")) >= 0:
            hits.append(line + 1)
        hits = [h for h in hits if h >= 0]
        if hits:
            return start + min(hits)
        carry = window[max(0, len(window) - keep) :] if keep else b""
        start += len(window) - len(carry)


def count_piece(path: str, start: int, end: int, split: Split) -> tuple[Counter, bool]:
    """The units of bytes [start, end) of the file, counted in first-appearance order, and
    whether the piece holds any text other than whitespace. A NUL byte (binary data) or
    bytes that are not UTF-8 raise ValueError with the offset in the file."""
    name = Path(path).name
    with open(path, "rb") as fh:
        fh.seek(start)
        data = fh.read(end - start)
    if (nul := data.find(b"\x00")) >= 0:
        raise ValueError(
            f"{name} looks like a binary file, not text (a NUL byte at byte {start + nul:,})."
            " Give a UTF-8 .txt file."
        )
    try:
        text = data.decode("utf-8-sig" if start == 0 else "utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{name} is not UTF-8 text (byte {start + err.start:,} cannot be read). "
            "Save it as UTF-8."
        ) from None
    del data
    return count_text(text, split)


def count_text(text: str, split: Split) -> tuple[Counter, bool]:
    """The units of a text (see ``count_piece``): cut at the special tokens, then into
    words or, line by line, into the pattern's chunks."""
    if split.normal:
        text = text.lower() if split.normal == "lower" else unicodedata.normalize("NFKC", text)
    pieces = cut_at(split.specials)(text) if split.specials else [text]
    counts: Counter = Counter()
    if split.pattern is None:
        for piece in pieces:
            counts.update(split_words(piece, split.split_punct))
    else:
        find = _finder(split.pattern)
        for piece in pieces:
            for line in _lines(piece):
                counts.update(find(line))
    return counts, any(not piece.isspace() for piece in pieces if piece)


def _finder(pattern: str) -> Callable[[str], list[str]]:
    """The findall of a pre-split pattern (imported here: the regex module, byte-level)."""
    from ..bytebpe.patterns import compiled, o200k

    if pattern == "o200k":
        return o200k().findall

    return compiled(pattern).findall


def _lines(text: str):
    """The text cut after each line break (\\n), the breaks kept, as corpus.file_lines."""
    parts = text.split("\n")
    for part in parts[:-1]:
        yield part + "\n"
    if parts[-1]:
        yield parts[-1]


def cut_at(specials: tuple[str, ...]) -> Callable[[str], list[str]]:
    """Split at every special token, the longest first where two start at one place."""
    ordered = sorted(specials, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, ordered))).split


def _count_task(task: tuple[str, int, int, Split]) -> tuple[Counter, bool]:
    return count_piece(*task)


def count_file(
    path: str | Path,
    split: Split,
    workers: int | None = None,
    chunk_bytes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> WordCounts:
    """The file's units with their counts, in first-appearance order (see the module
    docstring); `workers` processes (default: one per CPU; one piece or one worker runs
    in this process), pieces of `chunk_bytes` (default CHUNK_BYTES), `progress(bytes
    done, bytes in all)` after each piece."""
    path = str(path)
    name = Path(path).name
    if not Path(path).is_file():
        raise ValueError(
            f"Unknown corpus {path!r}: use toy:NAME, sample:NAME or the path of a .txt file."
        )
    with open(path, "rb") as fh:
        head = fh.read(4096)
    if wide := _wide_encoding(head):
        raise ValueError(f"{name} is {wide} text, not UTF-8. Save it as UTF-8 and use that file.")
    if not head:
        raise ValueError(f"{name} is empty: it has no words.")
    offsets = cuts(path, chunk_bytes or CHUNK_BYTES, split.specials)
    tasks = [(path, a, b, split) for a, b in zip(offsets, offsets[1:])]
    workers = max(1, min(workers or os.cpu_count() or 1, len(tasks)))
    total: Counter = Counter()
    any_text = False
    for (_, _, end, _), (counts, has_text) in zip(tasks, _results(tasks, workers)):
        if total:
            total.update(counts)  # new units go last: first-appearance order is kept
        else:
            total = counts
        any_text |= has_text
        if progress:
            progress(end, offsets[-1])
    if not any_text or not total:
        raise ValueError(f"{name} is empty: it has no words.")
    return WordCounts(tuple(total), tuple(total.values()), path)


def _results(tasks, workers: int):
    """Each task's counts, in the order of the tasks (a pool's results come in order)."""
    if workers == 1:
        yield from map(_count_task, tasks)
        return
    import multiprocessing

    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap(_count_task, tasks)
