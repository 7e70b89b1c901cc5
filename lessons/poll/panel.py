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

import html
import io
import secrets
from collections.abc import Callable

import segno
import streamlit as st

from lessons.poll import teacher
from lessons.poll.record import class_controls, past_class
from lessons.poll.results import live_results
from lessons.ui.corpus import TEXT, UPLOAD
from lessons.ui.keys import widget_key
from lessons.ui.present import presenting
from lessons.ui.steps import lazy_expander
from lessons.ui.store import fingerprint, run_key
from subtok_core import rooms
from subtok_core.rooms import address
from subtok_core.rooms.address import Base

QR_WIDTH = 220  # px of the QR code on the teacher's screen
QR_BIG = 360  # in presenter mode: a 33-module code at ~11 px a module, read from the back
POLL_CSS = """<style>
.poll-code {font-size: 1.1rem;}
.poll-code b {display: block; font-size: 2.6rem; letter-spacing: .25em; font-family: monospace;
              white-space: nowrap;}
.poll-code.big b {font-size: 4.6rem; letter-spacing: .15em;}
</style>"""


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
                teacher_panel(page_name, trace, i, corpus)

    return draw


def run_print(trace) -> str:
    """The fingerprint of a run (corpus and settings): the trace store's key, else a
    digest of the run's algorithm, settings and word counts."""
    return run_key(trace) or fingerprint(
        trace.algorithm, tuple(dict(trace.params).items()), trace.start.words, trace.start.counts
    )


def connection() -> str:
    """This browser session's random id, for the poll's rate limits (never stored)."""
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
    # the code and link, the QR code, the round: side by side (stacked on a phone)
    left, middle, right = st.columns([5, 5, 4] if presenting() else [4, 3, 6], gap="medium")
    show_room(room, page_name, left, middle)
    with right:
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
    the choice to show its words on the phones)."""
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
        )
    except ValueError as err:  # too many rooms: the limit's sentence
        st.session_state[widget_key(page_name, "poll_said")] = str(err)
        return
    teacher.opened(code)


def _share(page_name: str, code: str) -> None:
    """The teacher changed their mind on showing their own corpus: the room says so, and
    the next run writes the step's view again (with the words, or without)."""
    rooms.store().share_words(code, st.session_state[widget_key(page_name, f"poll_shared_{code}")])
    teacher.forget_written()


def _open_round(code: str, question: rooms.Question) -> None:
    rooms.store().open_round(code, question)


def join_link(code: str, page_name: str, page_url: str | None) -> tuple[str, Base]:
    """The address students open and the base it was built on: $SUBTOK_PUBLIC_URL, else
    the teacher's address, else (the teacher's address is this computer only) the machine's
    address on the network (subtok_core.rooms.address)."""
    try:
        base = address.choose_base(page_url, page_name)
    except ValueError as err:  # a public URL setting that is no web address
        st.error(str(err))
        base = address.choose_base(page_url, page_name, environ={})
    return address.join_url(base, code), base


def qr_png(link: str) -> bytes:
    """A QR code of `link` as PNG bytes, drawn by segno on this machine."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


def show_room(room, page_name: str, left, right) -> None:
    """The code in large type, the link and a warning in plain words when the phones
    cannot reach the address (in `left`), its QR code (in `right`)."""
    link, base = join_link(room.code, page_name, st.context.url)
    big = presenting()
    left.html(POLL_CSS)
    size = "poll-code big" if big else "poll-code"
    code = html.escape(room.code)  # our own alphabet, escaped all the same
    left.markdown(f'<div class="{size}">Room code <b>{code}</b></div>', unsafe_allow_html=True)
    left.markdown(f"Students open **{link}** (or the page *Join a poll* and type the code).")
    for warning in reach_warnings(base):
        left.warning(warning)
    if room.corpus in (TEXT, UPLOAD):  # the teacher's own words: shared on request
        left.toggle(
            "Show this corpus's words on the phones",
            value=room.share,
            key=widget_key(page_name, f"poll_shared_{room.code}"),
            on_change=_share,
            args=(page_name, room.code),
        )
    left.caption("The room closes 2 hours after its last round opened.")
    if not base.url.startswith("/"):
        right.image(
            qr_png(link),
            caption="Scan to join",
            width=QR_BIG if big else QR_WIDTH,
            alt=f"QR code of {link}",
        )


def reach_warnings(base: Base) -> list[str]:
    """What keeps the phones from the link, in plain words (none: nothing known)."""
    said = []
    if base.local:
        said.append(
            "This address works on this computer only: phones cannot open it. Connect this "
            "computer to the room's network (or set SUBTOK_PUBLIC_URL to the server's "
            "public address) and reopen the page."
        )
    listening = str(st.get_option("server.address") or "")
    behind_proxy = base.source == "setting"  # a proxy on this machine may reach it there
    if listening and not behind_proxy and address.is_local(listening) and listening != "::":
        said.append(
            f"This server listens on {listening} only, so phones cannot connect even with "
            "the address above: start it with --server.address 0.0.0.0."
        )
    return said
