"""The teacher's side of a class poll, placed on a lesson page under its step controls:
open a room (its code, the link /join?room=CODE and a QR code of it), open a round on
the step shown, watch the answers come in, reveal the algorithm's choice and why. The room
is the teacher's browser's (lessons/poll/teacher.py): it follows the teacher from lesson to
lesson until the teacher ends the class (lessons/poll/record.py: the end, the tally's
visibility and the class's record).

The students' side is lessons/poll/page.py; rooms, rounds and answers are kept by
subtok_core.rooms in the database of the setting (SUBTOK_DB_URL), so that every app
server of a department sees the same class.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

import streamlit as st

from lessons.poll import teacher
from lessons.poll.record import class_controls, past_class
from lessons.poll.results import live_results
from lessons.poll.room import show_room
from lessons.ui import client
from lessons.ui.corpus import TEXT, UPLOAD
from lessons.ui.keys import widget_key
from lessons.ui.steps import POLL_GO, lazy_expander
from lessons.ui.store import fingerprint, run_key
from subtok_core import rooms
from subtok_core.rooms.clients import teacher_passcode


def class_poll(page_name: str, trace, i: int, corpus: str, question: str) -> Callable[[], None]:
    """The lesson's class poll on step i of `trace`, trained on the corpus named `corpus`:
    while this browser's teacher has a room open, the room follows the page (its lesson,
    run and step: phones show it); the panel itself is closed until the teacher opens it
    (it runs only then). Returns the function that draws it, for the page to place just
    under the step's main view (lessons.ui.present.end_of_step_view)."""
    follow(page_name, trace, i, corpus)

    def draw() -> None:
        with lazy_expander(f"Class poll: {question}", page_name, "class_poll") as box:
            if box.open:
                go_to_panel(page_name)
                teacher_panel(page_name, trace, i, corpus)

    return draw


def go_to_panel(page_name: str) -> None:
    """When the "Class poll" button beside the step controls (lessons.ui.steps.poll_button)
    was pressed: scroll the page to the panel, its title at the top of the screen, and put
    the keyboard's focus on its title."""
    asked = widget_key(page_name, POLL_GO)
    if not st.session_state.pop(asked, False):
        return
    times = widget_key(page_name, "poll_went")  # a new script each time: it runs again
    st.session_state[times] = st.session_state.get(times, 0) + 1
    panel = json.dumps(f".st-key-{widget_key(page_name, 'class_poll_open')}")
    st.html(
        f"""<script>/* {st.session_state[times]} */
        (() => {{
          const go = () => {{
            const box = document.querySelector({panel});
            if (!box) return;
            box.scrollIntoView({{block: "start"}});
            box.querySelector("summary")?.focus({{preventScroll: true}});
          }};
          [0, 250, 800].forEach((ms) => setTimeout(go, ms));  // charts drawn meanwhile
        }})();</script>""",
        unsafe_allow_javascript=True,
    )


def run_print(trace) -> str:
    """The fingerprint of a run (corpus and settings): the trace store's key, else a
    digest of the run's algorithm, settings and word counts."""
    return run_key(trace) or fingerprint(
        trace.algorithm, tuple(dict(trace.params).items()), trace.start.words, trace.start.counts
    )


PASSCODE = "poll_teacher_passcode"  # session: the teacher passcode this session gave


def connection() -> str:
    """This page session's random id, for the poll's rate limits when the browser has no
    teacher key yet (never stored)."""
    return st.session_state.setdefault("poll_connection", secrets.token_urlsafe(12))


def follow(page_name: str, trace, i: int, corpus: str = "") -> None:
    """Write the page's lesson and step (and what phones show of it) to this browser's room
    when it changed (lessons/poll/teacher.py): the phones follow within their next look
    (lessons/poll/page.py). A teacher's own text or upload reaches the phones only when
    the teacher shares it (a corpus new to the room starts unshared)."""

    def details(share: bool | None) -> tuple[str, bool, dict]:
        if share is None:
            share = corpus not in (TEXT, UPLOAD)
        corpus_print = fingerprint(trace.start.words, trace.start.counts)
        return corpus_print, share, rooms.step_view(trace, i, share)

    link = teacher.page_link(page_name)
    teacher.follow_lesson(page_name, trace, i, corpus, run_print(trace), link, details)


