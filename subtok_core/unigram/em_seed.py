"""The seed of the EM variant of Unigram LM, as SentencePiece makes it, and its lattices.

SentencePiece reads its seed from a suffix array of the running text (every line, words
joined by ``▁``, lines ended by a separator): the candidates are the substrings followed
by at least two different characters somewhere (the branches of the suffix tree; a
substring always followed by the same character is no candidate, the longer one is just
as frequent). The next word's ``▁`` and the end of a line count as characters. Two
followers differ, for sentencepiece 0.2, when the first bytes of their UTF-8 encodings
differ: é and ü (C3 ..) are one follower, ▁ and – (E2 ..) one, a and é two (found by
comparing seed sizes; tests/test_unigram_coverage.py holds the seeds of sample:lee and
sample:enwiki to sentencepiece's own count). We find the same candidates from the word
counts:

- a substring inside a word is followed by the word's next character;
- at a word's end it is followed by the next word's ``▁``, or by the end of a line:
  ``WordCounts.line_ends`` says how many times each word ends a line (corpus.count_lines;
  from_text and the samples keep them). A word table has no lines; each distinct word is
  read as a line of its own, the word repeated count times (as corpus.load_lines writes a
  toy table out), so a word seen twice is followed by both ``▁`` and a line's end.

Each candidate's score is its frequency x its length, the frequency counting every
occurrence in the running text (a word's count times its occurrences in the word). The
seed is every character, by frequency, then the best `seed_size` candidates. Like
SentencePiece, a piece never mixes scripts (letters of one script; digits and punctuation
count as one script) and ``▁`` only starts a piece. The characters beyond
`character_coverage` (em_coverage.py) are no piece and in none, but still follow. On the
toy tables of the tests the seed has as many pieces as sentencepiece 0.2's ("Initialized
N seed pieces"). One
difference: sentencepiece 0.2 counts the very end of its text (the end of the last line)
as a follower unlike every other line's end, so a substring ending the corpus's last word
may be a candidate there and not here.

Worked example, the table hug 10, pug 5, hugs 5 read as three lines ``▁hug▁hug…▁hug``,
``▁pug…``, ``▁hugs…``: ``▁hug`` is followed by ``▁``, by a line's end and by ``s``, a
candidate of score 15 x 4 = 60; ``▁h`` is always followed by ``u``, no candidate; ``gs``
(5 times, followed by ``▁`` and a line's end) is one of score 5 x 2 = 10.

>>> from subtok_core.corpus import from_pairs
>>> seed = build_seed(from_pairs([("hug", 10), ("pug", 5), ("hugs", 5)]), "sow", 100, 16)
>>> seed.pieces[:6], seed.n_chars
(['▁', 'u', 'g', 'h', 'p', 's'], 6)
>>> [(p, int(f)) for p, f in zip(seed.pieces[6:], seed.freq[6:])]  # doctest: +NORMALIZE_WHITESPACE
[('▁hug', 15), ('hug', 15), ('ug', 20), ('▁hugs', 5), ('▁pug', 5),
 ('hugs', 5), ('pug', 5), ('ugs', 5), ('gs', 5)]

Ties: seed substrings of equal score keep the order in which they first appear in the
corpus.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..corpus import WordCounts
from ..records import SOW
from .em_arrays import Lattices
from .em_coverage import DEFAULT_COVERAGE, RARE, masked, rare_characters, split_at_rare

LINE_END, NEXT_WORD = -2, -1  # what follows a word's last character
SEED_SIZE, MAX_PIECE_LEN = 1_000_000, 16  # SentencePiece's defaults
_SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "KATAKANA-HIRAGANA": "CJK"}


@dataclass(frozen=True)
class Seed:
    """Seed pieces (characters first), their frequencies and log-probabilities, and the
    lattices of every marked word over them."""

    pieces: list[str]
    freq: np.ndarray
    logp: np.ndarray
    n_chars: int
    lattices: Lattices
    alphabet: tuple[str, ...]  # characters in order of first appearance
    candidates: int  # substrings that passed the filter (before the top seed_size)
    weights: np.ndarray  # per lattice: its word's count
    owner: np.ndarray  # per lattice: its word (a word is cut at its rare characters)
    rare: tuple[str, ...]  # the characters beyond the coverage, read as <unk>


@functools.cache
def _script(ch: str) -> str:
    """A character's script, roughly as Unicode names it; ``▁`` is a script of its own."""
    if ch == SOW:
        return SOW
    if ch.isalpha():
        name = unicodedata.name(ch, "?").split(" ")[0]
        return _SAME_SCRIPT.get(name, name)
    return "MARK" if unicodedata.category(ch).startswith("M") else "COMMON"


