"""Accessibility pieces every page shares (issue 31): text contrast where Streamlit's own
grey is too light, the step sentence announced to a screen reader, chips read as their
text and count, and the list of the lesson's keys.

Colours come from subtok_core/palette.py (their contrast is tested there). `light-dark()`
picks the light or the dark theme's colour from the `color-scheme` Streamlit sets on the
app, so the student's theme choice is followed without a rerun.
"""

from __future__ import annotations

import html
import re

import streamlit as st

from subtok_core import palette

_GREY = f"light-dark({palette.CAPTION[0]}, {palette.CAPTION_DARK[0]})"

# Streamlit draws captions, quotes and the key badges of buttons (`shortcut=`) in its
# text colour at 60% opacity, 3.9:1 on white (#828180 in 1.67); WCAG AA asks 4.5:1 for
# text of that size: full opacity and a grey that passes. (Streamlit's faded greys fail AA
# elsewhere too: streamlit/streamlit#8249, #8288; no issue found for captions.)
CSS = f"""<style>
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p,
[data-testid="stCaptionContainer"] code, [data-testid="stMarkdownContainer"] blockquote,
[data-testid="stMarkdownContainer"] blockquote p, button kbd,
[data-testid="stImageCaption"], [data-testid="stTooltipHoverTarget"] kbd {{
  color: {_GREY} !important; opacity: 1 !important;}}
[data-testid="stCaptionContainer"] code {{background: transparent;}}
[data-testid="stSliderThumbValue"] p {{
  color: light-dark(currentColor, {palette.SLIDER_VALUE_DARK[0]}) !important;}}
.sr-only {{position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
          overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0;}}
/* the element holding a heading for screen readers only takes no room (nor a gap) */
[data-testid="stElementContainer"]:has(h2.sr-only) {{position: absolute; width: 1px;
  height: 1px; overflow: hidden;}}
</style>"""


# The lesson's keys (lessons/ui/steps.py binds them through Streamlit's `shortcut=`, which
# leaves them alone while focus is in a text box, a list or the slider). Play is Alt+P,
# not Space: Space presses the focused button or switch (the browser's own key), and
# Streamlit keeps C and R for itself.
KEYS = (
    ("← / →", "previous / next step"),
    ("Home / End", "first / last step"),
    ("Alt+P", "play the steps one after the other, or pause"),
)
PLAY_KEY = "Alt+P"
# On a lesson with a class poll (BPE, WordPiece, Unigram): the "Class poll" button beside
# the step controls. Q for question: Alt+C would sit beside Streamlit's own C, and no
# browser menu opens on Alt+Q.
POLL_KEY = "Alt+Q"
POLL_KEYS = ((POLL_KEY, "open the class poll and go to it"),)


def keys_help(container, poll: bool = False) -> None:
    """A "Keys" button in `container` (the step controls' row) opening the list of keys
    (with the class poll's key on a lesson that has one: `poll`)."""
    with container.popover("Keys", icon=":material/keyboard:", help="The lesson's keys"):
        rows = "".join(f"| {key} | {does} |\n" for key, does in KEYS + (POLL_KEYS if poll else ()))
        st.markdown("| key | does |\n|---|---|\n" + rows)
        st.caption(
            "The keys do nothing while the cursor is in a text box or a list; on the "
            "slider, ← and → move the slider itself. Tab goes through every control in "
            "reading order, Enter or Space presses the one focused."
        )


def frame() -> None:
    """The shared accessibility CSS (app.py, every run)."""
    st.html(CSS)


def hidden_heading(text: str) -> None:
    """A level-2 heading a screen reader lists and the page does not show: the part of a
    page whose own visible title is a sentence (a lesson's steps, under the page's h1 and
    above their h3 panels), so that the headings go h1, h2, h3 without a level skipped."""
    st.html(f'<h2 class="sr-only">{html.escape(text)}</h2>')


def plain(text: str) -> str:
    r"""Text shown as it is in Streamlit's markdown (a token such as `*` or `_a_` stays).

    >>> print(plain("(*, a_b) got 2."))
    \(\*, a\_b\) got 2\.
    """
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~$<>])", r"\\\1", text)


def say_under(chart) -> None:
    """The sentence under a chart: its Vega-Lite description (subtok_core/charts/words.py),
    the number it shows in words. `chart`: an Altair chart or its spec (a dict)."""
    said = chart.get("description") if isinstance(chart, dict) else chart.description
    if isinstance(said, str) and said:
        st.caption(plain(said))


def altair_chart(chart) -> None:
    """st.altair_chart(chart, width="stretch") and the sentence under it (say_under)."""
    st.altair_chart(chart, width="stretch")
    say_under(chart)
