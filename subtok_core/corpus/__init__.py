"""Text -> words -> WordCounts; the built-in corpora; input checks.

A corpus reaches every trainer as a :class:`WordCounts`: the distinct words in the
order they first appear, each with its count. First-appearance order matters, because
the default tie rule ("first") picks the candidate seen first in the corpus.

The package by job (the names most of the code uses are importable from here):

- ``words.py``: running text -> words -> WordCounts (the pre-tokenization, the counts)
- ``tables.py``: a word/count table checked row by row
- ``files.py``: bytes and files read as UTF-8 text, 20 MB at most; paths only if allowed
- ``stream.py``: a file of any size counted in pieces on several processes (the command
  line's ``subtok train bpe|bytebpe`` and ``subtok check``)
- ``builtin.py``: the corpora by name (toy:, sample:, exercise:, a path), their lines
- ``samples.py``: the real samples that ship with gensim
- ``exercises.py``: the exercise corpora of ``subtok check``

>>> wc = from_text("the cat and the hat")
>>> list(zip(wc.words, wc.counts))
[('the', 2), ('cat', 1), ('and', 1), ('hat', 1)]
"""

from __future__ import annotations

from .builtin import CorpusInfo, is_toy, list_corpora, load, load_lines, toy_names
from .exercises import exercise_names, file_lines, is_exercise
from .files import DATA_DIR, MAX_BYTES, decode_upload
from .samples import sample_lines
from .tables import from_pairs
from .words import (
    WordCounts,
    count_lines,
    count_words,
    encode_words,
    from_text,
    split_words,
)

__all__ = [
    "DATA_DIR",
    "MAX_BYTES",
    "CorpusInfo",
    "WordCounts",
    "count_lines",
    "count_words",
    "decode_upload",
    "encode_words",
    "exercise_names",
    "file_lines",
    "from_pairs",
    "from_text",
    "is_exercise",
    "is_toy",
    "list_corpora",
    "load",
    "load_lines",
    "sample_lines",
    "split_words",
    "toy_names",
]
