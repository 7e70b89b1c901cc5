"""What only the Picky BPE page shows: IoS per part (the paper's "why"), the corpus after
a merge or a split, the prediction of a removal, and the encoder replaying events."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.chips import MARKERS, chips, show_chips, show_corpus, show_vocab
from lessons.ui.keys import widget_key
from lessons.ui.merge_lesson import pair_counts_panel, predict_panel
from lessons.ui.store import run_key
from lessons.ui.tables import status_table
from subtok_core import picky
from subtok_core.explain import pair_text

PAGE = "picky"
IOS_NOTE = (
    "IoS (intersection over self) = f(x1x2) / f(x): of the part's occurrences just before "
    "the merge, the share the merge took. A part whose IoS exceeds τ is removed; a single "
    "character never is."
)


def ios_frame(step, threshold: float) -> pd.DataFrame:
    """One row per part the step judged: the two counts, IoS as a fraction, the verdict
    in words."""
    new = step.symbol if step.kind == picky.MERGE else "merged"
    rows = [
        {
            "part": c.part,
            "status": "removed" if c.removed else "stays",
            f"f({new})": c.merged,
            "f(part) before": c.before,
            "IoS": f"{c.merged}/{c.before} = {c.ios:.3f}",
            f"IoS > {threshold:g}": (
                "yes" if c.ios > threshold and not c.atomic
                else "yes, but a character" if c.ios > threshold
                else "no"
            ),
        }
        for c in step.checks
    ]  # fmt: skip
    return pd.DataFrame(rows)


def ios_panel(trace, i: int, step) -> None:
    """Why the step's parts stay or go: IoS per part against τ (drawn once per step)."""
    threshold = trace.param("threshold")

    def draw() -> None:
        st.subheader(f"Why: IoS per part (τ = {threshold:g})")
        if step is None:
            st.caption(f"Each merge judges its two parts here. {IOS_NOTE}")
            return
        if step.kind == picky.SPLIT:
            st.caption(
                f"Merge {step.after} removed {step.symbol}: the check below. {step.symbol} "
                f"falls back to {' + '.join(step.parts)}, down the merges that made it."
            )
        else:
            st.caption(IOS_NOTE)
        frame = ios_frame(step, threshold)
        status_table(frame, 38 + 35 * len(frame), label=f"IoS per part, step {i}")

    cached.drawn(run_key(trace), ("picky ios", i), draw)


def pair_panel(trace, i: int, step) -> None:
    """Before a merge: the pair table it chose from (in tie order); at a split: what is cut."""
    if step is None or step.kind == picky.MERGE:
        pair_counts_panel(trace, i, step, pair_text)
        st.caption(
            f"Ties: {picky.TIE_RULE} (the reference's rule). Rows of equal count are in the "
            "order the pairs entered the table; the first of them is merged."
        )
        return
    st.subheader(f"Split {i}: {step.symbol} removed")
    show_chips(
        f"<div>{chips([step.symbol], (), MARKERS)} → "
        f"{chips(step.parts, set(step.parts), MARKERS)}</div>"
    )
    st.caption(
        f"A split chooses no pair: it follows merge {step.after}. "
        + (
            f"{step.count} occurrence{'s' if step.count != 1 else ''} of {step.symbol} "
            "were still in the corpus, each cut back."
            if step.count
            else f"No occurrence of {step.symbol} was left; only the vocabulary changes."
        )
    )


def removed_by(trace, i: int) -> list[str]:
    """The tokens out of the vocabulary after step i that a merge had made (in order)."""
    gone: dict[str, None] = {}
    for step in trace.steps[:i]:
        if step.kind == picky.SPLIT:
            gone[step.symbol] = None
        else:
            gone.pop(step.symbol, None)
    return list(gone)


def corpus_view(trace, i: int, step) -> None:
    """The corpus and the vocabulary after step i, a merge's new token marked (a split's
    parts are not: the same symbols stand elsewhere too); the tokens removed so far named
    (drawn once per step)."""
    mark = {step.symbol} if step is not None and step.kind == picky.MERGE else set()

    def draw() -> None:
        what = "" if step is None else f" after {step.kind} {i}"
        st.subheader("Corpus" + what)
        show_corpus(picky.corpus_at(trace, i), len(trace.start.words), mark)
        vocab = picky.model_from_trace(trace, i).vocab
        st.subheader(f"Vocabulary ({len(vocab):,} tokens)")
        show_vocab(vocab, mark)
        gone = removed_by(trace, i)
        if gone:
            st.caption("Removed so far (each may come back): " + ", ".join(gone[-40:]))

    cached.drawn(run_key(trace), ("picky corpus", i), draw)


def predict(trace, i: int) -> None:
    """Which pair merges next; right after a merge that removes a part, which part."""
    if i >= len(trace.steps) or trace.steps[i].kind == picky.MERGE:
        predict_panel(trace, i, picky.judge_guess, pair_text, PAGE)
        return
    st.subheader("Predict the removal")
    merge = trace.steps[trace.steps[i].after - 1]
    splits = []
    for later in trace.steps[i:]:
        if later.kind == picky.MERGE or later.after != merge.number:
            break
        splits.append(later)
    guess = st.selectbox(
        f"Merge {merge.number} made {merge.symbol}: which of its parts is removed?",
        list(dict.fromkeys(merge.parts)),
        index=None,
        key=widget_key(PAGE, f"removal_{i}"),
        placeholder="pick a part",
    )
    if guess is not None:
        right, why = picky.judge_removal(guess, tuple(splits))
        (st.success if right else st.warning)(why)


def encode_panel(model, example: str) -> None:
    """A word typed by the student, cut by replaying the events (merges and splits)."""
    st.subheader("Encode a word")
    st.caption("The events so far are replayed in order: each merge, and each split after it.")
    text = st.text_input("word or words to encode", example, key=widget_key(PAGE, "encode"))
    try:
        seg = picky.segment(model, text)
    except ValueError as err:
        st.error(str(err))
        return
    lines = []
    for word in seg.words:
        lines.append(
            f"<div><b>{html.escape(word.word)}</b>: start {chips(word.initial, (), MARKERS)}</div>"
        )
        for number, kind, symbol, symbols in word.applied[-12:]:
            lines.append(
                f"<div>{kind} {number} ({html.escape(symbol)}) → "
                f"{chips(symbols, {symbol} if kind == picky.MERGE else set(), MARKERS)}</div>"
            )
        if not word.applied:
            lines.append("<div>no event changes it</div>")
    show_chips("".join(lines))
    st.write(f"**{len(seg.tokens)} tokens:** " + " ".join(f"`{t.text}`" for t in seg.tokens))
