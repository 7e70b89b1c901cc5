"""AppTest of the inspector conventions on Compare's side-by-side view: the text in the
address, the whitespace toggle, hover classes shared by a token and its characters, and
each token linked to its card on /vocab."""

import re

from apptools import open_page

from lessons._escape import as_text
from subtok_core import compare, corpus

QUERY = {"corpus": "toy:cat-bat", "size": "12", "tok": "bpe,cl100k_base"}


def line_of(at, label: str) -> str:
    """The line of the tokenizer labelled `label` (its label escaped as the page writes it)."""
    return next(m.value for m in at.markdown if m.value.startswith(f"**{as_text(label)}**"))


def test_text_from_the_address_and_back():
    at = open_page("lessons/compare.py", text="cats  bag", **QUERY)
    assert at.text_area(key="compare_encode").value == "cats  bag"
    at.text_area(key="compare_encode").input("a bat").run()
    assert at.query_params["text"] == "a bat"


def test_whitespace_toggle_draws_spaces_as_marks():
    at = open_page("lessons/compare.py", text="cats\tbag", **QUERY)
    line = line_of(at, "cl100k_base (GPT-4)")
    assert "·" not in line and "→" not in line
    at.toggle(key="compare_whitespace").set_value(True).run()
    line = line_of(at, "cl100k_base (GPT-4)")
    # cl100k_base cuts it cats | \\tb | ag (tiktoken): the tab starts a token
    assert '">→b</a>' in line
    assert any("· a space" in c.value for c in at.caption)


def test_a_token_its_characters_and_its_card_share_one_class():
    at = open_page("lessons/compare.py", text="cats bag", **QUERY)
    line = line_of(at, "BPE")
    model = compare.train("bpe", corpus.load("toy:cat-bat"), 12)
    # the BPE chips, in order: ▁cat s ▁b ag (cat-bat, 12 symbols, by the Compare tests)
    ids = [model.vocab.index(p) for p in ("▁cat", "s", "▁b", "ag")]
    for n, token_id in enumerate(ids):
        assert re.search(rf'<a class="t{n}" href="vocab\?tok=bpe&amp;id={token_id}&amp;', line)
        assert f".t{n}:hover) .t{n}" in line  # the hover rule lighting chip and text
    # the text line: 'ag' of bag is covered by token 3 only
    assert '<span class="t3">ag</span>' in line
