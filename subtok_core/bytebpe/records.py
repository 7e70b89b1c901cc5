"""Byte-level BPE's records: the model, and the replay of one chunk's encoding.

Training reuses BPE's records (``BpeStart``, ``BpeStep``): the "words" are the chunks of
the pre-split and every symbol is a string of GPT-2 byte letters (see ``symbols``).

>>> replay = ChunkReplay(" hi", 0, b" hi", (MergeApplied(3, 1, b"h", b"i"),
...                      MergeApplied(7, 0, b" ", b"hi")), (b" hi",), (40,), False)
>>> [parts for _, parts in replay.rows()]
[(b' ', b'h', b'i'), (b' ', b'hi'), (b' hi',)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class ByteBpeModel:
    """Merges in the order they were learned and the vocabulary, both in GPT-2 letters
    (the 256 bytes first, in GPT-2's order, then each new symbol), and the pre-split
    pattern new text is cut with."""

    algorithm: ClassVar[str] = "bytebpe"
    byte_level: ClassVar[bool] = True  # tokens are bytes: two may share a character
    merges: tuple[Pair, ...]
    vocab: tuple[str, ...]
    pattern: str


@dataclass(frozen=True, slots=True)
class MergeApplied:
    """One merge of a replay: its rank, where the pair stood (index of its left part
    among the parts before the merge) and the two parts it joined."""

    rank: int
    position: int
    left: bytes
    right: bytes


@dataclass(frozen=True, slots=True)
class ChunkReplay:
    """How one chunk was encoded: its text and first character in the text, its bytes,
    every merge in the order applied, the final tokens and their ids. ``whole`` is True
    when the chunk is one token of the vocabulary and was taken whole, without merges
    (tiktoken's shortcut; the merges reach the same token on every cl100k_base token).
    """

    text: str
    start: int
    data: bytes
    merges: tuple[MergeApplied, ...]
    tokens: tuple[bytes, ...]
    ids: tuple[int, ...]
    whole: bool

    def rows(self) -> Iterator[tuple[MergeApplied | None, tuple[bytes, ...]]]:
        """(merge, parts after it), starting with (None, the single bytes). The parts are
        rebuilt as the rows are read, so a long chunk's replay stays small."""
        parts = [self.data[i : i + 1] for i in range(len(self.data))]
        yield None, tuple(parts)
        for merge in self.merges:
            i = merge.position
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
            yield merge, tuple(parts)
