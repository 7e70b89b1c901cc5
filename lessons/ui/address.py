"""URL parameters: every one read through one parser, and corrected with a warning the page
can keep running after."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import streamlit as st

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
            if value == default:  # as the page keeps it: a default is not in the address
                del st.query_params[key]
            else:
                st.query_params[key] = show(value)
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
    remember_view()


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


def number_box(col, label: str, key: str, lo, hi, default, step=None, help=None):
    """A number input bound to the URL as ?`key`=..., the address checked first against the
    same range; a float box when `default` is a float, else whole numbers."""
    if isinstance(default, float):
        lo, hi = float(lo), float(hi)
        url_float(key, lo, hi, default)
    else:
        lo, hi = int(lo), int(hi)
        url_int(key, lo, hi, default)
    return col.number_input(label, lo, hi, default, step, key=key, help=help, bind="query-params")


def choice_box(col, label: str, options: Sequence[str], key: str, default: str, **kwargs) -> str:
    """A select box bound to the URL as ?`key`=..., the address checked first."""
    url_choice(key, options, default)
    index = list(options).index(default)
    return col.selectbox(label, options, index=index, key=key, bind="query-params", **kwargs)


def limit_help(name: str, text: str = "") -> str:
    """A widget's help: `text`, then the web limit of `name` and its reason."""
    said = limits.describe(name)
    return f"{text} {said[0].upper()}{said[1:]}.".strip()
