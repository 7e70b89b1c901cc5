"""The settings each toy corpus carries from its source (subtok_core/data/toys.toml,
subtok_core.toys) are ones the lessons can use: a marker and a log base the pages offer, a
merges count the corpus allows under its own marker (no early stop on a page opened on it),
and an encode example made of the corpus's characters, except where the source's example is
about a character never seen."""

from __future__ import annotations

import pytest

from subtok_core import bpe, corpus, toys, wordpiece
from subtok_core.unigram.textbook import LOG_BASES

TOYS = corpus.toy_names()
# the source's own examples of a character never seen: 001's "funny" (y), the Hugging
# Face course's "mug" (m)
UNSEEN = {"toy:sunflower": {"y"}, "toy:hug-pug": {"m"}}


@pytest.mark.parametrize("name", TOYS)
def test_a_marker_and_a_log_base_are_ones_the_pages_offer(name):
    settings = toys.settings(name)
    assert settings.get("marker", "none") in bpe.MARKERS
    assert settings.get("base", "10") in LOG_BASES
    assert settings.get("ties", "first") in bpe.TIE_RULES


@pytest.mark.parametrize("name", [n for n in TOYS if "merges" in toys.settings(n)])
def test_the_merges_count_is_one_the_corpus_allows_under_its_own_marker(name):
    wc, settings = corpus.load(name), toys.settings(name)
    merges = settings["merges"]
    run = bpe.trace_bpe(wc, merges=merges, marker=settings.get("marker", "none"))
    assert len(run.steps) == merges and not run.truncated, run.stop_reason
    run = wordpiece.trace_wordpiece(wc, merges=merges)
    assert len(run.steps) == merges and not run.truncated, run.stop_reason


# The merges each source shows, as it prints them (003: lines 165, 218, 277, 334; 004: its
# three symbol-frequency tables), and the pairs tied with the one it took, counted by hand
# (003: e s, s t and t </w> each 6 + 3 = 9 times, in newest and widest, then es t and t </w>;
# l o and o w 5 + 2 = 7. 004: o x and x </w> 3 times, in fox, box and ox; h e and e </w>
# twice, in The and the).
SHOWN = {
    "toy:low-lower": [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o")],
    "toy:fox": [("o", "x"), ("ox", "</w>"), ("h", "e")],
}
TIED = {
    "toy:low-lower": {1: {("s", "t"), ("t", "</w>")}, 2: {("t", "</w>")}, 4: {("o", "w")}},
    "toy:fox": {1: {("x", "</w>")}, 3: {("e", "</w>")}},
}


@pytest.mark.parametrize("name", [n for n in TOYS if "ties" in toys.settings(n)])
def test_the_tie_rule_a_corpus_names_breaks_its_sources_ties_as_the_source_does(name):
    settings = toys.settings(name)
    run = bpe.trace_bpe(
        corpus.load(name), merges=len(SHOWN[name]), marker=settings["marker"], ties=settings["ties"]
    )
    assert [s.pair for s in run.steps] == SHOWN[name]
    ties = {s.number: set(s.tied_with) for s in run.steps if s.tied_with}
    assert ties == TIED[name]  # the rule matters: the source broke these ties
    assert toys.as_in(name, {"ties": settings["ties"]}).endswith(
        "a tie goes to the pair met first in the "
        + ("corpus." if name == "toy:low-lower" else "text.")
    )


def test_on_004s_fox_the_lex_rule_would_not_give_its_third_merge():
    run = bpe.trace_bpe(corpus.load("toy:fox"), merges=3, marker="eow", ties="lex")
    assert run.steps[2].pair == ("e", "</w>")  # alphabetically before (h, e)


@pytest.mark.parametrize("name", [n for n in TOYS if "encode" in toys.settings(n)])
def test_the_encode_example_is_made_of_the_corpus_characters(name):
    seen = {ch for word in corpus.load(name).words for ch in word}
    example = toys.settings(name)["encode"]
    assert {ch for ch in example if not ch.isspace()} - seen == UNSEEN.get(name, set())


def test_the_caption_credits_only_settings_in_use_that_are_the_sources():
    assert toys.as_in("toy:fox", {"marker": "eow"}) == "As in 004: `</w>` after each word."
    assert toys.as_in("toy:fox", {"marker": "suffix"}) is None
    assert toys.as_in("toy:sunflower", {"marker": "none"}) is None  # 001 says nothing of it
    assert toys.as_in("sample:lee", {"marker": "none"}) is None


def test_the_pages_defaults_where_a_corpus_says_nothing():
    assert toys.setting("toy:emoji-cjk", "marker", "none") == "none"
    assert toys.setting("sample:lee", "merges", 10) == 10
    assert toys.setting("toy:hug-pug", "base", "10") == "e"
