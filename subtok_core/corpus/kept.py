"""A real sample's word counts and their fingerprint, kept in the disk cache.

Counting the words of sample:enwiki (72,000 distinct in 12,000 paragraphs) takes about a
second, and fingerprinting them a fifth of one: every restarted server paid both before its
first page that trains on the sample could ask the store for a run, even with every run
and table of the page kept on disk (`subtok warm`). Reading them back as plain data costs
a tenth of that. The file is keyed by the sample's file (name, size, time), the text
version of the Wikipedia sample and how words are split; the disk cache's header holds the
core's version, so a change to the counting code counts again. With the disk cache off
(``SUBTOK_CACHE_DIR=off``) the words are counted as before.
"""

from __future__ import annotations

import functools

from .samples import SAMPLES, WIKI_TEXT_VERSION, _gensim_data, sample_lines
from .words import WordCounts, count_lines


def _key(what: str, key: str, split_punct: bool) -> tuple:
    stat = (_gensim_data() / SAMPLES[key][1]).stat()
    return (what, SAMPLES[key][1], stat.st_size, stat.st_mtime_ns, WIKI_TEXT_VERSION,
            split_punct)  # fmt: skip


def _counted(key: str, split_punct: bool) -> tuple[WordCounts, str]:
    from ..keys import fingerprint

    wc = count_lines(list(sample_lines(key)), split_punct, f"sample:{key}")
    return wc, fingerprint(wc)


def _lines_print(key: str) -> str:
    from ..keys import fingerprint

    return fingerprint(tuple(sample_lines(key)))


def _is_counts(found) -> bool:
    return (
        isinstance(found, tuple | list)
        and len(found) == 2
        and isinstance(found[0], WordCounts)
        and isinstance(found[1], str)
    )


KINDS = {  # what is kept: how it is made from the sample, and what a kept value must be
    "sample words": (_counted, _is_counts),
    "sample lines print": (lambda key, split_punct: _lines_print(key),
                           lambda found: isinstance(found, str)),
}  # fmt: skip


def _check(key: str) -> None:
    if key not in SAMPLES:
        raise ValueError(f"Unknown sample {key!r}; the samples are {', '.join(SAMPLES)}.")


def sample_counts(key: str, split_punct: bool = False) -> tuple[WordCounts, str]:
    """The word counts of the sample `key` (enwiki, lee, crime) and their fingerprint
    (keys.fingerprint), read from the disk cache when kept there, else counted and kept;
    once per process and cache directory (both are immutable: shared, not copied)."""
    from .. import diskcache

    _check(key)
    found = _remembered("sample words", key, split_punct, diskcache.directory_from_env())
    return found[0], found[1]


def sample_lines_print(key: str) -> str:
    """The fingerprint of the sample's lines as a tuple (what a page hashes to key the
    measures on it), kept like sample_counts: a page whose tables are all kept then reads
    no line of the sample."""
    from .. import diskcache

    _check(key)
    return _remembered("sample lines print", key, False, diskcache.directory_from_env())


@functools.lru_cache(maxsize=16)
def _remembered(what: str, key: str, split_punct: bool, directory):
    from .. import diskcache, plaindata

    make, good = KINDS[what]
    cache = diskcache.from_env()
    if cache is None or cache.directory != directory:
        return make(key, split_punct)
    where = _key(what, key, split_punct)
    found = cache.load(where)
    if good(found):
        return tuple(found) if isinstance(found, list) else found
    made = make(key, split_punct)
    cache.save(where, plaindata.encode(made))  # a full or read-only disk: a log line
    return made
