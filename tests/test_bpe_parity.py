"""Parity with Hugging Face tokenizers' BpeTrainer (ties="tokenizers").

BpeTrainer breaks ties between pairs of equal count by the smaller (left id, right id);
ids are the characters by code point, then merged symbols in the order they are made, and
ours follow the same rule. With an end-of-word suffix there is one difference it does not
document: the word-final symbols ("s</w>", ".</w>") get their ids while BpeTrainer walks a
hash map of the words, so their order changes from run to run (even within one process).
A tie between two pairs that differ only in such symbols can go either way there; up to
the first such tie every merge must be equal, and at that tie its pick must be one of the
pairs we list as tied. On sample:enwiki that first tie comes after more than 2000 merges.
"""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from subtok_core.bpe import EOW, trace_bpe, train_bpe
from subtok_core.corpus import count_words, load_lines, toy_names

Pair = tuple[str, str]


def hf_train(lines: list[str], marker: str, vocab_size: int) -> tuple[list[Pair], list[str]]:
    """Train BpeTrainer on the lines; its merges in order and its vocabulary in id order."""
    if marker == "suffix":
        tok = Tokenizer(models.BPE(end_of_word_suffix=EOW))
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size, show_progress=False, end_of_word_suffix=EOW
        )
    else:
        assert marker == "none"
        tok = Tokenizer(models.BPE())
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(lines, trainer)
    model = json.loads(tok.to_str())["model"]
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model["merges"]]
    assert all(len(m) == 2 for m in merges)
    vocab = [token for token, _ in sorted(model["vocab"].items(), key=lambda kv: kv[1])]
    return merges, vocab


def word_counts(lines: list[str]):
    return count_words(" ".join(lines).split())


def order_unknown_to_hf(pair: Pair, other: Pair, suffixed: set[str]) -> bool:
    """Whether BpeTrainer's order of two pairs hangs on the ids of word-final symbols."""
    if pair[0] != other[0]:
        return pair[0] in suffixed and other[0] in suffixed
    return pair[1] != other[1] and pair[1] in suffixed and other[1] in suffixed


def first_open_tie(trace) -> int:
    """Index of the first merge whose tie BpeTrainer may break differently (else len)."""
    suffixed = {s for s in trace.start.vocab if s.endswith(EOW)}
    for i, step in enumerate(trace.steps):
        if any(order_unknown_to_hf(step.pair, t, suffixed) for t in step.tied_with):
            return i
    return len(trace.steps)


def check_parity(lines: list[str], marker: str, vocab_size: int) -> int:
    """Ours and BpeTrainer merge the same pairs; returns how many are compared exactly."""
    hf_merges, hf_vocab = hf_train(lines, marker, vocab_size)
    trace = trace_bpe(word_counts(lines), vocab_size=vocab_size, marker=marker, ties="tokenizers")
    ours = [step.pair for step in trace.steps]
    k = first_open_tie(trace)
    assert ours[:k] == hf_merges[:k]
    # train_bpe picks the next pair without building step records: the same merges
    model = train_bpe(word_counts(lines), vocab_size=vocab_size, marker=marker, ties="tokenizers")
    assert list(model.merges) == ours
    if k == len(ours):
        assert len(ours) == len(hf_merges)
        vocab = list(trace.start.vocab) + [s.new_symbol for s in trace.steps if s.new_in_vocab]
        if marker == "none":
            assert vocab == hf_vocab  # the same symbols with the same ids
        else:  # ids of word-final symbols follow BpeTrainer's hash map
            assert sorted(vocab) == sorted(hf_vocab)
        assert trace.truncated == (len(hf_vocab) < vocab_size)
    else:
        step = trace.steps[k]
        assert hf_merges[k] in (step.pair, *step.tied_with)
    return k


# --- toy corpora and a small real sample (fast) -----------------------------------------


@pytest.mark.parametrize("name", toy_names())
@pytest.mark.parametrize("marker", ["none", "suffix"])
def test_toy_corpora_until_no_pair_is_left(name, marker):
    lines = load_lines(name)
    k = check_parity(lines, marker, vocab_size=1000)  # more than the toys can reach
    assert k > 0


def test_toy_cat_bat_merges_are_the_slides():
    # BpeTrainer agrees with slide 001 too: at, ag, cat
    merges, _ = hf_train(load_lines("toy:cat-bat"), "none", vocab_size=9)
    assert merges == [("a", "t"), ("a", "g"), ("c", "at")]


@pytest.fixture(scope="module")
def lee_lines() -> list[str]:
    return load_lines("sample:lee")


@pytest.mark.slow  # tokenizers on the Lee sample
def test_lee_marker_none_every_merge(lee_lines):
    k = check_parity(lee_lines, "none", vocab_size=4000)
    assert k > 3000  # every merge was compared


@pytest.mark.slow  # tokenizers on the Lee sample
def test_lee_marker_suffix_until_the_first_open_tie(lee_lines):
    assert check_parity(lee_lines, "suffix", vocab_size=4000) > 1000


def test_open_tie_detection():
    suffixed = {"s</w>", ".</w>"}
    assert order_unknown_to_hf(("o", "s</w>"), ("o", ".</w>"), suffixed)
    assert not order_unknown_to_hf(("o", "s</w>"), ("p", ".</w>"), suffixed)  # o < p
    assert not order_unknown_to_hf(("o", "s</w>"), ("o", "s"), suffixed)  # s < s</w>
    assert not order_unknown_to_hf(("o", "s</w>"), ("o", "ss</w>"), suffixed)  # merged last


# --- sample:enwiki, vocab 8000 (slow) ---------------------------------------------------


@pytest.fixture(scope="module")
def enwiki_lines() -> list[str]:
    return load_lines("sample:enwiki")


@pytest.mark.slow
def test_enwiki_marker_none_every_merge(enwiki_lines):
    hf_merges, hf_vocab = hf_train(enwiki_lines, "none", vocab_size=8000)
    model = train_bpe(word_counts(enwiki_lines), vocab_size=8000, ties="tokenizers", marker="none")
    assert len(model.vocab) == len(hf_vocab) == 8000
    assert len(model.merges) == len(hf_merges) > 7000
    assert list(model.merges) == hf_merges
    assert list(model.vocab) == hf_vocab  # the same symbols with the same ids


@pytest.mark.slow
def test_enwiki_marker_suffix_first_2000_merges(enwiki_lines):
    assert check_parity(enwiki_lines, "suffix", vocab_size=8000) >= 2000
