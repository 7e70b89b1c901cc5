"""AppTest: the step controls (first, previous, next, last, play, each with its key on the
keyboard) and presenter mode (?present=1): the step view only, the settings kept."""

import pytest
from apptools import infos, open_page

LESSONS = ["bpe", "wordpiece", "unigram", "bytebpe", "picky"]
KEYS = {"first": "Home", "prev": "Left", "next": "Right", "last": "End", "play": "Alt+P"}


@pytest.mark.parametrize("page", LESSONS)
def test_every_step_button_has_its_key_on_the_keyboard(page):
    at = open_page(f"lessons/{page}/page.py", step="1")
    for name, key in KEYS.items():
        assert at.button(key=f"{page}_step_{name}").proto.shortcut == key.lower(), name


def test_the_buttons_step_and_jump_and_the_address_follows():
    # 003's corpus: ten merges, merge 3 is est</w> and merge 4 (l, o) (003's slides)
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", step="3")
    assert "Merge 3: the pair (est, </w>) occurs 9 times" in infos(at)
    at.button(key="bpe_step_next").click().run()
    assert "Merge 4: the pair (l, o) occurs 7 times" in infos(at)
    assert at.query_params["step"] == "4"
    at.button(key="bpe_step_last").click().run()
    assert at.slider(key="step").value == 10 and at.query_params["step"] == "10"
    assert at.button(key="bpe_step_next").disabled and at.button(key="bpe_step_last").disabled
    at.button(key="bpe_step_first").click().run()
    assert at.slider(key="step").value == 0 and "step" not in at.query_params
    assert at.button(key="bpe_step_prev").disabled


def test_play_offers_a_speed_and_pause_stops_it():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", step="3")
    assert not at.radio  # no speed choice before playing
    at.button(key="bpe_step_play").click().run()
    assert at.session_state["bpe_step_playing"] is True
    assert at.radio(key="bpe_step_speed").value == "normal (1.5 s)"
    at.button(key="bpe_step_play").click().run()
    assert at.session_state["bpe_step_playing"] is False and not at.radio


@pytest.mark.slow  # a timer's reruns
def test_play_at_the_last_step_starts_again_from_the_first():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", step="10")
    at.button(key="bpe_step_play").click().run()
    assert at.slider(key="step").value == 0


def test_presenter_mode_shows_the_step_view_and_stops_there():
    normal = open_page("lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", step="3")
    shown = open_page(
        "lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", step="3", present="1"
    )
    heads = [h.value for h in shown.subheader]
    assert "Pair counts before merge 3" in heads and "Corpus after merge 3" in heads
    assert "Merge 3: the pair (est, </w>) occurs 9 times" in infos(shown)
    # below the step view: the growth chart, predict, encode and downloads are not drawn
    for gone in ("Vocabulary grows, the corpus shrinks", "Predict the next merge", "Download"):
        assert gone in [h.value for h in normal.subheader]
        assert gone not in heads
    # the settings are still made (hidden by CSS), so the address keeps its values
    assert shown.selectbox(key="corpus").value == "toy:low-lower"
    assert any(b.label == "exit presenter mode" for b in shown.button)
    assert not any(t.label == "Presenter mode" for t in shown.toggle)


def test_presenter_mode_keeps_the_class_poll_and_can_be_left():
    at = open_page("lessons/wordpiece/page.py", corpus="toy:sunflower", step="2", present="1")
    assert any("Class poll" in e.label for e in at.expander)
    next(b for b in at.button if b.label == "exit presenter mode").click().run()
    assert "present" not in at.query_params
    assert any(t.label == "Presenter mode" for t in at.toggle)
    assert at.slider(key="step").value == 2


@pytest.mark.slow  # a timer's reruns
def test_the_presenter_switch_in_the_sidebar_turns_it_on():
    at = open_page("lessons/unigram/page.py", corpus="toy:run-bug", step="1")
    next(t for t in at.toggle if t.label == "Presenter mode").set_value(True).run()
    assert at.query_params["present"] == "1"
    assert any(b.label == "exit presenter mode" for b in at.button)
