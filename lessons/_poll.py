"""The teacher's side of a class poll, placed on a lesson page under its step controls:
open a room (its code, the link /join?room=CODE and a QR code of it), open a round on
the step shown, watch the answers come in, reveal the algorithm's choice and why.

The students' side is lessons/join.py; rooms, rounds and answers are kept by
subtok_core.rooms in the database of the setting (SUBTOK_DB_URL), so that every app
server of a department sees the same class.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

import pandas as pd
import segno
import streamlit as st

from lessons import _widgets as w
from lessons._a11y import altair_chart  # the chart and its sentence
from subtok_core import rooms
from subtok_core.charts.poll import answers_chart

LIVE_EVERY = 0.75  # seconds between two looks at the answers: the tally is at most ~1 s old
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def class_poll(page_name: str, trace, i: int, question: str) -> Callable[[], None]:
    """The lesson's class poll on step i, closed until the teacher opens it (its panel runs
    only then): returns the function that draws it, for the page to place (and for
    presenter mode to keep, lessons._present.end_of_step_view)."""

    def draw() -> None:
        with w.lazy_expander(f"Class poll: {question}", page_name, "class_poll") as box:
            if box.open:
                teacher_panel(page_name, trace, i)

    return draw


def teacher_panel(
    page_name: str,
    trace,
    i: int,
    answer_of_step: Callable[..., rooms.Question | None] | None = None,
) -> None:
    """The poll panel of lesson `page_name` ("bpe", "wordpiece", "unigram") on step i
    of `trace`. `answer_of_step(trace, i)` gives the question and its answer (by default
    the one for the trace's algorithm: rooms.next_merge or rooms.next_prune)."""
    ask = answer_of_step or rooms.question_for(trace.algorithm)
    polls = rooms.store()
    kept = w.widget_key(page_name, "poll_room")
    st.subheader("Class poll")
    room = _kept_room(polls, kept)
    if room is None or not room.shows(trace):
        if room is not None:
            st.caption(f"Room {room.code} polls other settings or another corpus than this view.")
        st.button(
            "Open a class poll" if room is None else "Open a new poll for this view",
            key=w.widget_key(page_name, "poll_start"),
            on_click=_open_room,
            args=(page_name, trace, kept),
            help="The class predicts the next step on their phones; you see their answers.",
        )
        return
    show_room(room, page_name)
    question = ask(trace, i)
    current = polls.current_round(room.code)
    if question is None:
        st.write("Nothing is left to predict after this step.")
    elif current is None or current.step != i or current.state != "open":
        st.button(
            f"Open a round on step {i}",
            key=w.widget_key(page_name, "poll_round"),
            on_click=_open_round,
            args=(room.code, question),
            type="primary",
        )
    if current is not None:
        live_results(page_name, room.code, trace, ask)


def _kept_room(polls, kept: str):
    """The room this session opened, while it is open (an expired one: said, forgotten)."""
    code = st.session_state.get(kept)
    if code is None:
        return None
    try:
        return polls.join(code)
    except ValueError as err:
        st.warning(str(err))
        del st.session_state[kept]
        return None


def _open_room(page_name: str, trace, kept: str) -> None:
    query = urlencode(st.query_params.to_dict())
    st.session_state[kept] = rooms.store().open_room(
        page_name,
        trace.algorithm,
        st.session_state.get("corpus", ""),
        f"/{page_name}" + (f"?{query}" if query else ""),
        dict(trace.params),
        zip(trace.start.words, trace.start.counts),
    )


def _open_round(code: str, question: rooms.Question) -> None:
    rooms.store().open_round(code, question.step, list(question.answers), list(question.tied))


def join_link(code: str, page_name: str, page_url: str | None) -> str:
    """The address students open: absolute when the browser's address of this page is
    known (`page_url`, st.context.url), else the path only.

    >>> join_link("K7RD", "bpe", "https://lab.example.org/subtok/bpe")
    'https://lab.example.org/subtok/join?room=K7RD'
    >>> join_link("K7RD", "bpe", None)
    '/join?room=K7RD'
    """
    if not page_url:
        return f"/join?room={code}"
    parts = urlsplit(page_url)
    path = parts.path.rstrip("/")
    base = path[: -len(page_name)] if path.endswith("/" + page_name) else path + "/"
    return f"{parts.scheme}://{parts.netloc}{base}join?room={code}"


def qr_png(link: str) -> bytes:
    """A QR code of `link` as PNG bytes, drawn by segno on this machine."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


def show_room(room, page_name: str) -> None:
    """The code in large type, the link, and its QR code when the address is known."""
    link = join_link(room.code, page_name, st.context.url)
    left, right = st.columns([3, 2])
    left.metric("Room code", room.code)
    left.markdown(f"Students open **{link}** (or the page *Join a poll* and type the code).")
    if link.startswith("/"):
        left.caption(
            "The address of this server is not known here: students put it before the path."
        )
    elif urlsplit(link).hostname in LOCAL_HOSTS:
        left.caption(
            "This is the address of this computer only: phones need the server's address on "
            "the network (start streamlit with --server.address 0.0.0.0 and use its IP)."
        )
    left.caption("The room closes 2 hours after its last round opened.")
    if not link.startswith("/"):
        right.image(qr_png(link), caption="Scan to join", width=220, alt=f"QR code of {link}")


def answers_frame(tally, current) -> pd.DataFrame:
    """The tally as rows (answer, count, verdict); verdicts only once revealed."""
    revealed = current.state == "revealed"

    def verdict(answer: str) -> str:
        if not revealed:
            return ""
        return (
            "right" if answer in current.answer else "tied" if answer in current.ties else "wrong"
        )

    rows = [{"answer": a, "count": n, "verdict": verdict(a)} for a, n in tally]
    return pd.DataFrame(rows, columns=["answer", "count", "verdict"])


@st.fragment(run_every=LIVE_EVERY)
def live_results(page_name: str, code: str, trace, ask: Callable) -> None:
    """The room's latest round, read again every LIVE_EVERY seconds (this part only)."""
    polls = rooms.store()
    current = polls.current_round(code)
    if current is None:
        return
    frame = answers_frame(polls.tally(current.id), current)
    total = int(frame["count"].sum())
    state = {"open": "open", "closed": "closed", "revealed": "revealed"}[current.state]
    answers = "answer" if total == 1 else "answers"
    st.markdown(f"**Round on step {current.step}** ({state}): **{total}** {answers}.")
    if total:
        altair_chart(answers_chart(frame))
        with st.expander("The answers as typed"):
            st.dataframe(frame[["answer", "count"]], hide_index=True)  # plain text, never HTML
    if current.state == "open":
        st.button(
            "Reveal",
            key=w.widget_key(page_name, "poll_reveal"),
            on_click=polls.reveal,
            args=(current.id,),
            disabled=total == 0,
        )
    elif current.state == "revealed":
        show_reveal(current, frame, ask(trace, current.step))


def show_reveal(current, frame: pd.DataFrame, question) -> None:
    """The algorithm's choice, why (its own sentence, with ties), and who predicted it."""
    total = int(frame["count"].sum())
    right = int(frame.loc[frame["verdict"] == "right", "count"].sum())
    tied = int(frame.loc[frame["verdict"] == "tied", "count"].sum())
    left, right_col = st.columns(2)
    left.metric("The algorithm's choice", ", ".join(current.answer))
    share = f"{right} of {total}" + (f" ({right / total:.0%})" if total else "")
    right_col.metric("Predicted it", share)
    if question is not None and question.answers == current.answer:
        st.info(question.explanation)
    if current.ties:
        st.caption(
            f"Tied with it: {', '.join(current.ties)}. {tied} of {total} chose a tied "
            "candidate, which the tie rule set aside."
        )
