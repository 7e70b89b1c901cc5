"""AppTest: an upload the core refuses is an st.error with the core's sentence, and an
exception no page handles is a short st.error (its traceback in the server log), never a
traceback in the browser; st.stop and st.rerun pass through app.py's guard untouched."""

from __future__ import annotations

import pytest
import streamlit as st
from apptools import APP, BROKEN, broken, open_page
from streamlit.testing.v1 import AppTest

from subtok_core import bpe, corpus

BAD_UPLOADS = {  # name -> the file's bytes (what decode_upload refuses, and why)
    "binary": b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)),
    "latin-1": "Raskolnikov went to the café.\n".encode("latin-1"),
    "nul-bytes": b"low lower\x00newest\n",
    "25-mb": b"low lower newest " * (25 * 1024 * 1024 // 17),
    "empty": b"",
    "blank": b" \n\t\n",
    "utf-16": "low lower newest widest\n".encode("utf-16"),
    "utf-16-no-bom": "low lower newest widest\n".encode("utf-16-le"),
}


def core_sentence(data: bytes, name: str) -> str:
    with pytest.raises(ValueError) as refused:
        corpus.decode_upload(data, name)
    return str(refused.value)


def upload(page: str, query: dict, key: str, data: bytes, name: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for param, value in query.items():
        at.query_params[param] = value
    at.run()
    at.switch_page(page).run()
    at.file_uploader(key=key).set_value((name, data, "text/plain")).run()
    return at


@pytest.mark.parametrize("kind", list(BAD_UPLOADS))
def test_a_sage_upload_the_core_refuses_shows_its_sentence(kind):
    name = f"{kind}.txt"
    query = {"corpus": "upload", "V": "60"}  # V = 60 is refused on any sample at once
    at = upload("lessons/sage/page.py", query, "sage_upload", BAD_UPLOADS[kind], name)
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == [core_sentence(BAD_UPLOADS[kind], name)]
    assert at.title[0].value.startswith("SaGe")
    # the page keeps working: another sample is read (and V = 60 refused, with no training)
    at.selectbox(key="corpus").set_value("sample:crime").run()
    assert not at.exception and not broken(at)
    assert any("sample:crime: 19 sentences" in c.value for c in at.caption)
    assert ["smaller than the 73 characters" in e.value for e in at.error] == [True]


@pytest.mark.parametrize("kind", ["binary", "latin-1", "utf-16", "25-mb"])
def test_an_upload_in_the_corpus_editor_the_core_refuses_shows_its_sentence(kind):
    name = f"{kind}.txt"
    query = {"corpus": "upload:a .txt file"}
    at = upload("lessons/bpe/page.py", query, "bpe_upload", BAD_UPLOADS[kind], name)
    assert not at.exception and not broken(at)
    assert [e.value for e in at.error] == [core_sentence(BAD_UPLOADS[kind], name)]


def test_the_sentences_say_what_is_wrong():
    said = {kind: core_sentence(data, "f.txt") for kind, data in BAD_UPLOADS.items()}
    assert "binary file" in said["binary"] and "binary file" in said["nul-bytes"]
    assert "is not UTF-8 text (byte 27" in said["latin-1"]
    assert "is 25.0 MB; the limit is 20 MB" in said["25-mb"]
    assert "is empty" in said["empty"] and "is empty" in said["blank"]
    assert said["utf-16"].startswith("f.txt is UTF-16 text, not UTF-8. Save it as UTF-8")
    assert said["utf-16-no-bom"] == said["utf-16"]


def test_a_good_upload_on_sage_reads_its_lines():
    text = "The cat sat on the mat. The dog sat on the log.\nA bird sang.\n"
    at = upload(
        "lessons/sage/page.py",
        {"corpus": "upload", "V": "10"},
        "sage_upload",
        text.encode(),
        "a.txt",
    )
    assert not at.exception and not broken(at)
    assert any("a.txt: 3 sentences, 15 words" in c.value for c in at.caption)


# --- the guard around every page --------------------------------------------------------


def test_an_unexpected_exception_is_a_short_error_and_a_log_line(monkeypatch, page_errors):
    def boom(*args, **kwargs):
        raise RuntimeError("internal detail no student should see")

    monkeypatch.setattr(bpe, "explain_bpe_start", boom)
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("lessons/bpe/page.py").run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        f"{BROKEN}: RuntimeError. Change a setting or reload; the server log has the details."
    ]
    assert "internal detail" not in " ".join(m.value for m in at.markdown)
    assert at.title[0].value == "Byte-pair encoding"  # what ran before the error stays
    assert len(page_errors) == 1 and page_errors[0].exc_info[0] is RuntimeError
    assert "/bpe" in page_errors[0].getMessage()
    page_errors.clear()


def test_a_value_error_of_the_core_is_shown_as_its_sentence(monkeypatch, page_errors):
    monkeypatch.setattr(bpe, "explain_bpe_start", lambda *args: corpus.load("toy:nope"))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("lessons/bpe/page.py").run()
    assert not at.exception and not broken(at)
    assert at.error[0].value.startswith("There is no toy corpus 'toy:nope'")
    assert not page_errors  # a sentence for the student, not a failure of the page


def test_a_value_error_from_outside_the_core_is_no_sentence_for_students(monkeypatch, page_errors):
    monkeypatch.setattr(bpe, "explain_bpe_start", lambda *args: int("abc"))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("lessons/bpe/page.py").run()
    assert not at.exception
    assert broken(at) == [
        f"{BROKEN}: ValueError. Change a setting or reload; the server log has the details."
    ]
    assert "invalid literal" not in " ".join(e.value for e in at.error)
    assert len(page_errors) == 1
    page_errors.clear()


def test_st_stop_and_st_rerun_pass_through_the_guard(monkeypatch, page_errors):
    def stop(*args):
        st.stop()

    monkeypatch.setattr(bpe, "explain_bpe_start", stop)
    at = open_page("lessons/bpe/page.py")
    assert not at.error and not page_errors
    assert at.title[0].value == "Byte-pair encoding"
    assert not [h for h in at.subheader if h.value.startswith("Pair counts")]


def test_a_panic_no_core_call_caught_is_a_short_error_not_a_dead_page(monkeypatch, page_errors):
    """pyo3's PanicException is a BaseException: it went past `except Exception` and the
    page stayed on "Running..." for good."""

    class PanicException(BaseException):  # as pyo3_runtime defines it
        pass

    def panic(*args, **kwargs):
        raise PanicException("range end index 2 out of range for slice of length 1")

    monkeypatch.setattr(bpe, "explain_bpe_start", panic)
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("lessons/bpe/page.py").run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        f"{BROKEN}: PanicException. Change a setting or reload; the server log has the details."
    ]
    assert len(page_errors) == 1 and page_errors[0].exc_info[0] is PanicException
    page_errors.clear()
