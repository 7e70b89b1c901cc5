"""Encode text with a byte-level model or a pretrained tokenizer's ranks, with a replay.

A trained model's tokens are written in GPT-2 letters (its vocabulary's spelling, so a
token's id is its position there); a pretrained tokenizer's as ``pretrained`` shows
them. Character offsets follow ``pretrained.base.char_spans``: a token covers every
character that has one of its bytes, so two tokens that cut a character apart share it.

>>> from subtok_core.bytebpe.train import train_bytebpe
>>> model = train_bytebpe(["low lower lowest"], merges=4)
>>> model.merges
(('l', 'o'), ('lo', 'w'), ('Ġ', 'low'), ('Ġlow', 'e'))
>>> coded = segment(model, "lowly")
>>> [(s.text, s.start, s.end) for s in coded.tokens]
[('low', 0, 3), ('l', 3, 4), ('y', 4, 5)]
>>> print("\\n".join(word_lines(coded)))
'lowly': [l][o][w][l][y]
  merge   1  [l] + [o]  -> [lo][w][l][y]
  merge   2  [lo] + [w]  -> [low][l][y]
"""

from __future__ import annotations

from collections.abc import Callable

from .. import limits
from ..pretrained.base import char_spans, display
from ..records import Encoded, SegmentTrace, Span
from .ranks import Encoder, for_model
from .records import ByteBpeModel, ChunkReplay
from .symbols import show, to_bytes, to_letters


def replay_text(encoder: Encoder, text: str, where: str = "cli") -> list[ChunkReplay]:
    """Every chunk of the text with the merges that encoded it, in order; a text over the
    replay limit of `where` ("web" or "cli") is refused."""
    limits.check("replay_bytes", len(text.encode("utf-8")), where)
    found = list(encoder.chunks(text))
    limits.check("chunk_bytes", max((len(m.group().encode()) for m in found), default=0), where)
    return [encoder.replay(m.group(), m.start()) for m in found]


def _spans(replay: ChunkReplay, written: Callable[[bytes], str]) -> list[Span]:
    """A chunk's tokens as spans of the whole text."""
    offsets = char_spans(replay.tokens)
    return [
        Span(written(token), replay.start + s, replay.start + e)
        for token, (s, e) in zip(replay.tokens, offsets, strict=True)
    ]


def segment(model: ByteBpeModel, text: str) -> SegmentTrace:
    """Encode a text chunk by chunk: tokens as spans (GPT-2 letters) plus every chunk's
    replay."""
    if not text.strip():
        raise ValueError("Type a word to encode.")
    replays = replay_text(for_model(model), text)
    tokens = [span for replay in replays for span in _spans(replay, to_letters)]
    return SegmentTrace(text, tuple(tokens), tuple(replays))


def word_segmenter(model: ByteBpeModel) -> Callable[[str], list[str]]:
    """word -> its tokens (GPT-2 letters) as the word is cut inside running text, after a
    space (the space shows as Ġ; the pattern "none" drops it); cached per chunk.

    >>> from subtok_core.bytebpe.train import train_bytebpe
    >>> word_segmenter(train_bytebpe(["low lower lowest"], merges=4))("lower")
    ['Ġlowe', 'r']
    """
    encoder = for_model(model)

    def cut(word: str) -> list[str]:
        chunks = encoder.chunks(" " + word)
        return [to_letters(t) for m in chunks for t in encoder.tokens(m.group().encode())]

    return cut


def encode_text(encoder: Encoder, text: str) -> Encoded:
    """A text as our encoder cuts it with a pretrained tokenizer's ranks: spans written as
    the pretrained tokenizers write them (whole characters as text, other bytes as hex),
    and ids; the same Encoded as the tokenizer's own library gives."""
    done: dict[str, tuple] = {}  # chunk -> its tokens as (text, start, end) and their ids
    spans: list[Span] = []
    ids: list[int] = []
    for m in encoder.chunks(text):
        chunk, at = m.group(), m.start()
        found = done.get(chunk)
        if found is None:  # a chunk met for the first time in this text
            tokens = encoder.tokens(chunk.encode("utf-8"))
            shown = [(display(t), s, e) for t, (s, e) in zip(tokens, char_spans(tokens))]
            found = done[chunk] = (shown, encoder.ids(tokens))
        spans.extend(Span(shown, at + s, at + e) for shown, s, e in found[0])
        ids.extend(found[1])
    return Encoded(tuple(spans), tuple(ids))


WHOLE_PARTS, AROUND = 40, 6  # a chunk of more parts shows AROUND parts each side of a merge


def replay_lines(replay: ChunkReplay, rank_word: str = "merge", style: str = "hex") -> list[str]:
    """One chunk's replay as lines: its bytes, then each merge with the parts after it.
    In "hex" every part is in brackets (a space inside shows), in "gpt2" letters apart.
    While a chunk has more than WHOLE_PARTS parts, a merge's line shows the AROUND parts on
    each side of the new one, "…" for the rest: every part of a 9,999-byte chunk after
    each of its 8,748 merges was 186 MB of lines (87 s and more)."""

    def parts_text(parts) -> str:
        if style == "gpt2":
            return " ".join(show(p, "gpt2") for p in parts)
        return "".join(f"[{show(p, 'hex')}]" for p in parts)

    def around(parts, i: int) -> str:
        if len(parts) <= WHOLE_PARTS:
            return parts_text(parts)
        lo, hi = max(0, i - AROUND), min(len(parts), i + AROUND + 1)
        return f"{'… ' if lo else ''}{parts_text(parts[lo:hi])}{' …' if hi < len(parts) else ''}"

    rows = replay.rows()
    _, first = next(rows)
    lines = [f"{replay.text!r}: {parts_text(first)}"]
    for merge, parts in rows:
        pair = f"{parts_text([merge.left])} + {parts_text([merge.right])}"
        lines.append(f"  {rank_word} {merge.rank:>3}  {pair}  -> {around(parts, merge.position)}")
    if replay.whole:
        whole = parts_text([replay.data])
        lines.append(f"  the chunk is one token of the vocabulary: taken whole, {whole}")
    return lines


def word_lines(encoded: SegmentTrace, model: ByteBpeModel | None = None) -> list[str]:
    """Per chunk, its bytes and every merge applied to them (``encode --trace``)."""
    return [line for replay in encoded.words for line in replay_lines(replay)]


def piece_alone(model) -> Callable[[int], tuple[int, ...]]:
    """Token k of the model's vocabulary cut on its own, as ids of that vocabulary (-1: a
    piece outside it; (): it cannot be cut): what vocabulary health calls reachable."""
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
