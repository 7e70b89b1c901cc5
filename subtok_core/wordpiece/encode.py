"""Encode with a WordPiece model: longest match first, from the start of each word.

>>> model = WordPieceModel(("f", "##u", "##s", "##ed"), ())
>>> segment(model, "fused funny").pieces
['f', '##u', '##s', '##ed', '[UNK]']
"""

from __future__ import annotations

from collections.abc import Callable

from .. import limits
from ..corpus import encode_words
from ..records import SegmentTrace, Span
from .records import Attempt, WordPieceModel, WordPieceWordTrace


def word_segmenter(model: WordPieceModel) -> Callable[[str], list[str]]:
    """word -> its pieces by longest match, with the vocabulary set built once.

    >>> word_segmenter(WordPieceModel(("f", "##u", "##s", "##ed"), ()))("fused")
    ['f', '##u', '##s', '##ed']
    """
    vocab = frozenset(model.vocab)
    longest = max(map(len, vocab), default=0)
    return lambda word: list(encode_word(model, word, vocab, longest=longest).pieces)


def encode_word(
    model: WordPieceModel,
    word: str,
    vocab: set[str] | frozenset[str] | None = None,
    offset: int = 0,
    longest: int | None = None,
) -> WordPieceWordTrace:
    """Longest match first: from the word start take the longest prefix in the vocabulary,
    then go on with the rest (with the ``##`` prefix). If some rest matches nothing, the
    whole word becomes [UNK].

    Every try is kept (the lesson lists them, longest first); with `longest`, the length of
    the vocabulary's longest piece, no try longer than that is made or kept (none could
    match, so the pieces are the same): a word of n characters costs n times that, not
    n squared over two (600 words of 199 characters under a crafted max_word_chars of
    10**12 took 48.7 s and 2.6 GB).

    >>> model = WordPieceModel(("f", "##u", "##s", "##ed"), ())
    >>> [(a.piece, a.found) for a in encode_word(model, "fused").attempts][-4:]
    [('##sed', False), ('##se', False), ('##s', True), ('##ed', True)]
    """
    vocab = vocab if vocab is not None else frozenset(model.vocab)
    if len(word) > model.max_word_chars:
        note = f"the word is longer than {model.max_word_chars} characters"
        return _unknown(model, word, offset, (), note)
    attempts: list[Attempt] = []
    pieces: list[str] = []
    widths: list[int] = []
    start = 0
    while start < len(word):
        mark = len(model.prefix) if start else 0
        top = len(word) if longest is None else min(len(word), start + longest - mark)
        for end in range(top, start, -1):
            piece = word[start:end] if start == 0 else model.prefix + word[start:end]
            attempts.append(Attempt(start, end, piece, piece in vocab))
            if attempts[-1].found:  # the longest piece that is in the vocabulary
                break
        else:
            return _unknown(model, word, offset, tuple(attempts), _no_match(model, word, start))
        pieces.append(piece)
        widths.append(end - start)
        start = end
    return WordPieceWordTrace(
        word, offset, tuple(attempts), tuple(pieces), tuple(widths), False, ""
    )


def _no_match(model: WordPieceModel, word: str, start: int) -> str:
    """Why the rest of a word from `start` on matches nothing."""
    mark = model.prefix if start > 0 else ""
    rest, first = mark + word[start:], mark + word[start]
    if rest == first:
        return f"{rest!r} is not in the vocabulary"
    return f"no start of {rest!r} is in the vocabulary, not even {first!r}"


def _unknown(
    model: WordPieceModel, word: str, offset: int, attempts: tuple[Attempt, ...], note: str
) -> WordPieceWordTrace:
    unk = model.unk_token
    note = f"{note}, so the whole word becomes {unk}."
    return WordPieceWordTrace(word, offset, attempts, (unk,), (len(word),), True, note)


def segment(model: WordPieceModel, text: str) -> SegmentTrace:
    """Encode a text word by word: tokens as spans plus each word's attempts (every try,
    until limits.WORDPIECE_TRIES are kept; then the tries no piece is long enough for are
    not made for the rest of the text).

    A span covers the characters of the word its piece stands for; the prefix covers none.

    >>> model = WordPieceModel(("f", "##u", "##s", "##ed"), ())
    >>> segment(model, "a fused").tokens[1:3]
    (Span(text='f', start=2, end=3), Span(text='##u', start=3, end=4))
    """
    if not text.strip():
        raise ValueError("Type a word to encode.")
    vocab = frozenset(model.vocab)
    longest = max(map(len, vocab), default=0)
    words, tokens, pos, tries = [], [], 0, limits.WORDPIECE_TRIES
    for word in encode_words(text, model.split_punct):
        start = text.index(word, pos)
        pos = start + len(word)
        every = len(word) * (len(word) + 1) // 2  # at most this many tries, all kept
        trace = encode_word(model, word, vocab, start, None if every <= tries else longest)
        tries -= len(trace.attempts)
        words.append(trace)
        edge = start
        for piece, width in zip(trace.pieces, trace.widths, strict=True):
            tokens.append(Span(piece, edge, edge + width))
            edge += width
    return SegmentTrace(text, tuple(tokens), tuple(words))


def word_lines(encoded: SegmentTrace, model: WordPieceModel | None = None) -> list[str]:
    """Per word, every longest-match attempt: the piece tried and whether it is known."""
    lines = []
    for word in encoded.words:
        lines.append(f"{word.word}:")
        lines += [f"  {a.piece}: {'yes' if a.found else 'no'}" for a in word.attempts]
        if word.unknown:
            lines.append(f"  {word.note}")
    return lines


def piece_alone(model) -> Callable[[int], tuple[int, ...]]:
    """Token k of the model's vocabulary cut on its own, as ids of that vocabulary (-1: a
    piece outside it; (): it cannot be cut): what vocabulary health calls reachable."""
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
