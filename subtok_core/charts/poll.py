"""The class poll's chart: how many students gave each answer, right ones marked after
the reveal. No Streamlit here; lessons/poll/panel.py draws it.

>>> import pandas as pd
>>> df = pd.DataFrame({"answer": ["(e, s)", "<b>x</b>"], "count": [2, 1], "verdict": ["", ""]})
>>> spec = answers_chart(df).to_dict()
>>> spec["mark"]["type"], spec["encoding"]["y"]["field"], spec["encoding"]["x"]["field"]
('bar', 'answer', 'count')
"""

from __future__ import annotations

import json

import pandas as pd

from .. import palette
from . import words
from ._altair import alt
from .lessons import BASE, FONT_SIZE, HIGHLIGHT
from .words import described

VERDICT_COLORS = {  # before the reveal every bar is the same colour
    "": BASE,
    "right": HIGHLIGHT,
    "tied": palette.ORANGE,
    "wrong": palette.GREY,
}
VERDICT_TITLE = {"": "answer", "right": "the algorithm's choice", "tied": "tied", "wrong": "other"}


def is_(verdict: str, width: int) -> dict:
    """A Vega-Lite condition: bars of this verdict get an outline `width` px wide."""
    return {"test": f"datum.verdict === {json.dumps(verdict)}", "value": width}


def answers_chart(df: pd.DataFrame, top: int = 12) -> alt.Chart:
    """One bar per answer (`df`: answer, count, verdict), the `top` most given, longest
    first; after the reveal the verdict colours them (right red, tied orange) and, for
    who cannot tell the colours, outlines them: the algorithm's choice thick and solid, a
    tied answer dashed.

    An answer is data, drawn as text by Vega: nothing a student types becomes markup."""
    shown = df.sort_values(["count", "answer"], ascending=[False, True]).head(top).copy()
    revealed = bool((shown["verdict"] != "").any())
    shown["verdict"] = shown["verdict"].map(VERDICT_TITLE)
    kept = [v for v in VERDICT_TITLE if bool(v) == revealed]  # "answer" before, verdicts after
    colors = [VERDICT_COLORS[v] for v in kept]
    legend = (
        alt.Legend(title=None, orient="bottom", labelLimit=300, columns=2) if revealed else None
    )
    kinds = list(VERDICT_TITLE.values())  # answer, the algorithm's choice, tied, other
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
            stroke=alt.value(palette.TEXT),
            strokeWidth=alt.StrokeWidthValue(0, condition=[is_(kinds[1], 4), is_(kinds[2], 2)]),
            strokeDash=alt.StrokeDash(
                "verdict:N",
                scale=alt.Scale(domain=kinds, range=[[1, 0], [1, 0], [6, 3], [1, 0]]),
                legend=None,
            ),
            tooltip=["answer:N", "count:Q", alt.Tooltip("verdict:N", title="verdict")],
        )
        .properties(height=alt.Step(40))
    )
    title = "The class's answers" + (", the algorithm's choice outlined" if revealed else "")
    chart = described(chart, title, words.answers(shown, VERDICT_TITLE["right"]))
    return chart.configure_axis(
        labelFontSize=FONT_SIZE + 3, titleFontSize=FONT_SIZE
    ).configure_legend(labelFontSize=FONT_SIZE)
