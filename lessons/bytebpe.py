"""The byte-level BPE lesson: a regular expression cuts the text into chunks, then BPE
merges UTF-8 bytes, step by step; the encoder replays merges rank by rank, also with
GPT-4's cl100k_base."""

from __future__ import annotations

import streamlit as st

from lessons import _bytebpe_replay as replay
from lessons import _bytebpe_views as views
from lessons import _cached as cached
from lessons._corpus import TEXT, UPLOAD, corpus_select
from lessons._export import downloads
from lessons._merge_lesson import growth_chart, merges_input, predict_panel, ties_select
from lessons._present import end_of_step_view, page_head, presenting, settings_row
from lessons._steps import stepped
from lessons._store import fingerprint, run_key, trace_store
from lessons._url import choice_box
from subtok_core import bytebpe
from subtok_core.bytebpe import io as bytebpe_io
from subtok_core.merging import TIE_RULES

PAGE = views.PAGE
PATTERN_HELP = (
    "gpt2: GPT-2's regular expression (a space stays with the word after it). cl100k: "
    "GPT-4's (numbers in groups of three). none: words split at whitespace, which is dropped."
)


def trained(lines, corpus_print: str, pattern: str, ties: str, merges: int):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return trace_store().trained(
        fingerprint(PAGE, corpus_print, pattern, ties, merges),
        lambda report: bytebpe.trace_bytebpe(
            lines, merges=merges, pattern=pattern, ties=ties, progress=report
        ),
        "Learning merges:",
    )


page_head(
    "Byte-level BPE",
    "GPT-2, GPT-4 and most models since train BPE on bytes, not characters: a regular "
    "expression first cuts the text into chunks, each chunk becomes its UTF-8 bytes (256 "
    "base symbols, so no character is ever unknown), and merges are learned on the chunks. "
    "An emoji is 4 bytes and a Chinese character 3, so they may take several tokens.",
)

PRESPLIT = "The pre-split"
row = settings_row(PAGE, views={PRESPLIT: ":material/content_cut:"})
c1, c2, c3, c4, c5 = row.columns([3, 1.2, 1, 1, 1.3])
name = corpus_select(c1, default="toy:emoji-cjk")
pattern = choice_box(
    c2, "pre-split pattern", bytebpe.PATTERNS, "pattern", "gpt2", help=PATTERN_HELP
)
ties = ties_select(c3, TIE_RULES)
merges = merges_input(c4)
style = choice_box(
    c5,
    "bytes shown as",
    bytebpe.STYLES,
    "bytes",
    "hex",
    format_func=views.DISPLAY_LABELS.get,
    help="text + <hex>: whole characters as themselves, any other byte as its hex value "
    "(<F0 9F> is half an emoji). GPT-2 letters: one letter per byte, as Hugging Face "
    "tokenizers writes merges (Ġ is a space, Ċ a line break).",
)

row.note(  # short: one line beside two buttons (the corpus's title is in the popover)
    name.split(":", 1)[-1] if name in (TEXT, UPLOAD) else name,
    f"pattern {pattern}",
    f"ties {ties}",
    f"{merges} merges",
    f"bytes as {views.DISPLAY_LABELS[style]}",
)
found = views.corpus_lines(name, row)
if found is None:
    st.stop()
lines, corpus_print = found
try:
    trace = trained(lines, corpus_print, pattern, ties, merges)
except ValueError as err:
    st.error(str(err))
    st.stop()

if not presenting():  # at the projector: the merges only; here one button (steps first)
    with row.views[PRESPLIT]:
        views.presplit_panel(lines, pattern, style)


def step_view(i: int, step) -> None:
    """Everything that shows step i (rerun alone when the step changes: stepped)."""
    st.info(bytebpe.explain(trace, i))
    new = set() if step is None else {step.new_symbol}

    left, right = st.columns([2, 3])
    with left:
        cached.drawn(
            run_key(trace), ("bytebpe pairs", i, style),
            lambda: views.pair_panel(trace, i, step, style),
        )  # fmt: skip
    with right:
        views.chunks_and_vocab(trace, i, new, style)

    end_of_step_view()
    growth_chart(trace, i)
    predict_panel(
        trace, i, lambda guess, nxt: bytebpe.judge_guess(guess, nxt, ties),
        lambda pair: views.pair_label(pair, style), PAGE,
    )  # fmt: skip

    replay.replay_panel(trace, i, style)

    model = bytebpe.model_from_trace(trace, i)
    with st.expander("BPE-dropout on bytes: the same text cut differently"):
        replay.dropout_panel(model, style)


stepped(trace, step_view, PAGE)

# the CSV writes bytes in the display chosen here; the JSON always in GPT-2 letters
downloads(trace, PAGE, csv=("merges (CSV)", lambda run: bytebpe_io.steps_csv(run, style)))
