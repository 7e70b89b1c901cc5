"""Rate limits of the class poll, per server process: answers (per connection and per
room), room-code tries (per connection, and wrong codes per server) and room creation
(per connection and per server). Each refusal is a sentence with the wait, and a log
line (logger subtok.poll) the first time a key is refused in its window.

The numbers leave a real class far below them (30 students answering within 2 s, each
changing their mind once, is 60 answers) and cut what a script does: 200 answers from
200 new sessions in 14 s, room codes tried at 54 a second (a sweep of the 23^4 codes
takes some 15 hours at 300 wrong codes a minute), rooms opened by the dozen. Past the
server's bound on wrong codes a wrong one is held and refused but a right one still gets
in (RoomStore.try_code): a sweep from many browsers is slowed and logged, a class is
never locked out by it.

>>> clock = lambda: 0.0
>>> tries = Window("room-code tries", 2, 60, clock)
>>> tries.take("session-1"), tries.take("session-1")
(None, None)
>>> tries.take("session-1")
'Too many room-code tries from this browser: wait 60 s, then try again.'
"""

from __future__ import annotations

import logging
import math
import threading
from collections import deque
from collections.abc import Callable

log = logging.getLogger("subtok.poll")

WHO = {  # how a refusal names whose events were too many
    "connection": "from this browser",
    "room": "in this room",
    "server": "on this server",
}


class Window:
    """At most `count` events per `seconds` for each key (a sliding window); `what` names
    the events in the refusal ("answers") and `scope` whose they are (a key of WHO)."""

    def __init__(
        self,
        what: str,
        count: int,
        seconds: float,
        clock: Callable[[], float],
        scope: str = "connection",
    ):
        self.what, self.count, self.seconds, self.clock = what, count, seconds, clock
        self.scope = scope
        self._events: dict[str, deque[float]] = {}
        self._refused: set[str] = set()
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.seconds:
            events.popleft()
        if len(self._events) > 10_000:  # keys gone quiet are forgotten
            quiet = [k for k, v in self._events.items() if not v or v[-1] <= now - self.seconds]
            for k in quiet:
                self._events.pop(k, None)
                self._refused.discard(k)
            events = self._events.setdefault(key, events)
        return events

    def wait(self, key: str) -> float:
        """Seconds until `key` may have one more event (0: now); records nothing."""
        with self._lock:
            now = self.clock()
            events = self._recent(key, now)
            return 0.0 if len(events) < self.count else events[0] + self.seconds - now

    def take(self, key: str) -> str | None:
        """Record one event of `key` and return None, or, over the limit, record nothing
        and return the sentence that says how long to wait."""
        with self._lock:
            now = self.clock()
            events = self._recent(key, now)
            if len(events) < self.count:
                events.append(now)
                self._refused.discard(key)
                return None
            wait = max(1, math.ceil(events[0] + self.seconds - now))
            if key not in self._refused:
                self._refused.add(key)
                log.warning(
                    "poll rate limit: %s %s refused, over %d per %g s (key %s)",
                    self.what, WHO[self.scope], self.count, self.seconds, key[:12],
                )  # fmt: skip
        return f"Too many {self.what} {WHO[self.scope]}: wait {wait} s, then try again."


class PollLimits:
    """The windows of one server's poll store (`clock`: the store's)."""

    def __init__(self, clock: Callable[[], float]):
        self.answers = Window("answers", 10, 60, clock)
        self.room_answers = Window("answers", 90, 30, clock, scope="room")
        self.code_tries = Window("room-code tries", 10, 60, clock)
        self.wrong_codes = Window("wrong room codes", 300, 60, clock, scope="server")
        self.new_rooms = Window("new rooms", 5, 600, clock)
        self.server_rooms = Window("new rooms", 60, 3600, clock, scope="server")
