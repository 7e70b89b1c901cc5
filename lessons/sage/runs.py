"""SaGe's runs on the SaGe page: SaGe and its controls at once, in worker processes.

The page asks for SaGe's run first and for the controls (frequency, random with several
seeds) after drawing the step log; all of them start together, SaGe's first, so the
controls use the other cores while SaGe runs (subtok_core.batch, subtok_core.parallel). The
runs are kept in the server-wide store (single flight, the byte budget, the disk copy);
the session keeps its runs under way between two script runs, so a click on the step log
while the controls run does not start them again.
"""

from __future__ import annotations

import time
from dataclasses import asdict, replace

import streamlit as st

from lessons.ui.keys import widget_key
from lessons.ui.store import trace_store
from subtok_core import batch, parallel, sage
from subtok_core.parallel import Cancelled
from subtok_core.sage import worker as sage_worker

PAGE = "sage"
RUNS = widget_key(PAGE, "runs")  # this session's runs under way (subtok_core.batch.Runs)


def plan(sentences, key: str, s: sage.SageSettings, seeds: int) -> dict:
    """SaGe's run and its controls as the store keeps them, {key: (computation, label)}:
    SaGe first, then the frequency control, then the random one with `seeds` seeds from
    s.seed on. Each is computed in a worker process (subtok_core.parallel)."""
    order = [(None, s), ("frequency", s)]
    order += [("random", replace(s, seed=s.seed + slot)) for slot in range(seeds)]
    runs = {}
    for control, settings in order:
        full_key = ("sage", key, tuple(asdict(settings).items()), control)
        label = "SaGe" if control is None else f"{control} pruning (seed {settings.seed})"
        runs[full_key] = computation(sentences, settings, control), label
    return runs


def computation(sentences, s: sage.SageSettings, control: str | None):
    """How the store computes one run: in a worker process, reporting its phases, their
    progress and each finished step (sage.worker.trace_reported)."""
    return lambda report: parallel.run(
        sage_worker.trace_reported, sentences, s, control, report=report
    )


def session_runs(wanted: dict) -> batch.Runs:
    """This session's runs under way, all of `wanted` at once: SaGe's run first, its
    controls beside it on the other cores. Started again when the settings change (the
    old runs are cancelled) or after Stop."""
    runs = st.session_state.get(RUNS)
    if runs is None or runs.cancelled or runs.keys != set(wanted):
        if runs is not None:
            runs.cancel()
        computes = {k: compute for k, (compute, _) in wanted.items()}
        labels = {k: label for k, (_, label) in wanted.items()}
        runs = st.session_state[RUNS] = batch.Runs(trace_store(), computes, labels, step_of)
    return runs


def step_of(values: tuple):
    """What a run's report carries that Stop must keep: a finished step with the number of
    steps the run needs, (step, total); None for any other report (sage.worker)."""
    if len(values) > 3 and values[3] is not None:
        return values[3], values[1]
    return None


STOPPED = widget_key(PAGE, "stopped")  # session: the runs Stop ended (their keys), to Run again


def run_again() -> None:
    """The "Run again" button's callback: the page starts the stopped runs anew."""
    st.session_state.pop(STOPPED, None)


def kept_steps(key) -> tuple[list, int]:
    """The steps of run `key` finished before Stop, and how many the run needed (0: not
    known, no step had finished)."""
    runs = st.session_state.get(RUNS)
    kept = [] if runs is None else runs.kept.get(key, [])
    return [step for step, _ in kept], (kept[-1][1] if kept else 0)


