"""How well a tokenizer's cuts follow morpheme boundaries (Bostrom & Durrett, 002, section 3).

002 claims that unigram LM pieces "align with morphology" better than BPE's. This module
measures it on a gold list of English words with their morphs (``subtok_core/data/morphology.tsv``,
written for subtok; its header says how): each gap between two morphs is a *boundary*, a
position inside the word, and each gap between two of a tokenizer's pieces (markers
removed) is a *cut*. A cut on a boundary is right.

- precision: right cuts / all cuts the tokenizer makes (does it cut only where it should?)
- recall: right cuts / all gold boundaries (does it cut everywhere it should?)
- F1: their harmonic mean.

All three are *micro-averaged*: the cuts and boundaries of every word are pooled before
dividing, so a long word with many boundaries weighs more than a short one.

By hand, with the cuts 002 prints for its unigram LM (Figure 1): furiously is furi|ous|ly
(boundaries 4, 7) and cut fur|ious|ly (3, 7): 1 right of 2 cuts, 1 of 2 boundaries;
tricycles tri|cycle|s (3, 8) cut tri|cycle|s: 2 of 2; completely complete|ly (8) cut
complete|ly: 1 of 1. Pooled: 4 right of 5 cuts and of 5 boundaries, 0.8 and 0.8.

>>> gold = parse_gold("furiously\\tfuri ous ly\\ntricycles\\ttri cycle s\\n"
...                   "completely\\tcomplete ly\\n")
>>> cuts = {"furiously": ["▁fur", "ious", "ly"], "tricycles": ["▁tri", "cycle", "s"],
...         "completely": ["▁complete", "ly"]}
>>> a = alignment(cuts.get, "sow", gold)
>>> a.right, a.cuts, a.boundaries, a.precision, a.recall, a.f1
(4, 5, 5, 0.8, 0.8, 0.8)
>>> a.rows[["word", "gold", "cut", "right", "wrong", "missed"]].values.tolist()[0]
['furiously', 'furi|ous|ly', 'fur|ious|ly', 1, 1, 1]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

import pandas as pd

from ..corpus import DATA_DIR
from .tokenized import bare, check_style, segmenter_of

GOLD_FILE = DATA_DIR / "morphology.tsv"
ROW_COLUMNS = ["word", "gold", "cut", "right", "wrong", "missed"]


@dataclass(frozen=True, slots=True)
class GoldWord:
    """A word and its morphs; the morphs joined spell the word."""

    word: str
    morphs: tuple[str, ...]

    @property
    def boundaries(self) -> frozenset[int]:
        """The positions between two morphs: GoldWord("cats", ("cat", "s")) -> {3}."""
        return frozenset(positions(self.morphs))


def positions(pieces: Sequence[str]) -> list[int]:
    """The positions inside a word between consecutive pieces.

    >>> positions(["furi", "ous", "ly"]), positions(["word"])
    ([4, 7], [])
    """
    return list(accumulate(len(p) for p in pieces))[:-1]


def parse_gold(text: str) -> tuple[GoldWord, ...]:
    """Read the gold list: "word<TAB>morph morph ..." per line; # starts a comment.

    >>> parse_gold("# c\\ncats\\tcat s\\n")
    (GoldWord(word='cats', morphs=('cat', 's')),)
    >>> parse_gold("cats\\tca s")
    Traceback (most recent call last):
    ...
    ValueError: Line 1 of the gold list: the morphs 'ca s' do not spell the word 'cats'.
    """
    words: list[GoldWord] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"Line {number} of the gold list"
        parts = line.split("\t")
        if len(parts) != 2:
            raise ValueError(f"{where} needs a word, a tab and its morphs: {line!r}.")
        word, morphs = parts[0].strip(), tuple(parts[1].split())
        if "".join(morphs) != word:
            raise ValueError(f"{where}: the morphs {parts[1]!r} do not spell the word {word!r}.")
        if word in seen:
            raise ValueError(f"{where}: the word {word!r} is listed twice.")
        seen.add(word)
        words.append(GoldWord(word, morphs))
    if not words:
        raise ValueError("The gold list has no word in it.")
    return tuple(words)


@functools.cache
def load_gold() -> tuple[GoldWord, ...]:
    """The gold list shipped in subtok_core/data/morphology.tsv (read once per process)."""
    return parse_gold(GOLD_FILE.read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Alignment:
    """One tokenizer against the gold list: pooled counts, and one row per word it spells.

    ``skipped`` are the gold words whose pieces, markers removed, do not spell the word
    (an unknown character became [UNK]): their cuts cannot be placed, so they are left out.
    """

    right: int
    cuts: int
    boundaries: int
    rows: pd.DataFrame
    skipped: tuple[str, ...]

    @property
    def words(self) -> int:
        return len(self.rows)

    @property
    def precision(self) -> float:
        """Right cuts / cuts; NaN when the tokenizer cuts no word at all."""
        return self.right / self.cuts if self.cuts else float("nan")

    @property
    def recall(self) -> float:
        """Right cuts / gold boundaries; NaN when no gold word could be scored."""
        return self.right / self.boundaries if self.boundaries else float("nan")

    @property
    def f1(self) -> float:
        """2 × right / (cuts + boundaries): the harmonic mean of precision and recall."""
        total = self.cuts + self.boundaries
        return 2 * self.right / total if total else float("nan")


def alignment(
    segment_word: Callable[[str], Sequence[str]],
    style: str,
    gold: Sequence[GoldWord] | None = None,
) -> Alignment:
    """Score `segment_word` (word -> pieces, marker `style`) on `gold` (default: the list
    in subtok_core/data/morphology.tsv). See the module docstring for the measures."""
    style = check_style(style, ())
    rows, skipped = [], []
    for item in load_gold() if gold is None else gold:
        pieces = [p for p in (bare(p, style) for p in segment_word(item.word)) if p]
        if "".join(pieces) != item.word:
            skipped.append(item.word)
            continue
        cut = set(positions(pieces))
        right = len(cut & item.boundaries)
        missed = len(item.boundaries) - right
        rows.append((item.word, "|".join(item.morphs), "|".join(pieces), right,
                     len(cut) - right, missed))  # fmt: skip
    table = pd.DataFrame(rows, columns=ROW_COLUMNS)
    return Alignment(
        right=int(table["right"].sum()),
        cuts=int(table["right"].sum() + table["wrong"].sum()),
        boundaries=int(table["right"].sum() + table["missed"].sum()),
        rows=table,
        skipped=tuple(skipped),
    )


def model_alignment(model, gold: Sequence[GoldWord] | None = None) -> Alignment:
    """:func:`alignment` of a trained model or a pretrained tokenizer."""
    segment_word, style = segmenter_of(model)
    return alignment(segment_word, style, gold)


def summary(results: dict[str, Alignment]) -> pd.DataFrame:
    """One row per tokenizer: precision, recall, F1 and the counts behind them.

    >>> gold = parse_gold("cats\\tcat s\\ndogs\\tdog s")
    >>> cut = {"cats": ["ca", "ts"], "dogs": ["dog", "s"]}
    >>> summary({"mine": alignment(cut.get, "none", gold)}).to_dict("records")[0]
    {'tokenizer': 'mine', 'precision': 0.5, 'recall': 0.5, 'F1': 0.5, 'right cuts': 1, \
'cuts': 2, 'gold boundaries': 2, 'words scored': 2, 'words left out': 0}
    """
    return pd.DataFrame(
        [
            {"tokenizer": name, "precision": a.precision, "recall": a.recall, "F1": a.f1,
             "right cuts": a.right, "cuts": a.cuts, "gold boundaries": a.boundaries,
             "words scored": a.words, "words left out": len(a.skipped)}
            for name, a in results.items()
        ]
    )  # fmt: skip


def verdict(bpe: Alignment | None, unigram: Alignment | None, where: str) -> str:
    """One sentence on 002's claim, from the numbers: does Unigram's F1 beat BPE's on the
    gold list? `where` names the run (corpus and vocabulary size). F1 values are compared
    as shown, to 3 decimals.

    >>> gold = parse_gold("cats\\tcat s\\ndogs\\tdog s")
    >>> good = alignment({"cats": ["cat", "s"], "dogs": ["dog", "s"]}.get, "none", gold)
    >>> poor = alignment({"cats": ["ca", "ts"], "dogs": ["dog", "s"]}.get, "none", gold)
    >>> verdict(poor, good, "toy:x at 10")
    "On toy:x at 10, Unigram's cuts follow the gold morpheme boundaries better than BPE's: \
F1 1.000 for Unigram against 0.500 for BPE (precision 1.000 against 0.500, recall 1.000 \
against 0.500), as Bostrom & Durrett claim."
    >>> verdict(good, None, "toy:x at 10")
    'Choose both BPE and Unigram above to test the claim.'
    """
    if bpe is None or unigram is None:
        return "Choose both BPE and Unigram above to test the claim."
    if not bpe.words or not unigram.words:
        return (
            f"On {where}, BPE or Unigram cannot spell a single gold word (their pieces lack "
            "its letters), so the claim cannot be tested: choose a larger corpus."
        )
    u, b = round(unigram.f1, 3), round(bpe.f1, 3)
    numbers = (
        f"F1 {_shown(unigram.f1)} for Unigram against {_shown(bpe.f1)} for BPE (precision "
        f"{_shown(unigram.precision)} against {_shown(bpe.precision)}, recall "
        f"{_shown(unigram.recall)} against {_shown(bpe.recall)})"
    )
    if u > b:
        return (
            f"On {where}, Unigram's cuts follow the gold morpheme boundaries better than "
            f"BPE's: {numbers}, as Bostrom & Durrett claim."
        )
    if u < b:
        return (
            f"On {where}, Unigram does not beat BPE on this measure, against Bostrom & "
            f"Durrett's claim: {numbers}."
        )
    return f"On {where}, Unigram and BPE tie on this measure: {numbers}."


def _shown(x: float) -> str:
    """A measure to 3 decimals; NaN (no cut at all) as 'undefined'."""
    return "undefined" if x != x else f"{x:.3f}"
