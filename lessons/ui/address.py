"""URL parameters: every one read through one parser, and corrected with a warning the page
can keep running after."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import streamlit as st

from lessons.ui import compat
from lessons.ui.view_memory import note_param, remember_view
from subtok_core import limits

# --- URL parameters: read, and corrected, before the widget bound to them is made -------
#
# A bound widget takes its first value from the address. Streamlit 1.67 drops a value it
# cannot use without a word (or, as the step slider read the address itself, raised).
# Every parameter goes through url_int / url_float / url_choice (number_box and choice_box
# for a bound widget, with the same range) on the run that shows its widget for the first
# time in the session, when the address decides its value: a value the page cannot use
# gives one st.warning naming the parameter, the value given and the value used, and the
# value used goes into the address (a bound widget: the page reruns at once, see
# _from_url) or into st.session_state (a value the page keeps itself).


def parse_int(text: str, lo: int, hi: int, default: int) -> tuple[int, str | None]:
    """The value of an address's whole-number parameter, and why it was changed (None:
    used as given). A number out of range is moved to the nearest end, a fraction cut to
    its whole part (as Streamlit reads a slider's); anything else gives the default.

    >>> parse_int("3", 0, 7, 0), parse_int("-1", 0, 7, 0), parse_int("1e12", 0, 7, 0)
    ((3, None), (0, 'below the smallest value, 0'), (7, 'above the largest value, 7'))
    >>> parse_int("abc", 0, 7, 2), parse_int("2.5", 0, 7, 0)
    ((2, 'not a number'), (2, 'not a whole number'))
    """
    try:
        return _clamp(int(text), lo, hi, "{:,}".format)
    except ValueError:
        number = _finite(text)
    if number is None:
        return default, ("empty" if not text.strip() else "not a number")
    value, why = _clamp(int(number), lo, hi, "{:,}".format)
    return value, why or "not a whole number"


def parse_float(text: str, lo: float, hi: float, default: float) -> tuple[float, str | None]:
    """The value of an address's number parameter, and why it was changed (None: used as
    given); nan and inf are not numbers.

    >>> parse_float("1.2", 1.01, 4.0, 1.2), parse_float("nan", 1.01, 4.0, 1.2)
    ((1.2, None), (1.2, 'not a number'))
    """
    value = _finite(text)
    if value is None:
        return default, ("empty" if not text.strip() else "not a number")
    return _clamp(value, lo, hi, lambda v: f"{v:g}")


def _finite(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _clamp(value, lo, hi, show: Callable) -> tuple:
    if value < lo:
        return lo, f"below the smallest value, {show(lo)}"
    if value > hi:
        return hi, f"above the largest value, {show(hi)}"
    return value, None


def parse_choice(text: str, options: Sequence[str], default: str) -> tuple[str, str | None]:
    """An address's choice among `options` (exactly as written), and why it was changed.

    >>> parse_choice("eow", ("none", "eow"), "none"), parse_choice("EOW", ("none", "eow"), "none")
    (('eow', None), ('none', 'not one of: none, eow'))
    """
    if text in options:
        return text, None
    if not text.strip():
        return default, "empty"
    shown = ", ".join(options) if len(options) <= 12 else ", ".join(options[:12]) + ", ..."
    return default, f"not one of: {shown}"


def url_text(key: str, state_key: str | None = None) -> str | None:
    """The address's value of `key` while it still decides the widget's value: before the
    session holds one under `state_key` (the key itself for a bound widget); else None.
    Every parameter a page reads comes through here, so the page's view can be kept
    (lessons.ui.view_memory)."""
    note_param(key, state_key)
    if (state_key or key) in st.session_state or key not in st.query_params:
        return None
    return st.query_params.get(key)


def url_warning(key: str, given: str, why: str, used: str = "", instead: str | None = None) -> str:
    """The one warning a parameter the page cannot use gets: the parameter, the value
    given, why (a phrase, or a sentence of the core ending in a period), and the value
    used (or `instead`: what the page does instead)."""
    given = given.replace("`", "'")
    given = given if len(given) <= 40 else given[:40] + "…"
    said = f"The address gives `{key}={given}`" if given.strip() else f"The address gives `{key}=`"
    if why == "empty":
        said += " with no value"
    elif why.endswith("."):
        said += f". {why[:-1]}"
    else:
        said += f", {why}"
    message = f"{said}; {instead or f'this page uses `{key}={used}`'} instead."
    st.warning(message)
    return message


FIXES = "url_fixes"  # session: bound parameter -> its warning, shown until a run completes


def _from_url(key: str, parse: Callable, state_key: str | None, default, show: Callable = str):
    """Check the address's `key` with `parse`; warn and correct it when the page cannot
    use it. Returns the value to use (None: the address decides nothing here).

    A parameter bound to a widget (`state_key` None) is corrected in the address, and the
    page reruns at once: the widget takes its first value from the address the run
    starts with, and drops a value it cannot use without putting the value used there.
    The warning is kept in the session and shown again until a run completes."""
    fixes = st.session_state.setdefault(FIXES, {})
    if state_key is None and key in fixes:
        st.warning(fixes[key])
    text = url_text(key, state_key)
    if text is None:
        return None
    value, why = parse(text)
    if state_key is not None:  # kept by the page itself, in the session and the address
        st.session_state[state_key] = value
        if why is not None:
            url_warning(key, text, why, show(value))
            st.query_params[key] = show(value)  # a default too: the link names what it shows
    elif why is None:
        return value
    elif key not in fixes:
        fixes[key] = url_warning(key, text, why, show(value))
        st.query_params[key] = show(value)
        st.rerun()
    else:  # corrected once already and still refused: use the value, do not loop
        st.session_state[key] = value
    return value


def settle_url() -> None:
    """After a page's run has completed (app.py calls this): forget the warnings about
    parameters corrected before it, and remember the page's view (lessons.ui.view_memory)."""
    st.session_state.pop(FIXES, None)
    if st.session_state.pop(STAGED, False):
        compat.send_address()
    remember_view()
    if st.session_state.get(RESET):  # a box `held` found empty: show the default in it
        st.rerun()


