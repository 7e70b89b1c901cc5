"""The morphology-alignment chart: precision, recall and F1 of each tokenizer's cuts against
the gold morpheme boundaries (subtok_core.measure.morphology), as grouped bars.

>>> import pandas as pd
>>> table = pd.DataFrame({"tokenizer": ["BPE", "Unigram"], "precision": [0.4, 0.5],
...                       "recall": [0.6, 0.7], "F1": [0.48, 0.58], "right cuts": [6, 7]})
>>> long = alignment_long(table)
>>> long[["tokenizer", "measure", "value"]].values.tolist()[:3]
[['BPE', 'precision', 0.4], ['BPE', 'recall', 0.6], ['BPE', 'F1', 0.48]]
>>> spec = alignment_chart(table, names=["BPE", "WordPiece", "Unigram"]).to_dict()
>>> spec["layer"][0]["encoding"]["color"]["scale"]
{'domain': ['BPE', 'Unigram'], 'range': ['#0072B2', '#009E73']}
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from . import words
from ._altair import alt
from .compare import BAR_HEIGHT, _color
from .lessons import FONT_SIZE, _style
from .words import described

MEASURES = ("precision", "recall", "F1")
HOW_TO_READ = (
    "Each group is one measure; a taller bar means the tokenizer's cuts fall on the gold "
    "morpheme boundaries more often (precision: of its cuts, how many are right; recall: "
    "of the boundaries, how many it cuts; F1: both at once)."
)


def alignment_long(table: pd.DataFrame) -> pd.DataFrame:
    """measure.morphology.summary (one row per tokenizer) -> one row per tokenizer and
    measure, in the order precision, recall, F1."""
    long = table.melt(id_vars="tokenizer", value_vars=list(MEASURES), var_name="measure")
    order = {m: i for i, m in enumerate(MEASURES)}
    long["order"] = long["measure"].map(order)
    tokenizers = {t: i for i, t in enumerate(table["tokenizer"])}
    long["rank"] = long["tokenizer"].map(tokenizers)
    return long.sort_values(["rank", "order"]).drop(columns="rank").reset_index(drop=True)


def drawable(table: pd.DataFrame) -> bool:
    """Whether some tokenizer has a measure to draw: with none (no gold word scored) the
    chart would be an empty layer of bars, an unnamed graphic to a screen reader (axe-core
    4.14's svg-img-alt), so the page says the sentence alone."""
    return bool(table[list(MEASURES)].notna().to_numpy().any())


def alignment_chart(table: pd.DataFrame, names: Sequence[str] | None = None) -> alt.LayerChart:
    """Grouped bars, one group per measure, one bar per tokenizer, labelled with the value;
    a measure left undefined (no gold word scored) has no bar.

    >>> nan = float("nan")
    >>> table = pd.DataFrame({"tokenizer": ["BPE", "Unigram"], "precision": [nan, 0.5],
    ...                       "recall": [nan, 0.7], "F1": [nan, 0.58], "right cuts": [0, 7]})
    >>> drawable(table), drawable(table.iloc[:1])
    (True, False)
    >>> {row["tokenizer"] for row in alignment_chart(table).to_dict()["datasets"].popitem()[1]}
    {'Unigram'}
    """
    if not drawable(table):
        raise ValueError("No tokenizer scored a gold word: there is no bar to draw.")
    long = alignment_long(table).dropna(subset=["value"])
    color, scale = _color(long, names)
    base = alt.Chart(long).encode(
        x=alt.X("measure:N", sort=list(MEASURES), title=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("tokenizer:N", scale=alt.Scale(domain=scale.domain)),
        y=alt.Y("value:Q", title="share", scale=alt.Scale(domain=[0, 1])),
        tooltip=["tokenizer:N", "measure:N", alt.Tooltip("value:Q", format=".3f")],
    )
    bars = base.mark_bar().encode(color=color)
    text = base.mark_text(dy=-6, fontSize=FONT_SIZE - 2).encode(
        text=alt.Text("value:Q", format=".2f")
    )
    chart = alt.layer(bars, text).properties(height=BAR_HEIGHT)
    title = "How well the cuts fall on morpheme boundaries"
    return _style(described(chart, title, words.alignment(table)))
