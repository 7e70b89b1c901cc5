"""The SaGe page's views: the step log, one token up close, and the vocabularies compared."""

from __future__ import annotations

import html
import threading

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.export import downloads
from lessons.ui.keys import widget_key
from lessons.ui.steps import step_slider
from lessons.ui.store import derived, run_key
from lessons.ui.tables import STATUS_COLUMN, pinned_key, style_status
from subtok_core import sage
from subtok_core.charts import lessons as viz
from subtok_core.sage import explain as sage_explain
from subtok_core.sage.loss import PairLoss

PAGE = "sage"


def _kind(step) -> str:
    if step.retrained_embeddings:
        return "embeddings retrained"
    return "all losses recomputed" if step.recomputed_losses else "candidates only"


def step_frame(steps) -> pd.DataFrame:
    """One row per prune step (the table of the log and its CSV)."""
    return pd.DataFrame(
        [
            {
                "step": s.number,
                "vocab size after": s.vocab_size,
                "loss before the prune": s.loss,
                "recomputed": _kind(s),
                "tokens after": s.tokens,
                "pruned (ablation loss)": ", ".join(f"{p} ({v:,.1f})" for p, v in s.pruned),
            }
            for s in steps
        ]
    )


CURVE_HEIGHT = 220  # px: the loss curve under the step's sentence on a 720 px projector
LOSS = st.column_config.NumberColumn(format="%,.1f")  # shown rounded; the CSV keeps every digit


def step_table(steps) -> None:
    frame = step_frame(steps)
    config = {**pinned_key(frame), "loss before the prune": LOSS}
    st.dataframe(frame, hide_index=True, column_config=config)


def step_log(trace) -> int:
    """The step controls, the step's sentence and the loss curve first (the first screen at
    the projector), then the run in numbers, the table of steps, and the candidate set of
    the chosen step."""
    start, steps = trace.start, trace.steps
    i = step_slider(len(steps), key="step", label="step (0 = the whole run)")
    st.info(sage_explain.explain_step(trace, i))
    run = run_key(trace)

    def curve():
        frame = pd.DataFrame(
            {
                "step": [s.number for s in steps],
                "loss": [s.loss for s in steps],
                "kind": [_kind(s) for s in steps],
                "vocab size before": [s.vocab_size + len(s.pruned) for s in steps],
            }
        )
        title = "loss, eq. (1)"  # before the prune (the caption says); short: 220 px tall
        chart = viz.loss_curve_chart(frame, i, title, colors=viz.SAGE_KINDS)
        return chart.properties(height=CURVE_HEIGHT)

    cached.chart(run, ("sage loss",), curve, i)  # built once per run, step i ringed
    st.caption(
        "The loss is summed over every token and every context token within the window; "
        "it moves when the vocabulary changes (fewer, shorter pieces mean more tokens and "
        "more pairs) and jumps when the embeddings are retrained."
    )
    cols = st.columns(5)
    cols[0].metric("BPE pieces at the start", f"{len(start.vocab):,}")
    cols[1].metric("never pruned (characters, ▁ + character)", f"{start.protected:,}")
    cols[2].metric("prune steps", len(steps))
    cols[3].metric("tokens at the start", f"{start.tokens:,}")
    cols[4].metric(
        "tokens at the end",
        f"{steps[-1].tokens:,}",
        delta=f"{steps[-1].tokens - start.tokens:+,}",
        delta_color="off",
    )
    cached.drawn(run, ("sage steps",), lambda: step_table(steps))
    if i:
        cached.drawn(run, ("sage candidates", i), lambda: candidates(steps[i - 1]))
    downloads(
        trace,
        "sage",
        csv=("steps (CSV)", lambda t: step_frame(t.steps).to_csv(index=False)),
        full=True,
    )
    return i


def candidates(step) -> None:
    st.markdown(f"## Step {step.number}: the candidate set, lowest ablation loss first")
    pruned = {p for p, _ in step.pruned}
    table = pd.DataFrame(step.candidates, columns=["piece", "ablation loss"])
    table["status"] = ["pruned" if p in pruned else "" for p in table["piece"]]
    st.dataframe(
        style_status(table),
        hide_index=True,
        height=320,
        column_config={**pinned_key(table), **STATUS_COLUMN, "ablation loss": LOSS},
    )
    how = (
        "every piece's loss was recomputed"
        if step.recomputed_losses
        else "only the candidates kept from the last full recomputation were rescored"
    )
    st.caption(
        f"{len(step.candidates)} candidates: {how}. The {len(pruned)} red rows were "
        "pruned. A negative loss means the sample's loss falls without the piece."
    )


class _States:
    """The sample as the steps of one run found it, the last few asked for. A step is made
    from the nearest earlier one kept: a copy, less the pieces pruned in between (only the
    words that used them are cut again), instead of cutting every word of the sample."""

    KEPT = 3  # states of one run kept (a state of the Lee sample is some 9 MB)

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.states: dict[int, sage.SentenceCorpus] = {}

    def at(self, trace, sentences, step: int) -> sage.SentenceCorpus:
        with self.lock:
            if step in self.states:
                return self.states[step]
            earlier = max((s for s in self.states if s < step), default=None)
            base = None if earlier is None else self.states[earlier]
        with st.spinner("Re-tokenizing the sample at that step ..."):
            if base is None:
                state = sage.corpus_at(trace, sentences, step)
            else:  # what corpus_at gives: a word's greedy cut depends only on the vocab
                state = base.copy()
                gone = set(sage.vocab_after(trace, earlier - 1))
                gone -= set(sage.vocab_after(trace, step - 1))
                if gone:
                    state.remove([state.index[p] for p in gone])
        with self.lock:
            self.states[step] = state
            while len(self.states) > self.KEPT:
                del self.states[next(iter(self.states))]
        return state


