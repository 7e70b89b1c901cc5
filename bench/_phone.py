"""One student's phone on /join?room=CODE for bench/hall.py, through the proxy, speaking
Streamlit's protocol (bench/_tab.py) as the browser does. Not a benchmark itself.

A phone keeps its cookies as a browser does: HAProxy's ``SRV`` (the server it sticks to)
from the page's first request and from the websocket's handshake, and the student id the
join page writes with a small script (``subtok_student``, lessons/poll/student.py: the
phone reads the id from that script, as the browser would run it). It then

* draws the page, and does what the page's watching fragment asks the browser for (the
  server's ``auto_rerun``: a run of that fragment every 0.75 s); a run of the whole page
  (the fragment's ``st.rerun``) is the page drawn anew: the step it shows (the caption
  "Room CODE · ... · step N"), the round's form (the pick box ``join_pick_<round>``), and
  the student's answer so far (the text after "Your answer");
* answers a round it has not answered after a think of 0 to `think` s: the pick box's
  value and the form's submit button, as the browser sends a form;
* when its socket closes (its server killed), asks the proxy's /_stcore/health and opens
  a new websocket with its cookies, as the frontend reconnects, at most RECONNECTS times
  within the hall's time; the proxy sends it to a live server, where it is a new session
  of the same student (the cookie), which must show the answer it had sent.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field

import websockets
from _tab import SUBPROTOCOLS, Tab
from streamlit.proto.WidgetStates_pb2 import WidgetState

COOKIE = "subtok_student"  # the student id's cookie (lessons/poll/student.py)
STUDENT = re.compile(COOKIE + r"=([A-Za-z0-9_-]+)")  # in the page's cookie script
STEP = re.compile(r"^Room \w+ · .* · step (\d+)$")  # the page's caption
PICK = re.compile(r"^join_pick_(\d+)$")  # the key of the round's pick box
WAIT = re.compile(r"wait (\d+) s")  # a rate limit's sentence
RECONNECTS = 20


@dataclass
class View:
    """What the last run of the whole page showed."""

    step: int | None = None
    round: int | None = None  # the open round's id (its form is shown)
    pick: object = None  # the pick box's proto
    submit: object = None  # the form's submit button's proto
    mine: str | None = None  # "Your answer": what the server has of this student


class JoinPage(Tab):
    """The /join page over one websocket, with what its runs drew."""

    def __init__(self, ws, query: str, timeout: float):
        super().__init__(ws, "/join", query, timeout)
        self.watch, self.every = "", 0.75  # the watching fragment and its period
        self.written: str | None = None  # the id the page's script wrote into the cookie
        self.view = View()
        self._drawn: list[tuple[str, object]] = []

    async def run(self, *states: WidgetState, fragment_id: str = "", auto: bool = False):
        self._drawn = []
        errors = await super().run(*states, fragment_id=fragment_id, auto=auto)
        if self.outside:  # the whole page was drawn, not only the watching fragment
            self.view = self._read(self._drawn)
        return errors

    def seen(self, fwd, kind: str) -> None:
        if kind == "auto_rerun":
            self.watch, self.every = fwd.auto_rerun.fragment_id, fwd.auto_rerun.interval or 0.75

    def _element(self, element, fragment_id: str = "") -> list[str]:
        errors = super()._element(element, fragment_id)
        kind = element.WhichOneof("type")
        if kind:
            self._drawn.append((kind, getattr(element, kind)))
        return errors

    def _read(self, drawn: list[tuple[str, object]]) -> View:
        view, after_mine = View(), False
        for kind, proto in drawn:
            body = getattr(proto, "body", "")
            if kind == "html" and (m := STUDENT.search(body)):
                self.written = m.group(1)
            elif kind == "markdown" and (m := STEP.match(body.strip())):
                view.step = int(m.group(1))
            elif kind == "text" and after_mine:
                view.mine = body
            elif kind == "selectbox" and (m := PICK.match(proto.id.split("-", 2)[-1])):
                view.round, view.pick = int(m.group(1)), proto
            elif kind == "button" and proto.is_form_submitter:
                view.submit = proto
            after_mine = kind == "markdown" and body.strip() == "Your answer"
        return view


@dataclass
class Phone:
    n: int
    hall: object  # bench/hall.py's Hall: the proxy's port, the room, the teacher's moves
    cookies: dict[str, str] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)  # student ids its pages wrote (1: kept)
    sent: dict[int, tuple[str, float]] = field(default_factory=dict)  # round -> answer, when
    confirmed: dict[int, float] = field(default_factory=dict)  # round -> when the page showed it
    # step -> seconds after the teacher's move (None: first seen on a page drawn anew
    # after a reconnect or a late join, not a follow)
    follow: dict[int, float | None] = field(default_factory=dict)
    joined: float | None = None  # seconds from its first request to the room drawn
    server: str = ""  # the app server it is on (the SRV cookie)
    dropped: float | None = None  # when its socket closed under it
    back: bool | None = None  # reconnected as the same student, its answer shown
    back_after: float | None = None  # seconds from the drop to the page drawn again
    refused: int = 0  # answers a rate limit refused (then sent again after the wait)
    told_to_wait: set[int] = field(default_factory=set)  # rounds where that happened
    hold: float = 0.0  # no answer before this moment (a rate limit's wait)
    errors: list[str] = field(default_factory=list)
    runs: int = 0
    page: JoinPage | None = None  # the page it shows now

    def showing(self, round_id: int) -> bool:
        """Its page shows its answer in this round."""
        view = self.page.view if self.page else None
        return view is not None and view.round == round_id and view.mine is not None

    async def get(self, path: str) -> None:
        """An HTTP GET through the proxy with this phone's cookies; keeps what it sets."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.hall.port)
        try:
            request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.hall.port}\r\n"
            if self.cookies:
                request += f"Cookie: {self.cookie_header()}\r\n"
            writer.write((request + "Connection: close\r\n\r\n").encode())
            async with asyncio.timeout(self.hall.timeout):
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
                await reader.read()  # the body, to the end of the connection
        finally:
            writer.close()
        if not head.startswith("HTTP/1.1 200"):
            raise OSError(f"GET {path}: {head.splitlines()[0]}")
        self.keep([line.split(":", 1)[1] for line in head.split("\r\n")
                   if line.lower().startswith("set-cookie:")])  # fmt: skip

    def keep(self, set_cookies: list[str]) -> None:
        for header in set_cookies:
            name, _, value = header.split(";", 1)[0].strip().partition("=")
            self.cookies[name] = value
        self.server = self.cookies.get("SRV", self.server)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def live(self) -> None:
        """Join, follow and answer until the hall ends, reconnecting when dropped."""
        start = time.perf_counter()
        for attempt in range(RECONNECTS):
            if self.hall.over():
                return
            try:
                await self.get(
                    f"/join?room={self.hall.code}" if attempt == 0 else "/_stcore/health"
                )
                async with websockets.connect(
                    f"ws://127.0.0.1:{self.hall.port}/_stcore/stream",
                    subprotocols=SUBPROTOCOLS,
                    additional_headers={"Cookie": self.cookie_header()},
                    max_size=None,
                    ping_interval=None,  # a browser sends none
                    open_timeout=self.hall.timeout,
                ) as ws:
                    self.keep(ws.response.headers.get_all("Set-Cookie"))
                    page = JoinPage(ws, f"room={self.hall.code}", self.hall.timeout)
                    try:
                        await self.session(page, start)
                    finally:
                        self.runs += page.runs
                return
            except (OSError, TimeoutError, websockets.WebSocketException) as err:
                self.page = None  # nothing shown until it is back
                if self.dropped is None and self.joined is not None:
                    self.dropped = time.perf_counter()
                    if self.hall.forget:
                        self.cookies.pop(COOKIE, None)
                elif self.joined is None:
                    self.errors.append(f"{type(err).__name__}: {str(err)[:120]}")
                await asyncio.sleep(random.uniform(0.5, 1.5))  # the frontend's backoff

    async def session(self, page: JoinPage, start: float) -> None:
        self.page = None
        errors = await page.run()
        if self.dropped is not None and self.back is None:  # back after its server died
            self.back = self.same_student(page)
            self.back_after = time.perf_counter() - self.dropped
        self.check(errors, page)
        self.page = page
        if self.joined is None and page.view.step is not None:
            self.joined = time.perf_counter() - start
        if page.view.step is not None:
            self.follow.setdefault(page.view.step, None)
        due: float | None = None  # when this phone sends its answer
        tick = time.perf_counter() + page.every
        while not self.hall.over():
            view, now = page.view, time.perf_counter()
            if view.step is not None and view.step not in self.follow:
                moved = self.hall.moved.get(view.step)
                if moved is not None:
                    self.follow[view.step] = now - moved
            if view.round is not None and view.mine is None and view.pick is not None:
                due = max(due or now + random.uniform(0, self.hall.think), self.hold)
            else:
                due = None
            if due is not None and now >= due:
                due = None
                await self.answer(page)
                continue
            await asyncio.sleep(max(0.0, min(tick, due or tick) - time.perf_counter()))
            if due is None or tick <= due:
                self.check(await page.run(fragment_id=page.watch, auto=True), page)
                tick = time.perf_counter() + page.every

    async def answer(self, page: JoinPage) -> None:
        """Pick one of the candidates and send the form, as a student's tap does."""
        view = page.view
        choice = random.Random(self.n * 1000 + view.round).choice(list(view.pick.options))
        pick = WidgetState(id=view.pick.id, string_value=choice)
        send = WidgetState(id=view.submit.id, trigger_value=True)
        sent = time.perf_counter()
        self.sent.setdefault(view.round, (choice, sent))
        refused = self.refused
        self.check(await page.run(pick, send), page)
        if self.refused > refused:
            self.told_to_wait.add(view.round)
        if page.view.round == view.round and page.view.mine == choice:
            self.confirmed.setdefault(view.round, time.perf_counter())

    def same_student(self, page: JoinPage) -> bool:
        """After a reconnect: the page wrote no new id, and shows the answer this phone
        had seen stored in the round still open (an answer whose tap the dying server
        never answered may be lost with it: the student sees no answer and taps again)."""
        if page.written is not None and page.written not in self.ids:
            return False  # a new id: a new student to the poll
        view = page.view
        if view.round is not None and view.round in self.confirmed:
            return view.mine == self.sent[view.round][0]
        return page.view.step is not None

    def check(self, errors: list[str], page: JoinPage) -> None:
        if page.written is not None and page.written not in self.ids:
            self.ids.append(page.written)
            self.cookies[COOKIE] = page.written  # what the page's script does in a browser
        for said in errors:
            if "Too many" in said:
                self.refused += 1
                wait = WAIT.search(said)
                self.hold = time.perf_counter() + (int(wait.group(1)) if wait else 5)
            else:
                self.errors.append(said)