def _runs(word: str) -> tuple[int, ...]:
    """Lengths of the runs of characters of one script."""
    if word.isascii() and word.isalpha():
        return (len(word),)
    runs, prev = [], None
    for ch in word:
        script = _script(ch)
        if script == prev:
            runs[-1] += 1
        else:
            runs.append(1)
            prev = script
    return tuple(runs)


@functools.lru_cache(maxsize=65536)
def _spans(runs: tuple[int, ...], sow: bool, max_len: int) -> tuple[tuple[slice, ...], np.ndarray]:
    """Every valid substring of a word with these runs, by start then end: as slices, and
    as a (2, n) array of (start, end)."""
    spans = []
    if sow:  # ▁ alone, or starting the first run
        spans += [(0, j) for j in range(1, min(1 + (runs[0] if runs else 0), max_len) + 1)]
    pos = int(sow)
    for run in runs:
        for i in range(pos, pos + run):
            spans += [(i, j) for j in range(i + 1, min(pos + run, i + max_len) + 1)]
        pos += run
    return tuple(slice(i, j) for i, j in spans), np.array(spans, dtype=np.int64).reshape(-1, 2).T


def _occurrences(marked: list[str], words: tuple[str, ...], sow: bool, max_len: int):
    """Every valid substring occurrence: the substrings (by first appearance), and per
    occurrence its substring id, word, start and end."""
    found: list[str] = []  # every occurrence's substring, word after word
    arrays = []
    for mw, word in zip(marked, words):
        slices, array = _spans(_runs(word), sow, max_len)
        found.extend(map(mw.__getitem__, slices))
        arrays.append(array)
    # each occurrence's substring id, ids in order of first appearance (hashed in C)
    sub, strings = pd.factorize(np.array(found, dtype=object))
    sizes = np.fromiter((a.shape[1] for a in arrays), dtype=np.int64, count=len(arrays))
    start, end = np.concatenate(arrays, axis=1)
    word = np.repeat(np.arange(len(marked)), sizes)
    return list(strings), sub.astype(np.int64), word, start, end


def _followers(sub, word, end, marked, ends, counts) -> tuple[np.ndarray, np.ndarray]:
    """Per occurrence, what follows it: inside a word the word's next character (its code),
    at a word's end the next word's ``▁`` (NEXT_WORD) or the end of a line (LINE_END), the
    latter if the word always ends a line (`ends`: how many of each word's `counts`
    occurrences end a line); and whether it is followed by both (a word ending some lines)."""
    codes = np.frombuffer(
        "".join(marked).encode("utf-32-le", "surrogatepass"), dtype=np.uint32
    ).astype(np.int64)
    lengths = np.fromiter(map(len, marked), dtype=np.int64, count=len(marked))
    offset = np.cumsum(lengths) - lengths
    inside = end < lengths[word]
    ends, counts = ends[word], counts[word]
    last = np.where(ends >= counts, LINE_END, NEXT_WORD)
    after = np.where(inside, codes[np.minimum(offset[word] + end, codes.size - 1)], last)
    return after, ~inside & (ends > 0) & (ends < counts)


def _first_byte(after: np.ndarray) -> np.ndarray:
    """A follower as sentencepiece 0.2's suffix array tells it apart: by the first byte of
    its UTF-8 encoding (the next word's ▁ is E2, like ▅ and every character from U+2000
    to U+2FFF); a line's end stays apart from every character."""
    code = np.where(after == NEXT_WORD, ord(SOW), after)
    return np.select(
        [code < 0x80, code < 0x800, code < 0x10000],
        [code, 0xC0 | (code >> 6), 0xE0 | (code >> 12)],
        0xF0 | (code >> 18),
    )  # a line's end (negative) stays itself


