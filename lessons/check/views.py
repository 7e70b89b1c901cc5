"""The /check page's pieces: the verdict cached, the pair table at the first difference,
the link into the lesson at that merge, and the exercise downloads."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from lessons.ui.corpus import TEXT
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint, trace_store
from subtok_core import corpus
from subtok_core.check import Difference, Setup, Verdict, check, exercises, read_merges
from subtok_core.check.sources import corpus_lines
from subtok_core.corpus import file_lines

YOURS, EXPECTED = "◀ yours", "◀ reference"
VERDICT = "check verdict"  # the kind of a verdict in the server-wide store
TABLE_ROWS = 12  # rows of the pair table shown (both marked pairs always among them)


def verdict(
    name: str, text: str, settings: tuple, own: str = "", progress: Callable | None = None
) -> Verdict:
    """The check of a merges text against the reference run on corpus `name` (`own`: the
    student's own text, for "your own text"; settings: bytelevel, marker, pattern, ties,
    special tokens), kept in the server-wide store (its byte budget, SUBTOK_STORE_MB, least
    recently used first; memory only) under a fingerprint of all of them: the same list on
    the same corpus and settings is checked once for every student, and a student checking
    the same list at once waits for that check. `progress(sentence)` hears each phase
    (reading the merges, training the reference, counting the pairs again); silent when
    the verdict is kept."""
    key = (VERDICT, fingerprint(name, text, settings, own))

    def compute(report: Callable) -> Verdict:
        bytelevel, marker, pattern, ties, specials = settings
        if name == TEXT:
            lines = file_lines(own) if bytelevel else tuple(own.splitlines())
        else:
            lines = corpus_lines(name, bytelevel)
        setup = Setup(lines, bytelevel, marker, pattern, ties, specials)
        report("Reading your merges.")
        merges = read_merges(text, bytelevel)
        return check(setup, merges, progress=report, where="web")

    return trace_store().get(key, compute, progress, name=VERDICT, on_disk=False)


def pair_frame(d: Difference) -> pd.DataFrame:
    """The reference's pair counts at the step, highest first: the first rows and both
    marked pairs, a mark in words beside each (not colour alone): "◀ yours" is the
    student's merge, "◀ reference" the reference's."""
    rows, shown = [], set()
    for rank, (a, b, count) in enumerate(d.table, start=1):
        pair = (a, b)
        marked = pair in (d.yours, d.expected)
        if rank <= TABLE_ROWS or marked:
            rows.append((rank, a, b, count, _mark(pair, d)))
            shown.add(pair)
    if d.yours not in shown:  # a pair the corpus does not hold as it stands
        rows.append(("—", *d.yours, 0, _mark(d.yours, d)))
    frame = pd.DataFrame(rows, columns=["rank", "left", "right", "count", "mark"])
    frame["rank"] = frame["rank"].astype(str)
    return frame


def _mark(pair, d: Difference) -> str:
    return " ".join(m for m, p in ((YOURS, d.yours), (EXPECTED, d.expected)) if p == pair)


def styled(frame: pd.DataFrame):
    """Marked rows in bold with a tinted background; the mark column says which is which."""

    def paint(row: pd.Series) -> list[str]:
        if not row["mark"]:
            return [""] * len(row)
        tint = "#ffe9b3" if YOURS in row["mark"] else "#d7ecff"
        return [f"background-color: {tint}; font-weight: bold"] * len(row)

    return frame.style.apply(paint, axis=1)


def evidence(d: Difference) -> None:
    """Each hypothesis re-trained, in words: how many of the student's merges it
    reproduces from the first (a table, sorted as tried, the named one marked)."""
    if not d.tried:
        return
    rows = [
        (f"a trainer that {how}", cause, n, "◀ named" if cause == d.cause and n == d.matched
         and d.cause != "unknown" else "")
        for cause, how, n in d.tried
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=["re-trained as", "cause", "your merges matched", "mark"])
    st.caption(
        f"The evidence: the reference trained again under each hypothesis, and how many of "
        f"your merges it reproduces from the first (your list leaves the reference at merge "
        f"{d.merge}; a cause is named only past it)."
    )
    st.dataframe(frame, hide_index=True, width="stretch")


def lesson_address(name: str, settings: tuple, merge: int, ties: str) -> tuple[str, str, dict, str]:
    """Where a difference at `merge` is seen in a lesson: (the page's file, its address,
    the query, the tie rule it opens with): /bpe (or /bytebpe) at that merge on the same
    settings; the lessons have no greatest-pair rule (nor 'auto'), so they open with
    'first' then."""
    bytelevel, marker, pattern, _ties, _specials = settings
    lesson_ties = ties if ties in ("first", "lex", "tokenizers") else "first"
    params = {"corpus": name, "ties": lesson_ties, "merges": str(max(merge, 10)),
              "step": str(merge)}  # fmt: skip
    if bytelevel:
        params |= {"pattern": pattern, "bytes": "gpt2"}
        return "lessons/bytebpe/page.py", "/bytebpe", params, lesson_ties
    params["marker"] = marker
    return "lessons/bpe/page.py", "/bpe", params, lesson_ties


def lesson_link(name: str, settings: tuple, d: Difference, ties: str | None = None) -> None:
    """A link opening /bpe (or /bytebpe) at the merge that differs, on the same settings
    (`ties`: the rule the check used; the lessons have no greatest-pair rule)."""
    ties = ties or settings[3]
    page, title, params, lesson_ties = lesson_address(name, settings, d.merge, ties)
    st.page_link(page, label=f"Open {title} at merge {d.merge}", icon=":material/open_in_new:",
                 query_params=params)  # fmt: skip
    if lesson_ties != ties:
        st.caption(
            f"The lessons have no tie rule '{ties}': the link opens them with 'first', so "
            "their merges may differ from the reference here at a tie."
        )
    if settings[4]:
        st.caption(
            "The byte-level lesson has no special tokens: it reads them as text, so its "
            "merges there may differ from the reference here."
        )


@st.cache_data(show_spinner=False)
def exercise_zip(name: str) -> bytes:
    return exercises.bundle(exercises.load(name))


def exercise_list() -> None:
    """Each exercise corpus: its cause, what it is about, and a zip with its answer keys."""
    for name in corpus.exercise_names():
        ex = exercises.load(name)
        level = "byte-level" if ex.bytelevel else "character-level"
        with st.container(border=True):
            st.markdown(f"**exercise:{name}** · cause *{ex.cause}* · {level}")
            st.caption(ex.about)
            st.download_button(
                f"Download {name}.zip (corpus + answer keys)",
                data=exercise_zip(name),
                file_name=f"exercise-{name}.zip",
                mime="application/zip",
                key=widget_key("check", f"zip_{name}"),
            )
