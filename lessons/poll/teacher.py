"""The teacher's browser and its class: the teacher's key, the room it finds again, and the
room moving with whatever lesson page that browser shows.

The key is a random token in a cookie of this site (``subtok_teacher``, SameSite=Strict,
path /, as long as a room lives), written when the teacher opens a room, read by the
server when a page connects (``st.context.cookies``). The room keeps only its SHA-256, and
the students' link (/join?room=CODE) never carries it. So a reload, a second tab, or
another lesson page of that browser (through the sidebar or a link) finds the open room
again (subtok_core.rooms.RoomStore.teacher_room).

Every page of a browser holding a key runs `page_hook` (app.py, before the page): on a page
with no poll question (home, compare, SaGe, ...) the room names that page; on BPE,
WordPiece and Unigram the page's step view calls `follow_lesson` with its run and step, and
/check calls `follow_page` with the exercise it sets the class (lessons/check/classwork.py).
Either writes only when something changed (one comparison in the session otherwise); a
small fragment in the sidebar is the heartbeat (the room's `seen` time, at most every
HEARTBEAT seconds) and notices a class ended in another tab.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

import streamlit as st

from lessons import pages
from lessons.poll import cookie

if TYPE_CHECKING:
    from subtok_core import rooms

COOKIE = "subtok_teacher"
TOKEN = cookie.TOKEN  # what secrets.token_urlsafe gives
KEY = "poll_teacher_key"  # session: this browser's teacher key (the cookie's, or a new one)
ROOM = "poll_teacher_room"  # session: the code of its open room ("": none known)
WRITTEN = "poll_teacher_written"  # session: what this session last wrote to the room
SHARED = "poll_teacher_shared"  # session: (code, corpus, share) as this session wrote them
BEAT = "poll_teacher_beat"  # session: when this session last wrote the heartbeat
COOKIE_SET = "poll_teacher_cookie"  # session: the cookie was written in this session
WHOLE = "poll_teacher_whole"  # session: a room just opened, in a fragment: run the page
HEARTBEAT = 15  # seconds between two heartbeats of an open teacher's page
# pages whose step view calls follow_lesson (the merge lessons and Unigram)
POLL_PAGES = {page.url_path for page in pages.PAGES if page.polls}
# pages that move the room themselves: the polls' step views, /check's class exercise
SELF_MOVING = POLL_PAGES | {page.url_path for page in pages.PAGES if page.exercise}
STUDENT_PAGES = {"join"}  # a teacher trying the students' page does not move the class

log = logging.getLogger("subtok.poll")


def browser_cookies() -> Mapping[str, str]:
    """The cookies the browser sent when the page connected (tests replace this)."""
    return st.context.cookies


def teacher_key(create: bool = False) -> str | None:
    """This browser's teacher key: the session's, else the cookie's when valid, else (when
    `create`) a new one, which the next run writes into the cookie."""
    if KEY not in st.session_state:
        sent = str(browser_cookies().get(COOKIE, "") or "")
        if TOKEN.fullmatch(sent):
            st.session_state[KEY] = sent
        elif create:
            st.session_state[KEY] = secrets.token_urlsafe(16)
    return st.session_state.get(KEY)


def _rooms():
    """subtok_core.rooms, imported when a browser holds a teacher key: it loads SQLAlchemy,
    some 0.2 s of a restarted server's first page, which no student's page needs."""
    from subtok_core import rooms

    return rooms


def remember(token: str) -> None:
    """Write the cookie (lessons/poll/cookie.py checks the token first)."""
    cookie.write(COOKIE, token, _rooms().LIFETIME, "Strict", "A teacher key")


def keep_cookie() -> None:
    """Write the key's cookie while this session has a room: at every run until the browser
    sends it back (a reload), and once a session after that (a fresh max-age)."""
    key = st.session_state.get(KEY)
    if not key or not st.session_state.get(ROOM):
        return
    if browser_cookies().get(COOKIE) != key or not st.session_state.get(COOKIE_SET):
        remember(key)
        st.session_state[COOKIE_SET] = True


def room() -> rooms.Room | None:
    """The open room of this browser's teacher (None: no key, or no open room)."""
    key = teacher_key()
    if not key:
        return None
    polls = _rooms().store()
    code = st.session_state.get(ROOM)
    if code:
        try:
            return polls.join(code)
        except ValueError:
            forget()
    found = polls.teacher_room(key)
    st.session_state[ROOM] = found.code if found else ""
    return found


def opened(code: str) -> None:
    """The teacher opened room `code`: this session knows it (the key's cookie follows),
    and the next run is the whole page's, so that the sidebar's heartbeat starts."""
    st.session_state[ROOM] = code
    st.session_state[WHOLE] = True
    st.session_state.pop(WRITTEN, None)
    st.session_state.pop(COOKIE_SET, None)


