"""The BPE lesson: step through merges on a corpus, then replay them on a new word."""

from __future__ import annotations

import functools
import html
import inspect

import streamlit as st

from lessons import _cached as cached
from lessons import _export, _poll, _regularize
from lessons._chips import MARKERS, chips, show_chips
from lessons._corpus import corpus_label, corpus_select, corpus_setting, punct_on, settings_caption
from lessons._export import downloads
from lessons._keys import widget_key
from lessons._merge_lesson import (
    corpus_and_vocab,
    growth_chart,
    merges_input,
    pair_counts_panel,
    predict_panel,
    ties_select,
)
from lessons._present import end_of_step_view, page_head, settings_row
from lessons._steps import corpus_trace, lazy_expander, stepped
from lessons._store import fingerprint, run_key, trace_store
from lessons._url import choice_box
from subtok_core import bpe
from subtok_core.bpe import explain_bpe_start, explain_bpe_step, judge_guess, reference
from subtok_core.explain import pair_text

MARKER_HELP = (
    "none: plain characters (001). eow: a separate </w> after each word (003, 004). "
    "suffix: </w> glued to the last character (Hugging Face tokenizers). "
    "sow: a ▁ before each word (SentencePiece)."
)


@st.cache_data(show_spinner=False)
def reference_source() -> str:
    """The textbook loop the property tests hold the fast trainer to, as source text."""
    parts = (reference.count_pairs, reference.merge_pair, reference.learn_merges)
    return "\n\n".join(inspect.getsource(part) for part in parts)


def trained(wc, corpus_print: str, marker: str, ties: str, merges: int):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return trace_store().trained(
        fingerprint("bpe", corpus_print, marker, ties, merges),
        lambda report: bpe.trace_bpe(wc, merges=merges, marker=marker, ties=ties, progress=report),
        "Learning merges:",
    )


def encode_panel(trace, i: int) -> None:
    st.subheader("Encode a word")
    st.caption("The merges learned so far are replayed in the order they were learned.")
    example = corpus_setting(name, "encode", "lowest", widget_key("bpe", "encode"))
    text = st.text_input("word or words to encode", example, key=widget_key("bpe", "encode"))
    model = bpe.model_from_trace(trace, i, split_punct=punct_on("bpe"))
    try:
        seg = bpe.segment(model, text)
    except ValueError as err:
        st.error(str(err))
        return
    for word in seg.words:
        lines = [
            f"<div><b>{html.escape(word.word)}</b>: start {chips(word.initial, (), MARKERS)}</div>"
        ]
        for number, pair, symbols in word.applied:
            lines.append(
                f"<div>merge {number} {html.escape(pair_text(pair))} → "
                f"{chips(symbols, {pair[0] + pair[1]}, MARKERS)}</div>"
            )
        if not word.applied:
            lines.append("<div>no learned merge applies</div>")
        show_chips("".join(lines))
    if any(t.text == bpe.UNK for t in seg.tokens):
        st.info(
            "[UNK] stands for a character never seen in training: BPE cannot build it "
            "from the vocabulary, so each such character becomes one unknown token."
        )
    st.write(f"**{len(seg.tokens)} tokens:** " + " ".join(f"`{t.text}`" for t in seg.tokens))


page_head(
    "Byte-pair encoding",
    "BPE starts from single characters and, step by step, merges the pair of adjacent "
    "symbols that occurs most often in the corpus (Sennrich et al., 2016; the worked "
    "examples are from 001, 003 and 004 of the course material).",
)

row = settings_row("bpe")
c1, c2, c3, c4 = row.columns([3, 1, 1, 1])
name = corpus_select(c1)
marker = choice_box(
    c2,
    "word-boundary marker",
    bpe.MARKERS,
    "marker",
    corpus_setting(name, "marker", bpe.MARKERS[0]),  # the corpus's source's, else none
    help=MARKER_HELP,
)
ties = ties_select(c3, bpe.TIE_RULES, corpus_setting(name, "ties", bpe.TIE_RULES[0]))
merges = merges_input(c4, corpus_setting(name, "merges", 10))
settings_caption(c1, name, marker=marker, ties=ties)
row.note(corpus_label(name), f"marker {marker}", f"ties {ties}", f"{merges} merges")

wc, _, trace = corpus_trace(
    name,
    "bpe",
    lambda wc, corpus_print: trained(wc, corpus_print, marker, ties, merges),
    algorithm="bpe",
    size=merges,  # close enough to the vocab size for the upload's time estimate
    row=row,
)


def step_view(i: int, step) -> None:
    """Everything that shows step i (rerun alone when the step changes: stepped)."""
    if step is None:
        st.info(explain_bpe_start(trace.start, marker))
        highlight = set()
    else:
        st.info(explain_bpe_step(step, ties))
        highlight = {step.new_symbol}

    left, right = st.columns([2, 3])
    with left:  # the pair counts, table and chart (drawn once per run and step)
        pairs = functools.partial(pair_counts_panel, trace, i, step, pair_text)
        cached.drawn(run_key(trace), ("bpe pairs", i), pairs)
    with right:
        corpus_and_vocab(trace, i, highlight, bpe)

    class_poll = _poll.class_poll("bpe", trace, i, "everyone predicts the next merge")

    end_of_step_view(class_poll)
    growth_chart(trace, i)

    p1, p2 = st.columns(2)
    with p1:
        predict_panel(trace, i, lambda guess, nxt: judge_guess(guess, nxt, ties), pair_text, "bpe")
    with p2:
        encode_panel(trace, i)

    with lazy_expander("BPE-dropout: the same word cut differently", "bpe", "dropout") as box:
        if box.open:
            model = bpe.model_from_trace(trace, i, split_punct=punct_on("bpe"))
            _regularize.dropout_panel(model, "bpe")


stepped(trace, step_view, "bpe")
downloads(trace, "bpe")
_export.hf_download(
    lambda: bpe.model_from_trace(trace, split_punct=punct_on("bpe")),
    "bpe",
    "hf",
    _export.run_ident(trace),
)

with st.expander("Read the code: BPE as a textbook loop"):
    st.caption(
        "The loop below recounts every pair before every merge. The page's trainer keeps the "
        "counts up to date instead (much faster on real samples); the tests check on "
        "thousands of random corpora that both make the same merges with the same counts, "
        "under every tie rule and marker."
    )
    st.code(reference_source(), language="python")
