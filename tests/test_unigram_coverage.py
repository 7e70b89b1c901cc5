"""The EM seed against sentencepiece's own count, and character coverage (em_coverage.py).

sentencepiece logs "Alphabet size=N" (the characters it keeps) and "Initialized N seed
pieces"; it is run in a child process so that its log (written by C++ to the process's
stderr) can be read. Our seed must have as many characters and as many pieces, at
sentencepiece's default settings (character_coverage 0.9995, nmt_nfkc normalisation) and
at coverage 1.0.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import unicodedata

import pytest
from test_unigram_em import brute_e_step

from subtok_core.corpus import count_lines, from_pairs, load_lines
from subtok_core.unigram.em import UNK, EmRun
from subtok_core.unigram.em_coverage import SENTENCEPIECE_COVERAGE, rare_characters
from subtok_core.unigram.em_seed import MAX_PIECE_LEN, SEED_SIZE, build_seed

TRAIN = r"""
import io, json, sys
import sentencepiece as spm
lines, options = json.load(sys.stdin)
spm.SentencePieceTrainer.train(
    sentence_iterator=iter(lines), model_writer=io.BytesIO(), model_type="unigram",
    max_sentence_length=max(16, *(len(line.encode()) + 1 for line in lines)), num_threads=1,
    minloglevel=0, **options)
"""


def sentencepiece_seed(lines: list[str], **options) -> tuple[int, int]:
    """(alphabet size, seed pieces) as sentencepiece's trainer logs them."""
    pytest.importorskip("sentencepiece")
    done = subprocess.run(
        [sys.executable, "-c", TRAIN], input=json.dumps([lines, options]),
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    alphabet = re.search(r"Alphabet size=(\d+)", done.stderr)
    seed = re.search(r"Initialized (\d+) seed", done.stderr)
    assert alphabet and seed, done.stderr[-2000:]
    return int(alphabet.group(1)), int(seed.group(1))


def our_seed(lines: list[str], coverage: float) -> tuple[int, int]:
    seed = build_seed(count_lines(lines), "sow", SEED_SIZE, MAX_PIECE_LEN, coverage)
    return seed.n_chars, len(seed.pieces)


def nfkc(lines: list[str]) -> list[str]:
    return [unicodedata.normalize("NFKC", line) for line in lines]


@pytest.mark.slow  # a long run (fast tier: README)
def test_the_seed_of_lee_has_sentencepieces_size_at_its_defaults():
    lines = load_lines("sample:lee")  # gensim/test/test_data/lee_background.cor
    theirs = sentencepiece_seed(lines, vocab_size=8000)  # every other setting its default
    assert our_seed(nfkc(lines), SENTENCEPIECE_COVERAGE) == theirs


@pytest.mark.slow  # a long run (fast tier: README)
def test_the_seed_of_lee_has_sentencepieces_size_at_full_coverage():
    lines = load_lines("sample:lee")
    theirs = sentencepiece_seed(
        lines, vocab_size=8000, character_coverage=1.0, normalization_rule_name="identity"
    )
    assert our_seed(lines, 1.0) == theirs


@pytest.mark.slow
def test_the_seed_of_enwiki_has_sentencepieces_size_at_its_defaults():
    lines = load_lines("sample:enwiki")  # 410 characters, 314 of them beyond the coverage
    theirs = sentencepiece_seed(lines, vocab_size=8000)
    assert our_seed(nfkc(lines), SENTENCEPIECE_COVERAGE) == theirs


# The followers are told apart by their first UTF-8 byte: é and ü (C3 ..) are one
# follower, é and a two, – (E2 80 93) and the next word's ▁ (E2 96 81) one, и and а
# (D0 ..) one, и and ю (D1 ..) two. Each toy ends with a line of its own character (w),
# so that sentencepiece's end of text follows no substring twice.
FOLLOWERS = [
    ["xabé xabü", "w"],
    ["xabé xaba", "w"],
    ["xab– xab y", "w"],
    ["жуки жука", "w"],
    ["жуки жукю", "w"],
]


@pytest.mark.parametrize("lines", FOLLOWERS)
def test_followers_are_told_apart_as_sentencepiece_does(lines):
    theirs = sentencepiece_seed(
        lines, vocab_size=60, hard_vocab_limit=False, character_coverage=1.0,
        normalization_rule_name="identity",
    )  # fmt: skip
    assert our_seed(lines, 1.0) == theirs


def test_a_rare_character_is_left_out_and_still_follows():
    # 41 x "ab", "abq" once, "w" once: 126 characters (▁ included), a 41, b 41, ▁ 42 cover
    # 124/126 = 0.984 >= 0.98, so q and w are rare; ab is followed by ▁, a line's end and q
    lines = [" ".join(["ab"] * 10)] * 3 + [" ".join(["ab"] * 10 + ["abq"]), "w"]
    theirs = sentencepiece_seed(
        lines, vocab_size=40, hard_vocab_limit=False, character_coverage=0.98,
        normalization_rule_name="identity",
    )  # fmt: skip
    assert rare_characters(count_lines(lines), "sow", 0.98) == {"q", "w"}
    assert our_seed(lines, 0.98) == theirs


def test_em_over_a_word_with_a_rare_character_counts_its_parts():
    # aab 6, abqab 1: a 14, b 8, ▁ 7, q 1 of 30 characters; a, b, ▁ cover 29/30 >= 0.95,
    # so q is rare. abqab's lattice falls into ▁ab and ab (<unk> is the only way across
    # q): the expected counts are those of the parts as words, ▁ab marked, ab bare
    wc = from_pairs([("aab", 6), ("abqab", 1)])
    assert rare_characters(wc, "sow", 0.95) == {"q"}
    run = EmRun(wc, vocab_size=5, character_coverage=0.95, snapshot=True)
    assert "q" not in run.start.alphabet
    first = next(run.steps())
    logp = {row.piece: math.log(row.prob) for row in first.vocab}
    marked, _ = brute_e_step(from_pairs([("aab", 6), ("ab", 1)]), logp)
    bare, _ = brute_e_step(from_pairs([("ab", 1)]), logp, marker="none")
    assert {row.piece: row.freq for row in first.vocab} == pytest.approx(
        {piece: marked[piece] + bare[piece] for piece in logp}
    )
    shown = {w.word: w.pieces for w in first.segmentations}
    assert shown["abqab"][shown["abqab"].index(UNK) + 1 :] in (("ab",), ("a", "b"))
    assert "".join(p for p in shown["abqab"] if p != UNK) == "▁abab"


@pytest.mark.parametrize("coverage", [0, -0.5, 1.5])
def test_a_coverage_out_of_range_is_a_sentence(coverage):
    with pytest.raises(ValueError, match="The character coverage must be above 0"):
        build_seed(from_pairs([("ab", 2)]), "sow", SEED_SIZE, MAX_PIECE_LEN, coverage)
