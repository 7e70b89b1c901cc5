"""AppTest: each page keeps its own view and the address says which (issue 14, "Pages leak
into each other"); a page opens on its corpus's own settings (issue 16: 003's `est</w>` at
step 3, the Hugging Face course's 169.803); one slip in a toy table does not replace the
lesson (issue 14).

AppTest runs the server's side only, so two things the browser does are done here by hand,
as the browser does them (Streamlit 1.67's frontend, static/js/index.*.js):
- a click in the sidebar sends neither the old page's widgets nor its address (sidebar());
  AppTest.switch_page would send both;
- a student's change of a widget bound to the address is written into the address by the
  browser itself, the default left out (choose()).
Whatever else the address holds after a run the server put there, and that is checked.
"""

from __future__ import annotations

import sys
from math import log
from pathlib import Path

import pytest
from apptools import infos, open_page
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).parents[1]))  # lessons/, as the app imports it
from lessons.ui.compat import run_bare  # noqa: E402

CATBAT_START = "113 symbols long"  # cat-bat before its first merge (tests/test_app.py)


def sidebar(at: AppTest, page: str) -> AppTest:
    """Go to `page` as its link in the sidebar does: a bare address, and no widget of the
    page left behind (AppTest's public run sends the widgets of the tree it holds)."""
    at.query_params.clear()
    at.switch_page(page)
    run_bare(at)  # the run with no widget states, as the browser's
    assert not at.exception, at.exception
    return at


def choose(at: AppTest, widget, value, default) -> AppTest:
    """The student sets a widget bound to the address: the value, and the address as the
    browser writes it (without the parameter when the value is the widget's default)."""
    widget.set_value(value)
    if value == default:
        at.query_params.pop(widget.key, None)
    else:
        at.query_params[widget.key] = str(value)
    at.run()
    assert not at.exception, at.exception
    return at


def view(at: AppTest) -> tuple[str, int]:
    return at.selectbox(key="corpus").value, at.slider(key="step").value


def captions(at: AppTest) -> str:
    return " ".join(c.value for c in at.caption)


# --- each page keeps its own view ------------------------------------------------------


LOW_LOWER = {"marker": "eow", "ties": "first", "merges": "10"}  # 003's settings (toys.toml)
# WordPiece's sunflower at merge 2, its settings named (the page's defaults: first, 10)
SUNFLOWER_2 = {"corpus": "toy:sunflower", "step": "2", "ties": "first", "merges": "10"}


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_each_page_opens_on_its_own_last_view_and_the_address_says_which():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="5")
    assert view(at) == ("toy:low-lower", 5)
    assert "Merge 5: the pair (lo, w) occurs 7 times" in infos(at)

    sidebar(at, "lessons/wordpiece/page.py")  # its own default corpus, before its first merge
    assert view(at) == ("toy:sunflower", 0)
    assert at.query_params == {}  # the defaults are not in the address
    assert "Before the first merge" in infos(at)
    choose(at, at.slider(key="step"), 2, 0)
    assert "Merge 2: (##e, ##r) scores 1/4" in infos(at)

    sidebar(at, "lessons/bpe/page.py")  # back as it was left, the address naming all of it
    assert view(at) == ("toy:low-lower", 5) and at.selectbox(key="marker").value == "eow"
    assert at.query_params == {"corpus": "toy:low-lower", "step": "5", **LOW_LOWER}
    assert "Merge 5: the pair (lo, w) occurs 7 times" in infos(at)

    sidebar(at, "lessons/unigram/page.py")  # never opened yet: its defaults, nothing of /bpe's
    assert view(at) == ("toy:run-bug", 0) and at.query_params == {}

    sidebar(at, "lessons/wordpiece/page.py")
    assert view(at) == ("toy:sunflower", 2) and at.query_params == SUNFLOWER_2
    assert "Merge 2: (##e, ##r) scores 1/4" in infos(at)
    at.run()  # the next run keeps it
    assert view(at) == ("toy:sunflower", 2) and at.query_params == SUNFLOWER_2


def test_a_link_with_parameters_opens_what_it_says_not_the_remembered_view():
    """Streamlit (1.67) drops, on a page change inside a session, the parameters that a
    widget of the page left binds (its own /wordpiece?corpus=...); a link to a lesson comes
    from a page that binds none, as /notes and /check."""
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="5")
    sidebar(at, "lessons/notes/page.py")
    at.query_params["corpus"] = "toy:fox"  # a link from the notes page to /bpe
    at.switch_page("lessons/bpe/page.py")
    run_bare(at)
    assert view(at) == ("toy:fox", 0) and at.query_params == {"corpus": "toy:fox"}


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_new_corpus_starts_at_step_zero_from_its_own_settings():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="5")
    choose(at, at.selectbox(key="marker"), "suffix", "eow")
    assert at.query_params == {"corpus": "toy:low-lower", "step": "5", "marker": "suffix"}

    choose(at, at.selectbox(key="corpus"), "toy:fox", "toy:cat-bat")
    assert view(at) == ("toy:fox", 0)
    assert at.selectbox(key="marker").value == "eow"  # 004's, as fox's source says
    # the server took the step out, and the address names fox's own settings (004's)
    assert at.query_params == {
        "corpus": "toy:fox",
        "marker": "eow",
        "ties": "first",
        "merges": "10",
    }
    said = "As in 004: `</w>` after each word, and a tie goes to the pair met first in the text."
    assert said in captions(at)

    choose(at, at.selectbox(key="corpus"), "toy:cat-bat", "toy:cat-bat")
    assert view(at) == ("toy:cat-bat", 0)
    assert at.query_params == {
        "corpus": "toy:cat-bat",
        "marker": "none",
        "ties": "first",
        "merges": "7",
    }
    assert at.selectbox(key="marker").value == "none"
    assert at.number_input(key="merges").value == 7 and CATBAT_START in infos(at)
    assert at.text_input(key="bpe_encode").value == "bags"