def whole_page() -> None:
    """A room just opened in a fragment's run (the panel): rerun the whole page, which
    starts the heartbeat (app.py's page_hook)."""
    if st.session_state.pop(WHOLE, False):
        st.rerun(scope="app")


def forget_written() -> None:
    """The next run writes the room again (its view changed: shared or not)."""
    st.session_state.pop(WRITTEN, None)
    st.session_state.pop(SHARED, None)


def forget() -> None:
    """The room ended or expired: this session no longer knows it."""
    for name in (ROOM, WRITTEN, SHARED):
        st.session_state.pop(name, None)


def _write(signature: tuple, view: dict, **lesson) -> None:
    """Move this browser's room to `lesson` (rooms.RoomStore.follow) unless this session
    wrote the same `signature` last."""
    if st.session_state.get(WRITTEN) == signature:
        return
    code = st.session_state.get(ROOM) or getattr(room(), "code", "")
    if not code:
        return
    _rooms().store().follow(code, view=view, **lesson)
    st.session_state[WRITTEN] = signature


def title_of(url_path: str) -> str:
    found = pages.by_address(url_path)
    return found.title if found else url_path


def follow_lesson(page: str, trace, i: int, corpus: str, run: str, link: str, details) -> None:
    """The teacher's page shows step i of `trace` (corpus `corpus`, run fingerprint `run`,
    address `link`): the room names it and what phones draw of it. `details(share)` gives
    the rest only when something changed: (corpus fingerprint, share, step view)."""
    if not teacher_key():
        return
    if st.session_state.get(ROOM) is None:
        room()  # once a session; then the heartbeat looks again
    if not st.session_state.get(ROOM):
        return
    signature = (st.session_state.get(ROOM), page, run, int(i), link, corpus)
    if st.session_state.get(WRITTEN) == signature:
        return
    known = st.session_state.get(SHARED)  # (code, corpus, share) this session wrote last
    if known is not None and known[:2] == (signature[0], corpus):
        share = known[2]  # a step or a setting changed: no need to read the room
    else:
        current = room()
        if current is None:
            return
        share = current.share if current.corpus == corpus else None
    corpus_print, share, view = details(share)
    _write(signature, view, page=page, title=title_of(page), algorithm=trace.algorithm,
           corpus=corpus, corpus_print=corpus_print, run=run, link=link, share=share,
           step=int(i))  # fmt: skip
    st.session_state[SHARED] = (signature[0], corpus, share)


def page_link(url_path: str) -> str:
    """The address the teacher's page shows now: /page?its query."""
    from urllib.parse import urlencode

    query = urlencode(st.query_params.to_dict())
    return f"/{url_path}" + (f"?{query}" if query else "")


def page_hook(url_path: str) -> None:
    """Before every page of a browser holding a teacher key: the cookie written once a
    session, the heartbeat in the sidebar, and on a page with no poll question the room
    moved to it. A failing database costs a log line, never the page."""
    if not teacher_key():
        return
    from sqlalchemy.exc import SQLAlchemyError  # loaded by _rooms() below in any case

    try:
        if st.session_state.get(ROOM) is None:
            room()
        name = url_path or pages.HOME.url_path  # the default page runs at /
        if name not in SELF_MOVING | STUDENT_PAGES:
            follow_page(name, page_link(url_path))
        with st.sidebar:
            heartbeat()
    except (SQLAlchemyError, ValueError) as err:
        log.warning("the class poll's room could not follow the teacher's page: %s", err)


def follow_page(
    name: str, link: str, view: dict | None = None, run: str = "", corpus: str = ""
) -> None:
    """The teacher's page `name` (address `link`) asks no step question: the room names
    it, and what phones show of it (`view`: by default only that the teacher shows the
    page; /check's class exercise gives its exercise, of run `run`, on corpus `corpus`)."""
    if not st.session_state.get(ROOM):
        return
    view = view or {"kind": "page"}
    _write((st.session_state[ROOM], name, link, run), view, page=name, title=title_of(name),
           algorithm="", corpus=corpus, corpus_print="", run=run, link=link, share=False,
           step=0)  # fmt: skip


@st.fragment(run_every=HEARTBEAT)
def heartbeat() -> None:
    """The teacher's page is open (the room's `seen`, at most every HEARTBEAT seconds); a
    room ended or expired elsewhere is forgotten, a room opened in another tab found."""
    key = teacher_key()
    if not key:
        return
    keep_cookie()
    now = time.time()
    if now - st.session_state.get(BEAT, 0.0) >= HEARTBEAT:
        st.session_state[BEAT] = now
        st.session_state.pop(ROOM, None)  # looked up again: ended elsewhere, or new
        found = room()
        if found is not None:
            _rooms().store().seen(found.code)
    code = st.session_state.get(ROOM)
    if code:
        st.caption(f"Class {code} follows this browser's lesson pages.")
