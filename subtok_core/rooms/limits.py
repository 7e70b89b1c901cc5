"""Rate limits of the class poll, kept in the database (table class_hits), so that every app
server on one database counts the same events: answers (per browser and per room),
room-code tries (per browser, per client address, and wrong codes per server), room
creation (per browser; from a client that is not a teacher, also per client address and
per server; "server" counts every app server of the database together) and teacher
passcode tries (per client address). Each refusal
is a sentence with the wait, and a log line (logger subtok.poll) when this process
refuses a key it has not refused within the window's length.

The numbers leave a real class far below them (30 students answering within 2 s, each
changing their mind once, is 60 answers) and cut what a script does: answers changed at
hundreds a second, room codes tried at 54 a second, rooms opened by the dozen. They count
per browser and per client address, never per page session: a script opened sessions at
will and guessed 12.4 codes a second with 8 sockets, 34 with 32 (issue 40). At 60 tries a
minute per address, a sweep of the 23^4 codes from one address takes 78 hours, against a
room's 2; past a limit no code is looked at, so a refused try learns nothing. Past the
server's bound on wrong codes a wrong one is held and refused but a right one still gets in
(RoomStore.try_code): a sweep from many addresses is slowed and logged, a class is never
locked out by it.

A window counts its key's hits in the last `seconds` with one SQL query, in the
transaction that records the new hit: on SQLite the insert comes first, so the transaction
holds the database's one write lock while it counts; on PostgreSQL a transaction-scoped
advisory lock on the key comes first. Either way two servers taking the same key at once
count one after the other, and the window never lets more than `count` through. Hits older
than the longest window are deleted now and then.

>>> import tempfile
>>> from subtok_core.rooms import db
>>> made = db.engine(f"sqlite:///{tempfile.mkdtemp()}/polls.sqlite3")
>>> tries = Window(made, "room-code tries", 2, 60, lambda: 0.0)
>>> tries.take("session-1"), tries.take("session-1")
(None, None)
>>> tries.take("session-1")
'Too many room-code tries from this browser: wait 60 s, then try again.'
"""

from __future__ import annotations

import logging
import math
import threading
import zlib
from collections.abc import Callable

from sqlalchemy import Engine, delete, func, insert, select, text

from .db import hits

log = logging.getLogger("subtok.poll")

WHO = {  # how a refusal names whose events were too many
    "connection": "from this browser",
    "client": "from your network address",
    "room": "in this room",
    "server": "on this server",
}
LONGEST = 3600  # seconds: the longest window; older hits are deleted
PRUNE_EVERY = 60  # seconds between two deletions of old hits (per process)


class _Refused(Exception):
    """Raised inside the transaction to take the hit back; carries the seconds to wait."""

    def __init__(self, wait: float):
        self.wait = wait


class Window:
    """At most `count` events per `seconds` for each key (a sliding window) in the database
    of `engine`; `what` names the events in the refusal ("answers") and `scope` whose they
    are (a key of WHO); `name` tells the window's keys from another's (default: `what`)."""

    def __init__(
        self,
        engine: Engine,
        what: str,
        count: int,
        seconds: float,
        clock: Callable[[], float],
        scope: str = "connection",
        name: str = "",
    ):
        self.engine, self.what, self.count, self.seconds = engine, what, count, seconds
        self.clock, self.scope, self.name = clock, scope, name or what
        self._refused: dict[str, float] = {}  # key -> when this process last logged it
        self._lock = threading.Lock()
        self._pruned = -math.inf

    def take(self, key: str) -> str | None:
        """Record one event of `key` and return None, or, over the limit, record nothing
        and return the sentence that says how long to wait."""
        full = f"{self.name}:{key}"[:200]
        now = self.clock()
        self._prune(now)
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # one taker of this key at a time
                    lock = text("SELECT pg_advisory_xact_lock(:k)")
                    conn.execute(lock, {"k": zlib.crc32(full.encode()) - 2**31})
                conn.execute(insert(hits).values(key=full, at=now))
                recent = (hits.c.key == full) & (hits.c.at > now - self.seconds)
                n, oldest = conn.execute(
                    select(func.count(), func.min(hits.c.at)).where(recent)
                ).one()
                if n > self.count:
                    raise _Refused(oldest + self.seconds - now)
        except _Refused as refused:
            return self._say(key, refused.wait, now)
        return None

    def _say(self, key: str, wait: float, now: float) -> str:
        with self._lock:  # logged once a window: a flood is one line, not thousands
            first = now - self._refused.get(key, -math.inf) >= self.seconds
            if first:
                self._refused[key] = now
            if len(self._refused) > 10_000:
                self._refused.clear()
        if first:
            log.warning(
                "poll rate limit: %s %s refused, over %d per %g s (key %s)",
                self.what, WHO[self.scope], self.count, self.seconds, key[:12],
            )  # fmt: skip
        wait = max(1, math.ceil(wait))
        return f"Too many {self.what} {WHO[self.scope]}: wait {wait} s, then try again."

    def _prune(self, now: float) -> None:
        """Delete hits older than the longest window, at most every PRUNE_EVERY seconds."""
        with self._lock:
            if now - self._pruned < PRUNE_EVERY:
                return
            self._pruned = now
        with self.engine.begin() as conn:
            conn.execute(delete(hits).where(hits.c.at < now - LONGEST))


class PollLimits:
    """The windows of a poll store (`clock`: the store's) in the database of `engine`.

    Per browser (a student's id, a teacher's key: what a browser keeps in a cookie) and per
    client (its network address, clients.Client.key: what a script cannot multiply by
    opening sessions or dropping cookies). A class behind one address (a school's network
    seen from outside) shares the per-client figures, which are sized for that: 60 code
    tries a minute is a class of 30 joining at once, each with one typo."""

    def __init__(self, engine: Engine, clock: Callable[[], float]):
        self.answers = Window(engine, "answers", 10, 60, clock)
        self.room_answers = Window(engine, "answers", 90, 30, clock, "room", "room answers")
        self.code_tries = Window(engine, "room-code tries", 10, 60, clock)
        self.client_code_tries = Window(
            engine, "room-code tries", 60, 60, clock, "client", "client code tries"
        )
        self.wrong_codes = Window(engine, "wrong room codes", 300, 60, clock, "server")
        self.new_rooms = Window(engine, "new rooms", 5, 600, clock)
        self.client_rooms = Window(engine, "new rooms", 5, 600, clock, "client", "client rooms")
        self.server_rooms = Window(engine, "new rooms", 60, 3600, clock, "server", "server rooms")
        self.passcode_tries = Window(
            engine, "teacher passcode tries", 10, 600, clock, "client", "passcode tries"
        )
