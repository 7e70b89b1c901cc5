"""The records of a class poll (a room, a round) and the checks on what a student types
(a room code, an answer).

>>> normal_code(" k7r-d "), clean_answer(" (e,\\n s) ")
('K7RD', '(e, s)')
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import Any

from .db import ANSWER_MAX, CODE_LENGTH

ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O/Q, 1/I/L, 2/Z, 5/S, 8/B, 6/G look-alikes


@dataclass(frozen=True, slots=True)
class Room:
    """An open room: the lesson it polls (page, corpus, the trace's parameters and the
    word counts it learned from) and when it expires."""

    code: str
    page: str
    algorithm: str
    corpus: str
    link: str
    params: tuple[tuple[str, Any], ...]
    words: tuple[tuple[str, int], ...]
    expires: float

    def shows(self, trace) -> bool:
        """Whether `trace` is the run this room polls: the same algorithm, parameters
        and word counts (a teacher who changed the corpus or a setting needs a new room)."""
        return (
            self.algorithm == trace.algorithm
            and self.params == lesson_params(trace.params)
            and self.words == tuple(zip(trace.start.words, trace.start.counts))
        )


def lesson_params(params) -> tuple[tuple[str, Any], ...]:
    """A trace's parameters as a room keeps them: through JSON, lists back to tuples.

    >>> lesson_params((("merges", 4), ("choices", ("un", "ru"))))
    (('choices', ('un', 'ru')), ('merges', 4))
    """
    try:
        data = json.loads(json.dumps(dict(params)))
    except (TypeError, ValueError):
        raise ValueError("These settings cannot be shared with a class poll.") from None
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in data.items()))


@dataclass(frozen=True, slots=True)
class Round:
    """One question to the class: the step shown, its state (open, closed, revealed), the
    answer(s) the algorithm gives and the candidates tied with it."""

    id: int
    room: str
    step: int
    algorithm: str
    state: str
    answer: tuple[str, ...]
    ties: tuple[str, ...]


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
