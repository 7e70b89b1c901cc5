"""002 (Bostrom & Durrett) as subtok_core.notes.bostrom records it: every example cut and
number must stand, exactly as typed, on the line of the seed text it gives.

The seed is read at test time from ../shared/seeds (plain text converted from the PDF)."""

from __future__ import annotations

import pytest
from apptools import seeds_dir

from subtok_core.notes import bostrom


@pytest.fixture(scope="module")
def lines() -> list[str]:
    path = seeds_dir() / bostrom.BOSTROM
    assert path.is_file(), f"the seed {path} is missing: 002's numbers are checked against it"
    return path.read_text(encoding="utf-8").splitlines()


def on_line(lines: list[str], number: int, text: str) -> bool:
    return text in lines[number - 1]


@pytest.mark.parametrize("ex", bostrom.EXAMPLES, ids=lambda ex: ex.original[:20])
def test_each_example_and_its_two_cuts_stand_on_their_lines(lines, ex):
    original, bpe, unigram = ex.lines
    label = "Original: " if ex.where == bostrom.FIGURE1 else "Original\t"
    assert on_line(lines, original, label + ex.original)
    assert on_line(lines, bpe, "BPE")
    assert on_line(lines, bpe, " ".join(ex.bpe))
    assert on_line(lines, unigram, "Unigram LM")
    assert on_line(lines, unigram, " ".join(ex.unigram))


@pytest.mark.parametrize("ex", bostrom.EXAMPLES, ids=lambda ex: ex.original[:20])
def test_each_printed_cut_spells_its_text(ex):
    """The pieces, _ read as a space, give the text back (Figure 1's caption: _ marks the
    start of a word)."""
    for cut in (ex.bpe, ex.unigram):
        assert "".join(cut).replace("_", " ").strip() == ex.original


def test_figure1_and_appendix_a_are_where_the_records_say(lines):
    assert lines[99].startswith("Figure 1: Example tokenizations.")
    assert lines[208] == "Appendix A. Additional tokenization examples"
    figure = [ex for ex in bostrom.EXAMPLES if ex.where == bostrom.FIGURE1]
    appendix = [ex for ex in bostrom.EXAMPLES if ex.where == bostrom.APPENDIX_A]
    assert all(ex.lines[2] < 100 for ex in figure) and all(ex.lines[0] > 209 for ex in appendix)
    assert len(figure) == 4 and len(appendix) == 6


def test_table2_numbers_stand_under_the_bpe_head(lines):
    assert on_line(lines, 113, "BPE\tUnigram LM")
    assert [p.line for p in bostrom.TABLE2] == [114, 115]
    assert lines[113] == "Tokens per word type\t4.721"
    assert lines[114] == "Tokens per word\t1.343"
    for p in bostrom.TABLE2:
        assert p.value == float(p.printed)
    assert on_line(lines, 117, "Table 2: Mean subword units per word for each method across all "
                   "of English Wikipedia.")  # fmt: skip


@pytest.mark.parametrize("printed", bostrom.PRINTED, ids=lambda p: f"{p.line}:{p.label}")
def test_every_printed_value_stands_on_its_line(lines, printed):
    assert on_line(lines, printed.line, printed.printed)


def test_the_setup_numbers_and_what_is_computed_from_them(lines):
    """Section 4: 2.5B words, 3.01B BPE and 2.98B unigram LM tokens, 20,000 tokens each."""
    counts = "comprising 2.5B words, 3.01B BPE tokens, and 2.98B unigram LM tokens"
    assert on_line(lines, 149, counts)
    assert on_line(lines, 149, "Both subword vocabularies contain 20,000 tokens.")
    assert lines[265] == "Vocabulary size\t20000"
    assert pytest.approx(3.01 / 2.5) == bostrom.SECTION4_BPE_PER_WORD
    assert pytest.approx(2.98 / 2.5) == bostrom.SECTION4_UNIGRAM_PER_WORD
    assert bostrom.VOCAB.value == bostrom.VOCAB_APPENDIX.value == 20_000


def test_suggestions_is_printed_cut_two_ways_by_each_method(lines):
    # line 97: (c) ... _suggest ions  /  (d) _sugg estions; line 98: _suggestion s / _sugg estions
    assert on_line(lines, 97, "_suggest ions\tBPE: _sugg estions")
    assert on_line(lines, 98, "_suggestion s\tUnigram LM: _sugg estions")
    assert bostrom.two_cuts() == [
        ("suggestions", "BPE", ("_suggest", "ions"), ("_sugg", "estions")),
        ("suggestions", "unigram LM", ("_suggestion", "s"), ("_sugg", "estions")),
    ]
