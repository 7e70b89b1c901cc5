"""Notes on the material: every slip of the course material (../shared/seeds), with the
number it prints, the number this app computes, the cause, and the lesson view that shows
the spot. Nothing here is typed but the material's own numbers: the exact values are
computed by the core when the notes are built (once per process).

>>> [n.id for n in all_notes()][:3]
['001-rounding', '001-removal-table', '001-hu']
>>> note("001-removal-table").figures[0].printed, note("001-removal-table").figures[0].exact
('63.0126', '63.0226')
>>> note("001-removal-table").link
'/unigram?corpus=toy:run-bug&seed=strict&base=10&remove=un&step=5'
"""

from __future__ import annotations

import functools

from .blog import eow_note, hf_note, hf_wordpiece_note
from .papers import bostrom_sign_note, sage_sign_note
from .records import Figure, Note
from .slides import (
    bag_note,
    hu_note,
    removal_caption,
    removal_note,
    rounding_caption,
    rounding_note,
    slides_removal,
)

# In the order of the page: the 001 slides, then the papers, then 004 and its source.
BUILDERS = (
    rounding_note,
    removal_note,
    hu_note,
    bag_note,
    sage_sign_note,
    bostrom_sign_note,
    eow_note,
    hf_note,
    hf_wordpiece_note,
)


@functools.cache
def all_notes() -> tuple[Note, ...]:
    """Every note, computed on the first call (a few toy runs, well under a second)."""
    return tuple(build() for build in BUILDERS)


def note(note_id: str) -> Note:
    """One note by its id.

    >>> note("typo")
    Traceback (most recent call last):
    ...
    ValueError: There is no note 'typo'; the notes are 001-rounding, 001-removal-table, \
001-hu, 001-bag-bags, 000-argmin, 002-highest, 004-eow, hf-pug, \
hf-wordpiece-tie.
    """
    for item in all_notes():
        if item.id == note_id:
            return item
    ids = ", ".join(n.id for n in all_notes())
    raise ValueError(f"There is no note {note_id!r}; the notes are {ids}.")


__all__ = [
    "BUILDERS", "Figure", "Note", "all_notes", "note", "removal_caption", "rounding_caption",
    "slides_removal",
]  # fmt: skip
