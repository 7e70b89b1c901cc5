"""The names a student reads for the columns of the measures' tables.

The measures keep short field names (``word_initial_share``) as their data API: tests, CSV
downloads and the charts read those. Pages show a table through :func:`readable`, and the
charts title their axes and tooltips with :data:`COLUMN_NAMES`.

>>> import pandas as pd
>>> frame = pd.DataFrame({"part": ["shared"], "word_initial_share": [0.5], "other": [1]})
>>> list(readable(frame).columns)
['part of the vocabulary', 'share that starts a word', 'other']
>>> list(frame.columns)  # the measure's own table is left as it is
['part', 'word_initial_share', 'other']
"""

from __future__ import annotations

import pandas as pd

COLUMN_NAMES = {
    # overlap
    "part": "part of the vocabulary",
    "word_initial": "tokens that start a word",
    "word_initial_share": "share that starts a word",
    "examples": "examples",
    # token lengths
    "length": "token length (characters)",
    "share": "share",
    # fertility
    "subwords": "pieces per word",
    "words": "running words",
    "word_types": "distinct words",
    "words_share": "share of running words",
    "types_share": "share of distinct words",
    # efficiency
    "chars_per_token": "characters per token",
    "tokens_per_word": "tokens per word",
    "characters": "characters",
    # neighbours and frequencies
    "neighbours": "distinct neighbours",
    "frequency": "uses in the corpus",
    "bin_start": "ratio from",
    "bin_end": "ratio to",
    "difference": "difference in uses",
    "more_in": "used more by",
    # the languages
    "premium": "tokens relative to English",
    "unknown": "unknown tokens",
}


def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of a measure's table with the column names a student reads."""
    return frame.rename(columns=COLUMN_NAMES)
