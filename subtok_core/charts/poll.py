"""The class poll's chart: how many students gave each answer, right ones marked after
the reveal. No Streamlit here; lessons/poll/panel.py draws it.

>>> import pandas as pd
>>> df = pd.DataFrame({"answer": ["(e, s)", "<b>x</b>"], "count": [2, 1], "verdict": ["", ""]})
>>> spec = answers_chart(df).to_dict()
>>> spec["mark"]["type"], spec["encoding"]["y"]["field"], spec["encoding"]["x"]["field"]
('bar', 'label', 'count')
"""

from __future__ import annotations

import json
import textwrap

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
LINE = 22  # characters of an answer's label on one line: an 80-character answer takes 4
LINE_PX = 21  # px a label's line takes (its font is FONT_SIZE + 3)


def wrapped(answer: str, width: int = LINE) -> str:
    r"""An answer cut into lines of at most `width` characters (at spaces where it can),
    joined by newlines: the axis draws them one under the other, never cut with "…".

    >>> wrapped("a rather long answer typed by a student", 16)
    'a rather long\nanswer typed by\na student'
    """
    return "\n".join(textwrap.wrap(answer, width, break_on_hyphens=False)) or answer


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
    # the label drawn for each bar: the answer in lines (two answers never share one)
    labels = [wrapped(answer) for answer in shown["answer"]]
    shown["label"] = labels if len(set(labels)) == len(labels) else shown["answer"]
    lines = max((label.count("\n") + 1 for label in shown["label"]), default=1)
    kept = [v for v in VERDICT_TITLE if bool(v) == revealed]  # "answer" before, verdicts after
    colors = [VERDICT_COLORS[v] for v in kept]
    # no legend in the chart: Vega lays one out from the plot's left edge, past the labels,
    # and a narrow screen cuts it; the page writes the key above the chart (legend_html)
    kinds = list(VERDICT_TITLE.values())  # answer, the algorithm's choice, tied, other
    chart = (
        alt.Chart(shown)
        .mark_bar()
        .encode(
            x=alt.X("count:Q", title="students", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y(
                "label:N",
                sort="-x",
                title=None,
                # a label's lines one under the other, none cut (labelLimit 0: no limit)
                axis=alt.Axis(labelLimit=0, labelExpr="split(datum.label, '\\n')"),
            ),
            color=alt.Color(
                "verdict:N",
                scale=alt.Scale(domain=[VERDICT_TITLE[v] for v in kept], range=colors),
                legend=None,
            ),
            stroke=alt.value(palette.TEXT),
            strokeWidth=alt.StrokeWidthValue(0, condition=[is_(kinds[1], 4), is_(kinds[2], 2)]),
            # no scale of its own: a second scale on the verdict would bring its whole
            # domain ("answer" too) into the colour's legend
            strokeDash=alt.StrokeDashValue(
                [1, 0], condition=[{**is_(kinds[2], 0), "value": [6, 3]}]
            ),
            tooltip=["answer:N", "count:Q", alt.Tooltip("verdict:N", title="verdict")],
        )
        .properties(height=alt.Step(max(40, lines * LINE_PX + 12)))
    )
    # a short title, narrower than a phone; the outline is said in the legend's words
    title = "The class's answers"
    # the sentence counts every answer, those of the bars left out too
    every = df.assign(verdict=df["verdict"].map(VERDICT_TITLE))
    said = words.answers(every, VERDICT_TITLE["right"])
    if len(df) > len(shown):
        said += f" The bars show the {len(shown)} given most often of {len(df)} different answers."
    chart = described(chart, title, said)
    return chart.configure_axis(labelFontSize=FONT_SIZE + 3, titleFontSize=FONT_SIZE)


OUTLINE = {"right": "thick outline", "tied": "dashed outline", "wrong": ""}


def legend_html() -> str:
    """The chart's key after the reveal, as HTML for the page (our own words and colours):
    a swatch, then the verdict and its outline in words, for who cannot tell the colours.

    >>> "the algorithm's choice, thick outline" in legend_html()
    True
    """
    keys = []
    for verdict, outline in OUTLINE.items():
        border = "3px solid" if verdict == "right" else "2px dashed" if verdict == "tied" else "0"
        swatch = (
            f'<span style="display:inline-block;width:1em;height:1em;vertical-align:-.15em;'
            f'background:{VERDICT_COLORS[verdict]};border:{border} {palette.TEXT}"></span>'
        )
        words_ = VERDICT_TITLE[verdict] + (f", {outline}" if outline else "")
        keys.append(f"<span>{swatch} {words_}</span>")
    return " &nbsp; ".join(keys)
