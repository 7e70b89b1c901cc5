"""The class exercise's chart (/check set to a class): how many students' merge lists
are identical to the reference, and how many leave it for each cause. No names: a bar
counts students. lessons/check/classwork.py draws it.

>>> spec = causes_chart({"identical": 3, "tie": 2}).to_dict()
>>> spec["mark"]["type"], spec["encoding"]["y"]["field"]
('bar', 'cause')
>>> spec["description"]  # doctest: +NORMALIZE_WHITESPACE
'Of 5 students, 3 sent a merge list identical to the reference; the others leave it
 first with the cause tie (2).'
"""

from __future__ import annotations

import pandas as pd

from ..check.classwork import IDENTICAL
from ._altair import alt
from .lessons import BASE, FONT_SIZE, HIGHLIGHT
from .words import described


def sentence(counts: dict[str, int]) -> str:
    """The chart in words: the identical lists, then each cause with its students."""
    total = sum(counts.values())
    same = counts.get(IDENTICAL, 0)
    others = [f"{cause} ({n})" for cause, n in counts.items() if cause != IDENTICAL]
    students = "student" if total == 1 else "students"
    said = f"Of {total} {students}, {same} sent a merge list identical to the reference"
    if others:
        said += "; the others leave it first with the cause " + ", ".join(others)
    return said + "."


def causes_chart(counts: dict[str, int]) -> alt.Chart:
    """One bar per outcome (identical, or a cause of the first difference), most students
    first; the identical bar in the highlight colour, and every bar named in words on its
    axis (the colour adds nothing a reader needs)."""
    frame = pd.DataFrame(
        [{"cause": cause, "students": n, "kind": cause == IDENTICAL} for cause, n in
         counts.items()],
        columns=["cause", "students", "kind"],
    )  # fmt: skip
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("students:Q", title="students", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("cause:N", sort="-x", title=None, axis=alt.Axis(labelLimit=0)),
            color=alt.Color(
                "kind:N", scale=alt.Scale(domain=[True, False], range=[HIGHLIGHT, BASE]),
                legend=None,
            ),
            tooltip=["cause:N", "students:Q"],
        )
        .properties(height=alt.Step(36))
    )  # fmt: skip
    chart = described(chart, "Where the class's lists leave the reference", sentence(counts))
    return chart.configure_axis(labelFontSize=FONT_SIZE + 3, titleFontSize=FONT_SIZE)