def _branching(sub, after, both, n_ids) -> np.ndarray:
    """Whether each substring is followed by two different followers somewhere (told
    apart by their first UTF-8 byte, _first_byte)."""
    after = _first_byte(after)
    some = np.zeros(n_ids, dtype=np.int64)
    some[sub] = after  # the follower of one occurrence (whichever write numpy keeps)
    differs = (after != some[sub]) | both
    return np.bincount(sub, weights=differs, minlength=n_ids) > 0


@dataclass(frozen=True)
class _Substrings:
    """Every valid substring of the marked words, and every occurrence of each."""

    strings: list[str]  # by first appearance
    sub: np.ndarray  # per occurrence: substring id, word, start, end, follower
    word: np.ndarray
    start: np.ndarray
    end: np.ndarray
    after: np.ndarray
    both: np.ndarray  # the occurrence is followed by both ▁ and a line's end
    freq: np.ndarray  # per substring: occurrences in the running text, length, candidate
    length: np.ndarray
    branching: np.ndarray
    lengths: list[int]  # of the marked words
    marked: list[str]
    valid: np.ndarray  # per substring: holds no rare character (RARE)


def _substrings(wc: WordCounts, marker: str, max_len: int) -> _Substrings:
    sow = marker == "sow"
    marked = [SOW + w for w in wc.words] if sow else list(wc.words)
    # every valid substring occurrence, and each substring's frequency in the running text
    strings, sub, word, start, end = _occurrences(marked, wc.words, sow, max_len)
    counts = np.asarray(wc.counts, dtype=np.int64)
    # a word table has no lines: each distinct word is read as a line of its own
    ends = np.asarray(wc.line_ends or (1,) * len(marked), dtype=np.int64)
    freq = np.bincount(sub, weights=counts[word].astype(float), minlength=len(strings))
    length = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    after, both = _followers(sub, word, end, marked, ends, counts)
    branching = _branching(sub, after, both, len(strings))
    lengths = [len(m) for m in marked]
    if any(RARE in m for m in marked):
        valid = np.fromiter((RARE not in t for t in strings), dtype=bool, count=len(strings))
    else:
        valid = np.ones(len(strings), dtype=bool)
    return _Substrings(strings, sub, word, start, end, after, both, freq, length, branching,
                       lengths, marked, valid)  # fmt: skip


def build_seed(wc: WordCounts, marker: str, seed_size: int, max_len: int,
               character_coverage: float = DEFAULT_COVERAGE) -> Seed:  # fmt: skip
    """Characters by frequency, then the top `seed_size` substrings by frequency x length;
    the characters beyond `character_coverage` are none of them (em_coverage.py)."""
    rare = rare_characters(wc, marker, character_coverage)
    s = _substrings(masked(wc, rare), marker, max_len)
    order = np.arange(len(s.strings))
    # the characters by frequency, then the candidates by frequency x length
    single = (s.length == 1) & s.valid
    chars = order[single][np.argsort(-s.freq[single], kind="stable")]
    ok = (s.length > 1) & (s.freq >= 2) & s.branching & s.valid
    score = s.freq * s.length
    longer = order[ok][np.argsort(-score[ok], kind="stable")][:seed_size]
    chosen = np.concatenate((chars, longer))
    # every occurrence of a chosen piece is an edge of its word's lattice
    position = np.full(len(s.strings), -1)
    position[chosen] = np.arange(chosen.size)
    edge = position[s.sub] >= 0
    counts = np.asarray(wc.counts, dtype=float)
    if rare:  # a rare character is <unk>, the only path across it: cut the words there
        lengths, owner, part, start, end = split_at_rare(
            s.marked, s.word[edge], s.start[edge], s.end[edge]
        )
        lattices = Lattices(lengths, part, start, end, position[s.sub[edge]])
    else:
        owner = np.arange(len(s.lengths))
        lattices = Lattices(s.lengths, s.word[edge], s.start[edge], s.end[edge],
                            position[s.sub[edge]])  # fmt: skip
    weight = score[chosen]
    return Seed(
        [s.strings[i] for i in chosen], s.freq[chosen], np.log(weight) - np.log(weight.sum()),
        chars.size, lattices, tuple(s.strings[i] for i in sorted(chars)), int(ok.sum()),
        counts[owner], owner, tuple(sorted(rare)),
    )  # fmt: skip


