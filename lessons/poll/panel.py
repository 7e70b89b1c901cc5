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
import json
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
from lessons.ui.steps import POLL_GO, lazy_expander
from lessons.ui.store import fingerprint, run_key
from subtok_core import rooms
from subtok_core.rooms import address
from subtok_core.rooms.address import Base

# The QR code is drawn at a whole number of screen pixels a module (no blur from scaling)
# with its 4-module quiet zone, at least this wide: a 37-module code (a 40-character link)
# gets 8 px a module, 296 px, what a phone reads from the back of a classroom off a
# projector; in presenter mode 10 px, 370 px.
QR_WIDTH = 280  # px at least, on the teacher's screen
QR_BIG = 360  # px at least, in presenter mode
QR_BORDER = 4  # modules of quiet zone around the code (ISO/IEC 18004 asks for 4)
# The panel's own look (its container is keyed "<page>_poll_panel"): the room's row (the
# QR code, then the code and the link, wrapping under it when the screen is narrow), the
# code in large type, and figures and labels that wrap instead of being cut with "…".
POLL_CSS = """<style>
.poll-code {font-size: 1.1rem;}
.poll-code b {display: block; font-size: 2.6rem; letter-spacing: .25em; font-family: monospace;
              white-space: nowrap;}
.poll-code.big b {font-size: 4.6rem; letter-spacing: .15em;}
.poll-link {overflow-wrap: anywhere;}
div[class*="_poll_roomtext"] {min-width: min(18rem, 100%); flex: 1 1 18rem;}
div[class*="_poll_qr"] {flex: 0 0 auto;}
div[class*="_poll_qr"] img {max-width: none;}
/* a phone in presenter mode: the code shrinks to the screen, its modules kept square */
@media (max-width: 640px) {
  div[class*="_poll_qr"], div[class*="_poll_qr"] * {max-width: 100% !important;}
  div[class*="_poll_qr"] img {height: auto; image-rendering: pixelated;}
}
/* no fullscreen button over the code's corner (its finder pattern) when the mouse is near */
div[class*="_poll_qr"] [data-testid="stElementToolbar"] {display: none;}
div[class*="_poll_panel"] [data-testid="stMetricValue"],
div[class*="_poll_panel"] [data-testid="stMetricValue"] *,
div[class*="_poll_panel"] [data-testid="stMetricLabel"] * {
  white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; overflow-wrap: anywhere;}
div[class*="_poll_panel"] [data-testid="stMetricValue"] {font-size: 1.9rem; line-height: 1.25;}
.poll-typed {border-collapse: collapse; width: 100%;}
.poll-typed :is(td, th) {text-align: left; padding: .25rem .6rem; overflow-wrap: anywhere;
  border-bottom: 1px solid #d5d9de;}
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


def qr_png(link: str, least: int = QR_WIDTH) -> bytes:
    """A QR code of `link` as PNG bytes, drawn by segno on this machine: a whole number
    of pixels a module, at least `least` px wide with its quiet zone (qr_width says how
    wide), so that it is shown at its own size, unscaled."""
    code = segno.make(link, error="m")
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=qr_scale(code, least), border=QR_BORDER)
    return buffer.getvalue()


def qr_scale(code, least: int) -> int:
    """Pixels a module so that `code` (a segno QR code) is at least `least` px wide."""
    modules = code.symbol_size(scale=1, border=QR_BORDER)[0]
    return max(1, -(-least // modules))


def qr_width(link: str, least: int = QR_WIDTH) -> int:
    """How wide qr_png(link, least) is, in px (modules with the quiet zone, times scale).

    >>> qr_width("http://10.0.0.5:8501/join?room=K7RD")  # 37 modules, 8 px each
    296
    """
    code = segno.make(link, error="m")
    return code.symbol_size(scale=qr_scale(code, least), border=QR_BORDER)[0]


def show_room(room, page_name: str, left, right) -> None:
    """The code in large type, the link and a warning in plain words when the phones
    cannot reach the address (in `left`), its QR code (in `right`, at its own size: whole
    pixels a module, never scaled down)."""
    link, base = join_link(room.code, page_name, st.context.url)
    big = presenting()
    left.html(POLL_CSS)
    size = "poll-code big" if big else "poll-code"
    code = html.escape(room.code)  # our own alphabet, escaped all the same
    left.markdown(f'<div class="{size}">Room code <b>{code}</b></div>', unsafe_allow_html=True)
    left.markdown(
        f'<div class="poll-link">Students open <b>{html.escape(link)}</b> (or the page '
        "<i>Join a poll</i> and type the code).</div>",
        unsafe_allow_html=True,
    )
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
        least = QR_BIG if big else QR_WIDTH
        right.image(
            qr_png(link, least),
            caption="Scan to join",
            width=qr_width(link, least),
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
