"""The exercise corpora of ``subtok check`` (data/exercises/NAME.txt), each written for one
cause of a difference, read with its head and with its line breaks kept."""

from __future__ import annotations

import functools

from .files import DATA_DIR

EXERCISE = "exercise:"
EXERCISE_DIR = DATA_DIR / "exercises"
EXERCISE_HEAD = ("cause", "about", "settings")  # the comment lines each exercise starts with


def exercise_names() -> list[str]:
    """The exercise corpora (data/exercises/NAME.txt), each written for one cause of a
    difference that ``subtok check`` names."""
    return sorted(path.stem for path in EXERCISE_DIR.glob("*.txt"))


@functools.cache
def exercise(name: str) -> tuple[dict[str, str], str]:
    """An exercise's head (``# cause:``, ``# about:``, ``# settings:``) and its text as it
    is, line breaks included.

    >>> head, text = exercise("exercise:runs")
    >>> head["cause"], text.split()[:2]
    ('overlap', ['aaaa', 'aaa'])
    """
    key = name.removeprefix(EXERCISE)
    if key not in exercise_names():
        known = ", ".join(EXERCISE + n for n in exercise_names())
        raise ValueError(f"There is no exercise {name!r}; the exercises are {known}.")
    raw = (EXERCISE_DIR / f"{key}.txt").read_text(encoding="utf-8")
    *lines, text = raw.split("\n", len(EXERCISE_HEAD))
    head = dict(line.removeprefix("# ").split(": ", 1) for line in lines)
    if tuple(head) != EXERCISE_HEAD:
        raise ValueError(
            f"data/exercises/{key}.txt should start with # cause, # about, # settings."
        )
    return head, text


def file_lines(text: str) -> tuple[str, ...]:
    """A file's text cut after each line break (\\n), the breaks kept: the lines as
    Hugging Face's trainer reads a file, so the pattern never reaches across a line end.

    >>> file_lines("a \\nb\\n\\nc")
    ('a \\n', 'b\\n', '\\n', 'c')
    """
    pieces = text.split("\n")
    return (*(piece + "\n" for piece in pieces[:-1]), *([pieces[-1]] if pieces[-1] else []))


def is_exercise(name: str) -> bool:
    return name.startswith(EXERCISE)
