"""The table of a tokenizer trained here (BPE, byte-level BPE, WordPiece, Unigram), and how
the final tokenizer uses its tokens on its own training corpus.

A token's text "on its own" is read the way the model reads the inside of a word: a BPE
piece that carries the word-start marker ``▁`` (or ``</w>``) is a whole word's start (or
end), and its other characters are replayed from single characters with the learned
merges; a piece without the marker is replayed without one. WordPiece takes the longest
match (a ``##`` piece as the inside of a word), Unigram the Viterbi path over the piece's
characters.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import train_bpe
>>> wc = load("toy:cat-bat")
>>> model = train_bpe(wc, merges=3, marker="sow")
>>> table = trained_table(model)
>>> table.pieces[-3:], [table.pieces[i] for i in table.alone(table.size - 1)]
(('at', '▁b', 'ag'), ['ag'])
>>> sorted(usage(model, wc).items())[:3]
[('ag', 16), ('at', 20), ('c', 15)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .. import registry
from ..corpus import WordCounts
from ..records import EOW, SOW
from .table import Table


def _bpe_alone(model) -> Callable[[int], tuple[int, ...]]:
    from dataclasses import replace

    from ..bpe.encode import _ranks, encode_word

    ranks, index = _ranks(model), {p: i for i, p in enumerate(model.vocab)}
    bare = replace(model, marker="none")

    def alone(k: int) -> tuple[int, ...]:
        piece, marker = model.vocab[k], model.marker
        if marker == "sow" and piece.startswith(SOW) and len(piece) > 1:
            trace = encode_word(model, piece[1:], ranks)
        elif marker in ("eow", "suffix") and piece.endswith(EOW) and len(piece) > len(EOW):
            trace = encode_word(model, piece[: -len(EOW)], ranks)
        else:
            trace = encode_word(bare, piece, ranks)
        return tuple(index.get(p, -1) for p in trace.final)

    return alone


def bpe_symbols(piece: str, marker: str) -> list[str]:
    """The single symbols a BPE piece is replayed from (a marker is one symbol).

    >>> bpe_symbols("▁cat", "sow"), bpe_symbols("at</w>", "eow"), bpe_symbols("t</w>", "suffix")
    (['▁', 'c', 'a', 't'], ['a', 't', '</w>'], ['t</w>'])
    """
    if marker == "eow" and piece.endswith(EOW) and len(piece) > len(EOW):
        return [*piece[: -len(EOW)], EOW]
    if marker == "suffix" and piece.endswith(EOW) and len(piece) > len(EOW):
        return [*piece[: -len(EOW) - 1], piece[-len(EOW) - 1 :]]
    return list(piece)


def _bytebpe_alone(model) -> Callable[[int], tuple[int, ...]]:
    from ..bytebpe.ranks import for_model
    from ..bytebpe.symbols import to_bytes, to_letters

    encoder = for_model(model)
    index = {symbol: i for i, symbol in enumerate(model.vocab)}

    def alone(k: int) -> tuple[int, ...]:
        try:
            text = to_bytes(model.vocab[k]).decode("utf-8")
        except UnicodeDecodeError:
            return ()
        found = [t for m in encoder.chunks(text) for t in encoder.tokens(m.group().encode())]
        return tuple(index.get(to_letters(t), -1) for t in found)

    return alone


def _wordpiece_alone(model) -> Callable[[int], tuple[int, ...]]:
    index = {p: i for i, p in enumerate(model.vocab)}

    def alone(k: int) -> tuple[int, ...]:
        piece, prefix = model.vocab[k], model.prefix
        inside = piece.startswith(prefix) and len(piece) > len(prefix)
        rest, out = (piece[len(prefix) :] if inside else piece), []
        while rest:  # longest match first, the inside of a word written with ##
            for end in range(len(rest), 0, -1):
                candidate = (prefix if inside or out else "") + rest[:end]
                if candidate in index:
                    out.append(index[candidate])
                    rest = rest[end:]
                    break
            else:
                return ()
        return tuple(out)

    return alone


def _unigram_alone(model) -> Callable[[int], tuple[int, ...]]:
    from ..lattice import max_piece_len, viterbi

    logp = dict(zip(model.pieces, model.logprobs, strict=True))
    index = {p: i for i, p in enumerate(model.pieces)}
    longest = max_piece_len(logp)

    def alone(k: int) -> tuple[int, ...]:
        pieces, _ = viterbi(model.pieces[k], logp, longest)
        return tuple(index.get(p, -1) for p in pieces)

    return alone


def vocab_of(model) -> tuple[str, ...]:
    """A trained model's tokens in id order (Unigram's pieces, the others' vocab)."""
    return tuple(model.pieces) if model.algorithm == "unigram" else tuple(model.vocab)


def data_of(model, piece: str) -> bytes:
    """A trained token's bytes: byte-level symbols through GPT-2's letters, others as text."""
    if model.algorithm == "bytebpe":
        from ..bytebpe.symbols import to_bytes

        return to_bytes(piece)
    return piece.encode("utf-8")


ALONE = {"bpe": _bpe_alone, "bytebpe": _bytebpe_alone, "wordpiece": _wordpiece_alone,
         "unigram": _unigram_alone}  # fmt: skip


def trained_table(model, name: str = "", label: str = "") -> Table:
    """The table of a model trained here (BPE, byte-level BPE, WordPiece or Unigram)."""
    algo = model.algorithm
    if algo not in ALONE:
        raise ValueError(f"Vocabulary health reads BPE, byte-level BPE, WordPiece and Unigram "
                         f"models, not {algo!r}.")  # fmt: skip
    pieces = vocab_of(model)
    specials = set(getattr(model, "special_tokens", ()))
    data = tuple(None if p in specials else data_of(model, p) for p in pieces)
    rank_of = None
    if algo == "bytebpe":
        from ..bytebpe.symbols import to_bytes

        numbers: dict[bytes, int] = {}
        for number, (left, right) in enumerate(model.merges, start=1):
            numbers.setdefault(to_bytes(left) + to_bytes(right), number)
        rank_of = lambda a, b: numbers.get(a + b)  # noqa: E731
    scores = tuple(model.logprobs) if algo == "unigram" else None
    unit = "byte" if algo == "bytebpe" else "character"
    return Table(name or algo, label or registry.LABELS[algo], tuple(range(len(pieces))),
                 pieces, data, ALONE[algo](model), unit, rank_of, scores, "trained")  # fmt: skip


def usage(model, wc: WordCounts) -> Counter[str]:
    """How often the final tokenizer produces each token on its training words."""
    cut = registry.of_model(model).word_segmenter(model)
    counts: Counter[str] = Counter()
    for word, count in wc.items():
        for piece in cut(word):
            counts[piece] += count
    return counts


def made_at(model, piece: str) -> int | None:
    """The merge (1 = first) that made a piece of a BPE or byte-level BPE model; None for
    the alphabet and for other algorithms."""
    for number, (left, right) in enumerate(getattr(model, "merges", ()), start=1):
        if left + right == piece:
            return number
    return None