def teacher_panel(
    page_name: str,
    trace,
    i: int,
    corpus: str,
    answer_of_step: Callable[..., rooms.Question | None] | None = None,
) -> None:
    """The poll panel of lesson `page_name` ("bpe", "wordpiece", "unigram") on step i
    of `trace`, trained on the corpus named `corpus`: the room (code, link, QR code)
    beside the round and its tally, then the class's controls and record.
    `answer_of_step(trace, i)` gives the question and its answer (by default the one for
    the trace's algorithm: rooms.next_merge or rooms.next_prune)."""
    teacher.whole_page()  # a room just opened: the page's heartbeat starts
    ask = answer_of_step or rooms.question_for(trace.algorithm)
    polls = rooms.store()
    room = teacher.room()
    if room is None:
        start_room(page_name, trace, i, corpus)
        return
    follow(page_name, trace, i, corpus)
    room = polls.join(room.code)  # as followed
    # the room's row: its QR code, then the code and the link beside it (under it on a
    # narrow screen); the round and its tally under the row, the whole width
    box = st.container(key=widget_key(page_name, "poll_panel"))
    row = box.container(horizontal=True, gap="large", vertical_alignment="center")
    qr = row.container(key=widget_key(page_name, "poll_qr"), width="content")
    said = row.container(key=widget_key(page_name, "poll_roomtext"))
    show_room(room, page_name, said, qr)
    with box:
        question = ask(trace, i)
        current = polls.current_round(room.code)
        same = current is not None and (current.step, current.run) == (i, room.run)
        if question is None:
            st.write("Nothing is left to predict after this step.")
        elif not same or current.state != "open":
            st.button(
                f"Open a round on step {i}",
                key=widget_key(page_name, "poll_round"),
                on_click=_open_round,
                args=(room.code, question),
                type="primary",
            )
        if current is not None and current.run == room.run:  # this lesson's round
            live_results(page_name, room.code)
    class_controls(room, page_name)


def start_room(page_name: str, trace, i: int, corpus: str) -> None:
    """The button that opens a room on step i (and, for a corpus of the teacher's own,
    the choice to show its words on the phones; when the operator set a teacher passcode
    and this session has not given it yet, the box for it)."""
    if teacher_passcode() and not st.session_state.get(PASSCODE):
        st.text_input(
            "Teacher passcode",
            type="password",
            key=widget_key(page_name, "poll_passcode"),
            help="The server's operator set a passcode for opening class polls. Students "
            "never need it: they join with the room's code.",
        )
    own = corpus in (TEXT, UPLOAD)
    share = not own or st.checkbox(
        "Show this corpus's words on the students' phones",
        value=False,
        key=widget_key(page_name, "poll_share"),
        help="Your own text or upload stays on this screen unless you tick this; phones "
        "then show the step and the question only.",
    )
    st.button(
        "Open a class poll",
        key=widget_key(page_name, "poll_start"),
        on_click=_open_room,
        args=(page_name, trace, i, corpus, share),
        help="The class joins once, on their phones, and follows your lesson pages until "
        "you end the class; you see their answers.",
    )
    said = st.session_state.pop(widget_key(page_name, "poll_said"), None)
    if said:
        st.error(said)
    past_class(page_name)


def _open_room(page_name: str, trace, i: int, corpus: str, share: bool) -> None:
    typed = st.session_state.get(widget_key(page_name, "poll_passcode"))
    passcode = str(typed or st.session_state.get(PASSCODE) or "")
    try:
        code = rooms.store().open_room(
            page_name,
            trace.algorithm,
            corpus,
            fingerprint(trace.start.words, trace.start.counts),
            run_print(trace),
            teacher.page_link(page_name),
            share,
            step=i,
            view=rooms.step_view(trace, i, share),
            connection=connection(),
            teacher=teacher.teacher_key(create=True),
            title=teacher.title_of(page_name),
            client=client.current(),
            passcode=passcode,
        )
    except ValueError as err:  # no passcode, or too many rooms: the sentence
        st.session_state[widget_key(page_name, "poll_said")] = str(err)
        if "passcode" in str(err):
            st.session_state.pop(PASSCODE, None)  # asked again (the operator changed it)
        return
    if passcode:
        st.session_state[PASSCODE] = passcode  # this session's next room asks no more
    teacher.opened(code)


def _open_round(code: str, question: rooms.Question) -> None:
    rooms.store().open_round(code, question)
