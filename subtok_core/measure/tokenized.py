"""A corpus as a tokenizer encodes it (Tokenized), and how markers are read in a vocabulary.

Every comparison metric (metrics.py) reads a :class:`Tokenized`: the running tokens as ids
into ``pieces``, and for each token the running word and the line it belongs to. It is
built by :func:`tokenize_corpus`, which encodes each distinct word once and then expands
the running text with numpy, so a 500,000-word sample costs one call per distinct word.

>>> t = tokenize_corpus(lambda w: [w[:1], w[1:]] if len(w) > 1 else [w], ["ab a", "ab"])
>>> [t.pieces[i] for i in t.ids], t.word_index.tolist(), t.line_index.tolist()
(['a', 'b', 'a', 'a', 'b'], [0, 0, 1, 2, 2], [0, 0, 0, 1, 1])

Marker styles (one per vocabulary): see subtok_core/markers.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import registry
from ..corpus import WordCounts, split_words
from ..markers import (  # noqa: F401  (the measures' names for them)
    PREFIX,
    SOW,
    STYLE_TEXT,
    STYLES,
    bare,
    check_style,
    model_style,
    vocab_style,
    word_initial,
)
from ..markers import continues as _continues
from ..tokenizer import tokenizer

SPECIALS = frozenset({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "<unk>", "<s>", "</s>"})


# how a pretrained tokenizer shows a piece holding part of a character: hex bytes
# (<F0 9F>, see pretrained.base.display) or a SentencePiece byte-fallback piece (<0xF0>)
BYTES_SHOWN = re.compile(r"<(?:0x[0-9A-F]{2}|[0-9A-F]{2}(?: [0-9A-F]{2})*)>")


def length(piece: str, style: str) -> int:
    """A piece's length in characters, its marker not counted; bytes shown in angle
    brackets stand for part of one character and count as one.

    >>> length("▁the", "sow"), length("ра<D0>", "sow"), length("<0xF0>", "sow")
    (3, 3, 1)
    """
    return len(BYTES_SHOWN.sub("?", bare(piece, style)))


def common_notation(style_a: str, style_b: str) -> tuple[Callable[[str], str], ...]:
    """Functions that write the pieces of two vocabularies alike: unchanged when both use
    the same style; ▁-notation when one is sow and the other wordpiece (##ing -> ing,
    the -> ▁the). Other mixes cannot be matched: a ValueError says why.
    """
    if style_a == style_b:
        return (str, str)
    if {style_a, style_b} != {"sow", "wordpiece"}:
        raise ValueError(
            f"The first vocabulary marks {STYLE_TEXT[style_a]}, the second "
            f"{STYLE_TEXT[style_b]}, so their pieces cannot be matched one to one. "
            "Compare tokenizers trained with the same marker (or ▁ against ##)."
        )
    return tuple(str if s == "sow" else _to_sow for s in (style_a, style_b))


def _to_sow(piece: str) -> str:
    if piece in SPECIALS:
        return piece
    return piece[len(PREFIX) :] if _continues(piece) else SOW + piece


@dataclass(frozen=True, slots=True, eq=False)
class Tokenized:
    """A corpus encoded by one tokenizer (read-only numpy arrays; compare fields, not objects).

    ``ids[k]`` is the k-th running token (an index into ``pieces``), ``word_index[k]`` the
    running word it belongs to, ``line_index[k]`` its line (None when the corpus came as
    word counts, which keep no running order). ``word_ids[j]`` is the distinct word
    (index into ``words``) of running word j; ``type_lengths[i]`` the tokens of word i.
    ``style`` is the tokenizer's marker style (see STYLES).
    """

    name: str
    style: str
    pieces: tuple[str, ...]
    ids: np.ndarray
    word_index: np.ndarray
    line_index: np.ndarray | None
    words: tuple[str, ...]
    word_ids: np.ndarray
    type_lengths: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)

    def frequencies(self) -> np.ndarray:
        """How often each piece occurs in the running tokens (aligned with ``pieces``)."""
        return np.bincount(self.ids, minlength=len(self.pieces))

    def characters(self) -> int:
        """Characters of the running words (spaces and markers not counted)."""
        lengths = np.fromiter(map(len, self.words), dtype=np.int64, count=len(self.words))
        return int(lengths[self.word_ids].sum())


def _running_words(source, split_punct: bool) -> tuple[np.ndarray, tuple[str, ...], np.ndarray]:
    """Word ids of the running words, the distinct words, and the line of each running word
    (None for WordCounts, which are expanded count by count in first-appearance order)."""
    if isinstance(source, WordCounts):
        if not source.words:
            raise ValueError("The corpus is empty: give it at least one word.")
        ids = np.repeat(np.arange(len(source.words)), np.asarray(source.counts, dtype=np.int64))
        return ids, tuple(source.words), None
    if isinstance(source, str):
        source = source.splitlines()
    per_line = [split_words(line, split_punct) for line in source]
    flat = [w for words in per_line for w in words]
    if not flat:
        raise ValueError("The corpus is empty: there is no word to tokenize.")
    codes, uniques = pd.factorize(pd.Series(flat, dtype=object), sort=False)
    lines = np.repeat(np.arange(len(per_line)), [len(words) for words in per_line])
    return codes.astype(np.int64), tuple(uniques), lines


def tokenize_corpus(
    segment_word: Callable[[str], Sequence[str]],
    source: WordCounts | Sequence[str] | str,
    name: str = "",
    split_punct: bool = False,
    style: str | None = None,
) -> Tokenized:
    """Encode a corpus: each distinct word once with `segment_word`, then the running text.

    `source` is the lines of a text (a str is split into lines) or a WordCounts; words are
    split as corpus.split_words does. Windows of the neighbour metrics stop at line ends.
    `style` is the tokenizer's marker style; when None it is read off the pieces it used.
    """
    word_ids, words, word_lines = _running_words(source, split_punct)
    piece_id: dict[str, int] = {}
    flat: list[int] = []
    type_lengths = np.zeros(len(words), dtype=np.int64)
    for i, word in enumerate(words):  # one call per distinct word: the costly part
        cut = list(segment_word(word))
        if not cut:
            raise ValueError(f"The tokenizer gave no token at all for the word {word!r}.")
        flat.extend(piece_id.setdefault(p, len(piece_id)) for p in cut)
        type_lengths[i] = len(cut)
    # expand: running word j takes the tokens of its distinct word, in order
    offsets = np.concatenate(([0], np.cumsum(type_lengths)[:-1]))
    lengths = type_lengths[word_ids]
    word_index = np.repeat(np.arange(len(word_ids)), lengths)
    first = np.cumsum(lengths) - lengths  # position of each running word's first token
    within = np.arange(len(word_index)) - first[word_index]
    ids = np.asarray(flat, dtype=np.int32)[offsets[word_ids][word_index] + within]
    line_index = None if word_lines is None else word_lines[word_index]
    for array in (ids, word_index, line_index, word_ids, type_lengths):
        if array is not None:
            array.setflags(write=False)
    pieces = tuple(piece_id)
    style = check_style(style, pieces)
    return Tokenized(name, style, pieces, ids, word_index, line_index, words, word_ids,
                     type_lengths)  # fmt: skip


def word_segmenter(model) -> Callable[[str], list[str]]:
    """word -> pieces for any trained model, with the model's lookup tables built once
    (not once per word)."""
    return registry.of_model(model).word_segmenter(model)


def segmenter_of(model) -> tuple[Callable[[str], Sequence[str]], str]:
    """word -> pieces, and the marker style, of a trained model or a pretrained tokenizer
    (which carries both; each word cut as inside running text)."""
    tok = tokenizer(model)
    return tok.word_segmenter(), tok.style


def tokenize_with(model, source: WordCounts | Sequence[str] | str, name: str = "") -> Tokenized:
    """tokenize_corpus with a trained model or a pretrained tokenizer: its segmenter, its
    style, its word splitting (a pretrained one splits at whitespace only).

    >>> from subtok_core import bpe
    >>> from subtok_core.corpus import load
    >>> t = tokenize_with(bpe.train_bpe(load("toy:cat-bat"), merges=3, marker="sow"), ["bags"])
    >>> t.style, [t.pieces[i] for i in t.ids]
    ('sow', ['▁b', 'ag', 's'])
    """
    split_punct = bool(getattr(model, "split_punct", False))
    segment_word, style = segmenter_of(model)
    return tokenize_corpus(segment_word, source, name, split_punct, style)
