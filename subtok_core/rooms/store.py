"""The poll store: rooms, rounds and answers, read and written through SQLAlchemy.

A room lives ``LIFETIME`` seconds (2 hours) from when it opened, and every round the
teacher opens gives it 2 hours more, so a long lesson keeps its code. Rooms past that
are refused with a sentence; a day later they are deleted with their rounds and answers.

>>> import tempfile
>>> polls = RoomStore(f"sqlite:///{tempfile.mkdtemp()}/polls.sqlite3")
>>> code = polls.open_room("bpe", "bpe", "toy:cat-bat", "/bpe", {"merges": 3}, [("cat", 10)])
>>> round_id = polls.open_round(code, 0, ["(a, t)"], [])
>>> polls.submit(code, round_id, "session-1", "  (a, t) ")
>>> polls.submit(code, round_id, "session-1", "(c, a)")
Traceback (most recent call last):
...
ValueError: You have already answered this round: each person answers once.
>>> polls.tally(round_id)
[('(a, t)', 1)]
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Float, Integer, String, cast, delete, func, insert, literal, select, update
from sqlalchemy.exc import IntegrityError

from . import db
from .db import SESSION_MAX, answers, rooms, rounds
from .records import ALPHABET, Room, Round, clean_answer, lesson_params, normal_code

LIFETIME = 2 * 60 * 60  # seconds a room stays open after it opened or last opened a round
KEEP_EXPIRED = 24 * 60 * 60  # seconds an expired room is kept, so its code says "expired"


class RoomStore:
    """Rooms, rounds and answers in the database at `url` (db.database_url() by default);
    `clock` gives the time in seconds (tests move it)."""

    def __init__(self, url: str | None = None, clock: Callable[[], float] = time.time):
        self.engine = db.engine(url or db.database_url())
        self.clock = clock

    # --- rooms -----------------------------------------------------------------------

    def open_room(
        self,
        page: str,
        algorithm: str,
        corpus: str,
        link: str,
        params: dict[str, Any],
        words: Iterable[tuple[str, int]],
    ) -> str:
        """A new room for this lesson; returns its code (expired rooms are cleared first)."""
        self.expire_rooms()
        now = self.clock()
        row = {
            "created": now,
            "expires": now + LIFETIME,
            "page": page,
            "algorithm": algorithm,
            "corpus": corpus[:200],
            "link": link,
            "params": json.dumps(params, sort_keys=True),
            "words": json.dumps([[word, int(count)] for word, count in words]),
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

    def join(self, code: str) -> Room:
        """The room behind `code`; a code that names no room, or an expired one, raises."""
        code = normal_code(code)
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().first()
        if row is None:
            raise ValueError(f"There is no room {code}: check the code on your teacher's screen.")
        if row["expires"] <= self.clock():
            raise ValueError(
                f"Room {code} has expired (a room closes 2 hours after its last round "
                "opened): ask your teacher for a new code."
            )
        return Room(
            code=code,
            page=row["page"],
            algorithm=row["algorithm"],
            corpus=row["corpus"],
            link=row["link"],
            params=lesson_params(json.loads(row["params"]).items()),
            words=tuple((word, count) for word, count in json.loads(row["words"])),
            expires=row["expires"],
        )

    def expire_rooms(self) -> int:
        """Delete the rooms expired more than a day ago, with their rounds and answers;
        returns how many rooms went."""
        old = select(rooms.c.code).where(rooms.c.expires < self.clock() - KEEP_EXPIRED)
        old_rounds = select(rounds.c.id).where(rounds.c.room.in_(old))
        with self.engine.begin() as conn:
            conn.execute(delete(answers).where(answers.c.round.in_(old_rounds)))
            conn.execute(delete(rounds).where(rounds.c.room.in_(old)))
            return conn.execute(delete(rooms).where(rooms.c.code.in_(old))).rowcount

    # --- rounds ----------------------------------------------------------------------

    def open_round(self, code: str, step: int, answer: list[str], ties: list[str]) -> int:
        """Ask the class about `step`: the room's open round if it is about this step,
        else a new round (an earlier open round closes). Returns the round's id."""
        room = self.join(code)
        now = self.clock()
        with self.engine.begin() as conn:
            current = self._current(conn, room.code)
            if current is not None and current.state == "open" and current.step == step:
                return current.id
            opened = rounds.c.room == room.code
            conn.execute(
                update(rounds).where(opened, rounds.c.state == "open").values(state="closed")
            )
            made = conn.execute(
                insert(rounds).values(
                    room=room.code,
                    step=int(step),
                    algorithm=room.algorithm,
                    state="open",
                    answer=json.dumps(list(answer)),
                    ties=json.dumps(list(ties)),
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
        )

    def reveal(self, round_id: int) -> None:
        """Close the round to answers and let everyone see the algorithm's choice."""
        with self.engine.begin() as conn:
            conn.execute(update(rounds).where(rounds.c.id == round_id).values(state="revealed"))

    # --- answers ---------------------------------------------------------------------

    def submit(self, code: str, round_id: int, session: str, answer: str) -> None:
        """Store one answer of one anonymous session. A second answer of the session in
        this round, a round not open, or a room expired raises ValueError."""
        text = clean_answer(answer)
        if not session or len(session) > SESSION_MAX:
            raise ValueError("This browser session has no valid id; reload the page.")
        room = self.join(code)
        # one statement: the answer goes in only while the round is open in this room
        values = select(
            cast(literal(int(round_id)), Integer),
            cast(literal(session), String),
            cast(literal(text), String),
            cast(literal(self.clock()), Float),
        ).where(rounds.c.id == round_id, rounds.c.room == room.code, rounds.c.state == "open")
        columns = [answers.c.round, answers.c.session, answers.c.answer, answers.c.at]
        mine = (answers.c.round == round_id) & (answers.c.session == session)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(answers).from_select(columns, values))
                # read back in the same transaction: rowcount of INSERT ... SELECT is not
                # reported by every driver (psycopg gives -1)
                stored = conn.execute(select(answers.c.id).where(mine)).first() is not None
        except IntegrityError:
            raise ValueError(
                "You have already answered this round: each person answers once."
            ) from None
        if not stored:
            raise ValueError(self._why_not_open(room.code, round_id))

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
        """Each answer given in the round with how many gave it, most given first."""
        count = func.count().label("n")
        query = (
            select(answers.c.answer, count)
            .where(answers.c.round == round_id)
            .group_by(answers.c.answer)
            .order_by(count.desc(), answers.c.answer)
        )
        with self.engine.connect() as conn:
            return [(answer, n) for answer, n in conn.execute(query)]


_STORES: dict[str, RoomStore] = {}


def store(url: str | None = None) -> RoomStore:
    """The store of `url` (the setting, db.database_url(), by default), one per URL."""
    url = url or db.database_url()
    if url not in _STORES:
        _STORES[url] = RoomStore(url)
    return _STORES[url]
