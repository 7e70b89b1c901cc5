"""A word/count table (a toy's, or one a student edited) checked row by row: a row that
cannot be used raises ValueError naming it."""

from __future__ import annotations

import math

from .words import WordCounts


def from_pairs(pairs, name: str = "") -> WordCounts:
    """A word/frequency table -> WordCounts. Repeated words are added up, a row without a
    word is skipped (the blank row a table editor adds, a word cleared), and a row that
    cannot be used raises ValueError naming it (counted from 1, as the table shows them).

    >>> from_pairs([("low", 5), ("lower", "2"), (None, float("nan"))]).counts
    (5, 2)
    >>> from_pairs([("low", 5), ("bat", "abc")])
    Traceback (most recent call last):
    ...
    ValueError: Row 2: the count of 'bat' is 'abc', not a whole number.
    """
    return _from_rows(((f"Row {i}", *pair) for i, pair in enumerate(pairs, start=1)), name)


def _from_rows(rows, name: str) -> WordCounts:
    """(where, word, count) rows -> WordCounts; `where` ("Row 6", "Line 3") starts the
    sentence about a row that cannot be used."""
    counts: dict[str, int] = {}
    for where, word, count in rows:
        word = "" if _blank(word) else str(word).strip()
        if not word:
            continue  # nothing to count: a blank row, or a word cleared
        if any(ch.isspace() for ch in word):
            raise ValueError(f"{where}: the word {word!r} contains a space; one word per row.")
        counts[word] = counts.get(word, 0) + _as_count(count, word, where)
    counts = {w: c for w, c in counts.items() if c > 0}
    if not counts:
        raise ValueError("The table has no word with a count above 0.")
    return WordCounts(tuple(counts), tuple(counts.values()), name)


def _blank(value) -> bool:
    """Whether a table cell is empty: None, blank text, or a missing number (NaN, pandas'
    NA, which cannot even be compared)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return True
    try:
        return bool(value != value)  # only NaN differs from itself
    except TypeError:
        return True


def _as_count(value, word: str, where: str) -> int:
    """A count must be a whole number >= 0; say which row and word is wrong otherwise."""
    said = f"{where}: the count of {word!r} is"
    if _blank(value):
        raise ValueError(f"{said} empty, not a whole number.")
    try:
        number = float(str(value).strip()) if not isinstance(value, bool) else math.nan
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number != int(number):
        raise ValueError(f"{said} {value!r}, not a whole number.")
    if number < 0:
        raise ValueError(f"{said} {int(number)}; counts cannot be negative.")
    return int(number)
