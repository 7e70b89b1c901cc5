"""Before a long run on an upload: roughly how long it will take, and a smaller slice.

The estimate comes from the core (subtok_core/estimate.py, figures measured by
bench/scaling.py); this piece only shows it. A page calls :func:`upload_notice` after an
upload is read and before it trains, and cuts the text to the lines it returns. Compare
names every tokenizer it trains, joined by commas: they are timed as it trains them, side
by side in worker processes, so the wait is the busiest processor's, not the sum.
"""

from __future__ import annotations

import logging

import streamlit as st

from lessons.ui.keys import widget_key
from subtok_core import estimate, parallel, registry
from subtok_core.corpus import WordCounts

LONG = 10.0  # seconds: above this the page says how long and offers a smaller slice
PARTS = (1, 2, 4, 8)  # all, the first 1/2, 1/4, 1/8 of the lines

log = logging.getLogger(__name__)


def _names(algorithm: str) -> list[str]:
    """'bpe' or Compare's 'bpe,wordpiece,unigram' -> the algorithms' names."""
    return [name.strip() for name in algorithm.split(",") if name.strip()]


def _workers(names: list[str]) -> int:
    """How many of `names` train at a time: one alone; several as Compare trains them, side
    by side in the worker processes of subtok_core.parallel (one per processor; with no
    workers they take turns in the server's own process, which is one at a time)."""
    return max(1, parallel.worker_count()) if len(names) > 1 else 1


def _seconds(names: list[str], n_chars: int, n_types: int, size: int, part: int) -> float:
    """The estimate for the first 1/part of the corpus: its words counted once, then every
    algorithm trained, as many at a time as _workers says."""
    return estimate.together_seconds(
        names, n_chars, n_types, size, fraction=1 / part, workers=_workers(names)
    )


def _joined(names: list[str]) -> str:
    """['bpe', 'wordpiece', 'unigram'] -> 'BPE, WordPiece and Unigram'."""
    labels = [registry.LABELS.get(name, name) for name in names]
    return " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)


def _how(names: list[str], n_chars: int, n_types: int, size: int) -> str:
    """For several trainings, what each would take alone and how they share the processors
    (empty for one)."""
    if len(names) < 2:
        return ""
    alone = [
        f"{registry.LABELS.get(name, name)} "
        + estimate.describe(estimate.estimate_seconds(name, n_chars, n_types, size))
        for name in names
    ]
    workers = _workers(names)
    if workers == 1:
        shared = "they train one after the other here"
    elif workers >= len(names):
        shared = "they train all at once here, one per processor"
    else:
        shared = f"they train {workers} at a time here, one per processor"
    return f" Each alone: {', '.join(alone)}; {shared}."


def upload_notice(
    wc: WordCounts, algorithm: str, size: int, *, n_lines: int, page: str
) -> int | None:
    """Warn when training `algorithm` (a name, or several joined by commas, trained side by
    side as Compare trains them) on the uploaded words `wc` to `size` pieces would take more
    than about ten seconds, and offer to train on the first 1/2, 1/4 or 1/8 of the
    upload's `n_lines` lines instead (a select box keyed ``<page>_upload_slice``). Of
    several names, those without timing figures are named as not counted.

    Returns the number of lines to keep, or None to train on everything (the run is short,
    the student kept "all", or there are no figures for any of these algorithms).
    """
    names = _names(algorithm)
    n_chars, n_types = estimate.corpus_size(wc)
    try:
        known = estimate.algorithms()
        timed = [name for name in names if name in known]
        whole = _seconds(timed, n_chars, n_types, size, 1) if timed else 0.0
    except ValueError as err:  # the figures are missing: train without a notice
        log.info("no time estimate: %s", err)
        return None
    if whole <= LONG:  # short, or no figures for any of them (SaGe)
        return None
    untimed = [name for name in names if name not in timed]
    st.warning(
        f"Training {_joined(timed)} on this upload ({n_chars:,} characters, {n_types:,} "
        f"distinct words) to {size:,} pieces will take {estimate.describe(whole)} here, "
        f"roughly.{_how(timed, n_chars, n_types, size)}"
        + (f" Not counted (no timing figures): {_joined(untimed)}." if untimed else "")
        + " To try things out first, train on the beginning of the file."
    )
    lines = {part: n_lines // part for part in PARTS if n_lines // part >= 1}
    parts = [p for p in lines if p == 1 or lines[p] < lines[p // 2]]  # distinct slices only
    if len(parts) < 2:  # one line: nothing smaller to offer
        return None

    def label(part: int) -> str:
        took = estimate.describe(_seconds(timed, n_chars, n_types, size, part))
        share = "all" if part == 1 else f"first 1/{part}"
        return f"{share}: {lines[part]:,} lines, {took}"

    part = st.selectbox(
        "train on",
        parts,
        format_func=label,
        key=widget_key(page, "upload_slice"),
        help="The estimate is fitted on timings of this app's trainers "
        "(bench/scaling.py); a slice's distinct words are estimated by Heaps' law.",
    )
    return None if part == 1 else lines[part]
