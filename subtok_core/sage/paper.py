"""What the SaGe paper prints that the SaGe page sets beside a run: Table 1, Table 2 and
the summary figures of §4, quoted from the course material (seeds file 000).

The text of the paper in the material was converted from PDF: tables are flattened and
bold is lost. Table 1's rows are reassembled here (a BPE row's wrapped tail had slid in
front of the SaGe row below it), and Table 2's target is the centre of its bracketed
window (the window is 2 tokens on each side). ``_`` is the paper's word-start mark.

>>> [row.name for row in TABLE_1]
['BPE', 'SaGe', 'BPE', 'SaGe', 'BPE', 'SaGe']
>>> TABLE_2.before[TABLE_2.target], TABLE_2.replaced, TABLE_2.text(0, 14)
('ive', (('e',), ('de',)), 'use of an include directive is when referring to')
>>> FIGURES["sage_tokens"] / FIGURES["bpe_tokens"]
1.125
"""

from __future__ import annotations

from dataclasses import dataclass

from .table2 import WindowChange

CITATION = "the SaGe paper (Yehezkel & Pinter, 2023)"
SHORT = "Yehezkel & Pinter, 2023"
FILE = "000_9765466770ca3327.txt"  # in the course material (shared/seeds)


@dataclass(frozen=True, slots=True)
class PrintedRow:
    """One row of the paper's Table 1: which vocabulary, and the sentence as it cut it."""

    name: str
    tokens: tuple[str, ...]


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _row(name: str, text: str) -> PrintedRow:
    return PrintedRow(name, _tokens(text))


TABLE_1_TOKEN = "og"
TABLE_1_CAPTION = (
    "Table 1: The token og is selected by BPE (vocabulary of size 16,000) for achieving the "
    "frequency objective, but is discarded by SaGe for failing to be contextually coherent."
)
TABLE_1 = (
    _row("BPE", "_His _son _Raj ash ri _Sud h ak ar _has _p enn ed _dial og ues _and _songs "
                "_for _some _films _that _were _dubbed _into _Telugu ."),
    _row("SaGe", "_His _son _Raj ash r i _Sud h a k a r _has _penn e d _dial ogues _and "
                 "_songs _for _some _films _that _were _dubbed _into _Telugu ."),
    _row("BPE", "_This _gene _is _a _pseud og ene _in _humans _and _most _other _prim ates ."),
    _row("SaGe", "_This _gene _is _a _ pseud ogene _in _humans _and _most _other _prim ates ."),
    _row("BPE", "_The _St o og es _work _for _Mir acle _Det ective _Agency ,"),
    _row("SaGe", "_The _ St o o g e s _work _for _Mir acle _Det ective _Agency ,"),
)  # fmt: skip


# the sentence cut with the vocabulary and without _includ; the target ive (position 6,
# then 8) sees de where it saw e, though _includ (position 3) is outside its window
TABLE_2 = WindowChange(
    piece="_includ",
    before=_tokens("_use _of _an _includ e _direct ive _is _when _ref er r ing _to"),
    after=_tokens("_use _of _an _inc l u de _direct ive _is _when _ref er r ing _to"),
    target=6,
    target_after=8,
    window=2,
    removed=(3,),
    mark="_",
)
TABLE_2_CAPTION = (
    "Table 2: The effect of retokenization on a context window of width 2 (in brackets) "
    "surrounding a target token (in bold). A left-side context token has been replaced as "
    "a result of an out-of-window vocabulary ablation."
)

# §4, English Wikipedia, V = 16,000 (shares as fractions; tokens on 150K lines)
FIGURES = {
    "bpe_only_short": 0.56,  # "56% of BPE-only tokens are of length 2 and 3"
    "sage_only_long": 0.55,  # "55% of SaGe-only tokens are of length 5 and above"
    "bpe_tokens": 4_000_000,  # "encoded by 4 million BPE tokens"
    "sage_tokens": 4_500_000,  # "whereas SaGe produces 4.5 million"
    "sage_only_initial": 0.83,  # "83% of the tokens [...] in SaGe's vocabulary but not in BPE's"
    "bpe_only_initial": 0.22,  # "compared to only 22% of the BPE-only tokens"
}
FIGURES_SETTING = "English Wikipedia, V = 16,000 (tokens counted on 150,000 lines)"
