"""The teacher's half of a room: finding it again by the teacher's key, moving it to the
lesson the teacher's page shows, the heartbeat, the end of the class, and what a phone
watches (``pulse``).

The key is a random token the teacher's browser keeps (a cookie); the room stores only its
SHA-256, so the database never holds what opens a teacher's room, and a student's link
(/join?room=CODE) never carries it.

>>> import tempfile
>>> from subtok_core.rooms import RoomStore
>>> polls = RoomStore(f"sqlite:///{tempfile.mkdtemp()}/polls.sqlite3")
>>> key = "k" * 22
>>> code = polls.open_room("bpe", "bpe", "toy:low-lower", "c0", "r1", "/bpe", True, teacher=key)
>>> polls.teacher_room(key).code == code, polls.teacher_room("x" * 22)
(True, None)
>>> polls.follow(code, page="home", title="Home", algorithm="", run="", step=0, view={})
True
>>> polls.join(code).title
'Home'
"""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import select, update

from .db import rooms, rounds
from .records import ABSENT, Room, normal_code

FOLLOWED = ("page", "title", "algorithm", "corpus", "corpus_print", "run", "link", "share", "step")


def key_hash(key: str) -> str:
    """The SHA-256 of a teacher's key, as the room keeps it ("" for no key: no teacher)."""
    return hashlib.sha256(key.encode()).hexdigest() if key else ""


class Teacher:
    """The teacher half of RoomStore (it gives `engine`, `clock`, `_rooms`, `_open_now`,
    `_room`, `join`)."""

    def teacher_room(self, key: str) -> Room | None:
        """The open room of the teacher whose key is `key` (the newest, should there be
        several), or None."""
        if not key:
            return None
        query = (
            self._rooms()
            .where(rooms.c.teacher == key_hash(key), rooms.c.ended.is_(None))
            .where(self._open_now())
            .order_by(rooms.c.created.desc(), rooms.c.code)
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else self._room(row)

    def last_class(self, key: str) -> str | None:
        """The code of the newest room of this teacher still kept, open, ended or expired
        (its record can be downloaded until it is deleted), or None."""
        if not key:
            return None
        query = (
            select(rooms.c.code)
            .where(rooms.c.teacher == key_hash(key))
            .order_by(rooms.c.created.desc(), rooms.c.code)
            .limit(1)
        )
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    def follow(self, code: str, view: dict, **lesson) -> bool:
        """Name in the room the lesson the teacher's page shows now: any of FOLLOWED
        (page, title, algorithm, corpus, corpus_print, run, link, share, step) and what
        phones show of it (`view`). Writes only what changed; a round open on another step
        or another run closes (the class has moved on). Returns whether anything changed."""
        unknown = set(lesson) - set(FOLLOWED)
        if unknown:
            raise ValueError(f"A room does not keep {', '.join(sorted(unknown))}.")
        values = {k: v for k, v in lesson.items()}
        values["view"] = json.dumps(view, sort_keys=True)
        if "step" in values:
            values["step"] = int(values["step"])
        with self.engine.begin() as conn:
            row = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().first()
            if row is None:
                return False
            old_view = json.dumps(json.loads(row["view"]), sort_keys=True)
            changed = {
                k: v for k, v in values.items() if (old_view if k == "view" else row[k]) != v
            }
            if not changed:
                return False
            conn.execute(update(rooms).where(rooms.c.code == code).values(**changed))
            step, run = values.get("step", row["step"]), values.get("run", row["run"])
            conn.execute(
                update(rounds)
                .where(rounds.c.room == code, rounds.c.state == "open")
                .where((rounds.c.step != step) | (rounds.c.run != run))
                .values(state="closed")
            )
        return True

    def move(self, code: str, step: int, view: dict) -> None:
        """The teacher's page is on `step` now, and phones show `view` of it ({}: nothing
        of the corpus). A round open on another step closes: the class has moved on."""
        with self.engine.begin() as conn:
            conn.execute(
                update(rooms)
                .where(rooms.c.code == code)
                .values(step=int(step), view=json.dumps(view))
            )
            conn.execute(
                update(rounds)
                .where(rounds.c.room == code, rounds.c.state == "open", rounds.c.step != step)
                .values(state="closed")
            )

    def share_words(self, code: str, share: bool) -> None:
        """Whether phones are shown the corpus's words (the teacher's choice for an upload)."""
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(share=bool(share)))

    def seen(self, code: str) -> None:
        """The teacher's page is open now (the heartbeat)."""
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(seen=self.clock()))

    def end(self, code: str) -> None:
        """The teacher ended the class: phones say so, the room takes no more answers, and
        the teacher's pages no longer find it (its record stays until it expires)."""
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(
                update(rooms).where(rooms.c.code == code, rooms.c.ended.is_(None)).values(ended=now)
            )
            conn.execute(
                update(rounds)
                .where(rounds.c.room == code, rounds.c.state == "open")
                .values(state="closed")
            )

    def show_live(self, code: str, live: bool) -> None:
        """Whether the teacher's panel shows the tally before Reveal."""
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(live=bool(live)))

    def pulse(self, code: str) -> tuple:
        """What a phone watches, in two small queries: where the teacher is (page, run,
        step), whether the class ended or the teacher is away, the latest round's id and
        state (None, None before the first round)."""
        code = normal_code(code)
        now = self.clock()
        where = select(rooms.c.page, rooms.c.run, rooms.c.step, rooms.c.share, rooms.c.ended,
                       rooms.c.seen).where(rooms.c.code == code)  # fmt: skip
        latest = select(rounds.c.id, rounds.c.state).where(rounds.c.room == code)
        with self.engine.connect() as conn:
            room = conn.execute(where).first()
            last = conn.execute(latest.order_by(rounds.c.id.desc()).limit(1)).first()
        if room is None:
            return (None,)
        page, run, step, share, ended, seen = room
        return (page, run, int(step), bool(share), ended is not None, now - seen > ABSENT,
                *(last or (None, None)))  # fmt: skip
