"""Join a class poll: the students' side, made for a phone (390 px wide, one column).

/join?room=CODE follows the teacher's browser from lesson to lesson: the lesson and step it
shows (and what of the corpus the teacher shares), and, when the teacher opens a round on
it, that lesson's question with a form; on a page with no question, a sentence saying what
the teacher shows. When the teacher ends the class, or has not been seen for a minute,
the page says so (and in the second case keeps looking).
Everything comes from the room in the database (lessons/poll/panel.py writes it), so a phone
on any app server of the class shows it, without the corpus and without training. A small
fragment looks at the room every 0.75 s and redraws the page when the teacher moves (page,
run, step), opens a round, reveals it, ends the class or goes away. A student is an
anonymous id kept in a cookie of this browser (lessons/poll/student.py): a second answer,
from a reload or a new tab, replaces the first.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.poll import exercise
from lessons.poll import student as anonymous
from lessons.ui import client
from lessons.ui.chips import show_corpus
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from subtok_core import rooms

PAGE = "join"
WATCH_EVERY = 0.75  # seconds between two looks at the room: a phone follows within ~1.5 s
JOINED = widget_key(PAGE, "joined")  # session: the code this session has joined


def ask_code() -> None:
    """A box for the room code, when the address has none or a wrong one."""
    code = st.text_input("Room code", key=widget_key(PAGE, "code"), max_chars=8)
    if st.button("Join", key=widget_key(PAGE, "go"), type="primary") and code.strip():
        try:
            st.query_params["room"] = rooms.normal_code(code)
        except ValueError as err:
            st.error(plain(str(err)))
            return
        st.rerun()


def enter(code: str, student: str) -> rooms.Room:
    """The room of the address's code: a code new to this session counts as a try of this
    browser and of its network address (rooms.RoomStore.try_code: a few a minute); the
    joined one is only read again."""
    polls = rooms.store()
    joined = st.session_state.get(JOINED)
    if joined is not None and joined == _normal_or_none(code):
        return polls.join(joined)
    room = polls.try_code(code, student, client.current())
    st.session_state[JOINED] = room.code
    return room


def _normal_or_none(code: str) -> str | None:
    """The stored form of an address's code, or None for a code that is none."""
    try:
        return rooms.normal_code(code)
    except ValueError:
        return None


@st.fragment(run_every=WATCH_EVERY)
def watch(code: str, seen: tuple) -> None:
    """Redraw the page when the teacher moves, opens or reveals a round, ends the class or
    goes away (one small look)."""
    if rooms.store().pulse(code) != seen:
        st.rerun(scope="app")
    st.caption("This page follows your teacher's screen.")


def here_now(room: rooms.Room) -> str:
    """Where the teacher is, in a line: the room, the lesson, its corpus and step."""
    parts = [f"Room {room.code}", room.title or room.page]
    if room.algorithm:
        parts += [room.corpus, f"step {room.step}"] if room.corpus else [f"step {room.step}"]
    return " · ".join(parts)


def show_view(room: rooms.Room) -> None:
    """What the teacher shares of the step: the corpus (BPE, WordPiece) or the vocabulary
    and the words' best segmentations (Unigram); nothing of a corpus kept private."""
    view = room.view
    if not view:
        st.caption("Your teacher keeps this corpus's words on their own screen.")
        return
    st.write(f"**{view['title']}**")
    if view["kind"] == "vocab":
        table = pd.DataFrame(view["vocab"], columns=["piece", "probability"])
        st.dataframe(table, hide_index=True, height=min(320, 38 + 35 * len(table)))
        if view["size"] > len(table):
            st.caption(f"The {len(table)} most probable of {view['size']:,} pieces.")
        if view["rows"]:
            st.write("**Each word's best segmentation**")
    if view["rows"]:
        show_corpus(view["rows"], view["total"], set(view.get("new", ())))


