"""A user's token is text on every page that shows one (issue 40): chips, encode panels,
lattices and Compare's tokens put html.escape'd text inside markdown, so a word typed or
trained on, `![x](http://e/x.png) **b** $x^2$ <b>`, became an external image, bold, KaTeX
or a tag. Each page here is given that text and, as a twin, the same words in letters;
the markdown it draws is rendered as a browser gets it (tests/mdtools.py) and must hold
no image, math or formatting the twin's does not, and show the text as typed."""

from __future__ import annotations

import pytest
from apptools import open_page
from mdtools import HOSTILE, PLAIN, assert_shown_as_text
from streamlit.testing.v1 import AppTest

HOSTILE_TEXT, PLAIN_TEXT = " ".join(HOSTILE), " ".join(PLAIN)


def corpus_page(page: str, prefix: str, words: str, **query) -> AppTest:
    """`page` trained on the student's own text, `words` twice and two plain words."""
    at = open_page(page, corpus="text:your own", **query)
    at.text_area(key=f"{prefix}_text").set_value(f"{words} {words} low lower").run()
    return at


def typed_page(page: str, box: str, words: str, **query) -> AppTest:
    """`page` with `words` typed into its text box `box`."""
    at = open_page(page, **query)
    boxes = [b for b in (*at.text_input, *at.text_area) if b.key == box]
    assert boxes, f"no box {box}"
    boxes[0].set_value(words).run()
    return at


@pytest.mark.parametrize(
    ("page", "prefix", "query"),
    [
        ("lessons/bpe/page.py", "bpe", {"step": "1"}),
        ("lessons/bpe/page.py", "bpe", {"step": "3"}),
        ("lessons/bytebpe/page.py", "bytebpe", {"step": "1"}),
    ],
)
def test_chips_of_the_students_own_text_are_text(page, prefix, query):
    hostile = corpus_page(page, prefix, HOSTILE_TEXT, **query)
    assert_shown_as_text(hostile, corpus_page(page, prefix, PLAIN_TEXT, **query))


@pytest.mark.parametrize(
    ("page", "box", "query"),
    [
        ("lessons/bpe/page.py", "bpe_encode", {"corpus": "toy:low-lower", "step": "2"}),
        ("lessons/wordpiece/page.py", "wordpiece_encode", {"corpus": "toy:low-lower", "step": "2"}),
        ("lessons/bytebpe/page.py", "bytebpe_encode", {"corpus": "toy:low-lower"}),
        pytest.param(  # compare trains its tokenizers: long (fast tier: README)
            "lessons/compare/page.py", "compare_encode", {}, marks=pytest.mark.slow
        ),
    ],
)
def test_a_typed_text_is_text(page, box, query):
    hostile = typed_page(page, box, HOSTILE_TEXT, **query)
    assert_shown_as_text(hostile, typed_page(page, box, PLAIN_TEXT, **query))


@pytest.mark.slow  # two unigram runs
def test_the_lattice_of_a_typed_word_is_text():
    """/unigram trained on the words, so that the word typed has a lattice."""

    def typed(words: str) -> AppTest:
        at = corpus_page("lessons/unigram/page.py", "unigram", words, step="1")
        at.text_input(key="unigram_word").set_value(words.split()[0] + words.split()[1]).run()
        return at

    assert_shown_as_text(typed(HOSTILE_TEXT), typed(PLAIN_TEXT), ("x.png",))


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_dropout_panels_typed_word_is_text():
    """Trained on the words themselves, so that their characters are symbols, not [UNK]."""

    def opened(words: str) -> AppTest:
        at = corpus_page("lessons/bpe/page.py", "bpe", words, step="4")
        at.session_state["bpe_dropout_open"] = True  # the student opens the folded panel
        at.run()
        (box,) = [t for t in at.text_input if t.key == "bpe_reg_text"]
        box.set_value(words.replace(" ", "")).run()
        return at

    assert_shown_as_text(opened(HOSTILE_TEXT), opened(PLAIN_TEXT))


def test_a_line_break_in_a_token_does_not_end_the_chips_html():
    """A blank line ends the HTML block a row of chips stands in: what follows it would be
    markdown again, so a line break is written as a character reference."""
    from lessons.ui.chips import chips

    row = chips(["a\n\n**b**", "c"])
    assert "\n" not in row and "**" not in row
