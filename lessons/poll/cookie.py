"""The class's two cookies, a student's anonymous id (lessons/poll/student.py) and a
teacher's key (lessons/poll/teacher.py): random tokens the server reads back from the
page's request (st.context.cookies), written by a two-line script holding only the token."""

from __future__ import annotations

import re

import streamlit as st

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what secrets.token_urlsafe gives


def write(name: str, token: str, max_age: int, same_site: str, what: str) -> None:
    """Set cookie `name` to `token` for `max_age` seconds on the whole site. The token is
    checked first, so only URL-safe characters reach the script; `what` names it in the
    sentence of a refusal ("A student id")."""
    if not TOKEN.fullmatch(token):
        raise ValueError(f"{what} is a random token of letters, digits, - and _.")
    st.html(
        f"<script>document.cookie = '{name}={token}; path=/; max-age={int(max_age)}; "
        f"SameSite={same_site}';</script>",
        unsafe_allow_javascript=True,
    )
