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

MARKDOWN_SIGNS = "\\`*_{}[]()#+-.!|~$:"


def as_text(text: str) -> str:
    """`text` for st.markdown(..., unsafe_allow_html=True): it shows as typed."""
    return "".join(f"&#{ord(c)};" if c in MARKDOWN_SIGNS else html.escape(c) for c in str(text))


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
