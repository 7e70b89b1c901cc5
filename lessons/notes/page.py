"""Notes on the material: every slip of the course material, with the number it prints,
the number the app computes, the cause, and a link to the lesson at that spot."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons import pages
from subtok_core.notes import Note, all_notes

SEEDS_TEXT = {
    "000": "000, the SaGe paper",
    "001": "001, slides 'Tokenization Strategies'",
    "002": "002, Bostrom & Durrett",
    "003": "003, slides 'Sub-word Tokenization'",
    "004": "004, blog post 'Subword Tokenization'",
}


def where(note: Note) -> str:
    """Which seed file, which part of it, and the lines of the figures."""
    lines = note.lines
    span = "" if not lines else f"; line {lines[0]}" if len(lines) == 1 else "; lines "
    if len(lines) > 1:
        span += ", ".join(str(n) for n in lines)
    name = SEEDS_TEXT.get(note.seed[:3], note.seed)
    return f"**{name}** (`{note.seed}`{span}): {note.where}."


def figures_frame(note: Note) -> pd.DataFrame:
    rows = [
        {
            "figure": f.label,
            "the material prints": f.printed or "—",  # a row it does not print
            "computed here": f.exact,
        }
        for f in note.figures
    ]
    return pd.DataFrame(rows, columns=["figure", "the material prints", "computed here"])


def card(note: Note) -> None:
    with st.container(border=True):
        st.header(note.title)  # h2: each note is a part of the page
        st.markdown(where(note))
        st.table(figures_frame(note), hide_index=True)
        st.markdown(f"**Why they differ.** {note.cause}")
        st.page_link(
            pages.by_address(note.page).file,
            label="Open the lesson at this spot",
            icon=":material/arrow_forward:",
            query_params=dict(note.query),
        )
        st.caption(f"`{note.link}`")


st.title("Notes on the material")
st.write(
    "The course material has a few slips: numbers rounded before they were multiplied, a "
    "sign turned around, a miscount, a word swapped for another. Each card shows what the "
    "material prints, what this app computes (by the same code as the lessons, when the "
    "page is built), why the two differ, and a link that opens the lesson at that spot."
)
notes = all_notes()
st.caption(f"{len(notes)} notes, in the order of the material: 001, 000, 002, 004.")
for item in notes:
    card(item)
