"""DataFrame -> Altair chart builders. No Streamlit here: pages call st.altair_chart.

Charts are sized for a projector (large fonts) and tested through ``chart.to_dict()``.

>>> import pandas as pd
>>> df = pd.DataFrame({"step": [0, 1], "vocab_size": [6, 7], "corpus_symbols": [125, 105]})
>>> vocab_growth_chart(df, current=1).to_dict()["layer"][0]["mark"]["type"]
'line'
"""

from __future__ import annotations

import altair as alt
import pandas as pd

FONT_SIZE = 15
HIGHLIGHT = "#d62728"
BASE = "#1f77b4"


def _style(chart: alt.Chart | alt.LayerChart) -> alt.Chart | alt.LayerChart:
    return chart.configure_axis(labelFontSize=FONT_SIZE, titleFontSize=FONT_SIZE).configure_legend(
        labelFontSize=FONT_SIZE, titleFontSize=FONT_SIZE
    )


def vocab_growth_chart(df: pd.DataFrame, current: int) -> alt.LayerChart:
    """Symbols in the corpus (x) against vocabulary size (y), one point per merge step.

    `df` has columns step, vocab_size, corpus_symbols; the point of step `current` is
    drawn larger and red, so the student sees where the slider is on the curve.
    """
    base = alt.Chart(df).encode(
        x=alt.X("corpus_symbols:Q", title="symbols in the corpus", scale=alt.Scale(zero=False)),
        y=alt.Y("vocab_size:Q", title="vocabulary size", scale=alt.Scale(zero=False)),
        tooltip=["step:Q", "vocab_size:Q", "corpus_symbols:Q"],
    )
    line = base.mark_line(color=BASE, point=alt.OverlayMarkDef(color=BASE, size=30))
    here = base.transform_filter(alt.datum.step == current).mark_point(
        color=HIGHLIGHT, size=260, filled=True
    )
    return _style(alt.layer(line, here).properties(height=320))


def pair_count_chart(df: pd.DataFrame, top: int = 15, value: str = "count") -> alt.Chart:
    """Horizontal bars of the best pairs; the merged pair red, tied pairs orange.

    `df` has columns pair (label), status ("merged", "tied" or "") and the `value` to draw
    (a count for BPE, a score for WordPiece; a "fraction" column, if any, is in the tooltip).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"pair": ["(a, t)", "(b, a)"], "count": [20, 17],
    ...                    "status": ["merged", ""]})
    >>> spec = pair_count_chart(df).to_dict()
    >>> spec["encoding"]["x"]["field"], spec["encoding"]["color"]["scale"]["domain"]
    ('count', ['merged', 'tied', 'other'])
    """
    shown = df.head(top).assign(status=lambda d: d["status"].replace("", "other"))
    color = alt.Color(
        "status:N",
        scale=alt.Scale(domain=["merged", "tied", "other"], range=[HIGHLIGHT, "#ff7f0e", BASE]),
        legend=alt.Legend(title=None, orient="bottom"),
    )
    tooltip = ["pair:N", f"{value}:Q", "status:N"]
    if "fraction" in shown.columns:
        tooltip.insert(1, "fraction:N")
    chart = (
        alt.Chart(shown)
        .mark_bar()
        .encode(
            y=alt.Y("pair:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False)),
            x=alt.X(f"{value}:Q", title=value),
            color=color,
            tooltip=tooltip,
        )
        .properties(height=alt.Step(30))
    )
    return _style(chart)