# --- the seed step by step (the Unigram page) ------------------------------------------

LINE_END_TEXT, NEXT_WORD_TEXT = "end of line", "▁ (next word)"


@dataclass(frozen=True, slots=True)
class SeedCandidate:
    """One substring longer than a character: its frequency in the running text, score
    (frequency x length), what follows it, whether it is a candidate and in the seed."""

    piece: str
    freq: int
    score: int
    followers: tuple[str, ...]
    candidate: bool
    kept: bool


@dataclass(frozen=True)
class SeedSteps:
    """How the seed is made: the characters, the substrings, those seen at least twice, the
    candidates (two different followers), those kept; and the best `rows` substrings."""

    chars: int
    substrings: int
    seen_twice: int
    candidates: int
    kept: int
    rows: tuple[SeedCandidate, ...]


def seed_steps(wc: WordCounts, marker: str = "sow", seed_size: int = SEED_SIZE,
               max_len: int = MAX_PIECE_LEN, rows: int = 100,
               character_coverage: float = DEFAULT_COVERAGE) -> SeedSteps:  # fmt: skip
    """The seed of build_seed step by step, with the `rows` best substrings by score,
    candidates or not (ties: first appearance, as the seed).

    >>> from subtok_core.corpus import from_pairs
    >>> steps = seed_steps(from_pairs([("hug", 10), ("pug", 5), ("hugs", 5)]), rows=3)
    >>> steps.chars, steps.substrings, steps.seen_twice, steps.candidates, steps.kept
    (6, 15, 15, 9, 9)
    >>> rows = [(r.piece, r.score, r.followers, r.candidate) for r in steps.rows]
    >>> rows  # doctest: +NORMALIZE_WHITESPACE
    [('▁hug', 60, ('s', '▁ (next word)', 'end of line'), True),
     ('▁hu', 45, ('g',), False),
     ('hug', 45, ('s', '▁ (next word)', 'end of line'), True)]
    """
    s = _substrings(masked(wc, rare_characters(wc, marker, character_coverage)), marker, max_len)
    longer = np.flatnonzero((s.length > 1) & s.valid)
    score = s.freq * s.length
    ok = (s.length > 1) & (s.freq >= 2) & s.branching & s.valid
    by_score = longer[np.argsort(-score[longer], kind="stable")]
    kept = np.zeros(len(s.strings), dtype=bool)
    cands = by_score[ok[by_score]]
    kept[cands[:seed_size]] = True
    shown = by_score[:rows]
    return SeedSteps(
        int(((s.length == 1) & s.valid).sum()), longer.size, int((s.freq[longer] >= 2).sum()),
        cands.size, int(kept.sum()),
        tuple(
            SeedCandidate(s.strings[i], int(s.freq[i]), int(score[i]), labels, bool(ok[i]),
                          bool(kept[i]))
            for i, labels in zip(shown, _follower_labels(s, shown))
        ),
    )  # fmt: skip


def _follower_labels(s: _Substrings, ids: np.ndarray) -> list[tuple[str, ...]]:
    """What follows each of the substrings `ids`: characters in order, then ▁, a line's end."""
    mask = np.isin(s.sub, ids)
    found: dict[int, set[int]] = {int(i): set() for i in ids}
    for i, code, both in zip(s.sub[mask].tolist(), s.after[mask].tolist(), s.both[mask]):
        found[i].update((NEXT_WORD, LINE_END) if both else (code,))

    def label(code: int) -> str:
        return {NEXT_WORD: NEXT_WORD_TEXT, LINE_END: LINE_END_TEXT}.get(code) or chr(code)

    def order(code: int) -> tuple[bool, int]:  # characters by code, then ▁, then a line's end
        return code < 0, abs(code)

    return [tuple(label(c) for c in sorted(found[int(i)], key=order)) for i in ids]
