"""Parse JSON a user gave (an upload, a file named on the command line): Python's parser
recurses once per level of nesting, so ``'[' * 100000`` raises RecursionError, which no
caller expects; here it is a ValueError with a sentence, like any other unreadable file.

>>> loads('{"merges": [["a", "b"]]}')
{'merges': [['a', 'b']]}
>>> loads("[" * 100_000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: its JSON is nested too deeply to be read (lists or objects inside ...
"""

from __future__ import annotations

import json
from typing import Any

TOO_DEEP = (
    "its JSON is nested too deeply to be read (lists or objects inside one another, "
    "thousands of levels down); no tokenizer file is made like that"
)


def loads(text: str | bytes) -> Any:
    """json.loads(text); ValueError (json.JSONDecodeError for bad syntax, a plain
    ValueError saying TOO_DEEP for nesting deeper than the parser goes)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(TOO_DEEP) from None
