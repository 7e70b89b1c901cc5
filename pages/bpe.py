"""The BPE lesson: step through merges on a corpus, then replay them on a new word."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from pages import _widgets as w
from subtok_core import bpe, export, viz
from subtok_core.explain import explain_bpe_start, explain_bpe_step, judge_guess, pair_text

MARKER_HELP = (
    "none: plain characters (001). eow: a separate </w> after each word (003, 004). "
    "suffix: </w> glued to the last character (Hugging Face tokenizers). "
    "sow: a ▁ before each word (SentencePiece)."
)
TIES_HELP = (
    "first: the pair seen first in the corpus (reproduces the course material). "
    "lex: the alphabetically smallest pair. tokenizers: the pair with the oldest symbols, "
    "as Hugging Face tokenizers' BpeTrainer."
)


def trained(wc, marker: str, ties: str, merges: int):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return w.trace_store().get(
        ("bpe", wc, marker, ties, merges),
        lambda report: bpe.trace_bpe(wc, merges=merges, marker=marker, ties=ties, progress=report),
        "Learning merges:",
    )


def punct_on() -> bool:
    """Whether the corpus was pre-tokenized with punctuation split off (toys never are)."""
    return not w.corpus.is_toy(st.session_state.get("corpus", "")) and bool(
        st.session_state.get("bpe_punct", False)
    )


def pair_frame(table, chosen=None, tied=()) -> pd.DataFrame:
    tied = set(tied)
    rows = []
    for a, b, count in table:
        status = "merged" if (a, b) == chosen else "tied" if (a, b) in tied else ""
        rows.append(
            {"pair": pair_text((a, b)), "left": a, "right": b, "count": count, "status": status}
        )
    return pd.DataFrame(rows, columns=["pair", "left", "right", "count", "status"])


def style_pairs(df: pd.DataFrame):
    colors = {
        "merged": "background-color: #ffd6d6; font-weight: bold",
        "tied": "background-color: #ffe8cc",
    }
    return df.style.apply(lambda row: [colors.get(row["status"], "")] * len(row), axis=1)


def show_corpus(trace, i: int, highlight: set[str], marker_syms: set[str]) -> None:
    rows = bpe.corpus_at(trace, i)
    lines = [
        f'<div class="word">{w.chips(seg, highlight, marker_syms)} <small>× {count}</small></div>'
        for _word, count, seg in rows
    ]
    w.show_chips("".join(lines))
    if len(trace.start.words) > len(rows):
        st.caption(f"The first {len(rows)} of {len(trace.start.words):,} distinct words.")


def show_vocab(trace, i: int, highlight: set[str], marker_syms: set[str]) -> None:
    vocab = bpe.model_from_trace(trace, i, split_punct=punct_on()).vocab
    shown = vocab if len(vocab) <= 300 else vocab[:60] + vocab[-240:]
    w.show_chips(w.chips(shown, highlight, marker_syms))
    if len(vocab) > len(shown):
        st.caption(f"{len(vocab):,} symbols: the first 60 and the newest 240 are shown.")


def growth_frame(trace) -> pd.DataFrame:
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


def predict_panel(trace, i: int, ties: str) -> None:
    st.subheader("Predict the next merge")
    if i >= len(trace.steps):
        st.write("This was the last merge: nothing left to predict.")
        return
    nxt = trace.steps[i]
    options = sorted({(a, b) for a, b, _ in nxt.pair_table})
    guess = st.selectbox(
        f"Look at the corpus after merge {i}: which pair will merge next?",
        options,
        index=None,
        format_func=pair_text,
        key=f"bpe_guess_{i}",
        placeholder="pick a pair",
    )
    if guess is not None:
        right, why = judge_guess(guess, nxt, ties)
        (st.success if right else st.warning)(why)


def encode_panel(trace, i: int, marker_syms: set[str]) -> None:
    st.subheader("Encode a word")
    st.caption("The merges learned so far are replayed in the order they were learned.")
    text = st.text_input("word or words to encode", "lowest", key="bpe_encode")
    model = bpe.model_from_trace(trace, i, split_punct=punct_on())
    try:
        seg = bpe.segment(model, text)
    except ValueError as err:
        st.error(str(err))
        return
    for word in seg.words:
        lines = [
            f"<div><b>{html.escape(word.word)}</b>: start "
            f"{w.chips(word.initial, (), marker_syms)}</div>"
        ]
        for number, pair, symbols in word.applied:
            lines.append(
                f"<div>merge {number} {html.escape(pair_text(pair))} → "
                f"{w.chips(symbols, {pair[0] + pair[1]}, marker_syms)}</div>"
            )
        if not word.applied:
            lines.append("<div>no learned merge applies</div>")
        w.show_chips("".join(lines))
    if any(t.text == bpe.UNK for t in seg.tokens):
        st.info(
            "[UNK] stands for a character never seen in training: BPE cannot build it "
            "from the vocabulary, so each such character becomes one unknown token."
        )
    st.write(f"**{len(seg.tokens)} tokens:** " + " ".join(f"`{t.text}`" for t in seg.tokens))


w.ensure_navigation()
st.title("Byte-pair encoding")
st.write(
    "BPE starts from single characters and, step by step, merges the pair of adjacent "
    "symbols that occurs most often in the corpus (Sennrich et al., 2016; the worked "
    "examples are from 001, 003 and 004 of the course material)."
)

c1, c2, c3, c4 = st.columns([3, 1, 1, 1])
name = c1.selectbox("corpus", w.corpus_options(), key="corpus", bind="query-params")
marker = c2.selectbox(
    "word-boundary marker", bpe.MARKERS, key="marker", help=MARKER_HELP, bind="query-params"
)
ties = c3.selectbox("tie rule", bpe.TIE_RULES, key="ties", help=TIES_HELP, bind="query-params")
merges = c4.number_input(
    "merges", min_value=0, max_value=20000, value=10, step=1, key="merges", bind="query-params"
)
c1.caption(w.corpus_label(name))

with st.expander("The corpus", expanded=not name.startswith("sample:")):
    wc = w.corpus_editor(name, "bpe")
if wc is None:
    st.stop()

try:
    trace = trained(wc, marker, ties, int(merges))
except ValueError as err:
    st.error(str(err))
    st.stop()

marker_syms = {bpe.EOW, bpe.SOW}
last = len(trace.steps)
if trace.truncated:
    st.warning(trace.stop_reason)
i = w.step_slider(last)
step = trace.steps[i - 1] if i else None

if step is None:
    st.info(explain_bpe_start(trace.start, marker))
    table, highlight = pair_frame(trace.start.pair_table), set()
else:
    st.info(explain_bpe_step(step, ties))
    table = pair_frame(step.pair_table, step.pair, step.tied_with)
    highlight = {step.new_symbol}

left, right = st.columns([2, 3])
with left:
    st.subheader("Pair counts" + (f" before merge {i}" if i else ""))
    if trace.compact:
        st.caption("On a real sample only the most frequent pairs are kept per step.")
    st.dataframe(
        style_pairs(table[["pair", "count", "status"]]),
        hide_index=True,
        height=min(420, 38 + 35 * len(table)),
    )
    if len(table):
        st.altair_chart(viz.pair_count_chart(table), width="stretch")
with right:
    st.subheader("Corpus" + (f" after merge {i}" if i else ""))
    show_corpus(trace, i, highlight, marker_syms)
    st.subheader(f"Vocabulary ({(step.vocab_size if step else len(trace.start.vocab)):,} symbols)")
    show_vocab(trace, i, highlight, marker_syms)

st.subheader("Vocabulary grows, the corpus shrinks")
st.altair_chart(viz.vocab_growth_chart(growth_frame(trace), i), width="stretch")

p1, p2 = st.columns(2)
with p1:
    predict_panel(trace, i, ties)
with p2:
    encode_panel(trace, i, marker_syms)

st.subheader("Download")
d1, d2 = st.columns(2)
# files are built only when a button is clicked: a long trace takes a second to write
d1.download_button(
    "merges (CSV)",
    lambda: export.merges_csv(trace),
    "bpe_merges.csv",
    "text/csv",
    key="bpe_dl_csv",
    on_click="ignore",
)
d2.download_button(
    "whole trace (JSON)",
    lambda: export.trace_to_json(trace, full=not trace.compact),
    "bpe_trace.json",
    "application/json",
    key="bpe_dl_json",
    on_click="ignore",
)
