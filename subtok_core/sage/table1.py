"""The SaGe paper's Table 1 on a run: a token BPE keeps and SaGe drops, and sentences of
the sample that use it, cut by both vocabularies.

The paper's Table 1 shows *og*: BPE(16,000) keeps it, SaGe(16,000) drops it, and it turns
up inside unrelated words (dial-og-ues, pseud-og-ene, St-o-og-es), so its contexts have
nothing in common. On a run the token chosen is the BPE-only one (in BPE(V), not in
SaGe(V)) that BPE uses inside the most distinct words of the sample (ties: more uses,
then the order BPE learned it); each row is a fragment of the first sentence with one
more of those words.

>>> bpe = ["▁", "a", "b", "c", "d", "o", "g", "og", "▁d", "▁c", "▁a"]
>>> sage = [p for p in bpe if p != "og"]
>>> sentences = [["dog", "a"], ["cog", "b"], ["a", "dog"]]
>>> t = table_one(bpe, sage, sentences)
>>> t.token, t.words, [r.sentence for r in t.rows]
('og', 2, [0, 1])
>>> t.rows[0].bpe, t.rows[0].sage
((('▁d', 'og'), ('▁a',)), (('▁d', 'o', 'g'), ('▁a',)))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .encode import word_segmenter
from .records import SageModel


@dataclass(frozen=True, slots=True)
class TableOneRow:
    """A fragment of one sentence, word by word as each vocabulary cuts it."""

    sentence: int  # its index in the sample
    first_word: int  # the fragment's first word, an index into the sentence
    words: tuple[str, ...]
    bpe: tuple[tuple[str, ...], ...]  # per word, BPE(V)'s pieces
    sage: tuple[tuple[str, ...], ...]
    focus: int  # the word (index into `words`) whose BPE cut uses the token
    more_before: bool  # the sentence goes on before / after the fragment
    more_after: bool


@dataclass(frozen=True, slots=True)
class TableOne:
    token: str
    words: int  # distinct words (punctuation and case aside) whose BPE cut uses it
    uses: int  # running tokens of the sample that are it, cut by BPE(V)
    rows: tuple[TableOneRow, ...]


def _key(word: str) -> str:
    """A word without the punctuation stuck to it, in lower case ("Illawarra," and
    "illawarra" are one word here)."""
    return re.sub(r"^\W+|\W+$", "", word).casefold() or word


def _choose(bpe_only: list[str], cuts: dict[str, list[str]], counts: Counter) -> str | None:
    """The BPE-only token inside the most distinct words (then the most uses, then BPE's
    order), or None when BPE uses no BPE-only token on this sample."""
    wanted = set(bpe_only)
    words_with: dict[str, set[str]] = {}
    uses: Counter = Counter()
    for word, pieces in cuts.items():
        for piece in set(pieces) & wanted:
            words_with.setdefault(piece, set()).add(_key(word))
            uses[piece] += counts[word] * pieces.count(piece)
    order = {p: i for i, p in enumerate(bpe_only)}
    found = sorted(words_with, key=lambda p: (-len(words_with[p]), -uses[p], order[p]))
    return found[0] if found else None


def _row(number: int, words: Sequence[str], i: int, context: int, cut_bpe, cut_sage):
    """The fragment of sentence `number` around its word `i`."""
    lo, hi = max(0, i - context), min(len(words), i + context + 1)
    part = tuple(words[lo:hi])
    return TableOneRow(
        number, lo, part, tuple(tuple(cut_bpe(w)) for w in part),
        tuple(tuple(cut_sage(w)) for w in part), i - lo, lo > 0, hi < len(words),
    )  # fmt: skip


def table_one(
    bpe_vocab: Sequence[str],
    sage_vocab: Sequence[str],
    sentences: Sequence[Sequence[str]],
    rows: int = 3,
    context: int = 4,
) -> TableOne | None:
    """Table 1 on a sample: the chosen BPE-only token and up to `rows` fragments of
    sentences (`context` words each side of the word that uses it), each with another word
    (punctuation and case aside); None when no word of the sample is cut with a token
    BPE(V) has and SaGe(V) lacks."""
    if rows < 1 or context < 0:
        raise ValueError("Table 1 needs at least one row and a context of 0 words or more.")
    cut_bpe = word_segmenter(SageModel(tuple(bpe_vocab)))
    cut_sage = word_segmenter(SageModel(tuple(sage_vocab)))
    counts = Counter(w for words in sentences for w in words)
    cuts = {w: cut_bpe(w) for w in counts}
    in_sage = set(sage_vocab)
    token = _choose([p for p in bpe_vocab if p not in in_sage], cuts, counts)
    if token is None:
        return None
    users = {w for w, pieces in cuts.items() if token in pieces}
    shown: list[TableOneRow] = []
    seen: set[str] = set()
    for number, words in enumerate(sentences):
        # the first word of this sentence that uses the token and was not shown yet
        i = next((i for i, w in enumerate(words) if w in users and _key(w) not in seen), None)
        if i is not None:
            seen.add(_key(words[i]))
            shown.append(_row(number, words, i, context, cuts.__getitem__, cut_sage))
        if len(shown) == rows:
            break
    uses = sum(counts[w] * cuts[w].count(token) for w in users)
    return TableOne(token, len({_key(w) for w in users}), uses, tuple(shown))
