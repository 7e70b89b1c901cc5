"""/check set to a class, the students' side on /join (the teacher's side is
lessons/check/classwork.py): the exercise the teacher shows, its corpus to download, and
while the round is open a box for the merges; a list sent is checked as /check checks it
(lessons/check/views.verdict, cached) and the round keeps only its outcome."""

from __future__ import annotations

import streamlit as st

from lessons.check import views
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.upload import read_upload
from subtok_core import corpus, rooms
from subtok_core.check import FORMATS, classwork, exercises

PAGE = "join"
SAID = widget_key(PAGE, "exercise_said")  # session: the student's last verdict, in words


def student_side(room: rooms.Room, current: rooms.Round | None, student: str) -> None:
    """The exercise the teacher shows: what it is, its corpus, and (while the round is
    open) the box for the merges; the student's own outcome once sent."""
    view = room.view
    ex = exercises.load(view["exercise"])
    name = corpus.exercises.EXERCISE + ex.name
    st.subheader(f"Exercise: {name}")
    st.write(as_text(ex.about))
    st.caption(plain(classwork.settings_words(view)))  # the teacher's special tokens: as typed
    st.download_button(
        f"Download its corpus ({ex.name}.txt)",
        ex.text.encode("utf-8"),
        file_name=f"exercise-{ex.name}.txt",
        mime="text/plain",
        key=widget_key(PAGE, f"corpus_{ex.name}"),
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
    with st.form(widget_key(PAGE, f"merges_{current.id}")):
        upload = st.file_uploader("Upload your merges file", key=widget_key(PAGE, "m_file"))
        pasted = st.text_area("or paste them, one merge per line ('a b')", height=120,
                              key=widget_key(PAGE, "m_text"))  # fmt: skip
        st.caption(f"Accepted: {FORMATS}. A new list replaces the one you sent.")
        sent = st.form_submit_button("Check and send", type="primary", width="stretch")
    if sent:
        send(room.code, current.id, name, classwork.settings_of(view), student, upload, pasted)


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