def url_int(key: str, lo: int, hi: int, default: int, state_key: str | None = None) -> int:
    """The whole number the address gives for `key` (bound widget `key`, or the session's
    `state_key`), checked against [lo, hi]; else the session's value, else `default`."""
    value = _from_url(key, lambda text: parse_int(text, lo, hi, default), state_key, default)
    return st.session_state.get(state_key or key, default) if value is None else value


def url_float(
    key: str, lo: float, hi: float, default: float, state_key: str | None = None
) -> float:
    """As url_int, for a number with a fraction."""
    value = _from_url(
        key, lambda text: parse_float(text, lo, hi, default), state_key, default, "{:g}".format
    )
    return st.session_state.get(state_key or key, default) if value is None else value


def url_choice(key: str, options: Sequence[str], default: str, state_key: str | None = None) -> str:
    """As url_int, for one of `options`."""
    value = _from_url(key, lambda text: parse_choice(text, options, default), state_key, default)
    return st.session_state.get(state_key or key, default) if value is None else value


# --- Bound widgets keep the value an address gives, the page's defaults too -------------
#
# Streamlit 1.67 takes a bound widget's parameter out of the address whenever its value
# equals the widget's default (the browser's shouldClearUrlParam, and the server when it
# seeds a widget from the address), so /wordpiece?corpus=toy:sunflower&step=2 became
# /wordpiece?step=2: the link would show another corpus once the default changed. So a
# bound box or choice gets no default of Streamlit's (None, which no value equals), and
# the page's default is put in the session before the widget is made (hold): a value the
# address gives stays there, and so does a default the student chose. On a first visit,
# a parameter the address does not give is not written in by the server: each such write
# is an entry in the browser's history, and the bare address before it an entry too, so
# that Back showed the same page again. The step slider cannot be left without
# a default: step 0, the start of every lesson, is the one value an address leaves out.

