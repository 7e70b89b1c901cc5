"""Presenter mode (?present=1) and the lesson's frame at the projector.

At 1280x720 a lesson page must show, without scrolling, its step controls, the step's
sentence and its main view (the pair table and the corpus). Every page keeps its title and
settings short for that; presenter mode goes further for the back of the room: larger type,
no sidebar or toolbar, the settings and the corpus editor hidden (still there, so the
address and the session keep their values), and only what the step shows below them.
"""

from __future__ import annotations

import streamlit as st

from lessons.ui.keys import current_page, widget_key

PARAM = "present"  # ?present=1; not a bound widget: a bound toggle reads only true/false

# Every page: a little less room above the title than Streamlit gives by default.
FRAME_CSS = """<style>
@media (min-width: 900px) {
  /* the header holds only the menu at the right: let the title sit under it */
  header[data-testid="stHeader"] {background: transparent;}
  .block-container {padding-top: 1.4rem;}
}
h1 {font-size: 2.1rem !important; padding-top: 0 !important;}
/* a little less air between blocks: the step view fits 720 px */
.stMainBlockContainer div[data-testid="stVerticalBlock"] {gap: 0.8rem;}
/* the headings in order (h1 the page, h2 its parts, h3 their panels): Streamlit's h2 is
   larger than the h1 above, so it gets a size between the two */
h2 {font-size: 1.6rem !important;}
h3 {font-size: 1.35rem !important;}
/* the step controls in one row at 1280 px, the class poll's button among them: a smaller
   gap, and that button's key (Alt+Q) named in its help and in "Keys" rather than on it */
div[class*="st-key-"][class*="_stepcontrols"] {gap: 0.5rem;}
div[class*="st-key-"][class*="_poll_jump"] button kbd {display: none;}
/* a phone: the lesson's introduction goes after its steps, so that the step's sentence
   is on the first screen (the settings are one button above the steps) */
@media (max-width: 640px) {
  div[class*="st-key-"][class*="_lesson_intro"],
  div:has(> div[class*="st-key-"][class*="_lesson_intro"]) {order: 1;}
  /* the step controls in two rows (first, previous, the slider; next, last, play, keys),
     in presenter mode's large type too: a phone has no keys to show on the buttons (their
     help still names them), and a button keeps a 44 px touch target (WCAG 2.5.5) */
  div[class*="st-key-"][class*="_stepcontrols"] button kbd {display: none;}
  div[class*="st-key-"][class*="_stepcontrols"] button {
    padding-left: 0.5rem; padding-right: 0.5rem; min-width: 44px; min-height: 44px;}
}
</style>"""

# Presenter mode. Containers keyed "<page>_edit_..." hold the editing widgets (see
# settings_row and lessons.ui.steps.corpus_trace): hidden, not removed.
PRESENT_CSS = """<style>
/* read from the back of a room: the step's sentence and its table 1.2rem of 20 px, 24 px,
   1.5x a desk's 16 px; the title no smaller than a desk's (tests/test_e2e_present.py) */
html {font-size: 20px;}
h1 {font-size: 1.7rem !important;}
[data-testid="stAlert"] p, [data-testid="stAlert"] li {font-size: 1.2rem;}
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
header[data-testid="stHeader"] {display: none;}
.block-container {padding-top: 0.8rem; padding-left: 2rem; padding-right: 2rem;}
div[class*="st-key-"][class*="_edit_"],
div:has(> div.stVerticalBlock[class*="_edit_"]),
div:has(> div.stHorizontalBlock[class*="_edit_"]) {display: none;}
.chips {font-size: 1.2rem; line-height: 2.1;}
[data-testid="stTable"] td, [data-testid="stTable"] th {font-size: 1.2rem; padding: 0.25rem 0.6rem;}
/* a step's table (lessons.ui.tables.present_table): our own, in the page's large type */
.present-table {overflow-x: auto; margin-bottom: 0.5rem;}
.present-table:focus-visible {outline: 3px solid #1f4e79; outline-offset: 2px;}
.present-table table {border-collapse: collapse; font-size: 1.2rem;}
.present-table td, .present-table th {padding: 0.1rem 0.6rem; line-height: 1.35; text-align: left;
  border-bottom: 1px solid #d5d9de; white-space: nowrap;}
.present-table th {font-weight: 600;}
/* a phone at the projector: the five step buttons on one row, previous beside next, the
   slider and "Keys" on the next (the slider's basis leaves no room for it on the first),
   the class poll after them */
@media (max-width: 640px) {
  .block-container {padding-left: 1rem; padding-right: 1rem;}
  div[class*="st-key-"][class*="_stepcontrols"] {gap: 0.5rem;}
  div[class*="st-key-"][class*="_stepcontrols"] > div.st-key-step {order: 1; flex: 1 1 9rem;}
  div[class*="st-key-"][class*="_stepcontrols"] > :last-child {order: 2;}
  div[class*="st-key-"][class*="_stepcontrols"] > div[class*="_poll_"] {order: 3;}
}
</style>"""


