"""A student's anonymous id on /join: the same for every reload and every tab of one
browser, so one student is one answer per round.

The id is a random token kept in a cookie of this site (``subtok_student``, one day,
SameSite=Lax, never a name). Why a cookie: the server reads it itself when the page
connects (``st.context.cookies``, public API), so a reload and a new tab (a student who
scans the QR code again) get the same id before anything is drawn. An id in the page's
address would survive a reload but not a fresh scan, and it would travel with a link a
student shares, so two phones would answer as one; browser storage would need a script
to carry the id back to the server on every visit. The cookie is written once, by a
two-line script (``st.html`` with ``unsafe_allow_javascript``) holding only the token,
on the first visit, when the browser has none.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

import streamlit as st

from lessons.poll import cookie

COOKIE = "subtok_student"
MAX_AGE = 24 * 60 * 60  # seconds: a day, longer than any lesson
TOKEN = cookie.TOKEN  # what secrets.token_urlsafe gives
KEY = "join_session"  # session state: this session's id (the cookie's, or a new one)


def browser_cookies() -> Mapping[str, str]:
    """The cookies the browser sent when the page connected (tests replace this)."""
    return st.context.cookies


def student_id() -> str:
    """This browser's anonymous id: the cookie's when the browser sent a valid one, else
    a new random id, written into the cookie for the next reload or tab."""
    if KEY not in st.session_state:
        sent = str(browser_cookies().get(COOKIE, "") or "")
        st.session_state[KEY] = sent if TOKEN.fullmatch(sent) else secrets.token_urlsafe(16)
    token = st.session_state[KEY]
    if browser_cookies().get(COOKIE) != token:
        remember(token)
    return token


def remember(token: str) -> None:
    """Write the cookie (lessons/poll/cookie.py checks the token first)."""
    cookie.write(COOKIE, token, MAX_AGE, "Lax", "A student id")
