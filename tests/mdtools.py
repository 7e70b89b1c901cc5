"""Markdown as a browser gets it from Streamlit, for the AppTests of user text (issue 40):
each element's body rendered by CommonMark with raw HTML and $...$ math (markdown-it-py
with its dollarmath plugin, the rules Streamlit's react-markdown follows with rehype-raw
and remark-math), then read for what a user's string must never become."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from streamlit.testing.v1 import AppTest

# a token a user may type or upload: an external image, bold, KaTeX and a tag
HOSTILE = ("![x](http://e/x.png)", "**b**", "$x^2$", "<b>")
KINDS = ("markdown", "caption", "info", "error", "success", "warning", "header", "subheader",
         "title")  # fmt: skip
RENDER = MarkdownIt("commonmark", {"html": True}).use(dollarmath_plugin).enable("table")


class _Text(HTMLParser):
    """The text a page shows (style sheets, screen-reader-only words and sub-scripts left
    out), and the elements it has."""

    SKIP = ("style", "script", "sub")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in self.SKIP or "sr-only" in (attrs.get("class") or "") or self.skipping:
            self.skipping.append(tag)

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping:
            self.text.append(data)


def rendered(at: AppTest) -> list[str]:
    """Each markdown element of the page as the HTML a browser draws."""
    bodies = [e.value for kind in KINDS for e in getattr(at, kind)]
    return [RENDER.render(body) for body in bodies]


def made_of(at: AppTest) -> tuple[str, list[tuple[str, dict]]]:
    """The page's markdown as text (line breaks and runs of spaces as one space), and its
    elements."""
    reader = _Text()
    for page_html in rendered(at):
        reader.feed(page_html)
        reader.text.append(" ")
    return re.sub(r"\s+", " ", "".join(reader.text)), reader.tags


PLAIN = ("picture", "bold", "math", "tag")  # a twin of HOSTILE that is only letters
FORMATTING = ("img", "strong", "em", "b", "i", "del", "h1", "h2", "h3")  # not links, code


def counted(tags) -> dict[str, int]:
    """How many elements of each formatting kind the page has."""
    return {kind: sum(1 for tag, _ in tags if tag == kind) for kind in FORMATTING}


def assert_shown_as_text(at: AppTest, twin: AppTest, seen=("x.png", "x^2")) -> None:
    """What the page drew for HOSTILE (`at`) made no image, math, bold or tag of it: no
    image of its address, no math, and as many formatting elements of each kind as the
    page drew for PLAIN, the same strings in letters (`twin`); and its address and
    formula (`seen`) show as text (so the test looked where the text goes)."""
    assert not at.exception and not twin.exception, (at.exception, twin.exception)
    text, tags = made_of(at)
    images = [a for t, a in tags if t == "img" and "e/x.png" in (a.get("src") or "")]
    assert not images, images
    maths = [a for t, a in tags if "math" in (a.get("class") or "") or t in ("eq", "eqn")]
    assert not maths, maths
    assert counted(tags) == counted(made_of(twin)[1])
    assert all(part in text for part in seen), text[:2000]
