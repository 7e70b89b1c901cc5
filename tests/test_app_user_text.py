"""A user's token or symbol is text, never markdown (issue 40): token strings in /vocab's
merge trees (trained here on a text that holds them) and the symbols of a pasted merges
list in /check's verdict held bold, KaTeX, an external image and a tag, and the page
rendered them (the image was fetched). Each must reach the page escaped: no element
whose body is markdown carries the string as written outside a code span (a code span
shows its text as it is), and the escaped body, read back, holds it literally."""

from __future__ import annotations

import html
import re

import pytest
from apptools import broken, open_page
from streamlit.testing.v1 import AppTest

from subtok_core import compare, corpus

# bold, KaTeX, an external image, a tag (no space: the corpus is split at spaces)
HOSTILE = ("**b**", "$x$", "![i](http://x/y.png)", "<img/src=x>")
MARKDOWN_KINDS = ("markdown", "caption", "info", "error", "success", "warning", "header",
                  "subheader", "title")  # fmt: skip
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)


def bodies(at: AppTest) -> list[str]:
    """The body of every element that Streamlit renders as markdown."""
    return [e.value for kind in MARKDOWN_KINDS for e in getattr(at, kind)]


def assert_literal(at: AppTest, strings) -> None:
    """None of `strings` stands as written in a markdown body (code spans aside), and each
    is in a body once its character references are read (so the test looked where the
    string goes)."""
    assert not at.exception and not broken(at), at.exception
    shown = bodies(at)
    raw = [(s, v) for v in shown for s in strings if s in CODE_SPAN.sub("", v)]
    assert not raw, raw
    read = "\n".join(html.unescape(v) for v in shown)
    assert all(s in read for s in strings), [s for s in strings if s not in read]


# not slow: the fast tier's run of /vocab (a toy BPE on a short text, five runs of the page)
def test_tokens_in_vocabs_merge_tree_are_text():
    text = " ".join(HOSTILE * 3)
    model = compare.train("bpe", corpus.from_text(text, False, name="your text"), 200)
    at = open_page("lessons/vocab/page.py", corpus="text:your own", size="200", tok="bpe", id="0")
    at.text_area(key="vocab_text").set_value(text).run()
    for hostile in HOSTILE:
        token_id = next(i for i, p in enumerate(model.vocab) if p.endswith(hostile))
        at.number_input(key="id").set_value(token_id).run()
        assert any('class="tree"' in v for v in bodies(at)), "no merge tree drawn"
        assert_literal(at, [hostile])


@pytest.mark.parametrize(
    ("pasted", "named"),
    [
        ("**b** $x$\n", ["**b**", "$x$"]),
        ("![i](http://x/y.png) <img/src=x>\n", ["![i](http://x/y.png)", "<img/src=x>"]),
        ('{"merges": [["<img src=x>", "$x$"]]}', ["<img src=x>", "$x$"]),  # a tag with a space
    ],
)
def test_symbols_in_checks_verdict_are_text(pasted, named):
    """The first merge is the student's pair, not the reference's (a, a) on runs: the
    verdict names it."""
    at = open_page("lessons/check/page.py", data="exercise:runs")
    at.text_area[0].set_value(pasted).run()
    assert at.info, "no verdict drawn"
    assert_literal(at, named)


def test_a_line_that_is_no_merge_is_named_as_text_on_check():
    at = open_page("lessons/check/page.py", data="exercise:runs")
    at.text_area[0].set_value("a b\n![i](http://x/y.png)\n").run()
    assert at.error, "no error said"
    assert_literal(at, ["![i](http://x/y.png)"])


def chat_text(body: str) -> str:
    """The text between the tags of a row of chat chips (its style, the bold label before
    it and the role marks after each token left out)."""
    chips = body.split('<div class="chat">', 1)[1]
    chips = re.sub(r'<span class="role">.*?</span>', "", chips)
    return re.sub(r"<[^>]*>", "", chips)


@pytest.mark.slow
def test_tokens_of_a_typed_chat_are_text_between_the_chips_tags():
    """A chip row is a markdown paragraph (it starts with the tokenizer's name in bold),
    so markdown signs between the tags would pair up across chips (bold, an image): each
    sign of the typed turn stands as a character reference there."""
    typed = " ".join(HOSTILE)
    at = open_page("lessons/vocab/page.py", corpus="toy:cat-bat", size="12")
    at.text_area(key="vocab_chat_user").set_value(typed).run()
    rows = [v for v in bodies(at) if '<div class="chat">' in v]
    assert rows, "no chat chips drawn"
    for body in rows:
        between = chat_text(body)
        assert not set("*$![]()<>") & set(between), between
        assert all(hostile in html.unescape(between) for hostile in HOSTILE), between


@pytest.mark.slow
def test_an_uploaded_files_name_is_text_on_vocab():
    from tokenizers import Tokenizer, models

    name = "**b**$x$<img src=x>.json"
    raw = Tokenizer(models.WordLevel({"[UNK]": 0, "hi": 1}, unk_token="[UNK]")).to_str()
    at = open_page("lessons/vocab/page.py", corpus="toy:cat-bat", size="12")
    at.file_uploader(key="vocab_hf_file").set_value((name, raw.encode(), "application/json"))
    at.run()
    at.selectbox(key="tok").set_value(f"hf:{name}").run()
    assert_literal(at, [name])
