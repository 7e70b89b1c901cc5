"""The records of the notes on the material: a Figure (one number as printed and as
computed) and a Note (one slip: where it is, its figures, its cause, the lesson's link).

>>> fig = Figure("loss", "66.102", "66.109", 66.10893, line=586)
>>> fig.quote, approx(66.10893, fig.printed)
('66.102', '66.109')
>>> note = Note("x", "A slip", "001_cd5e11af49399106.txt", "slide", (fig,), "Rounding.",
...             "unigram", (("corpus", "toy:run-bug"), ("step", "1")))
>>> note.link, note.lines
('/unigram?corpus=toy:run-bug&step=1', (586,))
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode


@dataclass(frozen=True, slots=True)
class Figure:
    """One number (or cut) of a note.

    ``printed`` is what the material shows, for the page; ``quote`` the same text exactly
    as it stands on ``line`` of the seed file (the tests find it there; by default it is
    ``printed``). ``line`` 0 means the material printing it is not one of the seeds, or
    that it prints nothing for this row. ``exact`` is the computed value as the page shows
    it, ``value`` the value itself (a float, a Fraction, a piece or a tuple of pieces).
    """

    label: str
    printed: str
    exact: str
    value: object
    line: int = 0
    quote: str = ""

    def __post_init__(self) -> None:
        if not self.quote:
            object.__setattr__(self, "quote", self.printed)


@dataclass(frozen=True, slots=True)
class Note:
    """One slip of the material: the seed file it is in and where (a slide, a section),
    its figures, one sentence on its cause, and the lesson view that shows the spot.

    ``page`` is the lesson's url_path and ``query`` its URL parameters, in order.
    """

    id: str
    title: str
    seed: str
    where: str
    figures: tuple[Figure, ...]
    cause: str
    page: str
    query: tuple[tuple[str, str], ...]

    @property
    def link(self) -> str:
        """The address of the lesson at this spot, e.g. /unigram?corpus=toy:run-bug&step=1."""
        return f"/{self.page}?{urlencode(self.query, safe=':,')}"

    @property
    def lines(self) -> tuple[int, ...]:
        """The lines of the seed file where the figures stand, in order."""
        return tuple(sorted({f.line for f in self.figures if f.line}))


def decimals(printed: str) -> int:
    """How many digits the material prints after the decimal point (in its last number).

    >>> decimals("63.0126"), decimals("8-3=5"), decimals("= 0.000389")
    (4, 0, 6)
    """
    last = printed.replace("=", " ").split()[-1]
    return len(last.split(".")[1]) if "." in last else 0


def approx(value: float, printed: str, extra: int = 0) -> str:
    """`value` with as many decimals as the material prints (plus `extra`), so the two
    can be read side by side.

    >>> approx(61.16492760, "61.155"), approx(34 / 25725, "0.000389", extra=3)
    ('61.165', '0.001321672')
    """
    return f"{value:.{decimals(printed) + extra}f}"