def send(code: str, round_id: int, question: rooms.Question, student: str) -> None:
    """The form's submit: the typed answer if any, else the picked one. A second answer
    replaces the first."""
    typed = st.session_state.get(widget_key(PAGE, f"other_{round_id}"), "") or ""
    picked = st.session_state.get(widget_key(PAGE, f"pick_{round_id}"))
    answer = typed.strip() or picked or ""
    try:
        if not answer:
            raise ValueError("Pick an answer in the list or type one, then send it.")
        rooms.store().submit(code, round_id, student, question.canonical(answer))
    except ValueError as err:
        st.session_state[widget_key(PAGE, "said")] = str(err)


def answer_form(code: str, current, question, student: str) -> None:
    with st.form(widget_key(PAGE, f"form_{current.id}")):
        st.selectbox(
            "your answer",
            question.candidates,
            index=None,
            key=widget_key(PAGE, f"pick_{current.id}"),
            placeholder="pick a pair" if question.kind == "pair" else "pick a piece",
        )
        st.text_input(
            "or type another",
            key=widget_key(PAGE, f"other_{current.id}"),
            max_chars=rooms.db.ANSWER_MAX,
            placeholder="e s" if question.kind == "pair" else "piece",
        )
        st.form_submit_button(
            "Send my answer",
            type="primary",
            width="stretch",
            on_click=send,
            args=(code, current.id, question, student),
        )


def show_round(room: rooms.Room, current, student: str) -> None:
    """The round on the teacher's step: the question, then while it is open the form
    (with this student's answer so far, which a new one replaces); once revealed the
    algorithm's choice, right or not, and why; then the step."""
    question = rooms.Question.from_json(current.question)
    st.subheader(question.prompt)
    mine = rooms.store().answer_of(current.id, student)
    said = st.session_state.pop(widget_key(PAGE, "said"), None)
    if said:
        st.error(said)
    show_verdict(current, question, mine)
    if current.state == "open":
        answer_form(room.code, current, question, student)
    show_view(room)


def show_verdict(current, question, mine: str | None) -> None:
    """This student's answer; once revealed, the algorithm's choice, right or not, and why."""
    if mine is not None:
        st.caption("Your answer")
        st.text(mine)  # as typed, plain text
    if current.state == "open":
        if mine is not None:
            st.success("Recorded. Wait for your teacher to reveal the answer (a new answer "
                       "replaces this one).")  # fmt: skip
        return
    if current.state == "closed":
        st.info("This round is over; your teacher has moved on. Wait for the next round.")
        return
    st.metric("The algorithm's choice", ", ".join(current.answer))
    verdict = question.verdict(mine) if mine is not None else None
    if verdict == "right":
        st.success("You predicted it.")
    elif verdict == "tied":
        st.warning("Close: yours was tied with it, and the tie rule chose the other.")
    elif verdict == "wrong":
        st.warning("Not this time.")
    st.info(question.explanation)


def main() -> None:
    st.title("Class poll")
    code = st.query_params.get("room", "").strip()
    if not code:
        st.write("Type the room code your teacher shows.")
        ask_code()
        return
    student = anonymous.student_id()
    try:
        room = enter(code, student)
    except rooms.RoomEnded as ended:
        st.info(plain(str(ended)))
        return
    except ValueError as err:
        st.error(plain(str(err)))
        ask_code()
        return
    polls = rooms.store()
    current = polls.current_round(room.code)
    watch(room.code, polls.pulse(room.code))
    st.caption(here_now(room))
    if room.absent(polls.clock()):
        st.warning(
            "Your teacher's screen has not been seen for a minute: this page keeps looking "
            "and follows again as soon as it is back."
        )
    if room.view.get("kind") == "exercise":  # /check set to the class
        exercise.student_side(room, current, student)
        return
    if not room.algorithm:
        st.subheader(f"Your teacher is showing {room.title or room.page}")
        st.info("Nothing is asked now: look at your teacher's screen. This page follows it.")
        return
    if current is not None and (current.step, current.run) == (room.step, room.run):
        show_round(room, current, student)
        return
    st.subheader(f"Your teacher is on step {room.step}")
    st.info(
        "Waiting for your teacher to open the first round."
        if current is None
        else "Waiting for your teacher to open a round on this step."
    )
    show_view(room)


main()
