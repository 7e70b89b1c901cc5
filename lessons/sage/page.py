"""The SaGe lesson: prune a BPE vocabulary by a skipgram context loss (the SaGe paper,
Yehezkel & Pinter, 2023; course material 000)."""

from __future__ import annotations

import streamlit as st

from lessons.sage import closeup, latest, views
from lessons.sage import paper as paper_views
from lessons.sage import results as outcome
from lessons.sage import runs as sage_runs
from lessons.sage.controls import PAGE, sample_controls, settings_controls
from lessons.ui import cached
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from lessons.ui.present import page_head, settings_row
from lessons.ui.store import fingerprint, run_key
from subtok_core import sage


def run(sentences, key: str, s: sage.SageSettings):
    """SaGe's run from the store, or computed now with a status box and a Stop button;
    its controls start beside it in worker processes of their own, and control_runs waits
    for them. A second session asking for a run under way waits for it and sees its
    progress."""
    wanted = sage_runs.plan(sentences, key, s, outcome.RANDOM_SEEDS)
    sage_key = next(iter(wanted))
    found = sage_runs.follow(wanted, [sage_key], "SaGe", "run")
    return None if found is None else found[sage_key]


def control_runs(sentences, key: str, settings: sage.SageSettings):
    """The controls on SaGe's schedule: frequency, and random with RANDOM_SEEDS seeds from
    settings.seed on, computed at once (run started them); None after Stop."""
    wanted = sage_runs.plan(sentences, key, settings, outcome.RANDOM_SEEDS)
    keys = list(wanted)[1:]  # SaGe's own run is done
    found = sage_runs.follow(wanted, keys, "the controls", "controls")
    if found is None:
        return None
    frequency, *randoms = (found[k] for k in keys)
    return {"frequency": frequency, "random": randoms[0]}, randoms


def stopped_log(sentences, key: str, settings: sage.SageSettings, part: str) -> None:
    """After Stop: how many steps were finished and kept, their log, and "Run again". `part`
    says which runs were stopped: SaGe's own ("run") or its controls ("controls", SaGe's
    run being complete; the log kept is the frequency control's)."""
    wanted = list(sage_runs.plan(sentences, key, settings, outcome.RANDOM_SEEDS))
    steps, total = sage_runs.kept_steps(wanted[0 if part == "run" else 1])
    if steps:
        st.warning(
            f"Stopped during step {len(steps) + 1} of {total}: the {len(steps)} finished "
            f"{'step is' if len(steps) == 1 else 'steps are'} kept below."
        )
    else:
        st.warning("Stopped before the first step finished.")
    if part == "controls":
        st.caption(
            "SaGe's own run is complete (the other tabs); the controls (frequency pruning, "
            "and random pruning over several seeds) were stopped."
        )
    st.button(
        "Run again",
        icon=":material/replay:",
        key=widget_key(PAGE, f"run_again_{part}"),
        on_click=sage_runs.run_again,
        help="Runs again from the start with the same settings (a stopped run cannot be "
        "resumed where it stopped; the same settings give the same steps).",
    )
    if steps:
        views.step_table(steps)


page_head(
    "SaGe: context-aware vocabulary pruning",
    "SaGe (Yehezkel & Pinter, 2023: the SaGe paper) starts from a BPE vocabulary n times "
    "too big and prunes, step by step, the pieces whose removal raises a skipgram context "
    "loss (eq. 1) least: every token should predict the tokens around it. Here it runs on a "
    "small real sample; the paper ran on 750,000 lines of Wikipedia.",
)
row = settings_row("sage")
chosen = sample_controls(row)
if chosen is None:
    st.stop()
sentences, sample_key, sample_name = chosen
settings = settings_controls(row)
try:
    sage.check_settings(settings)
    trace = run(sentences, sample_key, settings)
except ValueError as err:
    st.error(plain(str(err)))
    st.stop()
if trace is None:
    stopped_log(sentences, sample_key, settings, "run")
    st.stop()
latest.remember(sage.model_from_trace(trace), sample_name, settings.vocab_size)  # for Compare
log_tab, token_tab, paper_tab, result_tab = st.tabs(
    ["Step log", "One token up close", "Paper vs this run", "BPE vs SaGe"]
)
run_id = run_key(trace) or fingerprint(sample_key, trace)  # names the trace and sample
with log_tab:
    step = views.step_log(trace)
with token_tab:
    closeup.drill_down(trace, sentences, run_id, step)
with paper_tab:  # before the controls run: it needs SaGe's run only
    paper_views.paper_tab(sample_key, run_id, trace, sentences)
with result_tab:
    try:
        ran = control_runs(sentences, sample_key, settings)
    except ValueError as err:
        st.error(plain(str(err)))
        st.stop()
    if ran is None:
        stopped_log(sentences, sample_key, settings, "controls")
        st.stop()
    # drawn once per run: the controls and the sample follow from the run's settings (the
    # spinner shows only when it takes a while: when the measures are computed)
    with st.spinner("Tokenizing the sample with each vocabulary ..."):
        cached.drawn(
            run_key(trace),
            ("sage results",),
            lambda: outcome.results(trace, *ran, sentences, sample_key),
        )