@st.cache_resource(max_entries=2, show_spinner=False)  # 6 states at most, as 4 were before
def _run_states(run: str) -> _States:
    """The states of the run `run` (a fingerprint of the trace and its sample); shared by
    every session, and only read."""
    return _States()


def state_at(run: str, step: int, trace, sentences) -> sage.SentenceCorpus:
    """The sample as step `step` of the run `run` found it."""
    return _run_states(run).at(trace, sentences, step)


def _first_used(run: str, step: int, trace, sentences) -> int:
    """The first candidate of step `step` that a sentence uses, kept in the server-wide
    store and on disk (lessons.ui.store.derived), as the close-up below: the tab a link
    opens needs no re-cut sample on a restarted server."""
    compute = lambda: sage.first_used(trace, state_at(run, step, trace, sentences), step)  # noqa: E731
    return derived(("sage first used", run, step), compute)


@st.cache_resource(max_entries=2, show_spinner=False)
def _pair_loss(run: str, retrained: int, _trace) -> PairLoss:
    """The pair losses of the embeddings retrained at step `retrained` (1-based) of the run
    `run`, for every close-up until the next retraining (on Lee a table of some 10 MB)."""
    return PairLoss(_trace.steps[retrained - 1].embeddings)


def _close_up(run: str, step: int, piece: str, sentence, trace, sentences) -> sage.CloseUp:
    """One candidate's close-up (`sentence`: which of its sentences, None: the first), kept
    like _first_used. Read only."""

    def compute() -> sage.CloseUp:
        state = state_at(run, step, trace, sentences)
        retrained = [n for n, r in enumerate(trace.steps[:step], 1) if r.embeddings is not None]
        pair = _pair_loss(run, retrained[-1], trace) if retrained else None
        return sage.close_up(trace, state, step, piece, sentence, pair)

    return derived(("sage close-up", run, step, piece, sentence), compute)


def drill_down(trace, sentences, run: str, i: int) -> None:
    """A candidate of a step: a sentence with and without it, the windows around it in
    brackets (the pairs its removal changes; the paper's Table 2 is on the paper tab).
    `run` is the fingerprint of the trace and its sample that keys every cache here."""
    step = max(i, 1)
    record = trace.steps[step - 1]
    st.write(f"Step {step} (choose another in the step log). Pick a candidate of that step:")
    names = [p for p, _ in record.candidates]
    first = _first_used(run, step, trace, sentences)
    piece = st.selectbox("piece", names, index=first, key=widget_key(PAGE, "piece"))
    up = _close_up(run, step, piece, None, trace, sentences)
    st.write(
        f"**{piece}**: ablation loss {up.loss:,.3f} over every sentence that uses it "
        f"({'pruned' if up.pruned else 'kept'} at this step)."
    )
    if up.example is None:
        st.info(
            "No sentence uses this piece: greedy tokenization always finds a longer one, "
            "so removing it changes nothing (loss 0)."
        )
        return
    s = st.selectbox(
        "sentence",
        up.sentences,
        key=widget_key(PAGE, "sentence"),
        format_func=lambda n: " ".join(sentences[n])[:90],
    )
    if s != up.example.sentence:
        up = _close_up(run, step, piece, s, trace, sentences)
    show_close_up(up)


def show_close_up(up: sage.CloseUp) -> None:
    """The sentence with and without the piece, the windows in brackets, the losses."""
    ex, strong = up.example, ("<b>", "</b>")
    before = sage_explain.bracketed(
        ex.before, ex.before_windows, ex.before_targets, strong, html.escape
    )
    after = sage_explain.bracketed(
        ex.after, ex.after_windows, ex.after_targets, strong, html.escape
    )
    st.markdown(
        f'<div style="font-family:monospace;font-size:1.05rem;line-height:1.8">'
        f"<p>with {html.escape(up.piece)}: {before}</p><p>without it: {after}</p></div>",
        unsafe_allow_html=True,
    )
    c1, c2, c3 = st.columns(3)
    c1.metric("sentence loss with it", f"{ex.loss_before:,.3f}")
    c2.metric("without it", f"{ex.loss_after:,.3f}")
    c3.metric("change", f"{ex.change:+,.3f}")
    st.caption(
        f"Brackets: the window of {up.window} tokens on each side of the piece (bold), and of "
        "what replaces it. Every pair of tokens inside a window adds -log σ(E_T · E_C) both "
        "ways. A piece unused when Word2Vec was last trained has no vector; each of its "
        f"pairs costs {up.unseen_cost:.3f} per direction, the mean of the sample's pairs "
        "then. The paper's Table 2 looks from the other side, at a target whose window "
        "changes though the removed piece lies outside it: see the tab 'Paper vs this run'."
    )
