"""subtok: the frame. Page config, navigation over pages/, the shared sidebar, and the
guard every page runs inside."""

import logging
from pathlib import Path

import streamlit as st
from streamlit.errors import FragmentHandledException
from streamlit.runtime.scriptrunner_utils.exceptions import (
    ScriptControlException,
    StopException,
)

import subtok_core
from pages import _present
from pages import _widgets as w

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


def run_guarded(page) -> None:
    """Run the page; an exception it does not handle becomes a short st.error, and its
    traceback goes to the server log (logger subtok.pages), not to the browser.

    A ValueError of the core is shown as its own sentence. Streamlit's control flow passes
    through untouched: st.stop and st.rerun raise StopException and RerunException (both
    ScriptControlException, a BaseException, so `except Exception` never sees them), and
    a fragment that has already shown its error raises FragmentHandledException.

    A completed run forgets the warnings about parameters corrected before it
    (pages._widgets.settle_url).
    """
    try:
        page.run()
    except StopException:
        w.settle_url()
        raise
    except (ScriptControlException, FragmentHandledException):
        raise
    except ValueError as err:
        if not raised_by_core(err):
            _broken(page, err)
        else:
            st.error(str(err))
    except Exception as err:
        _broken(page, err)
    w.settle_url()


def _broken(page, err: Exception) -> None:
    if not any(getattr(handler, "subtok", False) for handler in LOG.handlers):
        handler = logging.StreamHandler()  # the server's stderr, with a time stamp
        handler.subtok = True
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        LOG.addHandler(handler)
    LOG.exception("The page /%s raised %s", page.url_path, type(err).__name__)
    st.error(BROKEN.format(type(err).__name__))


st.set_page_config(
    page_title="subtok: subword tokenization lab", page_icon=":material/text_fields:", layout="wide"
)

LESSONS = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/bpe.py", title="BPE", icon=":material/join_inner:", url_path="bpe"),
    st.Page(
        "pages/bytebpe.py", title="Byte-level BPE", icon=":material/memory:", url_path="bytebpe"
    ),
    st.Page(
        "pages/wordpiece.py", title="WordPiece", icon=":material/percent:", url_path="wordpiece"
    ),
    st.Page(
        "pages/unigram.py", title="Unigram LM", icon=":material/content_cut:", url_path="unigram"
    ),
    st.Page("pages/sage.py", title="SaGe", icon=":material/hub:", url_path="sage"),
    st.Page("pages/compare.py", title="Compare", icon=":material/compare:", url_path="compare"),
    st.Page(
        "pages/notes.py", title="Notes on the material", icon=":material/rule:", url_path="notes"
    ),
    # last: a student's page, reached by the link or QR code of a class poll, listed for
    # the student who has only the room code read off the projector
    st.Page("pages/join.py", title="Join a poll", icon=":material/how_to_vote:", url_path="join"),
]

page = st.navigation(LESSONS)
with st.sidebar:
    st.caption(
        "subtok shows how subword tokenizers learn their vocabulary, one step at a time. "
        "Every number on these pages is computed from the corpus you choose."
    )
w.open_view()  # the page's own last view, not the last page's (pages/_views.py)
_present.frame()
run_guarded(page)
