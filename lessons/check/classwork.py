"""/check set to a class (subtok_core.check.classwork): the teacher's side on /check, the
students' on /join.

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
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.upload import read_upload
from subtok_core import corpus, rooms
from subtok_core.charts.classwork import causes_chart
from subtok_core.check import FORMATS, classwork, exercises

PAGE = "check"
LIVE_EVERY = 1.0  # seconds between two looks at the class's lists
SAID = widget_key("join", "exercise_said")  # session: the student's last verdict, in words


def exercise_view(ex: exercises.Exercise, settings: tuple) -> dict:
    """What phones show of the exercise: its name, what it is about, the settings."""
    bytelevel, marker, pattern, ties, specials = settings
    return {
        "kind": "exercise",
        "exercise": ex.name,
        "about": ex.about,
        "settings": {"bytelevel": bool(bytelevel), "marker": marker, "pattern": pattern,
                     "ties": ties, "specials": list(specials)},
    }  # fmt: skip


def settings_of(view: dict) -> tuple:
    """The check's settings tuple (bytelevel, marker, pattern, ties, specials) of a view."""
    s = view["settings"]
    return (bool(s["bytelevel"]), s["marker"], s["pattern"], s["ties"], tuple(s["specials"]))


def settings_words(view: dict) -> str:
    """The settings in a sentence for the students."""
    s = view["settings"]
    level = (
        f"byte-level BPE, pre-split pattern {s['pattern']}"
        if s["bytelevel"]
        else f"character-level BPE, marker {s['marker']}"
    )
    auto = s["ties"] == "auto"
    ties = "any tie rule (the check finds yours)" if auto else f"tie rule {s['ties']}"
    specials = f", special tokens {' '.join(s['specials'])}" if s["specials"] else ""
    return f"Settings: {level}, {ties}{specials}."


# --- the teacher's side, on /check ----------------------------------------------------


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
    view = exercise_view(ex, settings)
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


# --- the students' side, on /join -------------------------------------------------------


def student_side(room: rooms.Room, current: rooms.Round | None, student: str) -> None:
    """The exercise the teacher shows: what it is, its corpus, and (while the round is
    open) the box for the merges; the student's own outcome once sent."""
    view = room.view
    ex = exercises.load(view["exercise"])
    name = corpus.exercises.EXERCISE + ex.name
    st.subheader(f"Exercise: {name}")
    st.write(as_text(ex.about))
    st.caption(plain(settings_words(view)))  # the teacher's special tokens: as typed
    st.download_button(
        f"Download its corpus ({ex.name}.txt)",
        ex.text.encode("utf-8"),
        file_name=f"exercise-{ex.name}.txt",
        mime="text/plain",
        key=widget_key("join", f"corpus_{ex.name}"),
        on_click="ignore",
    )
    is_open = current is not None and current.run == room.run and current.state == "open"
    if not is_open:
        st.info("Waiting for your teacher to set this exercise to the class.")
        return
    mine = rooms.store().answer_of(current.id, student)
    said = st.session_state.get(SAID)
    if said and said[0] == current.id:
        (st.success if said[1] else st.warning)(as_text(said[2]))
    elif mine is not None:
        st.caption("Your result, as sent")
        st.text(mine)
    with st.form(widget_key("join", f"merges_{current.id}")):
        upload = st.file_uploader("Upload your merges file", key=widget_key("join", "m_file"))
        pasted = st.text_area("or paste them, one merge per line ('a b')", height=120,
                              key=widget_key("join", "m_text"))  # fmt: skip
        st.caption(f"Accepted: {FORMATS}. A new list replaces the one you sent.")
        sent = st.form_submit_button("Check and send", type="primary", width="stretch")
    if sent:
        send(room.code, current.id, name, settings_of(view), student, upload, pasted)


def send(code, round_id: int, name: str, settings: tuple, student: str, upload, pasted) -> None:
    """Check the list (as /check does) and keep its outcome in the round."""
    text = read_upload(upload) if upload is not None else pasted
    if not text or not text.strip():
        if upload is None:
            st.error("Upload your merges file or paste the merges, then send them.")
        return
    try:
        with st.spinner("Checking your merges against the reference..."):
            verdict = views.verdict(name, text, settings)
        d = verdict.first_difference
        outcome = (
            classwork.outcome_of(True)
            if verdict.identical
            else classwork.outcome_of(False, d.merge, d.cause)
        )
        rooms.store().submit(code, round_id, student, outcome)
    except ValueError as err:
        st.error(as_text(str(err)))
        return
    st.session_state[SAID] = (round_id, verdict.identical, verdict.summary())
    st.rerun()
