"""The SaGe vocabulary this session last trained, kept for the Compare page: the SaGe page
writes it (remember), Compare reads it (latest). Its session key is spelled here alone."""

from __future__ import annotations

import streamlit as st

from lessons.ui.keys import widget_key

LATEST = widget_key("sage", "latest")  # session: {"model", "sample", "size"} of the last run


def remember(model, sample: str, size: int) -> None:
    """Keep the SaGe page's last run: its model, the sample's name and the vocabulary size."""
    st.session_state[LATEST] = {"model": model, "sample": sample, "size": size}


def latest() -> dict | None:
    """The last SaGe run of this session ({"model", "sample", "size"}), None before one."""
    return st.session_state.get(LATEST)
