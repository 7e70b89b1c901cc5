"""WordPiece and SaGe models as tokenizers' WordPiece: longest match first, left to right.

WordPiece maps one to one: the vocabulary with the same ids, our ``##`` prefix as
``continuing_subword_prefix``, the same longest word (``max_input_chars_per_word``), and
a word with a rest that matches nothing becomes the unknown token as a whole, in both.

SaGe cuts ``▁`` + word by greedy longest prefix with no continuation prefix, which is
WordPiece with an empty prefix, except for a character never seen in training: there
SaGe writes [UNK] for that character alone and goes on, where WordPiece would give up the
whole word. Such a character is in no piece, so the pre-tokenizer cuts it off as a word of
its own: it becomes [UNK] alone, and the rest of the word is cut as SaGe cuts it.

One difference is left (:func:`notes`): the file must hold the unknown token as a piece
(tokenizers requires it), so when our vocabulary has no such piece and punctuation is not
split off, the text ``[UNK]`` typed in a word is read as that piece by the file and
spelled out by ours.

>>> from subtok_core.wordpiece import WordPieceModel
>>> tok = build_wordpiece(WordPieceModel(("f", "##u", "##s", "##ed"), ()))
>>> tok.encode("fused funny").tokens
['f', '##u', '##s', '##ed', '[UNK]']
>>> from subtok_core.sage import SageModel
>>> tok = build_sage(SageModel(("▁", "a", "b", "▁a", "ab", "▁ab")))
>>> tok.encode("abba abc").tokens
['▁ab', 'b', 'a', '▁ab', '[UNK]']
"""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, pre_tokenizers

from ..records import SOW, UNK
from ..sage.records import SageModel
from ..wordpiece.records import WordPieceModel
from . import words

# SaGe has no longest word; tokenizers needs one (its counter is a 64-bit number)
SAGE_MAX_WORD = 2**31 - 1


def _ids(vocab: tuple[str, ...], unk: str) -> dict[str, int]:
    """Piece -> id in our order (the ids our encoders give); the unknown token last when
    the vocabulary does not have it."""
    ids: dict[str, int] = {}
    for piece in vocab:
        ids.setdefault(piece, len(ids))
    ids.setdefault(unk, len(ids))
    return ids


def notes(model: WordPieceModel | SageModel) -> list[str]:
    """What the exported file may still do otherwise (see the module's docstring)."""
    unk = getattr(model, "unk_token", UNK)
    if unk in model.vocab or model.split_punct:
        return []
    return [
        f"The file must hold {unk} as a piece and this vocabulary does not, so where the "
        f"text {unk} itself is typed in a word, the file reads it as the unknown token and "
        "subtok spells it out."
    ]


def check_wordpiece(model: WordPieceModel) -> None:
    """Every WordPiece model exports (nothing to refuse)."""


def build_wordpiece(model: WordPieceModel) -> Tokenizer:
    """tokenizers' WordPiece with our vocabulary, prefix, unknown token and longest word."""
    wordpiece = models.WordPiece(
        _ids(model.vocab, model.unk_token), unk_token=model.unk_token,
        max_input_chars_per_word=model.max_word_chars, continuing_subword_prefix=model.prefix,
    )  # fmt: skip
    tok = Tokenizer(wordpiece)
    tok.pre_tokenizer = words.pre_tokenizer(model.split_punct)
    tok.decoder = decoders.WordPiece(prefix=model.prefix, cleanup=False)
    return tok


def check_sage(model: SageModel) -> None:
    """Refuse a SaGe vocabulary with a piece whose characters are not pieces themselves
    (the cut around unseen characters would then not be SaGe's)."""
    single = {piece for piece in model.vocab if len(piece) == 1}
    for piece in model.vocab:
        missing = [ch for ch in piece if ch not in single]
        if missing:
            raise ValueError(
                f"The SaGe piece {piece!r} holds {missing[0]!r}, which is no piece of its own; "
                "tokenizers would cut the words around it differently, so this vocabulary "
                "cannot be exported."
            )


def build_sage(model: SageModel) -> Tokenizer:
    """tokenizers' WordPiece with no prefix, after ``▁`` in front of every word and with
    every unseen character cut off on its own (see the module's docstring)."""
    check_sage(model)
    known = {piece for piece in model.vocab if len(piece) == 1}
    wordpiece = models.WordPiece(
        _ids(model.vocab, UNK), unk_token=UNK, max_input_chars_per_word=SAGE_MAX_WORD,
        continuing_subword_prefix="",
    )  # fmt: skip
    tok = Tokenizer(wordpiece)
    tok.normalizer = words.normalizer(SOW, "start", model.split_punct)
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [words.pre_tokenizer(model.split_punct, SOW, "start"), words.isolate(known)]
    )
    tok.decoder = decoders.Metaspace(replacement=SOW, prepend_scheme="always")
    return tok
