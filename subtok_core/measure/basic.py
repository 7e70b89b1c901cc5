"""Comparison metrics for tokenizers: one implementation each, over a vocabulary and/or a
corpus encoded by :func:`tokenize_corpus` (see metrics_tokenized for Tokenized and markers,
metrics_neighbours for the context metrics).

- token_lengths: characters per vocabulary entry (SaGe Fig. 1; Bostrom & Durrett Fig. 2a)
- fertility: tokens per word, by running word and by word type (SaGe Fig. 2; B&D Table 2)
- efficiency: tokens for the whole corpus, characters per token (SaGe §4)
- distinct_neighbours, neighbour_ratio: context (SaGe Fig. 3, Fig. 4)
- frequency_diff: tokens whose frequency differs most (SaGe Table 3; B&D Table 1)
- overlap: shared and own vocabulary entries, word-initial shares (SaGe §4)
- frequency_profile: frequency by rank and the rarely used "dead zone" (B&D Fig. 2b)

>>> halves = lambda w: [w[:1], w[1:]] if len(w) > 1 else [w]
>>> t = tokenize_corpus(halves, ["the cat", "an ox"])
>>> fertility(t).tokens_per_word, efficiency(t).chars_per_token
(2.0, 1.25)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .neighbours import NeighbourRatio, distinct_neighbours, neighbour_ratio
from .tokenized import (
    SPECIALS,
    Tokenized,
    bare,
    check_style,
    common_notation,
    length,
    model_style,
    tokenize_corpus,
    tokenize_with,
    vocab_style,
    word_initial,
    word_segmenter,
)

__all__ = [
    "Efficiency", "Fertility", "FrequencyProfile", "NeighbourRatio", "Overlap", "Tokenized",
    "distinct_neighbours", "efficiency", "fertility", "frequency_diff", "frequency_profile",
    "model_style", "neighbour_ratio", "overlap", "token_lengths", "tokenize_corpus",
    "tokenize_with", "vocab_style", "word_segmenter",
]  # fmt: skip


def _subwords(vocab: Sequence[str]) -> list[str]:
    """The vocabulary without special tokens and repeats, in its own order."""
    return [p for p in dict.fromkeys(vocab) if p not in SPECIALS]


def token_lengths(vocab: Sequence[str], style: str | None = None) -> pd.DataFrame:
    """How many vocabulary entries have each length in characters (markers not counted,
    special tokens left out, part of a character shown as bytes counted as one character).
    `style` is detected from the vocabulary when None.

    Columns: length (every length from the shortest to the longest), tokens, share.

    >>> token_lengths(["▁", "▁a", "b", "▁ab", "abc", "[UNK]"]).to_dict("list")
    {'length': [0, 1, 2, 3], 'tokens': [1, 2, 1, 1], 'share': [0.2, 0.4, 0.2, 0.2]}
    """
    style = check_style(style, vocab)
    lengths = [length(p, style) for p in _subwords(vocab)]
    if not lengths:
        raise ValueError("The vocabulary is empty: there is no token to measure.")
    counts = np.bincount(lengths)
    shortest = min(lengths)
    return pd.DataFrame(
        {"length": np.arange(shortest, len(counts)), "tokens": counts[shortest:],
         "share": counts[shortest:] / len(lengths)}
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Fertility:
    """Tokens per word. ``table``: for each number of subwords, how many running words
    (``words``) and distinct words (``word_types``) get that many, and their shares."""

    table: pd.DataFrame
    tokens: int
    words: int
    word_types: int
    tokens_per_word: float  # mean over running words (B&D "tokens per word")
    tokens_per_type: float  # mean over distinct words (B&D "tokens per word type")


def fertility(t: Tokenized) -> Fertility:
    """Subwords per word, as a histogram over running words and over word types.

    "ab a ab" cut into characters: ab twice (2 tokens), a once (1 token): 5 tokens for
    3 running words (5/3) and 3 tokens for 2 word types (3/2).

    >>> f = fertility(tokenize_corpus(list, ["ab a ab"]))
    >>> f.table[["subwords", "words", "word_types"]].values.tolist()
    [[1, 1, 1], [2, 2, 1]]
    >>> round(f.tokens_per_word, 4), f.tokens_per_type
    (1.6667, 1.5)
    """
    per_word = t.type_lengths[t.word_ids]
    by_word = np.bincount(per_word)
    by_type = np.bincount(t.type_lengths, minlength=len(by_word))
    used = np.flatnonzero(by_word)
    table = pd.DataFrame(
        {"subwords": used, "words": by_word[used], "word_types": by_type[used],
         "words_share": by_word[used] / len(per_word),
         "types_share": by_type[used] / len(t.type_lengths)}
    )  # fmt: skip
    tokens = len(t)
    return Fertility(
        table, tokens, len(per_word), len(t.type_lengths), tokens / len(per_word),
        float(t.type_lengths.mean()),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Efficiency:
    """How many tokens the whole corpus takes, and how many characters each carries."""

    name: str
    tokens: int
    words: int
    characters: int  # characters of the words: no spaces, no markers
    chars_per_token: float
    tokens_per_word: float


def efficiency(t: Tokenized) -> Efficiency:
    """Tokens for the whole corpus and characters per token.

    "low lower" as lo w / lo w er: 5 tokens for 8 characters.

    >>> table = {"low": ["lo", "w"], "lower": ["lo", "w", "er"]}
    >>> e = efficiency(tokenize_corpus(table.get, ["low lower"]))
    >>> e.tokens, e.characters, e.chars_per_token, e.tokens_per_word
    (5, 8, 1.6, 2.5)
    """
    characters = t.characters()
    words = len(t.word_ids)
    return Efficiency(t.name, len(t), words, characters, characters / len(t), len(t) / words)


def frequency_diff(a: Tokenized, b: Tokenized, top: int = 20) -> pd.DataFrame:
    """The tokens whose corpus frequency differs most between two encodings of one corpus:
    the `top` more frequent in A, then the `top` more frequent in B (ties alphabetical).

    Pieces are matched in a common notation of the two styles (see common_notation).
    Columns: token, freq_a, freq_b, difference (A - B), more_in (the encoding's name).

    >>> a = tokenize_corpus(list, ["ab ab c"], name="chars")
    >>> b = tokenize_corpus(lambda w: [w], ["ab ab c"], name="words")
    >>> frequency_diff(a, b, top=1).values.tolist()
    [['a', 2, 0, 2, 'chars'], ['ab', 0, 2, -2, 'words']]
    """
    if top < 1:
        raise ValueError(f"Show at least 1 token from each side; got top={top}.")
    if len(a.word_ids) != len(b.word_ids):
        raise ValueError(
            f"These are encodings of different corpora ({len(a.word_ids)} and "
            f"{len(b.word_ids)} running words); compare one corpus under two tokenizers."
        )
    notes = common_notation(a.style, b.style)
    freqs = [
        pd.Series(t.frequencies(), index=[note(p) for p in t.pieces]).groupby(level=0).sum()
        for t, note in zip((a, b), notes, strict=True)
    ]
    both = pd.concat(freqs, axis=1, keys=["freq_a", "freq_b"]).fillna(0).astype(np.int64)
    both["difference"] = both["freq_a"] - both["freq_b"]
    both = both.rename_axis("token").reset_index()
    more_a = both[both["difference"] > 0].sort_values(["difference", "token"], ascending=[0, 1])
    more_b = both[both["difference"] < 0].sort_values(["difference", "token"])
    more_a = more_a.head(top).assign(more_in=a.name or "A")
    more_b = more_b.head(top).assign(more_in=b.name or "B")
    return pd.concat([more_a, more_b], ignore_index=True)


@dataclass(frozen=True, slots=True)
class Overlap:
    """Shared and own entries of two vocabularies, written in one ``notation`` (a style).

    ``table`` has one row per part (shared, only in A, only in B) with columns part, tokens,
    word_initial (how many start a word), word_initial_share (NaN when the notation does
    not mark word starts) and examples (the first entries of the part in vocab order,
    those of two or more characters before single characters).
    """

    notation: str
    table: pd.DataFrame
    shared: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]


def overlap(
    vocab_a: Sequence[str],
    vocab_b: Sequence[str],
    examples: int = 10,
    style_a: str | None = None,
    style_b: str | None = None,
    names: tuple[str, str] = ("A", "B"),
) -> Overlap:
    """Which vocabulary entries two tokenizers share, which each has alone, and how many of
    each part are word-initial (SaGe: 83% of SaGe-only tokens, 22% of BPE-only).

    Word-initial: ``▁`` in front (sow) or no ``##`` in front (wordpiece); a sow and a
    wordpiece vocabulary are both written in ▁-notation first. Special tokens are left out.

    >>> o = overlap(["▁a", "b", "▁ab"], ["a", "##b", "ac"])
    >>> o.table[["part", "tokens", "word_initial", "examples"]].values.tolist()
    [['shared', 2, 1, ['▁a', 'b']], ['only in A', 1, 1, ['▁ab']], ['only in B', 1, 1, ['▁ac']]]
    """
    sa, sb = check_style(style_a, vocab_a), check_style(style_b, vocab_b)
    note_a, note_b = common_notation(sa, sb)
    notation = sa if sa == sb else "sow"
    a = list(dict.fromkeys(note_a(p) for p in _subwords(vocab_a)))
    b = list(dict.fromkeys(note_b(p) for p in _subwords(vocab_b)))
    in_a, in_b = set(a), set(b)
    parts = {
        "shared": tuple(p for p in a if p in in_b),
        f"only in {names[0]}": tuple(p for p in a if p not in in_b),
        f"only in {names[1]}": tuple(p for p in b if p not in in_a),
    }
    rows = []
    for part, tokens in parts.items():
        marks = [word_initial(p, notation) for p in tokens]
        initial = None if notation in ("eow", "none") else sum(marks)
        share = initial / len(tokens) if initial is not None and tokens else float("nan")
        rows.append((part, len(tokens), initial, share, _examples(tokens, notation, examples)))
    columns = ["part", "tokens", "word_initial", "word_initial_share", "examples"]
    return Overlap(notation, pd.DataFrame(rows, columns=columns), *parts.values())


def _examples(tokens: tuple[str, ...], notation: str, limit: int) -> list[str]:
    """The first `limit` tokens, longer than one character first (an alphabet says little)."""
    longer = [p for p in tokens if len(bare(p, notation)) > 1]
    return (longer + [p for p in tokens if len(bare(p, notation)) <= 1])[:limit]


@dataclass(frozen=True, slots=True)
class FrequencyProfile:
    """Every vocabulary entry's corpus frequency by rank (``table``: rank, token,
    frequency, high to low, unused entries last), and the size of the "dead zone"."""

    table: pd.DataFrame
    rare_below: int
    rare: int  # entries used fewer than rare_below times (unused ones included)
    unused: int  # entries never used
    outside: int  # running tokens that are no vocabulary entry, such as [UNK]


def frequency_profile(t: Tokenized, vocab: Sequence[str], rare_below: int = 10) -> FrequencyProfile:
    """Frequency by rank over the whole vocabulary (Bostrom & Durrett Fig. 2b).

    >>> t = tokenize_corpus(list, ["ab a"])
    >>> p = frequency_profile(t, ["a", "b", "c", "ab"], rare_below=2)
    >>> p.table.values.tolist(), p.rare, p.unused
    ([[1, 'a', 2], [2, 'b', 1], [3, 'c', 0], [4, 'ab', 0]], 3, 2)
    """
    entries = _subwords(vocab)
    if not entries:
        raise ValueError("The vocabulary is empty: there is no token to count.")
    found = dict(zip(t.pieces, t.frequencies().tolist(), strict=True))
    freqs = np.array([found.get(p, 0) for p in entries], dtype=np.int64)
    outside = len(t) - int(freqs.sum())
    if outside == len(t):
        raise ValueError("No token of this corpus is in the vocabulary: is it the same tokenizer?")
    order = np.argsort(-freqs, kind="stable")
    table = pd.DataFrame(
        {"rank": np.arange(1, len(entries) + 1), "token": np.asarray(entries, dtype=object)[order],
         "frequency": freqs[order]}
    )  # fmt: skip
    rare = int((freqs < rare_below).sum())
    return FrequencyProfile(table, rare_below, rare, int((freqs == 0).sum()), outside)
