"""Charts of subword regularization: how BPE-dropout spreads a word's token count, and how
Unigram samples approach their exact probabilities. DataFrame -> Altair, no Streamlit.

>>> import pandas as pd
>>> df = pd.DataFrame({"p": [0.0, 1.0], "mean": [2.0, 4.0], "min": [2, 4], "q1": [2.0, 4.0],
...                    "median": [2.0, 4.0], "q3": [2.0, 4.0], "max": [2, 4]})
>>> [layer["mark"]["type"] for layer in count_spread_chart(df).to_dict()["layer"]]
['rule', 'area', 'line', 'point']
"""

from __future__ import annotations

import pandas as pd

from .. import palette
from . import words
from ._altair import alt
from .lessons import BASE, HIGHLIGHT, _style
from .words import described


def count_spread_chart(df: pd.DataFrame) -> alt.LayerChart:
    """Token counts of BPE-dropout samples against p: a thin line from the smallest to the
    largest count, a band from the lower to the upper quartile, the mean as a line.

    `df` has one row per p with columns p, mean, min, q1, median, q3, max
    (bpe.dropout.count_spread).
    """
    base = alt.Chart(df).encode(
        x=alt.X(
            "p:Q",
            title="dropout probability p",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(values=[k / 10 for k in range(11)], format=".1f"),
        ),
        tooltip=[
            "p:Q",
            alt.Tooltip("mean:Q", format=".2f"),
            "min:Q",
            "q1:Q",
            "median:Q",
            "q3:Q",
            "max:Q",
        ],
    )
    tokens = alt.Y("min:Q", title="tokens per sample", scale=alt.Scale(zero=False))
    extent = base.mark_rule(color=palette.GREY, strokeWidth=2).encode(y=tokens, y2="max:Q")
    band = base.mark_area(color=BASE, opacity=0.3).encode(y="q1:Q", y2="q3:Q")
    mean = base.mark_line(color=HIGHLIGHT).encode(y="mean:Q")
    points = base.mark_point(color=HIGHLIGHT, filled=True, size=60).encode(y="mean:Q")
    chart = alt.layer(extent, band, mean, points).properties(height=300)
    title = "Tokens per sample as the dropout probability grows"
    return _style(described(chart, title, words.spread(df)))


def sampling_chart(df: pd.DataFrame) -> alt.Chart:
    """Per segmentation, its exact probability beside its observed frequency in the
    samples (grouped bars; the segmentations in the order of `df`).

    `df` has columns segmentation, exact, observed (unigram.nbest.sampled_vs_exact).

    >>> df = pd.DataFrame({"segmentation": ["ru n", "r un"], "exact": [0.5, 0.5],
    ...                    "observed": [0.48, 0.52]})
    >>> spec = sampling_chart(df).to_dict()
    >>> spec["encoding"]["yOffset"]["field"], spec["encoding"]["x"]["field"]
    ('kind', 'share')
    """
    order = list(df["segmentation"])
    long = df.melt(
        id_vars=["segmentation"],
        value_vars=["exact", "observed"],
        var_name="kind",
        value_name="share",
    )
    kinds = alt.Scale(domain=["exact", "observed"], range=[BASE, HIGHLIGHT])
    chart = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("segmentation:N", sort=order, title=None, axis=alt.Axis(labelOverlap=False)),
            yOffset=alt.YOffset("kind:N", sort=["exact", "observed"]),
            x=alt.X("share:Q", title="probability / frequency in the samples"),
            color=alt.Color("kind:N", scale=kinds, legend=alt.Legend(title=None, orient="bottom")),
            tooltip=["segmentation:N", "kind:N", alt.Tooltip("share:Q", format=".4f")],
        )
        .properties(height=alt.Step(16))
    )
    title = "Exact probability beside the share of samples"
    return _style(described(chart, title, words.sampling(df)))
