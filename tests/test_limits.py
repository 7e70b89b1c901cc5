"""Limits with reasons (limits.py): what one request may ask for, refused before the work."""

from __future__ import annotations

import math
import tracemalloc

import pytest

from subtok_core import limits
from subtok_core.bpe import trace_bpe
from subtok_core.corpus import from_pairs, load
from subtok_core.unigram import trace_unigram
from subtok_core.wordpiece import trace_wordpiece


@pytest.mark.parametrize("name", sorted(limits.LIMITS))
def test_every_limit_names_itself_and_its_reason(name):
    entry = limits.LIMITS[name]
    top = limits.limit(name, "cli")
    limits.check(name, top, "cli")  # the limit itself is allowed
    with pytest.raises(ValueError) as err:
        limits.check(name, top + 1, "cli")
    assert entry.what in str(err.value) and entry.why in str(err.value)
    assert f"{top:,}" in str(err.value)
    assert entry.web <= entry.cli  # the web app never allows more than the command line
    assert entry.why in limits.describe(name)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "3", True])
def test_not_a_finite_number_is_refused(value):
    with pytest.raises(ValueError, match="must be a finite number"):
        limits.check("merges", value)


@pytest.mark.parametrize(
    "train",
    [
        lambda wc: trace_bpe(wc, merges=10**9),
        lambda wc: trace_bpe(wc, vocab_size=10**7),
        lambda wc: trace_wordpiece(wc, merges=10**9),
        lambda wc: trace_unigram(wc, "em", vocab_size=50, em_iterations=10**9),
    ],
)
def test_absurd_sizes_are_refused_by_the_trainers(train):
    with pytest.raises(ValueError, match="allowed here"):
        train(load("toy:cat-bat"))


def test_merges_as_text_is_a_value_error_not_a_type_error():
    with pytest.raises(ValueError, match="finite number"):
        trace_bpe(load("toy:cat-bat"), merges="3")


def _peak(run) -> int:
    """Peak bytes allocated while `run` raises its ValueError."""
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as err:
            run()
        return tracemalloc.get_traced_memory()[1], str(err.value)
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "train",
    [
        lambda wc: trace_bpe(wc, merges=5),
        lambda wc: trace_wordpiece(wc, merges=5),
        lambda wc: trace_unigram(wc, "textbook"),
        lambda wc: trace_unigram(wc, "em", vocab_size=5),
    ],
)
def test_a_3000_character_word_is_refused_before_it_allocates(train):
    """One typed 3,000-character word cost the textbook Unigram 5.4 GB before this check."""
    wc = from_pairs([("x" * 3000, 1)])
    peak, message = _peak(lambda: train(wc))
    assert "3,000 characters" in message
    assert peak < 1_000_000  # bytes: nothing was built from the word


def test_the_textbook_seed_is_counted_before_it_is_made():
    words = [(f"{i:06d}" + "ab" * 90, 1) for i in range(400)]  # 400 words of 186 characters
    expected = limits.substring_count([186] * 400)
    assert expected == 400 * 186 * 187 // 2 > limits.TEXTBOOK_MAX_SUBSTRINGS
    peak, message = _peak(lambda: trace_unigram(from_pairs(words), "textbook"))
    assert f"{expected:,} substrings" in message
    assert peak < 5_000_000


def test_substring_count_by_hand():
    # "abc": a b c ab bc abc = 6; with pieces of at most 2: a b c ab bc = 5
    assert limits.substring_count([3]) == 6 and limits.substring_count([3], 2) == 5


@pytest.mark.parametrize("train", [trace_bpe, trace_wordpiece])
def test_the_unknown_token_cannot_be_learned_from_the_corpus(train):
    with pytest.raises(ValueError, match="name of the unknown token"):
        train(from_pairs([("[UNK]", 5), ("cat", 2)]), merges=10)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"n": math.inf}, "finite number, not inf"),
        ({"n": math.nan}, "finite number, not nan"),
        ({"vocab_size": 10_000_000}, "more than the 100,000 allowed"),
        ({"window": 1_000_000}, "window 1,000,000 is more than"),
        ({"vocab_size": 5000}, "allow BPE at most"),
    ],
)
def test_sage_refuses_what_cannot_succeed_before_training(settings, message):
    """/sage?V=10000000 kept a server busy for 179 s before it said the sample is too small;
    the bound (alphabet + the characters of the distinct words) is known before BPE runs."""
    from subtok_core.sage import SageSettings, sample_sentences, trace_sage

    sentences = sample_sentences("sample:crime")
    calls = []
    with pytest.raises(ValueError, match=message):
        trace_sage(sentences, SageSettings(**settings), on_phase=calls.append)
    assert not any("Word2Vec" in c or "scoring" in c for c in calls)


@pytest.mark.parametrize(
    ("algorithm", "phrase"),
    [
        ("bpe", "200,000 on the command line"),
        ("unigram", "50 on the command line"),
        ("sage", "100,000 on the command line"),
    ],
)
def test_the_limits_and_their_reasons_are_in_the_command_help(capsys, algorithm, phrase):
    from subtok_core.cli import main

    assert main(["train", algorithm, "--help"]) == 0
    assert phrase in " ".join(capsys.readouterr().out.split())
