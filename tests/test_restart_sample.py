"""A restarted server's first page on a real sample: after `subtok warm`, the sample's words
and their fingerprint come from the disk cache, not counted again (subtok_core/corpus/
kept.py; counting enwiki's words cost every restarted Compare about a second)."""

from __future__ import annotations

import pytest
from apptools import open_page
from conftest import clear_every_cache

from lessons.ui.store import trace_store
from subtok_core import corpus
from subtok_core.cli import main
from subtok_core.corpus import builtin, kept, samples
from subtok_core.keys import fingerprint

SAMPLE, SIZE, KINDS = "sample:lee", 300, ("bpe", "unigram")
LINK = f"/compare?corpus={SAMPLE}&size={SIZE}&tok={','.join(KINDS)}"


def counting(monkeypatch) -> list[str]:
    """Every count of a sample's words from here on, by the sample's name."""
    counted: list[str] = []
    real = corpus.count_lines

    def count_lines(lines, split_punct=False, name=""):
        counted.append(name)
        return real(lines, split_punct, name)

    for module in (builtin, kept):  # where a sample's words have been counted
        monkeypatch.setattr(module, "count_lines", count_lines, raising=False)
    return counted


def reading(monkeypatch) -> list[str]:
    """Every read of a sample's lines from here on, by the sample's key."""
    read: list[str] = []
    real = samples.sample_lines

    def sample_lines(key):
        read.append(key)
        return real(key)

    for module in (builtin, kept):  # where a sample's lines are read
        monkeypatch.setattr(module, "sample_lines", sample_lines)
    return read


def restart() -> None:
    """What a restarted server has lost: every cache of the process."""
    clear_every_cache()
    kept._remembered.cache_clear()
    samples.sample_lines.cache_clear()


@pytest.mark.slow  # a real sample, warmed
def test_a_warmed_page_on_a_sample_counts_no_word_after_a_restart(fresh_cache_dir, monkeypatch):
    assert main(["warm", LINK]) == 0
    restart()
    counted, read = counting(monkeypatch), reading(monkeypatch)
    at = open_page("lessons/compare/page.py", corpus=SAMPLE, size=str(SIZE), tok=",".join(KINDS))
    assert counted == []  # read from the disk cache
    assert read == []  # the lines' fingerprint too: no table needs the lines themselves
    assert trace_store().counted("computed") == {}  # and every run and table with them
    assert any("running words" in c.value for c in at.caption)


def test_the_kept_words_and_fingerprint_equal_a_fresh_count(fresh_cache_dir, monkeypatch):
    counted = counting(monkeypatch)
    first = corpus.load(SAMPLE)  # counted, then kept
    restart()
    again, print_ = corpus.sample_counts("lee")
    assert counted == [SAMPLE]  # once: the second came from the disk
    assert again == first == corpus.count_lines(corpus.load_lines(SAMPLE), name=SAMPLE)
    assert print_ == fingerprint(first)
    assert corpus.sample_lines_print("lee") == fingerprint(tuple(corpus.load_lines(SAMPLE)))
    restart()
    split = corpus.load(SAMPLE, split_punct=True)  # another key: counted, not the other's
    assert counted == [SAMPLE, SAMPLE] and split != first
