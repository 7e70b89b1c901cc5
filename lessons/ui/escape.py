"""A user's string (a file name, a corpus name, an answer) inside markdown that allows HTML:
escaped so that it reads as itself and does nothing.

html.escape keeps a name from opening a tag (``<iframe srcdoc=...>`` ran script in the
Compare page); markdown's own signs are written as character references too, so that a
name neither formats the line (``**``, ``_``), nor links (``[x](...)``), nor starts
LaTeX (``$``): a reference is read as the character itself, never as syntax.

>>> as_text('<iframe srcdoc="x">*it' + chr(39) + 's*.json')
'&lt;iframe srcdoc=&quot;x&quot;&gt;&#42;it&#x27;s&#42;&#46;json'
"""

from __future__ import annotations

import html
import re

MARKDOWN_SIGNS = "\\`*_{}[]()#+-.!|~$:\n\r"  # and a line break: a blank line ends an HTML block


def as_text(text: str) -> str:
    """`text` for st.markdown(..., unsafe_allow_html=True): it shows as typed."""
    return "".join(f"&#{ord(c)};" if c in MARKDOWN_SIGNS else html.escape(c) for c in str(text))


PLAIN_SIGNS = "\\`*_[]$~|"  # what makes an element in markdown without HTML
LINE_START = re.compile(r"^(\s*)([#>+-]|\d+[.)])", re.M)  # a heading, quote or list item
# a "<" that opens raw HTML or an autolink in CommonMark (a tag, a comment, an address);
# one that does not ("<F0 9F>", a byte shown in hex) stays as it is
_NAME, _VALUE = r"[A-Za-z_:][\w.:-]*", r"""(?:[^\s"'=<>`]+|'[^']*'|"[^"]*")"""
TAG_START = re.compile(
    rf"<(?=/?[A-Za-z][A-Za-z0-9-]*(?:\s+{_NAME}(?:\s*=\s*{_VALUE})?)*\s*/?>|[!?]"
    r"|[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>)"
)


def plain(text: str) -> str:
    r"""`text` for markdown without HTML (an error, a caption): each sign that would make
    an element (bold, a link or an image, math, code, a table) escaped with a backslash,
    and a line that would start a heading, a quote or a list item, so that it shows as
    typed, and a "<" that would open a tag; the rest of the sentence reads as it is in
    the source.

    >>> print(plain("no start of '![x](u)', **b** or $x$"))
    no start of '!\[x\](u)', \*\*b\*\* or \$x\$
    >>> print(plain("# one <b> <F0 9F>"))
    \# one \<b> <F0 9F>
    """
    escaped = "".join("\\" + c if c in PLAIN_SIGNS else c for c in str(text))
    escaped = TAG_START.sub(r"\\<", escaped)
    return LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), escaped)


def inline_code(text: str) -> str:
    """`text` as inline code in markdown, whatever backticks it holds (a token of an
    uploaded tokenizer may hold any): the fence is one backtick longer than the longest
    run inside, so no run closes it early, and with backticks inside a space pads each
    end (CommonMark takes one off each end again), so one at an end stays text.

    >>> inline_code("ab"), inline_code("a``b`")
    ('`ab`', '``` a``b` ```')
    """
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    if not longest:
        return f"`{text}`"
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}"
