"""Before a long run on an upload: roughly how long it will take, and a smaller slice.

The estimate comes from the core (subtok_core/estimate.py, figures measured by
bench/scaling.py); this piece only shows it. A page calls :func:`upload_notice` after an
upload is read and before it trains, and cuts the text to the lines it returns.
"""

from __future__ import annotations

import logging

import streamlit as st

from pages._keys import widget_key
from subtok_core import estimate, registry
from subtok_core.corpus import WordCounts

LONG = 10.0  # seconds: above this the page says how long and offers a smaller slice
PARTS = (1, 2, 4, 8)  # all, the first 1/2, 1/4, 1/8 of the lines

log = logging.getLogger(__name__)


def _names(algorithm: str) -> list[str]:
    """'bpe' or Compare's 'bpe,wordpiece,unigram' -> the algorithms' names."""
    return [name.strip() for name in algorithm.split(",") if name.strip()]


def _seconds(names: list[str], n_chars: int, n_types: int, size: int, part: int) -> float:
    """The estimate for the first 1/part of the corpus, every algorithm trained in turn."""
    return sum(estimate.slice_seconds(name, n_chars, n_types, size, 1 / part) for name in names)


def upload_notice(
    wc: WordCounts, algorithm: str, size: int, *, n_lines: int, page: str
) -> int | None:
    """Warn when training `algorithm` (a name, or several joined by commas, trained in turn)
    on the uploaded words `wc` to `size` pieces would take more than about ten seconds, and
    offer to train on the first 1/2, 1/4 or 1/8 of the upload's `n_lines` lines instead
    (a select box keyed ``<page>_upload_slice``).

    Returns the number of lines to keep, or None to train on everything (the run is short,
    the student kept "all", or there are no figures for this algorithm).
    """
    names = _names(algorithm)
    n_chars, n_types = estimate.corpus_size(wc)
    try:
        whole = _seconds(names, n_chars, n_types, size, 1)
    except ValueError as err:  # SaGe, or the figures are missing: train without a notice
        log.info("no time estimate: %s", err)
        return None
    if whole <= LONG:
        return None
    labels = [registry.LABELS.get(name, name) for name in names]
    labels = " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)
    st.warning(
        f"Training {labels} on this upload ({n_chars:,} characters, {n_types:,} distinct "
        f"words) to {size:,} pieces will take {estimate.describe(whole)} here, roughly. "
        "To try things out first, train on the beginning of the file."
    )
    lines = {part: n_lines // part for part in PARTS if n_lines // part >= 1}
    parts = [p for p in lines if p == 1 or lines[p] < lines[p // 2]]  # distinct slices only
    if len(parts) < 2:  # one line: nothing smaller to offer
        return None

    def label(part: int) -> str:
        took = estimate.describe(_seconds(names, n_chars, n_types, size, part))
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
