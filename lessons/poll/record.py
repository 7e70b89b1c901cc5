"""The class's controls and record on the teacher's panel (lessons/poll/panel.py places
them under the room and the round): whether the tally shows before Reveal, "End the
class", and what the teacher takes home: every answer as CSV (one row per answer, the
student an anonymous number) and a summary of the rounds, hardest first, each linking to
its step. Everything is read from the database (subtok_core.rooms.report).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pandas as pd
import streamlit as st

from lessons.poll import teacher
from lessons.ui.keys import widget_key
from subtok_core import rooms

RECORD_EVERY = 3  # seconds between two readings of the record: it follows the tally
ANSWER_COLUMNS = {  # the CSV's headers, from subtok_core.rooms.report's fields
    "time": "time (UTC)",
    "page": "lesson page",
    "corpus": "corpus",
    "step": "step",
    "round": "round",
    "question": "question",
    "answer": "answer",
    "choice": "algorithm's choice",
    "student": "student",
}


def tally_hidden(code: str) -> bool:
    """Whether the teacher keeps the tally off the projector until Reveal (the default:
    students should not copy the majority)."""
    try:
        return not rooms.store().join(code).live
    except ValueError:
        return True


def origin() -> str:
    """The scheme and host of the teacher's address (links in the record are absolute)."""
    parts = urlsplit(st.context.url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def answers_table(code: str) -> pd.DataFrame:
    """Every answer of the class, one row each (the CSV)."""
    rows = rooms.store().answer_rows(code)
    return pd.DataFrame(rows, columns=list(ANSWER_COLUMNS)).rename(columns=ANSWER_COLUMNS)


def summary_table(code: str, base: str = "") -> pd.DataFrame:
    """Each round, hardest first: answered, predicted (count and percent), its link (on
    `base`, the teacher's scheme and host)."""
    rows = rooms.store().summary(code)
    table = pd.DataFrame(
        [
            {
                "round": r["round"],
                "page": r["page"],
                "step": r["step"],
                "question": r["question"],
                "answered": r["answered"],
                "predicted": r["predicted"],
                "% predicted": None if r["share"] is None else round(100 * r["share"]),
                "link": base + r["link"],
            }
            for r in rows
        ],
        columns=["round", "page", "step", "question", "answered", "predicted", "% predicted",
                 "link"],
    )  # fmt: skip
    return table


def _live(page_name: str, code: str) -> None:
    rooms.store().show_live(code, st.session_state[widget_key(page_name, f"poll_live_{code}")])


def _end(code: str) -> None:
    rooms.store().end(code)
    teacher.forget()


def class_controls(room: rooms.Room, page_name: str) -> None:
    """The tally's visibility, the class's record and "End the class"."""
    left, right = st.columns([3, 1])
    left.toggle(
        "show the tally live",
        value=room.live,
        key=widget_key(page_name, f"poll_live_{room.code}"),
        on_change=_live,
        args=(page_name, room.code),
        help="Off: the projector shows how many answered, and the answers only after "
        "Reveal, so nobody copies the majority. Phones never see the tally.",
    )
    right.button(
        "End the class",
        key=widget_key(page_name, "poll_end"),
        on_click=_end,
        args=(room.code,),
        help="Phones say the class has ended; the record below stays downloadable until "
        "you end it (the room's data is deleted a day after it expires).",
    )
    class_record(room.code, page_name)


@st.fragment(run_every=RECORD_EVERY)
def class_record(code: str, page_name: str) -> None:
    """The summary of the rounds (hardest first) and the two downloads, read again every
    RECORD_EVERY seconds (this part only); a download reads the database when it is
    clicked, so it holds every answer counted until then."""
    answers = answers_table(code)
    base = origin()
    summary = summary_table(code, base)
    st.markdown(f"**The class so far**: {len(summary)} rounds, {len(answers)} answers.")
    if len(summary):
        st.dataframe(
            summary,
            hide_index=True,
            column_config={
                "link": st.column_config.LinkColumn("link", display_text="open"),
                "predicted": st.column_config.NumberColumn(
                    help="how many students gave the algorithm's choice"
                ),
                "% predicted": st.column_config.NumberColumn(
                    help="the share of those who answered (empty: nobody answered); the "
                    "hardest rounds come first"
                ),
            },
        )
    left, right = st.columns(2)
    left.download_button(
        "Download the answers (CSV)",
        # made with the panel (every 3 s): a file made on click was cancelled in the browser
        # when the panel's refresh replaced the button between the click and the fetch
        answers_table(code).to_csv(index=False).encode("utf-8"),
        file_name=f"class-{code}-answers.csv",
        mime="text/csv",
        key=widget_key(page_name, "poll_csv"),
        on_click="ignore",  # no rerun of the page for a download
    )
    right.download_button(
        "Download the summary (CSV)",
        summary_table(code, base).to_csv(index=False).encode("utf-8"),
        file_name=f"class-{code}-summary.csv",
        mime="text/csv",
        key=widget_key(page_name, "poll_summary_csv"),
        on_click="ignore",
    )


def past_class(page_name: str) -> None:
    """The record of this browser's last class once it has ended (or expired), while the
    database keeps it."""
    code = rooms.store().last_class(teacher.teacher_key() or "")
    if code is None:
        return
    with st.expander(f"The record of your last class (room {code}, ended)"):
        class_record(code, page_name)
