"""AppTest: the frame, the home page and the BPE page render, and their widgets act."""

from apptools import APP, infos, open_page
from streamlit.testing.v1 import AppTest


def bpe_page(**query) -> AppTest:
    return open_page("lessons/bpe/page.py", **query)


def test_home_links_to_the_bpe_lesson():
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert "subword" in at.title[0].value
    links = [el for el in at.get("page_link")]
    assert any("BPE" in link.proto.label for link in links)


def test_bpe_starts_before_the_first_merge_on_cat_bat():
    at = bpe_page()
    assert at.selectbox(key="corpus").value == "toy:cat-bat"
    assert at.slider(key="step").value == 0
    assert "6 symbols" in infos(at) and "113 symbols long" in infos(at)


def test_moving_the_step_changes_the_shown_merge():
    at = bpe_page()
    at.slider(key="step").set_value(1).run()
    assert "Merge 1: the pair (a, t) occurs 20 times" in infos(at)
    at.button(key="bpe_step_next").click().run()
    assert at.slider(key="step").value == 2
    assert "Merge 2: the pair (a, g) occurs 16 times" in infos(at)
    at.button(key="bpe_step_prev").click().run()
    assert "Merge 1: the pair (a, t)" in infos(at)


def test_low_lower_fourth_merge_is_lo_after_a_tie():
    at = bpe_page()
    at.selectbox(key="corpus").set_value("toy:low-lower").run()
    at.selectbox(key="marker").set_value("eow").run()
    at.slider(key="step").set_value(4).run()
    text = infos(at)
    assert "Merge 4: the pair (l, o) occurs 7 times, tied with (o, w)" in text
    table = next(df.value for df in at.dataframe if "pair" in df.value.columns)
    assert list(table["pair"][:2]) == ["(l, o)", "(o, w)"]
    assert list(table["status"][:2]) == ["merged", "tied"]


def test_query_params_open_the_exact_view():
    at = bpe_page(corpus="toy:low-lower", marker="eow", step="3")
    assert at.slider(key="step").value == 3
    assert "Merge 3: the pair (est, </w>) occurs 9 times" in infos(at)


def test_encode_panel_replays_merges_and_marks_unknown_characters():
    at = bpe_page()
    at.slider(key="step").set_value(3).run()
    at.text_input(key="bpe_encode").input("bags mat").run()
    tokens = [m.value for m in at.markdown if m.value.startswith("**")]
    assert tokens[-1] == "**5 tokens:** `b` `ag` `s` `[UNK]` `at`"
    assert "never seen in training" in infos(at)


def test_predicting_the_next_merge_says_right_or_wrong_and_why():
    at = bpe_page()
    at.selectbox(key="bpe_guess_0").set_value(("b", "a")).run()
    verdicts = " ".join(w.value for w in at.warning)
    assert "(b, a) occurs 17 times, while (a, t) occurs 20 times" in verdicts
    at.selectbox(key="bpe_guess_0").set_value(("a", "t")).run()
    assert at.success[0].value.startswith("Right")


def test_bad_table_shows_an_error_and_the_page_keeps_working():
    at = bpe_page()
    editor_key = "bpe_table_toy:cat-bat"
    at.session_state[editor_key] = {
        "edited_rows": {0: {"count": -3}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert "cannot be negative" in at.error[0].value
    at.session_state[editor_key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.error and "113 symbols" in infos(at)


def test_empty_own_text_is_an_error_not_a_traceback():
    at = bpe_page()
    at.selectbox(key="corpus").set_value("text:your own").run()
    at.text_area(key="bpe_text").input("   ").run()
    assert not at.exception
    assert "empty" in at.error[0].value


def test_merges_number_caps_the_steps_and_an_early_stop_is_explained():
    at = bpe_page()
    at.number_input(key="merges").set_value(2).run()
    assert at.slider(key="step").max == 2 and not at.warning
    at.number_input(key="merges").set_value(100).run()
    # at, ag, then one merge per word (cat, bat, bag, tag, cats) leaves no pair: 7 merges
    assert at.slider(key="step").max == 7
    # the run's natural end, said under the step controls (a caption, not a warning)
    assert "Stopped after 7 merges: no pair is left" in " ".join(c.value for c in at.caption)
    assert not at.warning


def test_the_bpe_page_shows_the_tested_reference_loop():
    """ "Read the code" shows bpe/reference.py, the loop the property tests hold the fast
    trainer to, as its real source."""
    import inspect

    from subtok_core.bpe import reference

    at = bpe_page(corpus="toy:low-lower", marker="eow")
    shown = " ".join(block.value for block in at.code)
    assert inspect.getsource(reference.learn_merges).strip() in shown
    assert "def count_pairs" in shown and "def merge_pair" in shown
