"""The SaGe page's "One token up close": a candidate of a step, a sentence with and without
it, and the loss change; the sample as the steps of a run found it, made once per run and
step from the nearest earlier one."""

from __future__ import annotations

import threading

import streamlit as st

from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.store import derived
from subtok_core import sage
from subtok_core.sage import explain as sage_explain
from subtok_core.sage.loss import PairLoss
from subtok_core.shapes import such_that

PAGE = "sage"


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
    count = len(trace.steps[step - 1].candidates)  # the candidates the page lists
    shape = such_that(int, lambda first: 0 <= first < count, f"is no index of {count} candidates")
    return derived(("sage first used", run, step), compute, shape)


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

    return derived(("sage close-up", run, step, piece, sentence), compute, sage.CloseUp)


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
        f"**{plain(piece)}**: ablation loss {up.loss:,.3f} over every sentence that uses it "
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
        ex.before, ex.before_windows, ex.before_targets, strong, as_text
    )
    after = sage_explain.bracketed(ex.after, ex.after_windows, ex.after_targets, strong, as_text)
    st.markdown(
        f'<div style="font-family:monospace;font-size:1.05rem;line-height:1.8">'
        f"<p>with {as_text(up.piece)}: {before}</p><p>without it: {after}</p></div>",
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
