"""Subword regularization in the core: BPE-dropout (bpe/dropout.py) and Unigram n-best and
sampling (unigram/nbest.py), against plain encoding, brute force and hand computation.

Sampling tolerance: a frequency of N independent samples of an event of probability p has
standard error sqrt(p (1 - p) / N); every observed frequency must lie within 5 of them of
its exact probability (a false alarm about once in 1.7 million per frequency, and the seeds
are fixed, so a test that passes once passes always).
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from subtok_core import bpe, corpus, unigram
from subtok_core.bpe import dropout
from subtok_core.bpe.records import BpeModel
from subtok_core.lattice import all_segmentations, segmentation_logp
from subtok_core.records import SOW, UNK
from subtok_core.unigram import nbest
from subtok_core.unigram.records import UnigramModel

N = 4000


def within(observed: int, p: float, n: int = N) -> bool:
    return abs(observed / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-12


# --- BPE-dropout ---------------------------------------------------------------------------

# two merges learned on bags: a+g, then b+ag (hand-made, so every probability is by hand)
BAGS = BpeModel((("a", "g"), ("b", "ag")), ("a", "b", "g", "s", "ag", "bag"), tuple("abgs"), "none")


def words_to_try(wc: corpus.WordCounts, count: int = 200) -> list[str]:
    """The corpus's words and random strings of its letters (seeded), some with a letter
    never seen in training."""
    rng = random.Random(7)
    letters = sorted({ch for word in wc.words for ch in word}) + ["é"]
    made = ["".join(rng.choices(letters, k=rng.randint(1, 12))) for _ in range(count)]
    return [*wc.words, *made]


@pytest.mark.parametrize("name", ["toy:low-lower", "toy:hug-pug", "toy:cat-bat"])
@pytest.mark.parametrize("marker", bpe.MARKERS)
def test_dropout_zero_is_plain_bpe_and_one_is_the_first_symbols(name, marker):
    wc = corpus.load(name)
    model = bpe.train_bpe(wc, merges=40, marker=marker)
    for word in words_to_try(wc):
        plain = tuple(bpe.segment(model, word).pieces)
        assert dropout.samples(model, word, 0.0, 3, seed=1) == [plain] * 3, word
        first = tuple(s if s in model.alphabet else UNK for s in bpe.initial_symbols(word, marker))
        assert dropout.samples(model, word, 1.0, 2, seed=1) == [first] * 2, word


def test_dropout_one_on_lowest_is_its_characters_and_the_end_marker():
    model = bpe.train_bpe(corpus.load("toy:low-lower"), merges=10, marker="eow")
    assert dropout.samples(model, "lowest", 1.0, 1) == [("l", "o", "w", "e", "s", "t", "</w>")]


def test_dropout_samples_follow_the_hand_computed_distribution():
    """bags: a+g survives with 1 - p, else the word stops as b a g s; then b+ag survives
    with 1 - p, else it stops as b ag s. So P = p, p (1 - p), (1 - p)^2."""
    p = 0.3
    counts = Counter(dropout.samples(BAGS, "bags", p, N, seed=11))
    exact = {("b", "a", "g", "s"): p, ("b", "ag", "s"): p * (1 - p), ("bag", "s"): (1 - p) ** 2}
    assert set(counts) == set(exact)
    assert all(within(counts[seg], prob) for seg, prob in exact.items()), counts


def test_dropout_repeats_for_a_seed_and_differs_for_another():
    model = bpe.train_bpe(corpus.load("toy:low-lower"), merges=10, marker="eow")
    text = "lowest newer wider"
    first = dropout.samples(model, text, 0.4, 30, seed=5)
    assert dropout.samples(model, text, 0.4, 30, seed=5) == first
    assert dropout.samples(model, text, 0.4, 30, seed=6) != first
    assert len(set(first)) > 1  # the samples of one seed differ among themselves too


def test_count_spread_runs_from_the_plain_count_to_the_first_symbols():
    rows = dropout.count_spread(BAGS, "bags", 300, seed=2)
    assert [row["p"] for row in rows] == pytest.approx([k / 10 for k in range(11)])
    assert (rows[0]["min"], rows[0]["max"], rows[0]["mean"]) == (2, 2, 2.0)
    assert (rows[-1]["min"], rows[-1]["max"], rows[-1]["mean"]) == (4, 4, 4.0)
    for row in rows:
        assert row["min"] <= row["q1"] <= row["median"] <= row["q3"] <= row["max"]
    # mean count = 4 p + 3 p (1 - p) + 2 (1 - p)^2 = 2 + 3 p - p^2; a count lies in 2..4,
    # so its standard deviation is at most 1 and the mean's at most 1 / sqrt(300)
    for row in rows:
        p = row["p"]
        assert abs(row["mean"] - (2 + 3 * p - p * p)) <= 5 / math.sqrt(300)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("bags", -0.1, 3), "from 0 to 1"),
        (("bags", 1.5, 3), "from 0 to 1"),
        (("bags", math.nan, 3), "from 0 to 1"),
        (("bags", "0.5", 3), "from 0 to 1"),
        (("bags", 0.5, 0), "at least 1"),
        (("bags", 0.5, 2.5), "whole number"),
        (("bags", 0.5, 10**9), "allowed here"),
        (("  ", 0.5, 3), "Type a word"),
        (("x" * 300, 0.5, 3), "300 characters"),
    ],
)
def test_dropout_refuses_bad_input_in_a_sentence(args, message):
    with pytest.raises(ValueError, match=message):
        dropout.samples(BAGS, *args)


# --- Unigram n-best and sampling -------------------------------------------------------------


def model_of(freq: dict[str, int]) -> UnigramModel:
    total = sum(freq.values())
    logprobs = tuple(math.log(f / total) for f in freq.values())
    return UnigramModel(tuple(freq), logprobs, tuple(p for p in freq if len(p) == 1))


# 001's strict seed of toy:run-bug after the first E-step: frequency / 155
RUN_BUG = model_of(
    {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26, "b": 5, "g": 5, "bu": 5}
    | {"ug": 5, "f": 13, "fu": 13, "s": 10, "su": 10}
)


@pytest.fixture(scope="module")
def models() -> dict[str, UnigramModel]:
    """Textbook models of the toys (seed probabilities and trained), and EM (as
    SentencePiece) on the first 40 paragraphs of the Lee sample."""
    lee = corpus.from_text(" ".join(corpus.load_lines("sample:lee")[:40]), name="lee40")
    hug = unigram.trace_unigram(corpus.load("toy:hug-pug"), seed="given", vocab_size=14)
    return {
        "run-bug seed": RUN_BUG,
        "hug-pug seed": unigram.model_from_trace(hug, 1),
        "hug-pug trained": unigram.model_from_trace(hug),
        "hug-pug em": unigram.train_unigram(corpus.load("toy:hug-pug"), "em", vocab_size=14),
        "lee em": unigram.train_unigram(lee, "em", vocab_size=300),
    }


def brute_force(model: UnigramModel, word: str, alpha: float = 1.0):
    """Every segmentation with its log P and its exact probability P^alpha / sum P^alpha."""
    logp = {p: lp for p, lp in zip(model.pieces, model.logprobs, strict=True) if lp > -math.inf}
    text = (SOW if model.marker == "sow" else "") + word
    segs = all_segmentations(text, logp, limit=10**6)
    scores = {s: segmentation_logp(s, logp) for s in segs}
    z = sum(math.exp(alpha * v) for v in scores.values())
    return {s: (v, math.exp(alpha * v) / z) for s, v in scores.items()}


WORDS = ["run", "bug", "fun", "sun", "hugs", "pugs", "bun", "the", "said", "people"]
WORDS += ["government", "Australia", "hug", "ugs", "sunburn", "unusual"]


def can_enumerate(model: UnigramModel, word: str) -> bool:
    chars = {ch for piece in model.pieces for ch in piece}
    return set(word) <= chars and len(word) <= 10


@pytest.mark.parametrize(
    "name", ["run-bug seed", "hug-pug seed", "hug-pug trained", "hug-pug em", "lee em"]
)
def test_nbest_equals_brute_force_and_the_probabilities_sum_to_one(models, name):
    model, checked = models[name], 0
    for word in [w for w in WORDS if can_enumerate(models[name], w)]:
        brute = brute_force(model, word)
        ranked = sorted(brute.items(), key=lambda kv: -kv[1][0])
        every = nbest.nbest(model, word, len(brute) + 5)
        assert {s.pieces for s in every} == set(brute), word
        assert [s.logp for s in every] == pytest.approx([v for _, (v, _) in ranked]), word
        assert sum(s.probability for s in every) == pytest.approx(1.0)
        for s in every:
            assert s.probability == pytest.approx(brute[s.pieces][1]), (word, s.pieces)
        three = nbest.nbest(model, word, 3)
        assert [s.logp for s in three] == pytest.approx([v for _, (v, _) in ranked[:3]])
        assert three[0].pieces == unigram.encode_word(model, word).pieces  # Viterbi, ties too
        checked += 1
    assert checked >= 3


def test_run_has_three_segmentations_shared_five_five_one_elevenths():
    got = [(s.pieces, s.probability) for s in nbest.nbest(RUN_BUG, "run", 10)]
    assert [p for p, _ in got] == [("ru", "n"), ("r", "un"), ("r", "u", "n")]  # slides' tie
    assert [q for _, q in got] == pytest.approx([5 / 11, 5 / 11, 1 / 11])


@pytest.mark.parametrize(
    ("name", "word", "alpha"),
    [("hug-pug seed", "hugs", 1.0), ("hug-pug seed", "pugs", 0.5), ("lee em", "said", 0.3)],
)
def test_sampled_frequencies_are_within_five_standard_errors(models, name, word, alpha):
    model = models[name]
    exact = brute_force(model, word, alpha)
    counts = Counter(nbest.samples(model, word, alpha, N, seed=3))
    assert set(counts) <= set(exact)
    assert all(within(counts[s], p) for s, (_, p) in exact.items()), counts
    rows = nbest.sampled_vs_exact(model, word, alpha, N, seed=3, top=4)
    assert sum(r["count"] for r in rows) == N
    assert sum(r["exact"] for r in rows) == pytest.approx(1.0)


def test_a_large_alpha_samples_only_the_best_segmentation(models):
    model = models["hug-pug seed"]
    best = unigram.encode_word(model, "hug").pieces
    assert best == ("hug",) and brute_force(model, "hug", 60.0)[best][1] > 1 - 1e-9
    assert set(nbest.samples(model, "hug", 60.0, 500, seed=1)) == {best}


def test_a_large_alpha_shares_the_samples_among_tied_best_segmentations(models):
    """hugs with the blog's seed: h ugs, hu gs and hug s all have P = 15 * 5 / 210^2."""
    tied = {("h", "ugs"), ("hu", "gs"), ("hug", "s")}
    counts = Counter(nbest.samples(models["hug-pug seed"], "hugs", 60.0, N, seed=4))
    assert set(counts) == tied
    assert all(within(counts[s], 1 / 3) for s in tied), counts


def test_samples_repeat_for_a_seed(models):
    model = models["lee em"]
    first = nbest.samples(model, "the government said", 0.2, 50, seed=9)
    assert nbest.samples(model, "the government said", 0.2, 50, seed=9) == first
    assert nbest.samples(model, "the government said", 0.2, 50, seed=10) != first


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: nbest.nbest(m, "runz", 3), r"'z'.*\[UNK\]"),
        (lambda m: nbest.samples(m, "run zen", 1.0, 3), r"'z'.*\[UNK\]"),
        (lambda m: nbest.nbest(m, "run fun", 3), "one word"),
        (lambda m: nbest.nbest(m, "run", 0), "at least 1"),
        (lambda m: nbest.samples(m, "run", 0.0, 3), "above 0"),
        (lambda m: nbest.samples(m, "run", math.inf, 3), "above 0"),
        (lambda m: nbest.samples(m, "run", 1e300, 3), "more than the 1000 allowed"),
        (lambda m: nbest.samples(m, "run", 1.0, 3, seed=1.5), "seed"),
    ],
)
def test_unigram_refuses_bad_input_in_a_sentence(call, message):
    with pytest.raises(ValueError, match=message):
        call(RUN_BUG)
