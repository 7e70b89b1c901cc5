"""BPE-dropout on bytes (Provilkov et al., 2020): BPE's ``drop_merges`` on each chunk's bytes.

The text is cut by the model's pattern, each chunk starts as its single bytes, and the
learned merges are applied as in ``bpe.dropout``: at every step each occurrence of a pair
the model can merge is skipped with probability p, and of those left the one learned
first (the leftmost of equals) is merged. p = 0 is the plain encoding (``segment``); p = 1
leaves every chunk as its bytes. Pieces are written in GPT-2 letters, as ``segment``
writes them.

Hand example: the model learned (l,o) then (lo,w). "low" at p = 0 is one piece; at p = 1
it is its three bytes:

>>> from subtok_core.bytebpe.train import train_bytebpe
>>> model = train_bytebpe(["low low"], merges=2, pattern="none")
>>> model.merges
(('l', 'o'), ('lo', 'w'))
>>> dropout_samples(model, "low", 0.0, 2), dropout_samples(model, "low", 1.0, 1)
([('low',), ('low',)], [('l', 'o', 'w')])
"""

from __future__ import annotations

import random

from .. import limits, sampling
from ..bpe.dropout import drop_merges
from .ranks import for_model
from .records import ByteBpeModel
from .symbols import to_bytes, to_letters


def merge_ranks(model: ByteBpeModel) -> dict[tuple[bytes, bytes], int]:
    """(left bytes, right bytes) -> the number of the merge that first learned the pair,
    the rank the encoder (``ranks.for_model``) applies merges by."""
    ranks: dict[tuple[bytes, bytes], int] = {}
    for number, (left, right) in enumerate(model.merges, start=1):
        ranks.setdefault((to_bytes(left), to_bytes(right)), number)
    return ranks


def dropout_samples(
    model: ByteBpeModel, text: str, p: float, n: int, seed: int = 0
) -> list[tuple[str, ...]]:
    """`n` BPE-dropout encodings of a text with a byte-level model, each the pieces of
    every chunk in order (GPT-2 letters), drawn from ``random.Random(seed)``: the same
    seed gives the same samples. An empty text, a chunk too long, a p outside 0..1 or a
    count of samples out of range raise ValueError.

    >>> from subtok_core.bytebpe.train import train_bytebpe
    >>> model = train_bytebpe(["aaa aaa"], merges=1, pattern="none")
    >>> sorted(set(dropout_samples(model, "aaa", 0.5, 40, seed=1)))
    [('a', 'a', 'a'), ('a', 'aa'), ('aa', 'a')]
    """
    p = sampling.check_probability(p)
    limits.check_count("samples", n)
    rng = random.Random(sampling.check_seed(seed))
    if not text.strip():
        raise ValueError("Type a word to encode.")
    encoder = for_model(model)  # only for its pre-split
    chunks = [m.group().encode("utf-8") for m in encoder.chunks(text)]
    for chunk in chunks:
        limits.check("chunk_bytes", len(chunk))
    ranks = merge_ranks(model)
    out = []
    for _ in range(n):
        pieces: list[str] = []
        for chunk in chunks:
            # every chunk starts as its single bytes; merges never cross a chunk
            parts = drop_merges([chunk[i : i + 1] for i in range(len(chunk))], ranks, p, rng)
            pieces += [to_letters(part) for part in parts]
        out.append(tuple(pieces))
    return out
