"""Who may open a room, and how long a room nobody joined stays open (the opening half of
RoomStore).

Who may open a room (``open_room``): with a teacher passcode set by the operator
($SUBTOK_TEACHER_PASSCODE), whoever gives it; with none, anyone, and the page opened on
the server's own machine (the README's local command) is the teacher. A teacher (the
passcode, or the local page) is held only to its own browser's few rooms; anyone else also
to a few rooms per network address and to the server's bound, which one address cannot
reach (5 per 10 minutes is 30 an hour, the server's is 60).

A room no student has joined yet closes ``UNJOINED`` seconds (15 minutes) after its
teacher's page was last seen (the heartbeat, every 15 s while the page is open); the first
student who opens its code (RoomStore.try_code) or answers marks it joined (table
class_joined), and it then lives its whole LIFETIME.
"""

from __future__ import annotations

from sqlalchemy import select

from .answers import UPSERTS
from .clients import Client, passcode_matches, teacher_passcode
from .db import joined, rooms
from .teacher import key_hash

UNJOINED = 15 * 60  # seconds a room nobody joined stays open after its teacher was last seen


class Opening:
    """The opening half of RoomStore (it gives `engine`, `clock`, `limits`, `_limit`)."""

    def may_open(self, client: Client, passcode: str, browser: str) -> None:
        """Count a new room of `browser` (the teacher's key; a session's id without one),
        opened from `client` with `passcode` typed, or raise ValueError with a sentence.
        With a passcode set, only it opens rooms (its tries counted per client address);
        with none, the server's own machine (client.local) is the teacher. A teacher is held
        to its browser's rooms only; another client also to its address's and the
        server's."""
        setting = teacher_passcode()
        if setting:
            if not passcode.strip():
                raise ValueError("Opening a class poll needs the teacher passcode the server's "
                                 "operator set: type it above.")  # fmt: skip
            self._limit((self.limits.passcode_tries, client.key))
            if not passcode_matches(passcode, setting):
                raise ValueError("That is not the teacher passcode; check it with the "
                                 "server's operator.")  # fmt: skip
        browser = key_hash(browser) if browser else f"client {client.key}"
        if setting or client.local:
            self._limit((self.limits.new_rooms, browser))
            return
        self._limit(
            (self.limits.new_rooms, browser),
            (self.limits.client_rooms, client.key),
            (self.limits.server_rooms, "server"),
        )

    @staticmethod
    def _rooms():
        """A select of class_rooms' rows, each with `joined`: when a student first opened
        its code (None: nobody yet)."""
        on = joined.c.room == rooms.c.code
        return select(rooms, joined.c.at.label("joined")).select_from(rooms.outerjoin(joined, on))

    def _open_now(self):
        """The condition on _rooms() of a room still open at this clock (ended or not)."""
        now = self.clock()
        unjoined_open = rooms.c.seen > now - UNJOINED
        return (rooms.c.expires > now) & (joined.c.at.is_not(None) | unjoined_open)

    def mark_joined(self, code: str) -> None:
        """A student opened room `code`: it lives its whole LIFETIME (written once: a
        read, then an insert that does nothing when another student's came first)."""
        with self.engine.connect() as conn:
            if conn.execute(select(joined.c.at).where(joined.c.room == code)).first():
                return
        name = self.engine.dialect.name
        if name not in UPSERTS:
            raise ValueError(f"The class poll runs on SQLite or PostgreSQL, not on {name}.")
        first = UPSERTS[name](joined).values(room=code, at=self.clock())
        with self.engine.begin() as conn:
            conn.execute(first.on_conflict_do_nothing(index_elements=[joined.c.room]))
