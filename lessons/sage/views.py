"""The SaGe page's step log: the step controls, the loss curve, the run in numbers, the
table of steps and the candidate set of the chosen step (one token up close: closeup.py)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.export import downloads
from lessons.ui.steps import step_slider
from lessons.ui.store import run_key
from lessons.ui.tables import STATUS_COLUMN, pinned_key, style_status
from subtok_core.charts import lessons as viz
from subtok_core.sage import explain as sage_explain

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


# px, the whole chart: the loss curve under the step's sentence on a 720 px projector (its
# title, x axis and legend take some 150 px; at 220 the curve had 60 and one y label)
CURVE_HEIGHT = 290
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
        return viz.loss_curve_chart(frame, i, title, colors=viz.SAGE_KINDS, height=CURVE_HEIGHT)

    cached.chart(run, ("sage loss",), curve, i)  # built once per run, step i ringed
    st.caption(
        "The loss is summed over every token and every context token within the window; "
        "it moves when the vocabulary changes (fewer, shorter pieces mean more tokens and "
        "more pairs) and jumps when the embeddings are retrained."
    )
    cols = st.columns(5)
    cols[0].metric("BPE pieces at the start", f"{len(start.vocab):,}")
    cols[1].metric(  # the label in a fifth of 1280 px: what is never pruned, in its help
        "never pruned",
        f"{start.protected:,}",
        help="Single characters and ▁ + one character: kept, so every word can still be spelled.",
    )
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