RESET = "url_reset"  # session: bound parameters to set back to the page's default
STAGED = "url_staged"  # session: this run changed bound parameters itself (stage)


def stage(key: str, value=None, named: bool = True) -> None:
    """Before the bound widget `key` is made: this run sets its value itself (a new
    corpus's own settings, its step 0), in the address unless not `named`; `value` None:
    the value of the widget made already in this run (the corpus chosen). The
    address is sent once, when the run completes (settle_url): Streamlit would send each
    widget's change on its own, and the browser keep each as an entry of its history, so
    that Back went through views nobody saw."""
    if value is None:
        value = st.session_state[key]
    else:
        st.session_state[key] = value
    compat.stage_address(key, str(value) if named else None)
    st.session_state[STAGED] = True


# Streamlit gives a box or choice without a default a button that empties it: not these
NO_CLEAR = (
    "<style>.st-key-{name} [data-testid='stNumberInputClearButton'], "
    ".st-key-{name} [aria-label='Clear value'] {{display: none;}}</style>"
)


def hold(key: str, default) -> None:
    """Before the bound widget `key` is made: the page's default in the session, on a first
    visit (unless the address gives the value) and where `held` asked for it."""
    st.html(NO_CLEAR.format(name=key))  # only a style: it takes no room on the page
    reset = st.session_state.setdefault(RESET, set())
    if key in reset:
        reset.discard(key)
        st.session_state[key] = default
    elif key not in st.session_state and key not in st.query_params:
        st.session_state[key] = default


def held(key: str, value, default):
    """What a bound widget made after `hold` returned: None only where the student emptied
    the box, or on Back or Forward onto an address without the parameter (Streamlit then
    gives the widget its own default). The page goes on with `default`, which goes into
    the address when the run completes; the page then runs again to show it in the box
    (not at once: on Back or Forward the other widgets take their values from the address
    in this run only)."""
    if value is not None:
        return value
    st.session_state.setdefault(RESET, set()).add(key)
    compat.stage_address(key, str(default))
    st.session_state[STAGED] = True
    return default


def number_box(col, label: str, key: str, lo, hi, default, step=None, help=None):
    """A number input bound to the URL as ?`key`=..., the address checked first against the
    same range; a float box when `default` is a float, else whole numbers."""
    if isinstance(default, float):
        lo, hi = float(lo), float(hi)
        url_float(key, lo, hi, default)
    else:
        lo, hi = int(lo), int(hi)
        url_int(key, lo, hi, default)
    hold(key, default)
    box = col.number_input(label, lo, hi, None, step, key=key, help=help, bind="query-params")
    return held(key, box, default)


def choice_box(col, label: str, options: Sequence[str], key: str, default: str, **kwargs) -> str:
    """A select box bound to the URL as ?`key`=..., the address checked first. With a
    `format_func`, Streamlit reads and writes the address as the option's label
    (bytes=GPT-2+letters); a link may give the option itself (bytes=gpt2) too."""
    show, named = kwargs.get("format_func"), None
    if show is None:
        url_choice(key, options, default)
    else:
        labels = {show(option): option for option in options}
        given = url_text(key)
        value = url_choice(key, [*labels, *options], show(default))
        value = labels.get(value, value)
        if given is not None and given not in labels:  # the option itself: Streamlit seeds
            st.session_state[key] = value  # the box only from a label, so the page does,
            named = show(value)  # and the address names it as Streamlit writes it
    hold(key, default)
    choice = col.selectbox(label, options, index=None, key=key, bind="query-params", **kwargs)
    if named is not None:  # sent when the run completes
        compat.stage_address(key, named)
        st.session_state[STAGED] = True
    return held(key, choice, default)


def limit_help(name: str, text: str = "") -> str:
    """A widget's help: `text`, then the web limit of `name` and its reason."""
    said = limits.describe(name)
    return f"{text} {said[0].upper()}{said[1:]}.".strip()
