"""The SaGe page's "Paper vs this run" tab: the SaGe paper's Table 1, Table 2 and summary
figures, each computed on the student's run and set beside the paper's own."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.sage import closeup
from lessons.sage import results as outcome
from lessons.ui.escape import as_text, plain
from lessons.ui.store import derived
from subtok_core import sage
from subtok_core.sage import paper, summary, table1, table2
from subtok_core.sage.explain import bracketed
from subtok_core.shapes import maybe, such_that

CELL = "font-family:monospace;padding:2px 8px;vertical-align:top"
SOURCE = f"Quoted from {paper.CITATION}, as printed (course material {paper.FILE})."


def _html_table(rows: list[tuple[str, str]], label_width: str = "4em") -> None:
    """Rows of (label, HTML already escaped) as a two-column table as wide as its column."""
    body = "".join(
        f'<tr><td style="{CELL};width:{label_width}"><b>{as_text(label)}</b></td>'
        f'<td style="{CELL}">{text}</td></tr>'
        for label, text in rows
    )
    st.markdown(
        f'<table style="font-size:0.95rem;width:100%">{body}</table>', unsafe_allow_html=True
    )


def _cut(pieces, bold: bool) -> str:
    text = as_text(" ".join(pieces))
    return f"<b>{text}</b>" if bold else text


def _sentence(row: table1.TableOneRow, cuts, token: str | None) -> str:
    """One fragment as a vocabulary cut it: the token (BPE) or the focus word (SaGe) bold."""
    words = []
    for i, pieces in enumerate(cuts):
        if token is None:  # SaGe's row: the whole word that BPE cut with the token
            words.append(_cut(pieces, i == row.focus))
        else:
            words.append(" ".join(_cut([p], i == row.focus and p == token) for p in pieces))
    return ("… " if row.more_before else "") + " ".join(words) + (" …" if row.more_after else "")


def _table_one(run: str, bpe, kept, sentences) -> table1.TableOne | None:
    """Table 1 of the run `run` (the trace and its sample), kept in the server-wide store
    and on disk (lessons.ui.store.derived). Read only."""
    found = lambda: table1.table_one(bpe, kept, sentences)  # noqa: E731
    return derived(("sage table 1", run), found, maybe(table1.TableOne))


def table_one(run: str, trace, sentences) -> None:
    st.header("Table 1: a token BPE keeps and SaGe drops")
    bpe, kept = sage.bpe_model(trace).vocab, sage.vocab_after(trace)
    found = _table_one(run, bpe, kept, sentences)
    left, right = st.columns(2)
    with left:
        if found is None:
            st.info("BPE(V) uses no token that SaGe(V) lacks on this sample.")
        else:
            st.markdown(
                f"**This run: {plain(found.token)}** (in BPE(V), pruned by SaGe), "
                f"inside {found.words:,} different words of the sample, {found.uses:,} times."
            )
            rows = []
            for row in found.rows:
                rows.append(("BPE", _sentence(row, row.bpe, found.token)))
                rows.append(("SaGe", _sentence(row, row.sage, None)))
            _html_table(rows)
    with right:
        st.markdown(f"**The paper: {paper.TABLE_1_TOKEN}** (English Wikipedia, V = 16,000)")
        _html_table([(r.name, as_text(" ".join(r.tokens))) for r in paper.TABLE_1])
        st.caption(f"{paper.TABLE_1_CAPTION} {SOURCE}")
    st.caption(
        "BPE(V) is the first V pieces BPE learned (the start of the vocabulary SaGe pruned); "
        "both cut each word by greedy longest prefix. The token is the one BPE(V) has and "
        "SaGe(V) lacks that turns up inside the most different words (punctuation and case "
        "aside); each row is a sentence with another of those words, its cut in bold."
    )


def _window_change(run: str, trace, sentences) -> table2.WindowChange | None:
    """Table 2 of the run `run`, kept like Table 1 (finding it re-cuts the sample at each
    of the run's first steps)."""

    def state_at(step: int):
        return closeup.state_at(run, step, trace, sentences)

    compute = lambda: table2.find_window_change(trace, sentences, state_at)  # noqa: E731
    return derived(("sage table 2", run), compute, maybe(TABLE_TWO))


# a window change whose target is a token of the fragment (the page shows it, bold)
TABLE_TWO = such_that(
    table2.WindowChange,
    lambda c: 0 <= c.target < len(c.before) and 0 <= c.target_after < len(c.after),
    "names a target outside its fragment",
)


def _table_two_rows(c, piece: str, margin: int = 2) -> list[tuple[str, str]]:
    """The paper's three rows: the text, and its cut with and without `piece` (`margin`
    tokens shown on each side)."""
    (a, b), (a2, b2) = c.shown(margin)
    win, win2 = c.before_window, c.after_window
    strong = ("<b>", "</b>")
    before = bracketed(c.before[a:b], [(win[0] - a, win[1] - a)], [c.target - a], strong,
                       as_text)  # fmt: skip
    after = bracketed(c.after[a2:b2], [(win2[0] - a2, win2[1] - a2)], [c.target_after - a2],
                      strong, as_text)  # fmt: skip
    dots = ("… " if a else "", " …" if b < len(c.before) else "")
    return [
        ("Sentence fragment", as_text(c.text(a, b)).join(dots)),
        ("Tokenization using V", before.join(dots)),
        (f"Tokenization using V \\ {{{piece}}}", after.join(dots)),
    ]


def table_two(run: str, trace, sentences) -> None:
    st.header("Table 2: a target whose window changed from outside it")
    st.markdown("**This run**")
    with st.spinner("Looking for such a target in the run's first steps ..."):
        change = _window_change(run, trace, sentences)
    if change is None:
        st.info(
            f"No piece pruned in the first {table2.SEARCHED_STEPS} steps changed a target's "
            "window from outside it (with this window and this sample)."
        )
    else:
        old, new = change.replaced
        _html_table(_table_two_rows(change, change.piece), "11em")
        st.caption(
            f"Step {change.step} pruned {plain(repr(change.piece))}. Removing it re-cuts its "
            f"word; the target {plain(repr(change.before[change.target]))} (bold) now sees "
            f"{plain(repr(' '.join(new)))} where it saw {plain(repr(' '.join(old)))}, though "
            f"{plain(repr(change.piece))} was more than W = "
            f"{change.window} tokens away, outside its window (brackets). Sentence "
            f"{change.sentence + 1:,} of the sample."
        )
    st.markdown("**The paper** (English Wikipedia)")
    whole = len(paper.TABLE_2.after)  # the paper prints the whole fragment
    _html_table(_table_two_rows(paper.TABLE_2, paper.TABLE_2.piece, whole), "11em")
    st.caption(
        f"{paper.TABLE_2_CAPTION} {SOURCE} The bold is lost in that text: the target is the "
        "centre of the window. This is why SaGe scores a removal on whole sentences, not "
        "only on the windows around the removed piece (the 'One token up close' tab shows "
        "those)."
    )


def figures(key: str, trace, sentences) -> None:
    st.header("The paper's summary figures beside this run's")
    lines = tuple(" ".join(words) for words in sentences)
    vocabs = {"BPE": sage.bpe_model(trace).vocab, "SaGe": sage.vocab_after(trace)}
    tokens = {n: outcome.token_count(key, n, v, lines) for n, v in vocabs.items()}
    got = summary.summary_figures(vocabs["BPE"], vocabs["SaGe"], tokens["BPE"], tokens["SaGe"])
    table = pd.DataFrame(summary.figure_rows(got))
    size = sage.settings_of(trace).vocab_size
    names = {"the paper": "the paper (V = 16,000)", "this run": f"this run (V = {size:,})"}
    st.dataframe(table.rename(columns=names), hide_index=True)
    st.write(summary.agreement(got))
    st.caption(
        f"This run: {got.bpe_only:,} tokens only BPE(V) has and {got.sage_only:,} only "
        "SaGe(V) has; lengths count characters without the ▁ word-start mark. The paper: "
        f"{paper.FIGURES_SETTING}, from §4 of {paper.CITATION}; compare the change in "
        "brackets, not the counts."
    )


def paper_tab(key: str, run: str, trace, sentences) -> None:
    """The tab: `key` names the sample, `run` the trace and its sample (cache keys)."""
    table_one(run, trace, sentences)
    table_two(run, trace, sentences)
    figures(key, trace, sentences)
