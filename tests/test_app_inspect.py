"""AppTest of the inspector conventions on Compare's side-by-side view: the text in the
address, the whitespace toggle, hover classes shared by a token and its characters, and
each token linked to its card on /vocab."""

import re

import pytest
from apptools import open_page

from lessons.ui.escape import as_text
from subtok_core import compare, corpus

QUERY = {"corpus": "toy:cat-bat", "size": "12", "tok": "bpe,cl100k_base"}


def line_of(at, label: str) -> str:
    """The line of the tokenizer labelled `label` (its label escaped as the page writes it)."""
    return next(m.value for m in at.markdown if m.value.startswith(f"**{as_text(label)}**"))


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_text_from_the_address_and_back():
    at = open_page("lessons/compare/page.py", text="cats  bag", **QUERY)
    assert at.text_area(key="compare_encode").value == "cats  bag"
    at.text_area(key="compare_encode").input("a bat").run()
    assert at.query_params["text"] == "a bat"


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_whitespace_toggle_draws_spaces_as_marks():
    at = open_page("lessons/compare/page.py", text="cats\tbag", **QUERY)
    line = line_of(at, "cl100k_base (GPT-4)")
    assert "·" not in line and "→" not in line
    at.toggle(key="compare_whitespace").set_value(True).run()
    line = line_of(at, "cl100k_base (GPT-4)")
    # cl100k_base cuts it cats | \\tb | ag (tiktoken): the tab starts a token
    assert '">→b</a>' in line
    assert any("· a space" in c.value for c in at.caption)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_token_its_characters_and_its_card_share_one_class():
    at = open_page("lessons/compare/page.py", text="cats bag", **QUERY)
    line = line_of(at, "BPE")
    model = compare.train("bpe", corpus.load("toy:cat-bat"), 12)
    # the BPE chips, in order: ▁cat s ▁b ag (cat-bat, 12 symbols, by the Compare tests)
    ids = [model.vocab.index(p) for p in ("▁cat", "s", "▁b", "ag")]
    for n, token_id in enumerate(ids):
        assert re.search(rf'<a class="t{n}" href="vocab\?tok=bpe&amp;id={token_id}&amp;', line)
        assert f".t{n}:hover) .t{n}" in line  # the hover rule lighting chip and text
    # the text line: 'ag' of bag is covered by token 3 only
    assert '<span class="t3">ag</span>' in line


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_model_trained_on_your_own_text_links_to_no_card_and_says_why():
    """/vocab trains on the corpus its address names: a model of the student's own text
    (not in any address) would be another model there, its ids other tokens."""
    query = {**QUERY, "corpus": "text:your own", "size": "30"}
    at = open_page("lessons/compare/page.py", text="cats bag", **query)
    assert 'href="vocab?tok=bpe' not in line_of(at, "BPE")
    assert 'href="vocab?tok=cl100k_base' in line_of(at, "cl100k_base (GPT-4)")
    said = " ".join(c.value for c in at.caption)
    assert "no card" in said and "your own text" in said


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_model_of_an_unedited_corpus_links_with_its_corpus_and_size():
    at = open_page("lessons/compare/page.py", text="cats bag", **QUERY)
    assert 'href="vocab?tok=bpe&amp;id=' in line_of(at, "BPE")
    assert "corpus=toy%3Acat-bat&amp;size=12" in line_of(at, "BPE")


def test_a_sample_with_punctuation_split_or_an_edited_toy_links_to_no_card():
    from lessons.ui import inspector as inspect
    from lessons.ui.store import fingerprint

    split = fingerprint(corpus.load("sample:lee", True))
    assert inspect.card_corpus("sample:lee", 500, split) == (
        None, "sample:lee with punctuation split off, which the address does not carry"
    )  # fmt: skip
    plain = fingerprint(corpus.load("sample:lee"))
    assert inspect.card_corpus("sample:lee", 500, plain) == (
        {"corpus": "sample:lee", "size": 500},
        "",
    )
    edited = fingerprint(corpus.from_pairs([("cat", "5"), ("bat", "2")], "toy:cat-bat"))
    assert inspect.card_corpus("toy:cat-bat", 12, edited)[0] is None
