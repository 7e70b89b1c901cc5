"""The app's pages, in the sidebar's order: one list that app.py turns into st.Page entries
and `subtok warm` reads to find a page by its address. Plain data: importing it imports no
Streamlit and runs no page."""

from __future__ import annotations

from typing import NamedTuple


class Page(NamedTuple):
    file: str  # relative to app.py
    title: str
    icon: str
    url_path: str  # the address, /url_path
    trains: bool = True  # whether the page trains runs that `subtok warm` can keep
    polls: bool = False  # whether its step view asks the class a question (and moves the room)
    exercise: bool = False  # whether it sets the class an exercise (and moves the room itself)


PAGES = (
    Page("lessons/home/page.py", "Home", ":material/home:", "home", trains=False),
    Page("lessons/bpe/page.py", "BPE", ":material/join_inner:", "bpe", polls=True),
    Page("lessons/bytebpe/page.py", "Byte-level BPE", ":material/memory:", "bytebpe", polls=True),
    Page("lessons/picky/page.py", "Picky BPE", ":material/filter_alt:", "picky", polls=True),
    Page("lessons/superbpe/page.py", "SuperBPE", ":material/link:", "superbpe", polls=True),
    Page("lessons/boundless/page.py", "BoundlessBPE", ":material/merge:", "boundless", polls=True),
    Page("lessons/parity/page.py", "Parity-aware BPE", ":material/balance:", "parity", polls=True),
    Page("lessons/wordpiece/page.py", "WordPiece", ":material/percent:", "wordpiece", polls=True),
    Page("lessons/unigram/page.py", "Unigram LM", ":material/content_cut:", "unigram", polls=True),
    Page("lessons/sage/page.py", "SaGe", ":material/hub:", "sage"),
    Page("lessons/compare/page.py", "Compare", ":material/compare:", "compare"),
    Page(
        "lessons/check/page.py", "Check your BPE", ":material/fact_check:", "check", exercise=True
    ),
    Page("lessons/vocab/page.py", "Inside a vocabulary", ":material/dictionary:", "vocab"),
    Page("lessons/notes/page.py", "Notes on the material", ":material/rule:", "notes", False),
    # last: a student's page, reached by the link or QR code of a class poll, listed for
    # the student who has only the room code read off the projector
    Page("lessons/poll/page.py", "Join a poll", ":material/how_to_vote:", "join", False),
)
HOME = PAGES[0]  # the default page, at /


def by_address(url_path: str) -> Page | None:
    """The page at /url_path (/ is home), or None."""
    path = url_path.strip("/") or HOME.url_path
    return next((p for p in PAGES if p.url_path == path), None)
