"""A vocabulary as a table of tokens: each id, how the vocabulary writes it, its bytes, and
how the tokenizer encodes the token's own text when it meets it as ordinary text.

One ``Table`` per tokenizer, built once per process for the pretrained ones:

- cl100k_base and Tekken: byte strings ranked by tiktoken's file; the token's text is
  encoded by our own byte-level encoder on those ranks (``bytebpe.ranks``, which the tests
  hold to tiktoken), as ordinary text: specials typed in text are cut like other text.
- Mistral v1 and v3: SentencePiece pieces, ``▁`` read as a space, a byte-fallback piece
  ``<0xE2>`` as its byte; the text is encoded by sentencepiece with the dummy prefix off
  (SentencePiece otherwise puts a ``▁`` before every text, so a word-inside piece such as
  ``ing`` could never come out alone).

>>> table = pretrained_table("cl100k_base")
>>> table.size, table.piece(15339), table.data_of(15339), table.alone(15339)
(100261, 'hello', b'hello', (15339,))
>>> table.piece(100257), table.data_of(100257)
('<|endoftext|>', None)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..pretrained import LABELS, files
from ..pretrained.base import display

# rank_of(left, right) -> the rank their merge has, or None when they never merge
RankOf = Callable[[Any, Any], "int | None"]


@dataclass(frozen=True, eq=False)
class Table:
    """Every token of one tokenizer, in id order.

    ``ids[k]``, ``pieces[k]`` (as the vocabulary writes it) and ``data[k]`` (its bytes; None
    for a special token) describe the k-th token; ``encode_alone(k)`` gives the ids the
    tokenizer produces for the token's text on its own. ``unit`` says what a merge tree's
    leaves are ("byte" or "character"); ``rank_of`` ranks a merge of two parts (None: no
    merge-based replay for this tokenizer), and ``order`` says which merges first: "rank"
    the lowest (cl100k_base, Tekken, BPE trained here), "score" the highest (SentencePiece
    BPE, whose ``rank_of`` gives the joined piece's score). ``scores`` are Unigram's
    log-probabilities.
    """

    name: str
    label: str
    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    data: tuple[bytes | None, ...]
    encode_alone: Callable[[int], tuple[int, ...]] = field(repr=False)
    unit: str = "byte"
    rank_of: RankOf | None = field(default=None, repr=False)
    scores: tuple[float, ...] | None = None
    kind: str = "pretrained"
    order: str = "rank"

    @property
    def size(self) -> int:
        return len(self.ids)

    @functools.cached_property
    def _position(self) -> dict[int, int]:
        return {token_id: k for k, token_id in enumerate(self.ids)}

    def position(self, token_id: int) -> int:
        """Where id `token_id` stands in the table; ValueError for an id it does not have."""
        k = self._position.get(token_id) if isinstance(token_id, int) else None
        if k is None:
            top = max(self.ids, default=-1)
            raise ValueError(
                f"{self.label} has no token with id {token_id!r}: its ids run from 0 to "
                f"{top:,}" + ("" if top + 1 == self.size else ", with gaps") + "."
            )
        return k

    def piece(self, token_id: int) -> str:
        return self.pieces[self.position(token_id)]

    def data_of(self, token_id: int) -> bytes | None:
        return self.data[self.position(token_id)]

    def alone(self, token_id: int) -> tuple[int, ...]:
        return self.encode_alone(self.position(token_id))


def as_text(data: bytes | None) -> str | None:
    """The token's bytes as text, or None when they are no valid UTF-8 (or a special)."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _ranked(name: str, ranks: dict[bytes, int], offset: int, specials: dict[int, str]) -> Table:
    """A tiktoken-style table: byte tokens by rank (id = rank + offset), then specials."""
    from ..bytebpe.encode import encode_text
    from ..bytebpe.ranks import for_tokenizer

    encoder = for_tokenizer(name)
    by_id: dict[int, tuple[str, bytes | None]] = {
        rank + offset: (display(token), token) for token, rank in ranks.items()
    }
    by_id.update({token_id: (text, None) for token_id, text in specials.items()})
    ids = tuple(sorted(by_id))
    pieces = tuple(by_id[i][0] for i in ids)
    data = tuple(by_id[i][1] for i in ids)

    def alone(k: int) -> tuple[int, ...]:
        text = as_text(data[k])
        return () if text is None else encode_text(encoder, text).ids

    def rank_of(left: bytes, right: bytes) -> int | None:
        rank = ranks.get(left + right)
        return None if rank is None else rank + offset

    return Table(name, LABELS[name], ids, pieces, data, alone, "byte", rank_of)


def _cl100k() -> Table:
    from ..pretrained.tiktoken_based import CL100K_SPECIALS, cl100k_ranks

    ranks = cl100k_ranks(str(files.locate("cl100k_base")))
    specials = {token_id: text for text, token_id in CL100K_SPECIALS.items()}
    return _ranked("cl100k_base", ranks, 0, specials)


def _tekken() -> Table:
    from ..pretrained.tiktoken_based import tekken_file

    _pattern, ranks, count, _listed = tekken_file(str(files.locate("tekken")))
    return _ranked("tekken", ranks, count, dict(enumerate(tekken_specials(count))))


def tekken_specials(count: int) -> list[str]:
    """The names of Tekken's special ids, as mistral-common names them (its file lists
    none: mistral-common gives the first ones their roles, the rest <SPECIAL_i>)."""
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    inner = MistralTokenizer.from_file(str(files.locate("tekken"))).instruct_tokenizer.tokenizer
    return [inner.id_to_piece(i) for i in range(count)]


def sentencepiece_pieces(processor) -> tuple[tuple[str, ...], tuple[bytes | None, ...]]:
    """Each piece of a SentencePiece model and its bytes: None for a control or unknown
    piece, the byte itself for a byte-fallback piece, else the piece with ▁ as a space."""
    pieces, data = [], []
    for i in range(processor.get_piece_size()):
        piece = processor.id_to_piece(i)
        pieces.append(piece)
        if processor.is_control(i) or processor.is_unknown(i) or processor.is_unused(i):
            data.append(None)
        elif processor.is_byte(i):
            data.append(bytes([int(piece[3:5], 16)]))
        else:
            data.append(piece.replace("\u2581", " ").encode("utf-8"))
    return tuple(pieces), tuple(data)


def without_dummy_prefix(model: bytes):
    """A SentencePieceProcessor of the serialized `model` that puts no ▁ before a text."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(model)
    proto.normalizer_spec.add_dummy_prefix = False
    return spm.SentencePieceProcessor(model_proto=proto.SerializeToString())


def _sentencepiece(name: str) -> Table:
    processor = without_dummy_prefix(files.read(name))
    pieces, data = sentencepiece_pieces(processor)
    # the pieces a merge can make (sentencepiece never merges characters into a byte piece)
    scores = {pieces[i]: processor.get_score(i) for i in range(len(pieces))
              if data[i] and not processor.is_byte(i)}  # fmt: skip

    def alone(k: int) -> tuple[int, ...]:
        text = as_text(data[k])
        return () if text is None else tuple(processor.encode(text))

    def rank_of(left: str, right: str) -> float | None:  # the score; the highest merges first
        return scores.get(left + right)

    ids = tuple(range(len(pieces)))
    return Table(name, LABELS[name], ids, pieces, data, alone, "character", rank_of,
                 order="score")  # fmt: skip


BUILDERS: dict[str, Callable[[], Table]] = {
    "cl100k_base": _cl100k,
    "tekken": _tekken,
    "mistral-v1": lambda: _sentencepiece("mistral-v1"),
    "mistral-v3": lambda: _sentencepiece("mistral-v3"),
}


@functools.cache
def pretrained_table(name: str) -> Table:
    """The table of a built-in pretrained tokenizer (read once per process)."""
    if name not in BUILDERS:
        known = ", ".join(BUILDERS)
        raise ValueError(
            f"There is no pretrained tokenizer called {name!r}; choose one of {known}."
        )
    return BUILDERS[name]()
