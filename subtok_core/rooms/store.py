"""The poll store: rooms, rounds and answers, read and written through SQLAlchemy.

A room lives ``LIFETIME`` seconds (2 hours) from when it opened, and every round the
teacher opens gives it 2 hours more, so a long lesson keeps its code. A room no student has
joined yet closes sooner, ``UNJOINED`` seconds (15 minutes) after its teacher's page was
last seen (its heartbeat): a teacher with the page open keeps it, rooms a script opened and
left do not stay. Rooms past that are refused with a sentence; a day after their 2 hours
they are deleted with their rounds and answers.

A room belongs to the teacher's lesson, not to one page: it keeps the hash of the
teacher's key (a random token in a cookie of the teacher's browser), and follows whatever
lesson page that browser shows (``follow``, ``teacher.py``) until the teacher ends it.

A student is one anonymous id; a second answer in a round replaces the first (one row
per student and round, a unique constraint and an upsert), so the tally counts students.

>>> import tempfile
>>> from subtok_core.rooms.questions import Question
>>> polls = RoomStore(f"sqlite:///{tempfile.mkdtemp()}/polls.sqlite3")
>>> code = polls.open_room("bpe", "bpe", "toy:cat-bat", "c0ffee", "run1", "/bpe", share=True)
>>> q = Question(0, 1, "pair", "Which pair?", ("(a, t)", "(c, a)"), ("(a, t)",), (), "")
>>> round_id = polls.open_round(code, q)
>>> polls.submit(code, round_id, "student-1", "  (c, a) ")
>>> polls.submit(code, round_id, "student-1", "(a, t)")  # changed their mind: replaced
>>> polls.tally(round_id)
[('(a, t)', 1)]
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import db
from .answers import Answers
from .clients import UNKNOWN, Client
from .db import answers, joined, rooms, rounds, students
from .limits import PollLimits, Window
from .opening import UNJOINED, Opening
from .questions import Question
from .records import ALPHABET, Room, RoomEnded, Round, normal_code
from .report import Report
from .teacher import Teacher, key_hash

LIFETIME = 2 * 60 * 60  # seconds a room stays open after it opened or last opened a round
KEEP_EXPIRED = 24 * 60 * 60  # seconds an expired room is kept, so its code says "expired"


class RoomStore(Answers, Teacher, Report, Opening):
    """Rooms, rounds and answers in the database at `url` (db.database_url() by default,
    through this process's one engine for it, or `engine`); `clock` gives the time in
    seconds (tests move it)."""

    WRONG_PAUSE = 1.0  # seconds a wrong code waits once the server has seen too many

    def __init__(self, url: str | None = None, clock: Callable[[], float] = time.time, engine=None):
        self.engine = engine or db.engine(url or db.database_url())
        self.clock = clock
        self.limits = PollLimits(self.engine, lambda: self.clock())
        self.pause: Callable[[float], None] = time.sleep  # holds a wrong try over the bound

    # --- rooms -----------------------------------------------------------------------

    def open_room(
        self,
        page: str,
        algorithm: str,
        corpus: str,
        corpus_print: str,
        run: str,
        link: str,
        share: bool,
        step: int = 0,
        view: dict | None = None,
        connection: str = "",
        teacher: str = "",
        title: str = "",
        client: Client = UNKNOWN,
        passcode: str = "",
    ) -> str:
        """A new room for this lesson, with a reference to its corpus (name, fingerprint)
        and run, never the words; returns its code. `teacher` is the teacher's key (kept
        as its hash: teacher_room() finds the room by it); `title` the lesson's title.
        Who may open it and how often (`client`, the typed `passcode`): may_open()."""
        self.may_open(client, passcode, teacher or connection)
        self.expire_rooms()
        now = self.clock()
        row = {
            "created": now,
            "expires": now + LIFETIME,
            "teacher": key_hash(teacher),
            "seen": now,
            "ended": None,
            "live": False,
            "page": page,
            "title": (title or page)[:80],
            "algorithm": algorithm,
            "corpus": corpus[:200],
            "corpus_print": corpus_print[:64],
            "run": run[:64],
            "link": link,
            "share": bool(share),
            "step": int(step),
            "view": json.dumps(view or {}),
        }
        for _ in range(50):  # a code in use is drawn again
            code = "".join(secrets.choice(ALPHABET) for _ in range(db.CODE_LENGTH))
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(rooms).values(code=code, **row))
                return code
            except IntegrityError:
                continue
        raise ValueError("Every room code is in use; wait for old rooms to expire.")

    @staticmethod
    def _limit(*windows: tuple[Window, str]) -> None:
        """Count one event in each (window, key); the first refusal raises its sentence."""
        for window, key in windows:
            said = window.take(key or "-")
            if said:
                raise ValueError(said)

    def join(self, code: str) -> Room:
        """The room behind `code`; a code that names no room, or an expired one, raises."""
        code = normal_code(code)
        with self.engine.connect() as conn:
            row = conn.execute(self._rooms().where(rooms.c.code == code)).mappings().first()
        if row is None:
            raise ValueError(f"There is no room {code}: check the code on your teacher's screen.")
        return self._room(row)

    def _room(self, row) -> Room:
        """The Room of a row of _rooms(), refused with a sentence when it is over."""
        code = row["code"]
        if row["ended"] is not None:
            raise RoomEnded(f"Your teacher ended the class (room {code}).")
        now = self.clock()
        if row["expires"] <= now:
            raise ValueError(
                f"Room {code} has expired (a room closes 2 hours after its last round "
                "opened): ask your teacher for a new code."
            )
        if row["joined"] is None and row["seen"] <= now - UNJOINED:
            raise ValueError(
                f"Room {code} has closed: nobody joined it within {UNJOINED // 60} minutes "
                "of its teacher's page being open. Ask your teacher for a new code."
            )
        fields = {k: row[k] for k in ("page", "algorithm", "corpus", "corpus_print", "run")}
        return Room(
            code=code,
            link=row["link"],
            share=bool(row["share"]),
            step=int(row["step"]),
            view=json.loads(row["view"]),
            expires=row["expires"],
            title=row["title"],
            seen=row["seen"],
            live=bool(row["live"]),
            **fields,
        )

    def try_code(self, typed: str, connection: str, client: Client = UNKNOWN) -> Room:
        """join(), for a code a student typed or opened: each browser (`connection`, the
        student's id) and each client address tries at most a few codes a minute, and past
        that no code is looked at, the right one neither (a sweep learns nothing). Under
        those bounds a right code is always let in, and the room is marked joined; over the
        server's bound on wrong codes (a sweep from many addresses), a wrong one is held
        WRONG_PAUSE seconds and refused with a sentence that says how long to wait."""
        self._limit(
            (self.limits.code_tries, connection), (self.limits.client_code_tries, client.key)
        )
        try:
            room = self.join(typed)
            self.mark_joined(room.code)
            return room
        except RoomEnded:
            raise  # a right code: the class is over
        except ValueError:
            said = self.limits.wrong_codes.take("server")
            if said:
                self.pause(self.WRONG_PAUSE)
                raise ValueError(said) from None
            raise

    def expire_rooms(self) -> int:
        """Delete the rooms expired more than a day ago, with their rounds and answers;
        returns how many rooms went."""
        old = select(rooms.c.code).where(rooms.c.expires < self.clock() - KEEP_EXPIRED)
        old_rounds = select(rounds.c.id).where(rounds.c.room.in_(old))
        with self.engine.begin() as conn:
            conn.execute(delete(answers).where(answers.c.round.in_(old_rounds)))
            conn.execute(delete(students).where(students.c.room.in_(old)))
            conn.execute(delete(joined).where(joined.c.room.in_(old)))
            conn.execute(delete(rounds).where(rounds.c.room.in_(old)))
            return conn.execute(delete(rooms).where(rooms.c.code.in_(old))).rowcount

    # --- rounds ----------------------------------------------------------------------

    def open_round(self, code: str, question: Question) -> int:
        """Ask the class `question` (about its step, on the lesson the room shows now): the
        room's open round if it is about this step of this run, else a new round (an
        earlier open round closes). Returns its id."""
        room = self.join(code)
        now = self.clock()
        with self.engine.begin() as conn:
            current = self._current(conn, room.code)
            same = current is not None and (current.step, current.run) == (question.step, room.run)
            if same and current.state == "open":
                return current.id
            opened = rounds.c.room == room.code
            conn.execute(
                update(rounds).where(opened, rounds.c.state == "open").values(state="closed")
            )
            made = conn.execute(
                insert(rounds).values(
                    room=room.code,
                    step=int(question.step),
                    page=room.page,
                    algorithm=room.algorithm,
                    corpus=room.corpus,
                    run=room.run,
                    link=room.link,
                    state="open",
                    answer=json.dumps(list(question.answers)),
                    ties=json.dumps(list(question.tied)),
                    question=question.to_json(),
                    opened=now,
                )
            )
            conn.execute(
                update(rooms).where(rooms.c.code == room.code).values(expires=now + LIFETIME)
            )
            return made.inserted_primary_key[0]

    def current_round(self, code: str) -> Round | None:
        """The room's latest round (None before the first)."""
        code = normal_code(code)
        with self.engine.connect() as conn:
            return self._current(conn, code)

    @staticmethod
    def _current(conn, code: str) -> Round | None:
        query = select(rounds).where(rounds.c.room == code).order_by(rounds.c.id.desc()).limit(1)
        row = conn.execute(query).mappings().first()
        if row is None:
            return None
        return Round(
            id=row["id"],
            room=row["room"],
            step=row["step"],
            algorithm=row["algorithm"],
            state=row["state"],
            answer=tuple(json.loads(row["answer"])),
            ties=tuple(json.loads(row["ties"])),
            question=row["question"],
            page=row["page"],
            run=row["run"],
        )

    def reveal(self, round_id: int) -> None:
        """Close the round to answers and let everyone see the algorithm's choice."""
        with self.engine.begin() as conn:
            conn.execute(update(rounds).where(rounds.c.id == round_id).values(state="revealed"))


_STORES: dict[str, RoomStore] = {}


def store(url: str | None = None) -> RoomStore:
    """The store of `url` (the setting, db.database_url(), by default), one per URL."""
    url = url or db.database_url()
    if url not in _STORES:
        _STORES[url] = RoomStore(url)
    return _STORES[url]
