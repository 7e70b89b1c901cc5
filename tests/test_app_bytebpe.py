"""AppTest: the byte-level BPE page (/bytebpe) opens a deep link on its step, steps, shows
bytes in either display, replays cl100k_base exactly as tiktoken encodes, judges the quiz
and draws BPE-dropout samples.

Expected values: the step sentence is the core's explain (held to the hand counts of
bytebpe/explain.py); merge 4 of toy:emoji-cjk is the emoji's first two bytes F0 9F,
counted by hand: the text has 5 emoji (😀, 😀😀, 🐱🐶), each starting F0 9F, and no
other pair occurs 5 times once ' the' is made; the ids are tiktoken's own.
"""

from __future__ import annotations

import time

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from subtok_core import bytebpe

HELLO = "hello 😀 world 12345"


def page(**query) -> AppTest:
    return open_page("lessons/bytebpe/page.py", **query)


def new_chips(at: AppTest) -> list[str]:
    """The texts of the red chips (the symbol the step made), in the page's markdown."""
    found = []
    for md in at.markdown:
        for part in md.value.split('<span class="chip new">')[1:]:
            found.append(part.split("</span>")[0])
    return found


def frame_with(at: AppTest, column: str):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def test_deep_link_renders_the_step_sentence_of_the_core():
    at = page(corpus="toy:emoji-cjk", step="3")
    assert at.slider(key="step").value == 3
    trace = bytebpe.trace_bytebpe(bytebpe.load("toy:emoji-cjk"), merges=10)
    assert [i.value for i in at.info] == [bytebpe.explain(trace, 3)]
    assert "Merge 3: the pair ('Ġ', 'the') (shown ' the') occurs 5 times" in at.info[0].value
    assert not at.warning and not at.error


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_previous_and_next_move_the_step_and_the_address():
    at = page(corpus="toy:emoji-cjk", step="3")
    at.button(key="bytebpe_step_next").click().run()
    assert at.slider(key="step").value == 4 and at.query_params["step"] == "4"
    assert at.info[0].value.startswith("Merge 4: the pair ('ð', 'Ł') (shown '<F0 9F>') occurs 5")
    at.button(key="bytebpe_step_prev").click().run()
    at.button(key="bytebpe_step_prev").click().run()
    assert at.slider(key="step").value == 2 and at.query_params["step"] == "2"


def test_the_byte_display_changes_how_a_token_cut_from_an_emoji_is_shown():
    at = page(corpus="toy:emoji-cjk", step="4")
    assert set(new_chips(at)) == {"&lt;F0 9F&gt;"}  # hex: the two bytes of no whole character
    at.selectbox(key="bytes").set_value("gpt2").run()
    assert set(new_chips(at)) == {"ðŁ"}  # GPT-2's letters for bytes F0 and 9F
    pairs = frame_with(at, "status")
    assert pairs.loc[pairs["status"] == "merged", "pair"].tolist() == ["ð + Ł"]


def test_the_pre_split_marks_the_part_of_the_pattern_each_chunk_matched():
    at = page(corpus="toy:emoji-cjk", pattern="cl100k")
    parts = frame_with(at, "regular expression")
    assert len(parts) == len(bytebpe.PARTS["cl100k"])
    # cl100k cuts 12345 into 123 + 45: the digit part (3) matches both
    chips = " ".join(md.value for md in at.markdown)
    assert "123<sub>3</sub>" in chips and "45<sub>3</sub>" in chips


def test_replay_with_cl100k_base_gives_tiktokens_ids(tiktoken_cl100k):
    at = page(corpus="toy:emoji-cjk")
    at.text_input(key="bytebpe_encode").input(HELLO).run()
    at.radio(key="bytebpe_vocab").set_value("cl100k_base").run()
    tokens = frame_with(at, "id")
    expected = tiktoken_cl100k.encode(HELLO)
    assert tokens["id"].tolist() == expected
    # every token's bytes as tiktoken has them: the emoji's 4 bytes are cut across tokens
    hexes = [tiktoken_cl100k.decode_single_token_bytes(n).hex(" ").upper() for n in expected]
    assert tokens["bytes"].tolist() == hexes
    merges = frame_with(at, "parts after")
    assert "rank" in merges.columns


def test_the_quiz_judges_a_right_and_a_wrong_guess():
    at = page(corpus="toy:emoji-cjk", step="3")
    at.selectbox(key="bytebpe_guess_3").set_value(("ð", "Ł")).run()
    assert at.success and not at.warning
    at.selectbox(key="bytebpe_guess_3").set_value(("Ġ", "c")).run()
    assert not at.success and at.warning
    assert "occurs 4 times" in at.warning[0].value  # ' c': cat x3, cost x1


def test_dropout_p_one_leaves_the_single_bytes():
    at = page(corpus="toy:emoji-cjk", step="10")
    at.slider(key="bytebpe_drop_p").set_value(1.0).run()
    rows = " ".join(md.value for md in at.markdown)
    # "the cat 😀": 3 + 4 + 5 bytes, so 12 single-byte tokens in every sample
    assert rows.count("(12 tokens)") == 5
    at.slider(key="bytebpe_drop_p").set_value(0.0).run()
    plain = len(
        bytebpe.segment(
            bytebpe.train_bytebpe(bytebpe.load("toy:emoji-cjk"), 10), "the cat 😀"
        ).pieces
    )
    assert " ".join(md.value for md in at.markdown).count(f"({plain} tokens)") == 6


def test_our_own_text_trains_and_an_empty_one_is_refused():
    at = page(corpus="text:your own")
    assert not at.error and at.slider(key="step")
    at.text_area(key="bytebpe_text").input("   ").run()
    assert [e.value for e in at.error] == ["The text is empty: type or upload some words first."]


def test_a_typed_sentence_replays_with_cl100k_base_in_under_100_ms():
    encoder = bytebpe.for_tokenizer("cl100k_base")
    sentence = "The quick brown fox jumps over the lazy dog, 12345 times 😀 東京 at 3:45pm!"
    bytebpe.replay_text(encoder, sentence, where="web")  # the ranks are loaded once
    best = min(
        _timed(lambda: bytebpe.replay_text(encoder, sentence, where="web")) for _ in range(5)
    )
    assert best < 0.1


def _timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start