def follow(wanted: dict, keys: list, what: str, part: str) -> dict | None:
    """The runs of `keys` (some of `wanted`) from the store, or waited for in a status box
    with a moving bar each (the phase, its progress, the time so far) and a Stop button
    (`part` names it). None after Stop, and on every run of the page after it until "Run
    again" (run_again): every run of the session is cancelled, and the steps each had
    finished are kept (kept_steps). Streamlit's own Stop (top right) ends the same way, a
    moment later (after_stop). A wait that ends with every run done runs the page again,
    which then finds them in the store."""
    store = trace_store()
    found = {k: store.cached(k, wanted[k][1]) for k in keys}
    missing = [k for k in keys if found[k] is None]
    if not missing:
        return found
    if st.session_state.get(STOPPED) == set(wanted):
        return None  # stopped: the page shows the steps kept, until "Run again"
    stop = st.empty()
    help_text = "Stops the runs; the steps finished so far stay on the page."
    if stop.button("Stop", key=widget_key(PAGE, f"stop_{part}"), help=help_text):
        stop.empty()  # the run has stopped: no Stop button any more
        if RUNS in st.session_state:
            st.session_state[RUNS].cancel()
        st.session_state[STOPPED] = set(wanted)
        return None
    runs = session_runs(wanted)
    ended = {"how": "waiting"}  # how this wait ended, for the watcher (after_stop)
    after_stop(wanted, runs, ended)
    began = time.monotonic()
    box = st.empty()  # the status box, gone once the runs are done (the page shows them)
    try:
        with box.status(f"Running {what} ...", expanded=True) as status:
            bars = {k: st.progress(0.0, text=wanted[k][1]) for k in missing}

            def show(k, done: int = 0, total: int = 0, text: str = "", step=None) -> None:
                seconds = time.monotonic() - began
                line = f"{wanted[k][1]}: {text or 'starting'}"
                line += f", {done:,} of {total:,}" if total else ""
                bars[k].progress(min(1.0, done / max(total, 1)), text=f"{line} ({seconds:.0f} s)")

            try:
                found.update(runs.wait(missing, show))
            except ValueError:  # the page shows the message; the box must not spin on
                stop.empty()
                failed = f"{what[:1].upper()}{what[1:]} could not run"
                status.update(label=failed, state="error", expanded=False)
                raise
    except Exception:
        ended["how"] = "failed"  # the page says why
        raise
    except BaseException:
        # Streamlit ended this script run: its own Stop, or a click that reruns the page.
        # Every st call raises from here on (session state too), so the watcher, on a run
        # of its own, draws what Stop leaves (runs.wait has cancelled the runs already)
        ended["how"] = "interrupted"
        raise
    ended["how"] = "done"
    # a new run of the page draws the runs found, and ends the watcher's clock (each
    # full run of the page stops the clocks of the fragments it does not draw)
    st.rerun()


WATCH_EVERY = 1.5  # seconds between two looks of the watcher after Streamlit's Stop


def after_stop(wanted: dict, runs: batch.Runs, ended: dict) -> None:
    """A fragment with a clock that, while the page waits, does nothing; once Streamlit's
    own Stop (top right) has ended the script run that waited, it leaves the page as the
    page's Stop does: the runs cancelled and marked stopped, and the page run again (it
    then says it was stopped, shows the finished steps and offers "Run again").

    Streamlit's Stop raises StopException at the script's next st call, and every st call
    after it raises too, so the stopped run itself cannot draw; nothing runs the page again
    until the student clicks. A fragment's `run_every` clock keeps ticking after Stop (the
    browser keeps it until the next full run of the page), and its run is a new script run.
    A click that reruns the whole page also ends the waiting run, but that new run starts
    the runs again (or finds them stopped) and ends the clock: the watcher then finds
    other runs, or the stop already marked, and does nothing."""

    @st.fragment(run_every=WATCH_EVERY)
    def watch() -> None:
        if ended["how"] != "interrupted" or st.session_state.get(RUNS) is not runs:
            return
        if st.session_state.get(STOPPED) == set(wanted):
            return
        if any(not isinstance(err, Cancelled) for err in runs.errors.values()):
            return  # a run failed: a new run of the page says why
        ended["how"] = "stopped"
        runs.cancel()
        st.session_state[STOPPED] = set(wanted)
        st.rerun(scope="app")

    watch()