def presenting() -> bool:
    """Whether the page is in presenter mode: the address says ?present=1 (or true)."""
    return st.query_params.get(PARAM, "").lower() in ("1", "true", "yes", "on")


def set_presenting(on: bool) -> None:
    if on:
        st.query_params[PARAM] = "1"
    else:
        st.query_params.pop(PARAM, None)


def frame() -> None:
    """The page's CSS (app.py, every run), and in presenter mode the way back out of it
    (the sidebar with the switch is hidden then)."""
    st.html(FRAME_CSS)
    if not presenting():
        # the switch exists only while off: any change of it turns presenter mode on
        st.sidebar.toggle(
            "Presenter mode",
            value=False,
            on_change=set_presenting,
            args=(True,),
            help="For the projector: larger type, no sidebar, settings hidden; the "
            "address gets ?present=1. Step with ← → Home End, play with Alt+P.",
        )
        return
    st.html(PRESENT_CSS)
    st.button(
        "exit presenter mode",
        icon=":material/close_fullscreen:",
        type="tertiary",
        on_click=set_presenting,
        args=(False,),
    )


def page_head(title: str, intro: str) -> None:
    """The page's title and its one-paragraph introduction (in presenter mode the title
    only, no larger than at a desk: the step is what the room reads; on a phone the
    introduction comes after the steps, FRAME_CSS)."""
    st.title(title)
    if not presenting():
        st.container(key=widget_key(current_page(), "lesson_intro")).write(intro)


class SettingsRow:
    """A page's settings (corpus, marker, ties, merges...) folded into one button, a
    popover, with a line beside it saying what is in use: the step controls stay on the
    first screen. Hidden in presenter mode (its key holds "_edit_"). ``columns`` and
    ``expander`` open inside the popover; ``note`` writes the line beside it; ``views``
    holds the row's other popovers, by label."""

    def __init__(self, page: str, label: str = "Settings", views: dict[str, str] | None = None):
        bar = st.container(
            key=widget_key(page, "edit_settings"), horizontal=True, vertical_alignment="center"
        )
        self.bar = bar
        self.box = bar.popover(label, icon=":material/tune:", help="Change the corpus or a setting")
        # more popovers before the line (views that are no settings): {label: icon}
        self.views = {name: bar.popover(name, icon=icon) for name, icon in (views or {}).items()}
        self.line = bar.empty()
        self.said: list[str] = []

    def columns(self, spec, **options):
        return self.box.columns(spec, **options)

    def expander(self, label: str, **options):
        return self.box.expander(label, **options)

    def note(self, *parts: str) -> None:
        """Add `parts` to the line beside the button (" · " between them)."""
        self.said += [part for part in parts if part]
        self.line.caption(" · ".join(self.said))


def settings_row(
    page: str, label: str = "Settings", views: dict[str, str] | None = None
) -> SettingsRow:
    """The settings of `page` in one row (SettingsRow), with a popover more for each of
    `views` ({label: icon}). Use as ``settings_row("bpe").columns(...)``."""
    return SettingsRow(page, label, views)


def end_of_step_view(poll=None) -> None:
    """Where a lesson's step view ends: the class poll (`poll`: a function drawing it, the
    page's own) comes here, just under the step, so its tally and the step share a
    screen; in presenter mode the page stops after it."""
    if poll is not None:
        poll()
    if presenting():
        st.stop()
