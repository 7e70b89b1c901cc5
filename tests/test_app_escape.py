"""Every user string that reaches markdown with HTML allowed is escaped (issue 26): an
uploaded file's name held `<iframe srcdoc=...>` and ran script in the Compare page. Each
place that shows a user's text with unsafe_allow_html is fed HTML here; the tag must come
out as text (&lt;...), never as a tag."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from lessons.ui.escape import as_text, inline_code
from tests.apptools import broken, open_page
from tests.test_app_compare_upload import GOOD, compare_page, upload

IFRAME = "<iframe srcdoc=alert(1)>"
BOLD = "<b>bold</b>"
HOSTILE = f"{IFRAME}{BOLD}"


def html_shown(at: AppTest) -> list[str]:
    """The markdown elements of the page that allow HTML."""
    return [m.value for m in at.markdown if m.proto.allow_html]


def escaped_tags(at: AppTest) -> int:
    """How many escaped '<' the page's HTML elements show."""
    return sum(v.count("&lt;") for v in html_shown(at))


def assert_escaped(at: AppTest, before: int) -> None:
    """No HTML element shows a raw iframe or <b>bold, and more escaped '<' show than
    `before` the hostile text was given (so the test looked where the text goes)."""
    assert not at.exception and not broken(at), at.exception
    shown = html_shown(at)
    assert not [v for v in shown if "<iframe" in v or "<b>bold" in v]
    assert escaped_tags(at) > before, shown


def test_the_helper_escapes_tags_and_markdown_signs():
    assert as_text(HOSTILE) == (
        "&lt;iframe srcdoc=alert&#40;1&#41;&gt;&lt;b&gt;bold&lt;&#47;b&gt;".replace("&#47;", "/")
    )
    assert as_text("[x](javascript:1) **b** $x$") == (
        "&#91;x&#93;&#40;javascript&#58;1&#41; &#42;&#42;b&#42;&#42; &#36;x&#36;"
    )


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_an_uploaded_tokenizers_file_name_and_the_typed_text_are_escaped_on_compare():
    name = f"{HOSTILE}.json"
    at = upload(compare_page(), name, GOOD)
    before = escaped_tags(at)
    at.multiselect(key="compare_tok").set_value(["bpe", f"hf:{name}"]).run()
    assert_escaped(at, before)  # the file's name over its tokens
    assert any(f"**{as_text(name + ' (tokenizers)')}**" in v for v in html_shown(at))
    before = escaped_tags(at)
    at.text_area(key="compare_encode").set_value(f"low {HOSTILE}").run()
    assert_escaped(at, before)  # and the tokens of the text


@pytest.mark.parametrize(
    ("page", "box", "query"),
    [
        ("lessons/bpe/page.py", "bpe_encode", {"corpus": "toy:low-lower", "step": "2"}),
        ("lessons/wordpiece/page.py", "wordpiece_encode", {"corpus": "toy:low-lower", "step": "2"}),
        ("lessons/bytebpe/page.py", "bytebpe_encode", {"corpus": "toy:low-lower"}),
    ],
)
def test_a_typed_text_is_escaped_in_a_lessons_encode_panel(page, box, query):
    at = open_page(page, **query)
    before = escaped_tags(at)
    at.text_input(key=box).set_value(HOSTILE).run()
    assert_escaped(at, before)


def test_words_of_the_students_own_text_are_escaped_in_the_corpus_view():
    at = open_page("lessons/bpe/page.py", corpus="text:your own", step="1")
    before = escaped_tags(at)
    at.text_area(key="bpe_text").set_value(f"{HOSTILE} low low lower").run()
    assert_escaped(at, before)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_bpe_dropout_panel_escapes_the_typed_word():
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="4")
    at.session_state["bpe_dropout_open"] = True  # the student opens the folded panel
    at.run()
    boxes = [t for t in at.text_input if t.key == "bpe_reg_text"]
    assert boxes, "the dropout panel did not open"
    before = escaped_tags(at)
    boxes[0].set_value(HOSTILE).run()
    assert_escaped(at, before)


def closed_code_span(markdown: str) -> str:
    """The text of the code span that opens `markdown`, read by CommonMark's rule (6.1): it
    ends at the first run of exactly as many backticks as opened it; one space is taken off
    each end when both ends are spaces. The span must take all of `markdown`."""
    opening = len(markdown) - len(markdown.lstrip("`"))
    at = opening
    while True:
        start = markdown.index("`", at)
        end = start
        while end < len(markdown) and markdown[end] == "`":
            end += 1
        if end - start == opening:
            break
        at = end
    assert end == len(markdown), f"the span closes early: {markdown!r}"
    inside = markdown[opening:start]
    if inside.startswith(" ") and inside.endswith(" ") and inside.strip(" "):
        inside = inside[1:-1]
    return inside


@pytest.mark.parametrize("piece", ["ab", "a`b", "``x", "x``", "a```b`c", "`", "```"])
def test_a_token_with_any_backticks_is_one_code_span_of_itself(piece):
    assert closed_code_span(inline_code(piece)) == piece
