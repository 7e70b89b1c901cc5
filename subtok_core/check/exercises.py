"""Exercise corpora (data/exercises/NAME.txt), each written to bring out one cause of a
difference, and their answer keys: our trainer's merges under each tie rule.

A file starts with three comment lines: ``# cause:`` (one of ``diagnose.CAUSES``),
``# about:`` (a sentence for the student) and ``# settings:`` (``bytebpe``,
``pattern=NAME``, ``marker=NAME``, ``special=TOKEN``, separated by spaces); the text
follows as it is, line breaks included.

>>> ex = load("runs")
>>> ex.cause, ex.setup().bytelevel
('overlap', False)
>>> answer_key(ex, "first", limit=2)
[('a', 'a'), ('a', 'b')]
"""

from __future__ import annotations

import functools
import io
import zipfile
from dataclasses import dataclass

from .. import corpus
from .reference import reference_merges
from .rules import RULES as TIE_RULES
from .setup import Setup

PREFIX = corpus.exercises.EXERCISE
KEY_LIMIT = 60  # merges in an answer key at most (the small texts run out before)


@dataclass(frozen=True, slots=True)
class Exercise:
    name: str
    cause: str
    about: str
    settings: tuple[tuple[str, str], ...]
    text: str

    def setting(self, key: str, fallback: str | None = None) -> str | None:
        return dict(self.settings).get(key, fallback)

    @property
    def bytelevel(self) -> bool:
        return self.setting("bytebpe") is not None  # the exercise's own setting

    def setup(self, ties: str = "first") -> Setup:
        """The reference settings the exercise is meant for."""
        specials = tuple(v for k, v in self.settings if k == "special")
        if self.bytelevel:
            lines = corpus.file_lines(self.text)  # newlines are bytes
            return Setup(lines, True, pattern=self.setting("pattern", "gpt2"), ties=ties,
                         specials=specials)  # fmt: skip
        return Setup(
            tuple(self.text.splitlines()), marker=self.setting("marker", "none"), ties=ties
        )


def names() -> list[str]:
    return corpus.exercise_names()


@functools.cache
def load(name: str) -> Exercise:
    """The exercise `name` (with or without the ``exercise:`` prefix)."""
    head, text = corpus.exercises.exercise(name)
    settings = tuple(item.partition("=")[::2] for item in head["settings"].split())
    return Exercise(name.removeprefix(PREFIX), head["cause"], head["about"], settings, text)


def answer_key(ex: Exercise, ties: str, limit: int = KEY_LIMIT) -> list[tuple[str, str]]:
    """Our trainer's merges on the exercise under the tie rule `ties`."""
    return reference_merges(ex.setup(ties), limit)


def merges_txt(merges) -> str:
    """A merge list as GPT-2's merges.txt (symbols as written: byte-level in GPT-2 letters)."""
    return "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges)


def bundle(ex: Exercise) -> bytes:
    """A zip: the corpus, and the answer key under each tie rule as merges.txt."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{ex.name}/corpus.txt", ex.text)
        for rule in TIE_RULES:
            zf.writestr(f"{ex.name}/merges-{rule}.txt", merges_txt(answer_key(ex, rule)))
        zf.writestr(f"{ex.name}/README.txt", readme(ex))
    return out.getvalue()


def readme(ex: Exercise) -> str:
    settings = " ".join(f"{k}={v}" if v else k for k, v in ex.settings)
    flags = " --bytebpe" if ex.bytelevel else ""
    flags += f" --pattern {ex.setting('pattern')}" if ex.setting("pattern") else ""
    flags += f" --marker {ex.setting('marker')}" if ex.setting("marker") else ""
    flags += "".join(f" --special '{v}'" for k, v in ex.settings if k == "special")
    return (
        f"Exercise {ex.name}, for the cause '{ex.cause}'.\n{ex.about}\n\nSettings: {settings}\n"
        "Train on corpus.txt (as it is, line breaks included for byte-level BPE), write your "
        "merges one per line, and compare them:\n"
        f"  subtok check merges your-merges.txt --corpus corpus.txt{flags} --ties first\n"
        "merges-RULE.txt is the answer key under each tie rule.\n"
    )
