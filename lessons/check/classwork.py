"""/check set to a class, the teacher's side (subtok_core.check.classwork; the students'
side is lessons/poll/exercise.py, on /join).

A teacher with an open class (lessons/poll/teacher.py) who chooses an exercise corpus on
/check moves the room to it, with the page's settings; "Set it to the class" opens the
round. Phones and laptops on /join then show the exercise, its corpus to download and a
box for the merges; a list sent is checked there (the same cached check as /check) and the
round keeps its outcome only. The teacher's screen counts the identical lists and draws
the causes of the others, each first difference linking to its merge in the lesson. No
student's name or list is ever shown.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from lessons.check import views
from lessons.poll import teacher
from lessons.poll.record import origin
from lessons.ui.a11y import altair_chart
from lessons.ui.keys import widget_key
from subtok_core import rooms
from subtok_core.charts.classwork import causes_chart
from subtok_core.check import classwork, exercises

PAGE = "check"
LIVE_EVERY = 1.0  # seconds between two looks at the class's lists


def teacher_side(name: str, ex: exercises.Exercise | None, settings: tuple) -> None:
    """On /check, for a browser whose teacher has a class open: the room follows the page
    (the exercise chosen, with its settings), the button that sets it to the class, and the
    class's lists as they come in."""
    if not teacher.teacher_key():
        return
    room = teacher.room()
    if room is None:
        return
    link = teacher.page_link(PAGE)
    if ex is None:
        teacher.follow_page(PAGE, link)
        st.caption(f"Class {room.code}: choose an exercise corpus to set it to your class.")
        return
    view = classwork.exercise_view(ex, settings)
    run = classwork.run_print(ex.name, view["settings"])
    teacher.follow_page(PAGE, link, view, run, corpus=name)
    current = rooms.store().current_round(room.code)
    same = current is not None and current.run == run
    with st.container(border=True, key=widget_key(PAGE, "class_exercise")):
        st.subheader(f"Class exercise · room {room.code}")
        if not same or current.state != "open":
            st.button(
                f"Set {name} to the class",
                key=widget_key(PAGE, "class_set"),
                on_click=_set,
                args=(room.code, ex),
                type="primary",
                help="Phones and laptops on the class's link show this exercise with these "
                "settings, its corpus to download, and a box for their merges.",
            )
        if same:
            results(room.code, current.id, name, settings, origin())


def _set(code: str, ex: exercises.Exercise) -> None:
    try:
        rooms.store().open_round(code, classwork.question(ex.name, ex.about))
    except ValueError as err:
        st.session_state[widget_key(PAGE, "class_said")] = str(err)


@st.fragment(run_every=LIVE_EVERY)
def results(code: str, round_id: int, name: str, settings: tuple, base: str) -> None:
    """How many lists came in, how many are identical, the causes of the others as a
    chart, and each first difference with its students and a link to the merge."""
    said = st.session_state.pop(widget_key(PAGE, "class_said"), None)
    if said:
        st.error(said)
    rows = classwork.outcome_rows(rooms.store().tally(round_id))
    total = sum(r.students for r in rows)
    same = sum(r.students for r in rows if r.merge is None and r.cause == classwork.IDENTICAL)
    students = "student" if total == 1 else "students"
    st.markdown(f"**{total}** {students} sent their merges; **{same}** identical to the reference.")
    if not total:
        st.caption("Waiting for the class's lists (the class's link, /join, shows the box).")
        return
    altair_chart(causes_chart(classwork.cause_counts(rows)))
    table = pd.DataFrame(
        [
            {"first difference": f"merge {r.merge}", "cause": r.cause, "students": r.students,
             "lesson": base + address(name, settings, r.merge)}
            for r in rows
            if r.merge is not None
        ],
        columns=["first difference", "cause", "students", "lesson"],
    )  # fmt: skip
    if len(table):
        st.dataframe(
            table,
            hide_index=True,
            column_config={"lesson": st.column_config.LinkColumn("lesson", display_text="open")},
        )


def address(name: str, settings: tuple, merge: int) -> str:
    """The lesson's address at `merge` on the exercise's settings."""
    _page, path, params, _ties = views.lesson_address(name, settings, merge, settings[3])
    return f"{path}?{urlencode(params)}"