# --- a corpus's own settings -------------------------------------------------------------


def test_003s_deep_link_without_a_marker_merges_est_w_third_and_says_why():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="3")
    assert "Merge 3: the pair (est, </w>) occurs 9 times" in infos(at)  # 003: 6 + 3 = 9
    said = "As in 003: `</w>` after each word, and a tie goes to the pair met first in the corpus."
    assert said in captions(at)
    assert at.query_params == {"corpus": "toy:low-lower", "step": "3"}
    assert at.text_input(key="bpe_encode").value == "lowest"


def test_the_address_overrides_the_corpus_settings_and_the_caption_goes():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="3", marker="none")
    assert at.selectbox(key="marker").value == "none"
    assert "(est, </w>)" not in infos(at) and "`</w>` after each word" not in captions(at)
    assert "As in 003: a tie goes to the pair met first in the corpus." in captions(at)
    assert at.query_params == {"corpus": "toy:low-lower", "step": "3", "marker": "none"}


def test_hug_pug_opens_in_the_natural_log_of_the_hugging_face_course():
    at = open_page("lessons/unigram/page.py", corpus="toy:hug-pug", step="1")
    assert at.selectbox(key="base").value == "e" and at.query_params.get("base") is None
    # By hand from the course's seed (004 quotes it: frequencies summing to 210): each
    # word's best segmentation (a tie gives the same P), loss = -sum count x ln P. The course
    # prints the rounded probabilities 0.071428, 0.007710, 0.006168, 0.001451, 0.001701 and
    # a loss of 169.8.
    best = {  # word: (count, P of its best segmentation), P(piece) = frequency / 210
        "hug": (10, 15 / 210),
        "pug": (5, 17 / 210 * 20 / 210),  # pu g (or p ug)
        "pun": (12, 17 / 210 * 16 / 210),  # pu n
        "bun": (4, 4 / 210 * 16 / 210),  # bu n
        "hugs": (5, 15 / 210 * 5 / 210),  # hug s
    }
    loss = -sum(count * log(p) for count, p in best.values())
    assert f"{loss:.3f}" == "169.803"
    assert "loss 169.803" in infos(at)
    assert "As in the Hugging Face course: the loss in natural log (base e)." in captions(at)


def test_run_bug_keeps_001s_log_base_10_and_says_so():
    at = open_page("lessons/unigram/page.py")
    assert at.selectbox(key="corpus").value == "toy:run-bug"
    assert at.selectbox(key="base").value == "10"
    assert "As in 001: the loss in log base 10." in captions(at)


@pytest.mark.slow  # a real sample
def test_the_target_vocab_size_says_what_0_means_and_a_sample_shows_its_size():
    at = open_page("lessons/unigram/page.py")
    size = at.number_input(key="size")
    assert size.value == 0 and "0: characters only" in size.label
    at = open_page("lessons/unigram/page.py", corpus="sample:lee")
    assert at.number_input(key="size").value == 2000
    assert at.query_params == {"corpus": "sample:lee"}


@pytest.mark.slow  # a real sample
def test_a_textbook_seed_too_big_for_a_sample_says_where_its_settings_are():
    at = open_page("lessons/unigram/page.py", corpus="sample:lee")
    said = " ".join(e.value for e in at.error)
    assert "seed size" in said and 'in "Seed and pruning settings", above' in said
    box = next(e for e in at.expander if e.label.startswith("Seed and pruning settings"))
    assert box.proto.expanded  # opened, the seed's choice in sight


# --- one slip in the toy table -----------------------------------------------------------

TABLE = "bpe_table_toy:cat-bat"


def edit(at: AppTest, edited=None, added=()) -> AppTest:
    """The table as the student left it: edited cells by row, rows added at the end."""
    at.session_state[TABLE] = {
        "edited_rows": edited or {},
        "added_rows": list(added),
        "deleted_rows": [],
    }
    return at.run()


def table_errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def test_a_slip_in_the_table_names_its_row_and_the_lesson_goes_on():
    at = open_page("lessons/bpe/page.py")
    lesson = infos(at)
    assert CATBAT_START in lesson

    edit(at, edited={1: {"count": "abc"}})
    assert table_errors(at) == [
        "Row 2: the count of 'bat' is 'abc', not a whole number. The lesson goes on with the "
        "table as it was before this change."
    ]
    assert infos(at) == lesson and at.slider(key="step").max == 7

    edit(at, edited={1: {"count": 2.5}})  # a fraction is not cut to 2
    assert table_errors(at)[0].startswith("Row 2: the count of 'bat' is '2.5', not a whole")
    assert infos(at) == lesson

    edit(at, added=[{}])  # the empty row the table adds when its last row is clicked
    assert not table_errors(at) and infos(at) == lesson


def test_the_lesson_keeps_the_last_table_that_could_be_used():
    at = open_page("lessons/bpe/page.py")
    edit(at, edited={0: {"count": "11"}})  # cat 11: (a, t) in cat, bat, cats: 11 + 5 + 5
    at.slider(key="step").set_value(1).run()
    assert "Merge 1: the pair (a, t) occurs 21 times" in infos(at)
    edit(at, edited={0: {"count": "11"}}, added=[{"word": "dog", "count": None}])
    assert table_errors(at)[0].startswith("Row 6: the count of 'dog' is empty")
    assert "Merge 1: the pair (a, t) occurs 21 times" in infos(at)
