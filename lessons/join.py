"""Join a class poll: the students' side, made for a phone (390 px wide, one column).

/join?room=CODE shows the lesson at the step the teacher opened a round on (the same run,
trained by the same core functions from the room's word counts and settings), lets the
student pick or type an answer once, and follows the teacher: a small fragment looks at
the room every few seconds and redraws the page when a round opens or is revealed.
A student is an anonymous random id kept in this browser session, never a name.
"""

from __future__ import annotations

import secrets

import pandas as pd
import streamlit as st

from lessons import _widgets as w
from subtok_core import bpe, corpus, registry, rooms, wordpiece

PAGE = "join"
WATCH_EVERY = 2.0  # seconds between two looks at the room
MERGE_LESSONS = {"bpe": bpe, "wordpiece": wordpiece}  # the modules that give corpus_at
CORPUS_ROWS = 30  # words of a real sample shown


def session_id() -> str:
    """This browser session's anonymous id (random; the same for every round)."""
    key = w.widget_key(PAGE, "session")
    if key not in st.session_state:
        st.session_state[key] = secrets.token_urlsafe(16)
    return st.session_state[key]


def ask_code() -> None:
    """A box for the room code, when the address has none or a wrong one."""
    code = st.text_input("Room code", key=w.widget_key(PAGE, "code"), max_chars=8)
    if st.button("Join", key=w.widget_key(PAGE, "go"), type="primary") and code.strip():
        try:
            st.query_params["room"] = rooms.normal_code(code)
        except ValueError as err:
            st.error(str(err))
            return
        st.rerun()


def room_trace(room: rooms.Room):
    """The run the room polls, trained here from its word counts and settings (once per
    server: every student of the room shares it through the trace store)."""
    wc = corpus.from_pairs(room.words, room.corpus)
    algo = registry.get(room.algorithm)
    return w.trace_store().trained(
        w.fingerprint("poll", room.algorithm, room.words, room.params),
        lambda report: algo.trace(wc, progress=report, **dict(room.params)),
        "Preparing the lesson:",
    )


@st.fragment(run_every=WATCH_EVERY)
def watch(code: str, seen: tuple | None) -> None:
    """Redraw the page when the teacher opens or reveals a round (one small query)."""
    current = rooms.store().current_round(code)
    now = None if current is None else (current.id, current.state)
    if now != seen:
        st.rerun(scope="app")
    st.caption("This page follows your teacher's screen.")


def show_state(room: rooms.Room, trace, i: int) -> None:
    """The corpus (BPE, WordPiece) or the vocabulary (Unigram) after step i."""
    if room.algorithm in MERGE_LESSONS:
        rows = MERGE_LESSONS[room.algorithm].corpus_at(trace, i, limit=CORPUS_ROWS)
        new = {trace.steps[i - 1].new_symbol} if i else set()
        st.write(f"**The corpus after merge {i}**" if i else "**The corpus, before any merge**")
        w.show_corpus(rows, len(trace.start.words), new)
        return
    record = trace.steps[i - 1] if i else trace.start
    st.write(f"**The vocabulary after step {i}**" if i else "**The seed vocabulary**")
    table = pd.DataFrame(
        [(r.piece, r.prob) for r in record.vocab], columns=["piece", "probability"]
    ).sort_values("probability", ascending=False, kind="stable")
    st.dataframe(table, hide_index=True, height=min(320, 38 + 35 * len(table)))
    if i and record.segmentations:
        rows = [(s.word, s.count, s.pieces) for s in record.segmentations[:CORPUS_ROWS]]
        st.write("**Each word's best segmentation**")
        w.show_corpus(rows, len(record.segmentations), set())


def send(code: str, round_id: int, question) -> None:
    """The form's submit: the typed answer if any, else the picked one; once."""
    typed = st.session_state.get(w.widget_key(PAGE, f"other_{round_id}"), "") or ""
    picked = st.session_state.get(w.widget_key(PAGE, f"pick_{round_id}"))
    answer = typed.strip() or picked or ""
    try:
        if not answer:
            raise ValueError("Pick an answer in the list or type one, then send it.")
        rooms.store().submit(code, round_id, session_id(), question.canonical(answer))
    except ValueError as err:
        st.session_state[w.widget_key(PAGE, "said")] = str(err)


def answer_form(code: str, current, question) -> None:
    with st.form(w.widget_key(PAGE, f"form_{current.id}")):
        st.selectbox(
            "your answer",
            question.candidates,
            index=None,
            key=w.widget_key(PAGE, f"pick_{current.id}"),
            placeholder="pick a pair" if question.kind == "pair" else "pick a piece",
        )
        st.text_input(
            "or type another",
            key=w.widget_key(PAGE, f"other_{current.id}"),
            max_chars=rooms.db.ANSWER_MAX,
            placeholder="e s" if question.kind == "pair" else "piece",
        )
        st.form_submit_button(
            "Send my answer",
            type="primary",
            width="stretch",
            on_click=send,
            args=(code, current.id, question),
        )


def show_round(room: rooms.Room, trace, current, question) -> None:
    """An open round: the step, then the form. Once answered (or over): this student's
    answer, after the reveal the algorithm's choice, then the step below them."""
    mine = rooms.store().answer_of(current.id, session_id())
    said = st.session_state.pop(w.widget_key(PAGE, "said"), None)
    if said:
        st.error(said)
    if current.state == "open" and mine is None:
        show_state(room, trace, current.step)
        answer_form(room.code, current, question)
        return
    show_verdict(current, question, mine)
    show_state(room, trace, current.step)


def show_verdict(current, question, mine: str | None) -> None:
    """This student's answer; once revealed, the algorithm's choice, right or not, and why."""
    if mine is not None:
        st.caption("Your answer")
        st.text(mine)  # as typed, plain text
    if current.state == "open":
        st.success("Recorded. Wait for your teacher to reveal the answer.")
    elif current.state == "closed":
        st.info("This round is over; your teacher has moved on. Wait for the next round.")
    else:
        st.metric("The algorithm's choice", ", ".join(current.answer))
        verdict = question.verdict(mine) if mine is not None else None
        if verdict == "right":
            st.success("You predicted it.")
        elif verdict == "tied":
            st.warning("Close: yours was tied with it, and the tie rule chose the other.")
        elif verdict == "wrong":
            st.warning("Not this time.")
        if question.answers == current.answer:
            st.info(question.explanation)


st.title("Class poll")
code = st.query_params.get("room", "").strip()
if not code:
    st.write("Type the room code your teacher shows.")
    ask_code()
    st.stop()
try:
    room = rooms.store().join(code)
except ValueError as err:
    st.error(str(err))
    ask_code()
    st.stop()
current = rooms.store().current_round(room.code)
watch(room.code, None if current is None else (current.id, current.state))
lesson = registry.get(room.algorithm).label + (f" · {room.corpus}" if room.corpus else "")
st.caption(f"Room {room.code} · {lesson}")
if current is None:
    st.info("Waiting for your teacher to open the first round.")
    st.stop()
trace = room_trace(room)
question = rooms.question_for(room.algorithm)(trace, current.step)
if question is None:
    st.info("Nothing is left to predict on this step; wait for the next round.")
    st.stop()
st.subheader(question.prompt)
show_round(room, trace, current, question)
