"""UI pieces shared by the lesson pages: corpus picker, step slider, symbol chips, errors."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable

import pandas as pd
import streamlit as st

from lessons import _cached as cached

# The shared pieces live in their own modules; the pages reach all of them as `w.<name>`.
from lessons._corpus import (  # noqa: F401
    DEFAULT_TEXT,
    TEXT,
    UPLOAD,
    cached_load,
    corpus_editor,
    corpus_label,
    corpus_options,
    corpus_select,
    corpus_setting,
    is_sample,
    parsed_upload,
    punct_box,
    punct_on,
    read_upload,
    sample_print,
    settings_caption,
)
from lessons._keys import PAGES, current_page, widget_key  # noqa: F401
from lessons._present import end_of_step_view, page_head, presenting, settings_row  # noqa: F401
from lessons._steps import (  # noqa: F401
    corpus_trace,
    lazy_expander,
    rerun_page,
    step_slider,
    stepped,
)
from lessons._store import TraceStore, derived, fingerprint, run_key, trace_store  # noqa: F401
from lessons._url import (  # noqa: F401
    FIXES,
    choice_box,
    limit_help,
    number_box,
    parse_choice,
    parse_float,
    parse_int,
    settle_url,
    url_choice,
    url_float,
    url_int,
    url_text,
    url_warning,
)
from lessons._views import open_view  # noqa: F401
from subtok_core import export, limits
from subtok_core.charts import lessons as viz

# Our own HTML only (chips, corpus rows, encode lists), at a size a projector shows. A
# word is one box in a row that wraps between words; a word wider than the whole column
# wraps between its chips, and a chip longer than the column breaks inside: nothing
# overflows, at 1280 px or on a 390 px phone.
CHIP_CSS = """
<style>
.chips {line-height: 2.3; font-size: 1.2rem; overflow-wrap: anywhere;}
.chip {display: inline-block; max-width: 100%; padding: 0 .45em; margin: 0 .12em;
       border-radius: .35em; border: 1px solid #6b7785; background: #f4f6f8;
       font-family: monospace; color: #1a1a1a;}
.chip.new {background: #ffd6d6; border: 3px double #a4161a; font-weight: bold;}
.chip.unk {background: #444; color: #fff;}
.chip.marker {color: #4f5a66;}
.chip.miss {background: #fff; border-style: dashed; color: #5f6b78;
            text-decoration: line-through;}
.chip.hit {background: #dff3e4; border-color: #2ca02c; font-weight: bold;}
.word {display: inline-block; max-width: 100%; margin: 0 .8em .3em 0; padding: 0 .3em;
       border-radius: .5em; background: #f9fafb; box-shadow: inset 0 0 0 1px #dde1e6;
       color: #1a1a1a;}
.count {font-size: .8em;}
.tail {white-space: nowrap;}
.chips .gap {display: inline-block; width: .9em;}
table.tries {font-size: 1.05rem; border-collapse: collapse; margin: .3em 0 .8em;}
table.tries th, table.tries td {padding: .15em .6em; border-bottom: 1px solid #e3e6ea;
                                text-align: left; vertical-align: top;}
table.tries td:not(:last-child), table.tries th {white-space: nowrap;}
</style>
"""


def chips(
    symbols: Iterable[str], highlight: Iterable[str] = (), markers: Iterable[str] = ()
) -> str:
    """Symbols as HTML chips; highlighted ones red with a double outline (and "new symbol"
    for a screen reader), markers grey, [UNK] dark."""
    highlight, markers = set(highlight), set(markers)
    parts = []
    for sym in symbols:
        cls = "chip"
        if sym == "[UNK]":
            cls += " unk"
        elif sym in highlight:
            cls += " new"
        elif sym in markers:
            cls += " marker"
        said = '<span class="sr-only"> (new symbol)</span>' if cls.endswith("new") else ""
        parts.append(f'<span class="{cls}">{html.escape(sym)}</span>{said}')
    return "".join(parts)


def show_chips(rows: str) -> None:
    st.markdown(CHIP_CSS + f'<div class="chips">{rows}</div>', unsafe_allow_html=True)


# --- pieces every merge lesson (BPE, WordPiece) shows the same way -------------------

TIES_HELP = (
    "first: the pair seen first in the corpus (reproduces the course material). "
    "lex: the alphabetically smallest pair. tokenizers: the pair with the oldest symbols, "
    "as Hugging Face tokenizers."
)
MARKERS = ("</w>", "\u2581")


def ties_select(col, rules: tuple[str, ...], default: str | None = None) -> str:
    """The tie rule box (`default`: the corpus's own rule, see corpus_setting)."""
    return choice_box(col, "tie rule", rules, "ties", default or rules[0], help=TIES_HELP)


def merges_input(col, default: int = 10) -> int:
    """The merges box (`default`: the corpus's own count, see corpus_setting)."""
    top = limits.limit("merges", "web")
    return int(number_box(col, "merges", "merges", 0, top, default, 1, limit_help("merges")))


def status_of(pair: tuple[str, str], chosen, tied) -> str:
    return "merged" if pair == chosen else "tied" if pair in tied else ""


# the status column wide enough for "merged" and "pruned" in bold, however narrow the
# table, and pinned at the left beside the key column: a phone shows both (issue 25)
STATUS_COLUMN = {"status": st.column_config.TextColumn("status", width=90, pinned=True)}
STATUS_CSS = {
    "merged": "background-color: #ffd6d6; font-weight: bold",
    "pruned": "background-color: #ffd6d6; font-weight: bold",
    "tied": "background-color: #ffe8cc",
}


def style_status(df: pd.DataFrame):
    """Merged (or pruned) rows red, tied rows orange (the whole table styled at once: a
    function per row costs some 0.3 ms a row, a third of a second for a big vocabulary)."""

    def paint(table: pd.DataFrame) -> pd.DataFrame:
        css = table["status"].map(STATUS_CSS).fillna("").astype(object)
        return pd.DataFrame({column: css for column in table.columns}, index=table.index)

    return df.style.apply(paint, axis=None)


def show_corpus(rows, total_words: int, highlight: set[str]) -> None:
    """Each word as chips with its count; the newest symbol highlighted."""
    # the last chip and the count stay together ("##er × 1"), never a count alone on a line
    lines = [
        f'<div class="word">{chips(seg[:-1], highlight, MARKERS)}<span class="tail">'
        f'{chips(seg[-1:], highlight, MARKERS)} <small class="count" aria-hidden="true">×&nbsp;'
        f'{count}</small><span class="sr-only">, {count} time{"" if count == 1 else "s"}</span>'
        "</span></div>"
        for _word, count, seg in rows
    ]
    show_chips("".join(lines))
    if total_words > len(rows):
        st.caption(f"The first {len(rows)} of {total_words:,} distinct words.")


def show_vocab(vocab, highlight: set[str]) -> None:
    shown = vocab if len(vocab) <= 300 else vocab[:60] + vocab[-240:]
    show_chips(chips(shown, highlight, MARKERS))
    if len(vocab) > len(shown):
        st.caption(f"{len(vocab):,} symbols: the first 60 and the newest 240 are shown.")


def growth_frame(trace) -> pd.DataFrame:
    """Vocabulary size and corpus length before the first step and after each one."""
    rows = [
        {
            "step": 0,
            "vocab_size": len(trace.start.vocab),
            "corpus_symbols": trace.start.corpus_symbols,
        }
    ]
    rows += [
        {"step": s.number, "vocab_size": s.vocab_size, "corpus_symbols": s.corpus_symbols}
        for s in trace.steps
    ]
    return pd.DataFrame(rows)


def growth_chart(trace, i: int) -> None:
    """Vocabulary size against corpus length over the whole run, step i marked."""
    st.subheader("Vocabulary grows, the corpus shrinks")
    cached.chart(
        run_key(trace), ("growth",), lambda: viz.vocab_growth_chart(growth_frame(trace), i), i
    )


def predict_panel(trace, i: int, judge: Callable, pair_text: Callable, prefix: str) -> None:
    """The student picks the pair merged next; `judge(guess, step)` says right or wrong."""
    st.subheader("Predict the next merge")
    if i >= len(trace.steps):
        st.write("This was the last merge: nothing left to predict.")
        return
    nxt = trace.steps[i]
    options = sorted({(row[0], row[1]) for row in nxt.pair_table})
    guess = st.selectbox(
        f"Look at the corpus after merge {i}: which pair will merge next?",
        options,
        index=None,
        format_func=pair_text,
        key=widget_key(prefix, f"guess_{i}"),
        placeholder="pick a pair",
    )
    if guess is not None:
        right, why = judge(guess, nxt)
        (st.success if right else st.warning)(why)


def downloads(
    trace,
    prefix: str,
    csv: tuple[str, Callable] = ("merges (CSV)", export.steps_csv),
    full: bool | None = None,
) -> None:
    """A CSV of the steps (`csv`: its button label and writer) and the trace as JSON (the
    full snapshots unless the trace is compact, or as `full` says), written only when a
    button is clicked."""
    st.subheader("Download")
    left, right = st.columns(2)
    label, write = csv
    left.download_button(
        label,
        lambda: write(trace),
        f"{prefix}_{label.split()[0]}.csv",
        "text/csv",
        key=widget_key(prefix, "dl_csv"),
        on_click="ignore",
    )
    right.download_button(
        "whole trace (JSON)",
        lambda: export.trace_to_json(trace, full=not trace.compact if full is None else full),
        f"{prefix}_trace.json",
        "application/json",
        key=widget_key(prefix, "dl_json"),
        on_click="ignore",
    )


PRESENT_ROWS = 12  # the rows of a step's table shown at the projector


def status_table(frame: pd.DataFrame, height, column_config=None, precision: int = 4):
    """A step's table, merged (or pruned) rows red and tied rows orange: at a desk all of
    it, scrolling (st.dataframe); at the projector (presenter mode) its first rows as a
    plain table in the page's large type, floats to `precision` places (st.dataframe
    draws on a canvas in a small type of its own, deaf to the page's font size)."""
    status = "status" in frame.columns  # a table without one is drawn the same way, plain
    if presenting():
        shown = frame.head(PRESENT_ROWS)
        styled = style_status(shown) if status else shown.style
        st.table(styled.format(precision=precision), hide_index=True)
        if len(frame) > PRESENT_ROWS:
            st.caption(f"The first {PRESENT_ROWS} of {len(frame):,} rows.")
        return
    config = {**pinned_key(frame), **(column_config or {}), **(STATUS_COLUMN if status else {})}
    shown = style_status(frame) if status else frame
    st.dataframe(shown, hide_index=True, height=height, column_config=config)


def pinned_key(frame: pd.DataFrame) -> dict:
    """The column config that pins a table's first column, its key (the pair, the piece,
    the word): it stays in sight while the other columns scroll, as on a 390 px phone."""
    if frame.columns.empty:
        return {}
    first = frame.columns[0]
    return {first: st.column_config.Column(pinned=True)}


def table_panel(title: str, note: str, table: pd.DataFrame, trace, chart, **options) -> None:
    """The pair table of a step (merged and tied rows colored) and its bar chart."""
    st.subheader(title)
    if trace.compact:
        st.caption(note)
    status_table(table, min(420, 38 + 35 * len(table)), **options)
    if len(table):
        cached.altair(chart)


def pair_counts_panel(trace, i: int, step, label: Callable[[tuple[str, str]], str]) -> None:
    """The pair counts before merge i (BPE, byte-level BPE), each pair written by `label`:
    the merged pair red, the pairs tied with it orange, then the chart."""
    record = trace.start if step is None else step
    chosen, tied = (None, ()) if step is None else (step.pair, step.tied_with)
    rows = [
        {"pair": label((a, b)), "count": count, "status": status_of((a, b), chosen, tied)}
        for a, b, count in record.pair_table
    ]
    table = pd.DataFrame(rows, columns=["pair", "count", "status"])
    table_panel(
        "Pair counts" + (f" before merge {i}" if i else ""),
        "On a real sample only the most frequent pairs are kept per step.",
        table,
        trace,
        viz.pair_count_chart(table),
    )


def corpus_and_vocab(trace, i: int, highlight: set[str], algo) -> None:
    """The corpus after step i and the vocabulary, read from `algo` (bpe or wordpiece);
    drawn once per run and step (`highlight` is the step's new symbol)."""

    def draw() -> None:
        st.subheader("Corpus" + (f" after merge {i}" if i else ""))
        show_corpus(algo.corpus_at(trace, i), len(trace.start.words), highlight)
        vocab = algo.model_from_trace(trace, i).vocab
        st.subheader(f"Vocabulary ({len(vocab):,} symbols)")
        show_vocab(vocab, highlight)

    cached.drawn(run_key(trace), (algo.__name__, "corpus", i, tuple(sorted(highlight))), draw)
