"""The teacher's record of a class, read from the database: every answer (one row each,
with the student's anonymous number) and a summary of the rounds, hardest first.

>>> import tempfile
>>> from subtok_core.rooms import RoomStore
>>> from subtok_core.rooms.questions import Question
>>> polls = RoomStore(f"sqlite:///{tempfile.mkdtemp()}/polls.sqlite3")
>>> code = polls.open_room("bpe", "bpe", "toy:cat-bat", "c0", "r1", "/bpe?corpus=x", True)
>>> q = Question(0, 1, "pair", "Which pair?", ("(a, t)", "(c, a)"), ("(a, t)",), (), "")
>>> round_id = polls.open_round(code, q)
>>> polls.submit(code, round_id, "s-one", "(c, a)")
>>> polls.submit(code, round_id, "s-two", "(a, t)")
>>> [(r["student"], r["answer"], r["choice"]) for r in polls.answer_rows(code)]
[(1, '(c, a)', 'no'), (2, '(a, t)', 'yes')]
>>> [(s["answered"], s["predicted"], s["link"]) for s in polls.summary(code)]
[(2, 1, '/bpe?corpus=x&step=0')]
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode, urlsplit

from sqlalchemy import select

from .db import answers, rounds, students


def at_step(link: str, step: int) -> str:
    """A lesson's link with its step set to `step` (the address's other settings kept).

    >>> at_step("/bpe?corpus=toy%3Alow-lower&step=2", 4)
    '/bpe?corpus=toy%3Alow-lower&step=4'
    """
    parts = urlsplit(link)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "step"]
    return f"{parts.path}?{urlencode([*query, ('step', str(step))])}"


def utc(seconds: float) -> str:
    """A time in seconds since the epoch as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class Report:
    """The record half of RoomStore (it gives `engine`)."""

    def _rounds(self, code: str) -> list[dict]:
        query = select(rounds).where(rounds.c.room == code).order_by(rounds.c.id)
        with self.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(query).mappings()]
        for number, row in enumerate(rows, start=1):
            row["number"] = number  # the room's rounds 1, 2, 3... in the order they opened
            row["answers"] = set(json.loads(row["answer"]))
            row["prompt"] = json.loads(row["question"])["prompt"]
        return rows

    def answer_rows(self, code: str) -> list[dict]:
        """One row per answer stored in the room's rounds, in the order rounds opened and
        answers came: time (ISO, UTC), page, corpus, step, round, question, answer, choice
        ("yes" when the answer is among the round's answer(s)), student (the anonymous
        number the student got at their first answer in the room)."""
        by_id = {row["id"]: row for row in self._rounds(code)}
        query = (
            select(answers.c.round, answers.c.answer, answers.c.at, students.c.number)
            .join(rounds, rounds.c.id == answers.c.round)
            .outerjoin(
                students,
                (students.c.room == rounds.c.room) & (students.c.session == answers.c.session),
            )
            .where(rounds.c.room == code)
            .order_by(answers.c.round, answers.c.at, answers.c.id)
        )
        with self.engine.connect() as conn:
            found = conn.execute(query).all()
        rows = []
        for round_id, answer, at, number in found:
            asked = by_id[round_id]
            rows.append(
                {
                    "time": utc(at),
                    "page": asked["page"],
                    "corpus": asked["corpus"],
                    "step": asked["step"],
                    "round": asked["number"],
                    "question": asked["prompt"],
                    "answer": answer,
                    "choice": "yes" if answer in asked["answers"] else "no",
                    "student": number,
                }
            )
        return rows

    def summary(self, code: str) -> list[dict]:
        """Each round of the room: its page, step, question, how many answered, how many
        gave the algorithm's choice and what share (None when nobody answered), and the
        link to the lesson at that step; the class's hardest rounds (lowest share) first,
        rounds nobody answered last."""
        asked = self._rounds(code)
        right = {row["id"]: row["answers"] for row in asked}
        given = {row["id"]: [0, 0] for row in asked}
        query = (
            select(answers.c.round, answers.c.answer)
            .join(rounds, rounds.c.id == answers.c.round)
            .where(rounds.c.room == code)
        )
        with self.engine.connect() as conn:
            for round_id, answer in conn.execute(query):
                given[round_id][0] += 1
                given[round_id][1] += answer in right[round_id]
        rows = []
        for row in asked:
            answered, predicted = given[row["id"]]
            rows.append(
                {
                    "round": row["number"],
                    "page": row["page"],
                    "step": row["step"],
                    "question": row["prompt"],
                    "answered": answered,
                    "predicted": predicted,
                    "share": predicted / answered if answered else None,
                    "link": at_step(row["link"], row["step"]),
                }
            )
        return sorted(rows, key=lambda r: (r["share"] is None, r["share"] or 0, r["round"]))
