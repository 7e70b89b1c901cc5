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

KIND = "sample words"  # the first item of the disk cache's key


def _key(key: str, split_punct: bool) -> tuple:
    stat = (_gensim_data() / SAMPLES[key][1]).stat()
    return (KIND, SAMPLES[key][1], stat.st_size, stat.st_mtime_ns, WIKI_TEXT_VERSION,
            split_punct)  # fmt: skip


def _counted(key: str, split_punct: bool) -> tuple[WordCounts, str]:
    from ..keys import fingerprint

    wc = count_lines(list(sample_lines(key)), split_punct, f"sample:{key}")
    return wc, fingerprint(wc)


def sample_counts(key: str, split_punct: bool = False) -> tuple[WordCounts, str]:
    """The word counts of the sample `key` (enwiki, lee, crime) and their fingerprint
    (keys.fingerprint), read from the disk cache when kept there, else counted and kept;
    once per process and cache directory (both are immutable: shared, not copied)."""
    if key not in SAMPLES:
        raise ValueError(f"Unknown sample {key!r}; the samples are {', '.join(SAMPLES)}.")
    from .. import diskcache

    return _remembered(key, split_punct, diskcache.directory_from_env())


@functools.lru_cache(maxsize=8)
def _remembered(key: str, split_punct: bool, directory) -> tuple[WordCounts, str]:
    from .. import diskcache, plaindata

    cache = diskcache.from_env()
    if cache is None or cache.directory != directory:
        return _counted(key, split_punct)
    where = _key(key, split_punct)
    found = cache.load(where)
    if (
        isinstance(found, tuple | list)
        and len(found) == 2
        and isinstance(found[0], WordCounts)
        and isinstance(found[1], str)
    ):
        return found[0], found[1]
    counted = _counted(key, split_punct)
    cache.save(where, plaindata.encode(counted))  # a full or read-only disk: a log line
    return counted
