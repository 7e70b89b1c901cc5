"""AppTest: the Unigram page steps through E, M and prune, lets the student pick the
removal, draws the lattice, and survives bad input."""

import pytest
from apptools import infos, open_page
from streamlit.testing.v1 import AppTest


def unigram_page(**query) -> AppTest:
    return open_page("lessons/unigram/page.py", **query)


def frame_with(at: AppTest, column: str):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def test_deep_link_opens_the_first_m_step_of_run_bug():
    at = unigram_page(corpus="toy:run-bug", step="2")
    assert at.slider(key="step").value == 2
    said = " ".join([h.value for h in at.subheader] + [x.value for x in at.info])
    assert "Round 1 · Pruning: the loss of removing each piece" in said
    removal = frame_with(at, "loss without it")
    assert list(removal["piece"]) == ["ru", "un", "bu", "ug", "fu", "su"]
    assert {round(v, 3) for v in removal["loss without it"]} == {66.109}
    best = frame_with(at, "segmentation")
    assert list(best["segmentation"]) == ["ru n", "bu g", "fu n", "su n"]
    # the slides' 4-digit rounding is computed and set against the exact loss
    captions = " ".join(c.value for c in at.caption)
    assert "66.102" in captions and "66.109" in captions


def test_the_seed_is_step_zero_and_the_e_step_gives_the_probabilities():
    at = unigram_page(corpus="toy:run-bug")
    assert "Seed: every strict substring" in infos(at) and "13 pieces" in infos(at)
    at.slider(key="step").set_value(1).run()
    vocab = frame_with(at, "probability").set_index("piece")
    assert vocab.loc["u", "frequency"] == 31
    assert abs(vocab.loc["u", "probability"] - 31 / 155) < 1e-12
    assert "frequency / 155" in infos(at)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_student_removes_un_as_the_slides_and_round_two_follows():
    at = unigram_page(corpus="toy:run-bug", step="2")
    at.selectbox(key="unigram_pick_1").set_value("un").run()
    at.button(key="unigram_remove_1").click().run()
    assert at.slider(key="step").value == 3  # "Prune it now" goes on to the prune step
    assert "Pruned un (chosen by you)" in infos(at)
    at.slider(key="step").set_value(5).run()
    removal = frame_with(at, "loss without it").set_index("piece")["loss without it"]
    assert {p: round(v, 3) for p, v in removal.items()} == {
        "bu": 61.165,
        "ug": 61.165,
        "ru": 63.023,
        "su": 67.357,
        "fu": 69.215,
    }


def test_lattice_of_a_typed_word_marks_the_viterbi_path():
    at = unigram_page(corpus="toy:hug-pug", step="1")
    at.text_input(key="unigram_word").input("hugs").run()
    edges = frame_with(at, "on the best path")
    assert list(edges[edges["on the best path"]]["piece"]) == ["hug", "s"]
    assert any("The best path (red, Viterbi): **hug s**" in m.value for m in at.markdown)
    listed = frame_with(at, "P")
    # h u g s, h u gs, h ug s, h ugs, hu g s, hu gs, hug s
    assert len(listed) == 7


def test_bad_choices_show_an_error_and_the_page_keeps_working():
    at = unigram_page(corpus="toy:run-bug")
    at.number_input(key="size").set_value(3).run()
    assert any("smaller than the 7 characters" in e.value for e in at.error)
    at.number_input(key="size").set_value(0).run()
    assert not at.error and "13 pieces" in infos(at)


def test_em_variant_shows_expected_counts_and_posteriors_from_the_url():
    at = unigram_page(corpus="toy:hug-pug", variant="em", step="1")
    assert at.selectbox(key="variant").value == "em"
    assert "E-step" in infos(at)
    vocab = frame_with(at, "expected count")
    assert abs(vocab["probability"].sum() - 1) < 1e-9 and (vocab["expected count"] >= 0).all()
    at.text_input(key="unigram_word").input("hugs").run()
    edges = frame_with(at, "posterior")
    # every segmentation begins with exactly one edge at position 0 (▁ is position 0)
    assert abs(edges[edges["start"] == 0]["posterior"].sum() - 1) < 1e-9
    assert edges["piece"].iloc[0].startswith("\u2581")


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_rounding_caption_credits_001_only_on_its_own_corpus():
    # 001 computes run/bug/fun/sun only; on hug/pug the page says what rounding *would* give
    at = open_page("lessons/unigram/page.py", corpus="toy:run-bug", base="10", step="1")
    assert any(c.value.startswith("The 001 slides round every probability") for c in at.caption)
    at = open_page("lessons/unigram/page.py", corpus="toy:hug-pug", base="10", step="1")
    said = [c.value for c in at.caption if "4 digits" in c.value]
    assert said and all(c.startswith("Rounded to 4 digits") for c in said), said


def test_the_em_seed_is_shown_step_by_step():
    # run-bug as EM reads it, each word a line of its own (▁run▁run▁run, ▁bug x 5, ...): by
    # hand, 8 characters (▁ r u n b g f s), 22 substrings of 2 to 4 characters, 10 followed
    # by two different characters (the whole words, run bug fun sun, un, ug: the next ▁ and
    # the line's end); sentencepiece 0.2 seeds 18 pieces on these lines too
    at = unigram_page(corpus="toy:run-bug", variant="em")
    said = " ".join(m.value for m in at.markdown)
    assert "How the seed is made" in [h.value for h in at.subheader]
    for part in ("**8** characters", "**22** different", "**10** candidates", "**18** pieces"):
        assert part in said
    table = frame_with(at, "followed by")
    # scores: un (3 + 13 + 10) x 2 = 52, ▁fun 13 x 4 = 52 (un seen first), ▁sun 40, ▁fu 39
    assert list(table["substring"][:4]) == ["un", "▁fun", "▁sun", "▁fu"]
    assert list(table["score"][:4]) == [52, 52, 40, 39]
    fu = table.set_index("substring").loc["▁fu"]
    assert (fu["followed by"], fu["candidate"], fu["in the seed"]) == (
        "n",
        "no: one follower",
        "no",
    )
    un = table.set_index("substring").loc["un"]
    assert un["followed by"] == "▁ (next word), end of line" and un["in the seed"] == "yes"
