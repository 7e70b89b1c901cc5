"""The records of a class poll (a room, a round) and the checks on what a student types
(a room code, an answer).

>>> normal_code(" k7r-d "), clean_answer(" (e,\\n s) ")
('K7RD', '(e, s)')
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .db import ANSWER_MAX, CODE_LENGTH

ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O/Q, 1/I/L, 2/Z, 5/S, 8/B, 6/G look-alikes


ABSENT = 60  # seconds without the teacher's page seen: phones say the teacher is away


class RoomEnded(ValueError):
    """The teacher ended the class: a sentence for the phones, not an error of theirs."""


@dataclass(frozen=True, slots=True)
class Room:
    """An open room: the lesson page the teacher's browser shows now (its path, title, the
    algorithm, a reference to the corpus: its name and fingerprint, and the fingerprint of
    the run), whether phones see the corpus's words, the step the teacher's page shows and
    what phones show of it, when it expires, when the teacher's page was last seen, and
    whether the tally shows before Reveal. The corpus's words themselves are never stored."""

    code: str
    page: str
    algorithm: str
    corpus: str
    corpus_print: str
    run: str
    link: str
    share: bool
    step: int
    view: dict
    expires: float
    title: str = ""
    seen: float = 0.0
    live: bool = False

    def absent(self, now: float) -> bool:
        """Whether the teacher's page has not been seen for ABSENT seconds."""
        return now - self.seen > ABSENT


@dataclass(frozen=True, slots=True)
class Round:
    """One question to the class: the step shown, its state (open, closed, revealed), the
    answer(s) the algorithm gives, the candidates tied with it, and the question itself
    (so a phone on any server shows it without the corpus)."""

    id: int
    room: str
    step: int
    algorithm: str
    state: str
    answer: tuple[str, ...]
    ties: tuple[str, ...]
    question: str  # JSON of the Question asked (rooms.questions.Question.from_json)
    page: str = ""  # the lesson page it was asked on
    run: str = ""  # the run's fingerprint when it was asked


def normal_code(code: str) -> str:
    """A room code as typed (any case, spaces or a dash) -> its stored form.

    >>> normal_code("k7rd")
    'K7RD'
    >>> normal_code("k7-rd")
    'K7RD'
    """
    text = "".join(ch for ch in str(code).upper() if ch not in " -")
    shown = str(code).strip()[:20]
    if len(text) != CODE_LENGTH or not (text.isascii() and text.isalnum()):
        raise ValueError(
            f"'{shown}' is not a room code: a room code is {CODE_LENGTH} letters and "
            "digits, as your teacher's screen shows it."
        )
    left_out = list(dict.fromkeys(ch for ch in text if ch not in ALPHABET))  # look-alikes
    if left_out:
        last = left_out.pop()
        named = f"{', '.join(left_out)} and {last}" if left_out else last
        raise ValueError(
            f"'{shown}' is not a room code: it has {named}, which room codes leave out "
            "because such characters are easy to mix up; check the code on your teacher's "
            "screen."
        )
    return text


def clean_answer(text: str) -> str:
    """An answer as stored: Unicode NFC, white space (new lines too) one space, control
    characters dropped; nothing else is changed (it is shown as plain text, never HTML).

    >>> clean_answer(" (e,\\n s) "), clean_answer("<b>x</b>")
    ('(e, s)', '<b>x</b>')
    """
    text = unicodedata.normalize("NFC", str(text))
    text = "".join(" " if ch.isspace() else ch for ch in text if ch.isprintable() or ch.isspace())
    text = " ".join(text.split())
    if not text:
        raise ValueError("The answer is empty: pick a pair or piece, or type one.")
    if len(text) > ANSWER_MAX:
        raise ValueError(
            f"An answer has at most {ANSWER_MAX} characters; this one has {len(text)}."
        )
    return text
