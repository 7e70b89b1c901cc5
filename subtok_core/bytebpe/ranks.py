"""The byte-level encoder: merge a chunk's bytes by rank, the way tiktoken does.

Every chunk of the pre-split starts as its single bytes. Repeatedly, among all adjacent
pairs of parts, the pair of the lowest rank is merged (the leftmost one if two have that
rank), until no adjacent pair has a rank. What a rank is depends on the vocabulary:

- a model trained here: the number of the learned merge (left, right), so merges apply
  in the order they were learned, as Hugging Face's BPE model applies its merges.txt;
- cl100k_base and Tekken (tiktoken files): the rank of the token the two parts would
  make, ``ranks[left + right]``; a pair whose bytes are no token never merges. As in
  tiktoken, a chunk that is itself a token is taken whole. The ids are tiktoken's (the
  tests hold them to it), up to characters newer than tiktoken's Unicode (``patterns``).

>>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4, b"abc": 5}
>>> enc = Encoder("toy", "none", lambda a, b: ranks.get(a + b, NEVER), ranks.get, "rank")
>>> enc.tokens(b"abcab")
(b'abc', b'ab')
>>> [(m.rank, m.left, m.right) for m in enc.replay("abcab").merges]
[(3, b'a', b'b'), (3, b'a', b'b'), (5, b'ab', b'c')]

Results are cached per chunk, so a corpus (where a few chunks make most of the text) is
encoded mostly by lookups.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator, Mapping

import regex

from .. import limits
from ..pretrained import files
from ..pretrained.tiktoken_based import CL100K_PATTERN, cl100k_ranks, tekken_file
from . import patterns
from .records import ByteBpeModel, ChunkReplay, MergeApplied
from .symbols import to_bytes

NEVER = sys.maxsize  # the rank of a pair that never merges
CACHE_MAX = 200_000  # chunks remembered per encoder; the cache starts over beyond that
REPLAY_TOKENIZERS = ("cl100k_base", "tekken")


def merge_steps(parts: list[bytes], rank_of: Callable[[bytes, bytes], int]) -> Iterator[tuple]:
    """Merge the parts in place, lowest rank first; yield (rank, position, left, right)
    for each merge, `position` being where the left part stood.

    >>> parts = [b"a", b"a", b"a"]
    >>> list(merge_steps(parts, lambda a, b: 1 if a + b == b"aa" else NEVER)), parts
    ([(1, 0, b'a', b'a')], [b'aa', b'a'])
    """
    # ranks[i] is the rank of the pair (parts[i], parts[i + 1])
    ranks = [rank_of(a, b) for a, b in zip(parts, parts[1:])]
    while ranks:
        best = min(ranks)
        if best == NEVER:
            return
        i = ranks.index(best)  # the leftmost pair of the lowest rank
        left, right = parts[i], parts[i + 1]
        parts[i : i + 2] = [left + right]
        del ranks[i]
        # the merged part has new neighbours: rank the (at most two) pairs it now forms
        if i > 0:
            ranks[i - 1] = rank_of(parts[i - 1], parts[i])
        if i < len(parts) - 1:
            ranks[i] = rank_of(parts[i], parts[i + 1])
        yield best, i, left, right


class Encoder:
    """One vocabulary's encoder: its pre-split, how adjacent parts rank, token ids.

    `rank_of(left, right)` is the rank of merging two parts (NEVER: they do not merge);
    `id_of(token)` the token's id; `rank_word` what the replay calls a rank ("merge" or
    "rank"); `whole` the tokens a chunk is taken as whole, if it is one (tiktoken).
    """

    def __init__(self, name: str, pattern: str, rank_of, id_of, rank_word: str, whole=None):
        self.name, self.rank_word = name, rank_word
        known = pattern in patterns.PARTS
        self.pattern = patterns.compiled(pattern) if known else regex.compile(pattern)
        self.rank_of: Callable[[bytes, bytes], int] = rank_of
        self.id_of: Callable[[bytes], int] = id_of
        self.whole: Mapping[bytes, int] | None = whole
        self.cache: dict[bytes, tuple[bytes, ...]] = {}

    def tokens(self, data: bytes) -> tuple[bytes, ...]:
        """The tokens of one chunk's bytes (cached)."""
        found = self.cache.get(data)
        if found is None:
            if self.whole is not None and data in self.whole:
                found = (data,)  # tiktoken's shortcut: the chunk is a token
            else:
                limits.check("chunk_bytes", len(data))
                parts = [data[i : i + 1] for i in range(len(data))]
                for _ in merge_steps(parts, self.rank_of):
                    pass
                found = tuple(parts)
            if len(self.cache) >= CACHE_MAX:
                self.cache.clear()
            self.cache[data] = found
        return found

    def chunks(self, text: str) -> Iterator[regex.Match]:
        """The pre-split of a text: one match per chunk."""
        return self.pattern.finditer(text)

    def replay(self, chunk: str, start: int = 0) -> ChunkReplay:
        """Encode one chunk and keep every merge: the replay the page and --replay show."""
        data = chunk.encode("utf-8")
        limits.check("chunk_bytes", len(data))
        parts = [data[i : i + 1] for i in range(len(data))]
        merges = tuple(MergeApplied(*step) for step in merge_steps(parts, self.rank_of))
        whole = self.whole is not None and data in self.whole and parts != [data]
        tokens = (data,) if whole else tuple(parts)
        return ChunkReplay(chunk, start, data, merges, tokens, self.ids(tokens), whole)

    def ids(self, tokens) -> tuple[int, ...]:
        return tuple(self.id_of(token) for token in tokens)


def for_model(model: ByteBpeModel) -> Encoder:
    """The encoder of a trained model: a pair's rank is the number of its merge (the
    first time it was learned), ids are positions in the vocabulary."""
    numbers: dict[tuple[bytes, bytes], int] = {}
    for number, (left, right) in enumerate(model.merges, start=1):
        numbers.setdefault((to_bytes(left), to_bytes(right)), number)
    ids = {to_bytes(symbol): i for i, symbol in enumerate(model.vocab)}
    return Encoder(
        "the trained model", model.pattern, lambda a, b: numbers.get((a, b), NEVER),
        ids.__getitem__, "merge",
    )  # fmt: skip


def for_ranks(name: str, pattern: str, ranks: dict[bytes, int], offset: int = 0) -> Encoder:
    """A new encoder on a tiktoken-style table (token bytes -> rank): a pair's rank is the
    rank of the token its bytes make together, a token's id its rank + `offset`.

    >>> for_ranks("toy", "none", {b"a": 0, b"b": 1, b"ab": 2}, offset=10).ids([b"ab"])
    (12,)
    """
    get = ranks.get
    ids = ranks if not offset else {token: rank + offset for token, rank in ranks.items()}
    return Encoder(name, pattern, lambda a, b: get(a + b, NEVER), ids.__getitem__, "rank", ranks)


@functools.cache
def for_tokenizer(name: str) -> Encoder:
    """Our encoder on a pretrained tokenizer's ranks (cl100k_base or tekken), loaded by
    the same loaders (and checks) as the pretrained tokenizers; one per process."""
    if name == "cl100k_base":
        return for_ranks(name, CL100K_PATTERN, cl100k_ranks(str(files.locate(name))))
    if name == "tekken":  # ids come after Tekken's special tokens
        pattern, ranks, specials, _listed = tekken_file(str(files.locate(name)))
        return for_ranks(name, pattern, ranks, offset=specials)
    raise ValueError(
        f"Our own encoder replays byte-level ranks, which {name!r} does not have here; "
        f"choose {' or '.join(REPLAY_TOKENIZERS)}."
    )
