"""The guard every page runs inside (app.py), and every fragment of a page too (a fragment
rerun alone does not pass through the page's guard): an exception the page does not handle
becomes a short st.error, and its traceback goes to the server log (logger subtok.pages),
not to the browser."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import streamlit as st

import subtok_core
from lessons.ui.address import settle_url
from lessons.ui.compat import FragmentHandledException, ScriptControlException, StopException
from lessons.ui.escape import plain

CORE = Path(subtok_core.__file__).resolve().parent
LOG = logging.getLogger("subtok.pages")
BROKEN = (
    "Something went wrong on this page: {}. Change a setting or reload; the server log has "
    "the details."
)


def raised_by_core(err: BaseException) -> bool:
    """Whether `err` was raised inside subtok_core (its sentence is meant for students)."""
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and Path(tb.tb_frame.f_code.co_filename).resolve().is_relative_to(CORE)


def guarded(run: Callable[[], None], where: str) -> None:
    """Run `run()` (the page at address /`where`, or a fragment of it); an exception it does
    not handle becomes a short st.error and a log line.

    A ValueError of the core is shown as its own sentence. Streamlit's control flow passes
    through untouched: st.stop and st.rerun raise StopException and RerunException (both
    ScriptControlException, a BaseException, so `except Exception` never sees them), and
    a fragment that has already shown its error raises FragmentHandledException. Any other
    BaseException but SystemExit and KeyboardInterrupt is the page's error too: a Rust
    library's panic (pyo3's PanicException) that no core call caught killed the script
    thread, and the page stayed on "Running..." for good.

    A completed run forgets the warnings about parameters corrected before it
    (lessons.ui.address.settle_url).
    """
    try:
        run()
    except StopException:
        settle_url()
        raise
    except (ScriptControlException, FragmentHandledException):
        raise
    except ValueError as err:
        if not raised_by_core(err):
            _broken(where, err)
        else:
            st.error(plain(str(err)))
    except (SystemExit, KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as err:  # noqa: BLE001 - a library's panic (pyo3) is no Exception
        _broken(where, err)
    settle_url()


def _broken(where: str, err: BaseException) -> None:
    if not any(getattr(handler, "subtok", False) for handler in LOG.handlers):
        handler = logging.StreamHandler()  # the server's stderr, with a time stamp
        handler.subtok = True
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        LOG.addHandler(handler)
    LOG.exception("The page /%s raised %s", where, type(err).__name__)
    st.error(BROKEN.format(type(err).__name__))
