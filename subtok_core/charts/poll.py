"""The class poll's chart: how many students gave each answer, right ones marked after
the reveal. No Streamlit here; lessons/_poll.py draws it.

>>> import pandas as pd
>>> df = pd.DataFrame({"answer": ["(e, s)", "<b>x</b>"], "count": [2, 1], "verdict": ["", ""]})
>>> spec = answers_chart(df).to_dict()
>>> spec["mark"]["type"], spec["encoding"]["y"]["field"], spec["encoding"]["x"]["field"]
('bar', 'answer', 'count')
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from .lessons import BASE, FONT_SIZE, HIGHLIGHT

VERDICT_COLORS = {  # before the reveal every bar is the same colour
    "": BASE,
    "right": HIGHLIGHT,
    "tied": "#ff9f40",
    "wrong": "#9aa5b1",
}
VERDICT_TITLE = {"": "answer", "right": "the algorithm's choice", "tied": "tied", "wrong": "other"}


def answers_chart(df: pd.DataFrame, top: int = 12) -> alt.Chart:
    """One bar per answer (`df`: answer, count, verdict), the `top` most given, longest
    first; after the reveal the verdict colours them (right red, tied orange).

    An answer is data, drawn as text by Vega: nothing a student types becomes markup."""
    shown = df.sort_values(["count", "answer"], ascending=[False, True]).head(top).copy()
    revealed = bool((shown["verdict"] != "").any())
    shown["verdict"] = shown["verdict"].map(VERDICT_TITLE)
    kept = [v for v in VERDICT_TITLE if bool(v) == revealed]  # "answer" before, verdicts after
    colors = [VERDICT_COLORS[v] for v in kept]
    legend = (
        alt.Legend(title=None, orient="bottom", labelLimit=300, columns=2) if revealed else None
    )
    chart = (
        alt.Chart(shown)
        .mark_bar()
        .encode(
            x=alt.X("count:Q", title="students", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("answer:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260)),
            color=alt.Color(
                "verdict:N",
                scale=alt.Scale(domain=[VERDICT_TITLE[v] for v in kept], range=colors),
                legend=legend,
            ),
            tooltip=["answer:N", "count:Q"],
        )
        .properties(height=alt.Step(40))
    )
    return chart.configure_axis(
        labelFontSize=FONT_SIZE + 3, titleFontSize=FONT_SIZE
    ).configure_legend(labelFontSize=FONT_SIZE)
