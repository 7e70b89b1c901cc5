"""The answers of a class poll: one row per student and round, whatever the student sends.

A second answer of the same anonymous id in an open round replaces the first: the table's
unique constraint on (round, session) and an upsert (``INSERT ... ON CONFLICT DO UPDATE``,
which SQLite and PostgreSQL both run as one statement), so a reload, a second tab or a
change of mind is never counted twice, and the tally counts students.

A student's first answer in a room gives them the room's next anonymous number (1, 2, 3...,
table class_students), the one the teacher's record shows. A room's rate limit counts the
answers a student changes, never a student's first answer in a round (a class must never be
locked out by junk sent before it); first answers are bounded by ROUND_STUDENTS a round.
"""

from __future__ import annotations

import zlib

from sqlalchemy import Float, Integer, String, cast, func, literal, select
from sqlalchemy import text as sql
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from .db import SESSION_MAX, answers, rounds, students
from .records import clean_answer

UPSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}
ROUND_STUDENTS = 1000  # students answering one round: a lecture hall is some 300


class Answers:
    """The answer half of RoomStore (it gives `engine`, `clock`, `limits`, `join`,
    `mark_joined`)."""

    def submit(self, code: str, round_id: int, session: str, answer: str, connection=""):
        """Store `session`'s answer in the round, replacing an earlier one of it. A round
        not open, a room expired, or too many answers (from this connection, `session`
        when not given, or in this room: PollLimits) raises ValueError with a sentence."""
        text = clean_answer(answer)
        if not session or len(session) > SESSION_MAX:
            raise ValueError("This browser has no valid student id; reload the page.")
        room = self.join(code)
        first = self.answer_of(round_id, session) is None
        if first:
            self._limit((self.limits.answers, connection or session))
            if self.answered(round_id) >= ROUND_STUDENTS:
                raise ValueError(
                    f"This round has {ROUND_STUDENTS} answers already, more than any class."
                )
        else:
            self._limit(
                (self.limits.answers, connection or session),
                (self.limits.room_answers, room.code),
            )
        now = self.clock()
        for attempt in range(20):  # two first answers drew the same number: again (SQLite
            # writes one at a time and PostgreSQL numbers under a lock: this is a safeguard)
            try:
                stored = self._store(room.code, round_id, session, text, now)
                break
            except IntegrityError:
                if attempt == 19:
                    raise
        if not stored:
            raise ValueError(self._why_not_open(room.code, round_id))
        if first:
            self.mark_joined(room.code)

    def _store(self, code: str, round_id: int, session: str, text: str, now: float) -> bool:
        """The answer in, and the student's number in the room if they have none, in one
        transaction; whether the answer was stored (the round is open)."""
        # one statement: the answer goes in (or replaces this student's) only while the
        # round is open in this room
        values = select(
            cast(literal(int(round_id)), Integer),
            cast(literal(session), String),
            cast(literal(text), String),
            cast(literal(now), Float),
        ).where(rounds.c.id == round_id, rounds.c.room == code, rounds.c.state == "open")
        columns = [answers.c.round, answers.c.session, answers.c.answer, answers.c.at]
        upsert = self._upsert().from_select(columns, values)
        upsert = upsert.on_conflict_do_update(
            index_elements=[answers.c.round, answers.c.session],
            set_={"answer": upsert.excluded.answer, "at": upsert.excluded.at},
        )
        mine = (answers.c.round == round_id) & (answers.c.session == session)
        with self.engine.begin() as conn:
            conn.execute(upsert)
            # read back in the same transaction: rowcount of INSERT ... SELECT is not
            # reported by every driver (psycopg gives -1)
            stored = conn.execute(select(answers.c.at).where(mine)).scalar() == now
            if stored:
                known = select(students.c.number).where(
                    students.c.room == code, students.c.session == session
                )
                if conn.execute(known).scalar() is None:
                    if conn.dialect.name == "postgresql":  # one numbering at a time a room
                        lock = sql("SELECT pg_advisory_xact_lock(:k)")
                        conn.execute(lock, {"k": zlib.crc32(f"students:{code}".encode()) - 2**31})
                    top = select(func.coalesce(func.max(students.c.number), 0) + 1)
                    number = conn.execute(top.where(students.c.room == code)).scalar()
                    conn.execute(
                        students.insert().values(room=code, session=session, number=number)
                    )
        return stored

    def _upsert(self):
        name = self.engine.dialect.name
        if name not in UPSERTS:
            raise ValueError(f"The class poll runs on SQLite or PostgreSQL, not on {name}.")
        return UPSERTS[name](answers)

    def answered(self, round_id: int) -> int:
        """How many students answered the round."""
        query = select(func.count()).where(answers.c.round == round_id)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar())

    def _why_not_open(self, code: str, round_id: int) -> str:
        with self.engine.connect() as conn:
            query = select(rounds.c.state).where(rounds.c.id == round_id, rounds.c.room == code)
            state = conn.execute(query).scalar()
        if state == "revealed":
            return "This round is over: the answer has been revealed."
        if state == "closed":
            return "This round is over: your teacher has moved on to another step."
        return f"Room {code} has no such round; reload the page."

    def answer_of(self, round_id: int, session: str) -> str | None:
        """What `session` answered in this round (None: nothing yet)."""
        query = select(answers.c.answer).where(
            answers.c.round == round_id, answers.c.session == session
        )
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    def tally(self, round_id: int) -> list[tuple[str, int]]:
        """Each answer given in the round with how many students gave it (each student
        once: their last answer), most given first."""
        count = func.count().label("n")
        query = (
            select(answers.c.answer, count)
            .where(answers.c.round == round_id)
            .group_by(answers.c.answer)
            .order_by(count.desc(), answers.c.answer)
        )
        with self.engine.connect() as conn:
            return [(answer, n) for answer, n in conn.execute(query)]
