"""The textbook Unigram LM on the worked examples of the course material, number for number.

001 = ../shared/seeds/001_cd5e11af49399106.txt (slides "Tokenization Strategies", run/bug/
fun/sun, log base 10, strict substrings as the seed)
004 = ../shared/seeds/004_39df60022dd20ca2.txt (blog post "Subword Tokenization", hug/pug
with the blog's seed, natural log)

The material rounds every probability to 4 digits before multiplying (001 gives 66.102 and
61.155); we compute exactly (66.109 and 61.165) and `rounded_loss` reproduces the slides.
Expected losses are also recomputed here from the frequencies, as a student would by hand.
"""

from __future__ import annotations

import math
import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtok_core import unigram
from subtok_core.corpus import WordCounts, from_pairs, load
from subtok_core.lattice import UNK
from subtok_core.records import Span
from subtok_core.unigram import (
    UnigramModel,
    encode_word,
    iter_unigram,
    model_from_trace,
    segment,
    trace_unigram,
    train_unigram,
)
from subtok_core.unigram import train as unigram_entry  # where the limits live
from subtok_core.unigram.seed import seed_rows
from subtok_core.unigram.textbook import TextbookRun, rounded_loss

RUN_BUG_SEED = [
    ("r", 3), ("u", 31), ("n", 26), ("ru", 3), ("un", 26), ("b", 5), ("g", 5), ("bu", 5),
    ("ug", 5), ("f", 13), ("fu", 13), ("s", 10), ("su", 10),
]  # fmt: skip
HUG_PUG_SEED = [
    ("h", 15), ("u", 36), ("g", 20), ("hu", 15), ("ug", 20), ("p", 17), ("pu", 17),
    ("n", 16), ("un", 16), ("b", 4), ("bu", 4), ("s", 5), ("hug", 15), ("gs", 5), ("ugs", 5),
]  # fmt: skip
RUN_BUG_COUNTS = {"run": 3, "bug": 5, "fun": 13, "sun": 10}
HUG_PUG_COUNTS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def hand_loss(freq: dict[str, int], counts: dict[str, int], splits, base: float) -> float:
    """sum over words of count x -log P(split), P(piece) = frequency / total frequency."""
    total = sum(freq.values())
    return sum(
        counts[word] * -sum(math.log(freq[p] / total, base) for p in pieces)
        for word, pieces in splits.items()
    )


def by_kind(trace) -> list[str]:
    return [s.kind for s in trace.steps]


@pytest.fixture(scope="module")
def run_bug():
    return load("toy:run-bug")


@pytest.fixture(scope="module")
def hug_pug():
    return load("toy:hug-pug")


@pytest.fixture(scope="module")
def slide_run(run_bug):
    """001 as the slides run it: strict seed, log base 10, the student removes un."""
    return trace_unigram(run_bug, seed="strict", vocab_size=12, choices=("un",), log_base="10")


# --- 001: run, bug, fun, sun -------------------------------------------------------------


def test_001_strict_seed_and_its_frequencies(run_bug):
    rows = seed_rows(run_bug, "strict")
    assert rows == RUN_BUG_SEED
    assert sum(f for _, f in rows) == 155
    # whole words are no pieces of a strict seed
    assert not {"run", "bug", "fun", "sun"} & {p for p, _ in rows}


def test_001_first_e_step(slide_run):
    e1 = slide_run.steps[0]
    assert (e1.number, e1.round, e1.kind, e1.vocab_size) == (1, 1, "e", 13)
    assert [(r.piece, r.freq) for r in e1.vocab] == RUN_BUG_SEED
    assert {r.piece: r.prob for r in e1.vocab} == pytest.approx(
        {p: f / 155 for p, f in RUN_BUG_SEED}, rel=1e-12
    )
    splits = {w.word: w.pieces for w in e1.segmentations}
    assert splits == {"run": ("ru", "n"), "bug": ("bu", "g"), "fun": ("fu", "n"),
                      "sun": ("su", "n")}  # fmt: skip
    # run: P(ru n) = P(r un) = 3 x 26 / 155^2, each word has exactly one tied split
    assert math.exp(e1.segmentations[0].logprob) == pytest.approx(3 * 26 / 155**2, rel=1e-12)
    assert [w.ties for w in e1.segmentations] == [1, 1, 1, 1]
    assert [w.count for w in e1.segmentations] == [3, 5, 13, 10]
    expected = hand_loss(dict(RUN_BUG_SEED), RUN_BUG_COUNTS, splits, 10)
    assert e1.loss == pytest.approx(expected, rel=1e-12)
    assert round(e1.loss, 3) == 66.109
    assert round(rounded_loss(e1, "10"), 3) == 66.102  # the slides' number


def test_001_removing_any_piece_leaves_the_loss_unchanged(slide_run):
    m1 = slide_run.steps[1]
    assert (m1.kind, m1.vocab_size, m1.removed) == ("m", 13, ())
    # ties in seed order; characters are no candidates
    assert [p for p, _ in m1.removal] == ["ru", "un", "bu", "ug", "fu", "su"]
    assert all(loss == pytest.approx(m1.loss, abs=1e-9) for _, loss in m1.removal)
    assert all(round(loss, 3) == 66.109 for _, loss in m1.removal)


def test_001_the_slides_remove_un_and_re_estimate(slide_run):
    assert by_kind(slide_run) == ["e", "m", "prune", "e"]
    prune, e2 = slide_run.steps[2], slide_run.steps[3]
    assert prune.removed == ("un",) and "chosen by you" in prune.note
    # the prune step keeps the old probabilities: P = f / 155, summing to 129 / 155
    probs = {r.piece: r.prob for r in prune.vocab}
    assert "un" not in probs and prune.vocab_size == 12
    assert probs == pytest.approx({p: f / 155 for p, f in RUN_BUG_SEED if p != "un"})
    assert sum(probs.values()) == pytest.approx(129 / 155)
    assert prune.loss == pytest.approx(dict(prune.removal)["un"], abs=1e-12)
    # the next E-step re-estimates over 129
    assert sum(r.freq for r in e2.vocab) == 129
    assert {r.piece: r.prob for r in e2.vocab} == pytest.approx(
        {p: f / 129 for p, f in RUN_BUG_SEED if p != "un"}, rel=1e-12
    )
    assert [w.pieces for w in e2.segmentations] == [("ru", "n"), ("bu", "g"), ("fu", "n"),
                                                    ("su", "n")]  # fmt: skip
    freq = {p: f for p, f in RUN_BUG_SEED if p != "un"}
    splits = {w.word: w.pieces for w in e2.segmentations}
    assert e2.loss == pytest.approx(hand_loss(freq, RUN_BUG_COUNTS, splits, 10), rel=1e-12)
    assert round(e2.loss, 3) == 61.165
    assert round(rounded_loss(e2, "10"), 3) == 61.155  # the slides' number
    assert slide_run.stop_reason == "Reached the vocab size 12 asked for."
    assert not slide_run.truncated


def test_001_second_m_step_table(run_bug):
    run = TextbookRun(run_bug, seed_rows(run_bug, "strict"), 11, choices=("un",), log_base="10")
    steps = list(run.steps())
    m2 = steps[4]
    assert (m2.kind, m2.round) == ("m", 2)
    table = {p: round(loss, 3) for p, loss in m2.removal}
    assert table == {"ru": 63.023, "bu": 61.165, "ug": 61.165, "fu": 69.215, "su": 67.357}
    # smallest increase first; bu and ug tie and keep their seed order
    assert [p for p, _ in m2.removal] == ["bu", "ug", "ru", "su", "fu"]
    # by hand: without ru, run is r u n (3 x 31 x 26 / 129^3)
    freq = {p: f for p, f in RUN_BUG_SEED if p != "un"}
    splits = {"run": ("r", "u", "n"), "bug": ("bu", "g"), "fun": ("fu", "n"), "sun": ("su", "n")}
    assert dict(m2.removal)["ru"] == pytest.approx(hand_loss(freq, RUN_BUG_COUNTS, splits, 10))
    # no choice for round 2: the smallest increase goes, ties in seed order
    assert steps[5].removed == ("bu",) and "smallest increase" in steps[5].note
    assert [s.kind for s in steps] == ["e", "m", "prune"] * 2 + ["e"]


def test_001_automatic_pruning_takes_the_first_tied_piece(run_bug):
    trace = trace_unigram(run_bug, seed="strict", log_base="10")
    removed = [s.removed for s in trace.steps if s.kind == "prune"]
    assert removed[0] == ("ru",)  # all six tie at 66.109: the first in seed order
    # to the default vocab size, the 7 characters: every multi-character piece goes
    assert sorted(p for r in removed for p in r) == ["bu", "fu", "ru", "su", "ug", "un"]
    assert trace.steps[-1].vocab_size == 7
    assert [r.piece for r in trace.steps[-1].vocab] == ["r", "u", "n", "b", "g", "f", "s"]


def test_001_notes_say_what_each_step_did(run_bug):
    trace = trace_unigram(run_bug, seed="strict", vocab_size=12, log_base="10")
    e1, m1, prune, e2 = (s.note for s in trace.steps)
    assert e1.startswith("E-step: P(piece) = frequency / 155 over 13 pieces;")
    assert e1.endswith("loss 66.109.")
    assert m1.endswith("smallest increase: ru (+0.000), tied with un, bu, ug, fu, su.")
    # 001's first round: all six removals cost +0.000 (m1), so the seed's order chose ru
    assert prune == (
        "Pruned ru (smallest increase of the loss); 5 other pieces tie with them at +0.000 "
        "(un, bu, ug, fu, su), and the order of the seed chose which go first; the next "
        "E-step re-estimates P."
    )
    assert e2.startswith("E-step: P(piece) = frequency / 152 over 12 pieces;")


def test_compact_steps_keep_no_segmentations(run_bug):
    full = trace_unigram(run_bug, seed="strict", vocab_size=12, log_base="10")
    compact = trace_unigram(run_bug, seed="strict", vocab_size=12, log_base="10", snapshot=False)
    assert compact.compact and not full.compact
    assert all(s.segmentations is None for s in compact.steps)
    assert [s.loss for s in compact.steps] == [s.loss for s in full.steps]
    assert [s.removed for s in compact.steps] == [s.removed for s in full.steps]
    assert rounded_loss(compact.steps[0], "10") is None


def test_rounded_loss_of_a_probability_that_rounds_to_zero():
    """On a bigger corpus a piece's probability can round to 0.0000 at 4 digits (here c and
    d, 1 / 60002): the slides' loss is then infinite (or not applicable), never a crash."""
    wc = from_pairs([("ab", 30000), ("cd", 1)])
    step = trace_unigram(wc, seed="strict").steps[0]
    assert step.segmentations[1].pieces == ("c", "d")
    value = rounded_loss(step, "e")
    assert value is None or value > step.loss


# --- 004: hug, pug, pun, bun, hugs --------------------------------------------------------


def test_004_given_seed_and_strict_seed(hug_pug):
    assert seed_rows(hug_pug, "given") == HUG_PUG_SEED
    assert sum(f for _, f in HUG_PUG_SEED) == 210
    # the blog's list is exactly the strict substrings with their frequencies
    assert dict(seed_rows(hug_pug, "strict")) == dict(HUG_PUG_SEED)
    assert len(seed_rows(hug_pug, "strict")) == len(HUG_PUG_SEED)


def test_004_first_e_step_matches_the_blog(hug_pug):
    trace = trace_unigram(hug_pug, seed="given", vocab_size=14)
    e1 = trace.steps[0]
    assert [(r.piece, r.freq) for r in e1.vocab] == HUG_PUG_SEED
    splits = {w.word: w.pieces for w in e1.segmentations}
    assert splits == {"hug": ("hug",), "pug": ("pu", "g"), "pun": ("pu", "n"),
                      "bun": ("bu", "n"), "hugs": ("hug", "s")}  # fmt: skip
    probs = {w.word: math.exp(w.logprob) for w in e1.segmentations}
    # P(p ug) = P(pu g) = 17 x 20 / 210^2 = 0.0077098
    assert probs["pug"] == pytest.approx(17 * 20 / 210**2, rel=1e-12)
    assert round(probs["pug"], 7) == 0.0077098
    # the blog's scores: 0.071428, 0.007710, 0.006168, 0.001451, 0.001701
    assert [round(p, 6) for p in probs.values()] == [0.071429, 0.00771, 0.006168, 0.001451,
                                                      0.001701]  # fmt: skip
    # ties: pug (p ug), pun (p un), bun (b un), hugs (h ugs, hu gs)
    assert {w.word: w.ties for w in e1.segmentations} == {
        "hug": 0, "pug": 1, "pun": 1, "bun": 1, "hugs": 2}  # fmt: skip
    expected = hand_loss(dict(HUG_PUG_SEED), HUG_PUG_COUNTS, splits, math.e)
    assert e1.loss == pytest.approx(expected, rel=1e-12)
    assert round(e1.loss, 3) == 169.803


def test_004_only_hug_costs_anything(hug_pug):
    m1 = trace_unigram(hug_pug, seed="given", vocab_size=14).steps[1]
    increase = {p: loss - m1.loss for p, loss in m1.removal}
    assert set(increase) == {"hu", "ug", "pu", "un", "bu", "hug", "gs", "ugs"}
    # without hug, hug is hu g (15 x 20 / 210^2 instead of 15 / 210): 10 x ln 10.5
    assert increase.pop("hug") == pytest.approx(10 * math.log(10.5), rel=1e-12)
    assert round(10 * math.log(10.5), 3) == 23.514
    assert all(v == pytest.approx(0.0, abs=1e-9) for v in increase.values())
    assert m1.removal[-1][0] == "hug"


def test_004_docstring_model(hug_pug):
    trace = trace_unigram(hug_pug, seed="given", vocab_size=14)
    assert by_kind(trace) == ["e", "m", "prune", "e"]
    assert trace.steps[2].removed == ("hu",)  # first of the seven tied at +0
    model = model_from_trace(trace)
    assert len(model.pieces) == 14 and "hu" not in model.pieces
    assert segment(model, "hugs pun").pieces == ["hug", "s", "pu", "n"]


# --- pruning ------------------------------------------------------------------------------


def assert_well_formed(trace, target: int) -> None:
    """Rounds of E, M, prune; an E-step at the end; 10 % (at least one) of the candidates
    pruned per round, never a character, smallest increase first; stop at the target."""
    steps = trace.steps
    kinds = by_kind(trace)
    assert kinds == ["e", "m", "prune"] * (len(steps) // 3) + ["e"]
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert [s.round for s in steps] == [i // 3 + 1 for i in range(len(steps))]
    alphabet = set(trace.start.alphabet)
    for e, m, prune, after in zip(steps[::3], steps[1::3], steps[2::3], steps[3::3]):
        pieces = [r.piece for r in e.vocab]
        assert sorted(p for p, _ in m.removal) == sorted(p for p in pieces if len(p) > 1)
        assert _ties_in_seed_order(m.removal, m.loss, pieces)
        count = min(max(1, math.floor(len(m.removal) * 10 / 100)), e.vocab_size - target)
        assert prune.removed == tuple(p for p, _ in m.removal[:count])
        assert not set(prune.removed) & alphabet and all(len(p) > 1 for p in prune.removed)
        assert prune.vocab_size == after.vocab_size == e.vocab_size - count >= target
        assert sum(r.prob for r in after.vocab) == pytest.approx(1.0)
    assert steps[-1].vocab_size == target
    assert alphabet <= {r.piece for r in steps[-1].vocab}
    assert trace.stop_reason == f"Reached the vocab size {target} asked for."


def _ties_in_seed_order(removal, loss, pieces) -> bool:
    order = {p: i for i, p in enumerate(pieces)}
    keys = [(round(v - loss, 9), order[p]) for p, v in removal]
    return keys == sorted(keys)


@pytest.mark.parametrize("name", ["toy:sunflower", "toy:low-lower", "toy:cat-bat"])
def test_pruning_rounds_on_the_toys(name):
    wc = load(name)
    trace = trace_unigram(wc, seed="all")
    assert_well_formed(trace, len(trace.start.alphabet))
    assert model_from_trace(trace).pieces == tuple(r.piece for r in trace.steps[-1].vocab)
    sizes = [len(s.removed) for s in trace.steps if s.kind == "prune"]
    if name == "toy:sunflower":
        assert sizes[:3] == [6, 6, 5]  # 10 % of 66, 60, 54 candidates


def test_removal_table_is_sorted_with_ties_in_seed_order():
    trace = trace_unigram(load("toy:sunflower"), seed="all", vocab_size=60)
    for step in trace.steps:
        if step.kind == "m":
            assert _ties_in_seed_order(step.removal, step.loss, [r.piece for r in step.vocab])


def test_prune_percent_and_the_vocab_size_cap(run_bug):
    trace = trace_unigram(run_bug, seed="strict", log_base="10", prune_percent=50)
    removed = [s.removed for s in trace.steps if s.kind == "prune"]
    assert removed[0] == ("ru", "un", "bu")  # half of 6 candidates, ties in seed order
    assert removed[1] == ("ug",)  # half of 3 is 1
    # never below the vocab size asked for, even when the percentage asks for more
    trace = trace_unigram(run_bug, seed="strict", vocab_size=12, prune_percent=100)
    assert [s.removed for s in trace.steps if s.kind == "prune"] == [("ru",)]
    assert trace.steps[-1].vocab_size == 12


def test_a_prune_step_keeps_old_probabilities_and_its_loss_is_the_m_table_value(run_bug):
    trace = trace_unigram(run_bug, seed="strict", log_base="10")
    for e, m, prune in zip(trace.steps[::3], trace.steps[1::3], trace.steps[2::3]):
        old = {r.piece: r.prob for r in e.vocab}
        assert {r.piece: r.prob for r in prune.vocab} == {
            p: v for p, v in old.items() if p not in prune.removed
        }
        assert prune.loss == pytest.approx(dict(m.removal)[prune.removed[0]], abs=1e-9)
    # round 5 prunes ug (63.111 with old probabilities); the E-step after gives 61.913
    assert [round(s.loss, 3) for s in trace.steps[12:16]] == [60.101, 60.101, 63.111, 61.913]


def test_choices_empty_means_automatic(run_bug):
    trace = trace_unigram(run_bug, seed="strict", choices=("", "un"), log_base="10")
    removed = [s.removed for s in trace.steps if s.kind == "prune"]
    assert removed[:2] == [("ru",), ("un",)]
    notes = [s.note for s in trace.steps if s.kind == "prune"]
    assert "smallest increase" in notes[0] and "chosen by you" in notes[1]


@pytest.mark.parametrize(
    ("choices", "words"),
    [
        (("u",), "Cannot remove 'u' in round 1: single characters are never removed."),
        (("zz",), "Cannot remove 'zz' in round 1: it is not in the vocabulary at that point."),
        (("un", "un"), "Cannot remove 'un' in round 2: it is not in the vocabulary"),
        (("", "n"), "Cannot remove 'n' in round 2: single characters"),
    ],
)
def test_bad_choices_are_refused_with_a_sentence(run_bug, choices, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        trace_unigram(run_bug, seed="strict", choices=choices)


def test_vocab_size_at_or_above_the_seed_is_one_e_step(run_bug):
    trace = trace_unigram(run_bug, seed="strict", vocab_size=13)
    assert by_kind(trace) == ["e"]
    assert trace_unigram(run_bug, seed="strict", vocab_size=50).steps[0].vocab_size == 13


def test_seed_order_and_other_seeds(run_bug):
    # the all seed adds the whole words, after the strict substrings of each length
    rows = seed_rows(run_bug, "all")
    assert [p for p, _ in rows] == [p for p, _ in RUN_BUG_SEED[:5]] + ["run"] + [
        p for p, _ in RUN_BUG_SEED[5:9]] + ["bug", "f", "fu", "fun", "s", "su", "sun"]  # fmt: skip
    assert dict(rows)["run"] == 3 and dict(rows)["un"] == 26
    assert seed_rows(run_bug, "all", max_len=2) == RUN_BUG_SEED
    frequent = seed_rows(run_bug, "frequent", size=9)
    assert [p for p, _ in frequent] == ["r", "u", "n", "un", "b", "g", "f", "fu", "s"]


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"vocab_size": 3}, "vocab size 3 is smaller than the 7 characters of this corpus"),
        ({"seed": "bogus"}, "Unknown seed 'bogus'"),
        ({"variant": "bogus"}, "Unknown variant 'bogus'"),
        ({"log_base": "2"}, "The log base must be one of e, 10"),
        ({"seed": "given"}, "toy:run-bug comes with no seed list"),
        ({"prune_percent": 0}, "Prune between 0 and 100"),
        ({"seed": "frequent"}, "needs a size of at least 7"),
        ({"max_piece_len": 0}, "must be at least 1"),
    ],
)
def test_bad_parameters_raise_a_sentence(run_bug, params, words):
    with pytest.raises(ValueError, match=words) as info:
        trace_unigram(run_bug, **params)
    assert str(info.value).endswith(".")


def test_empty_corpus_is_refused():
    with pytest.raises(ValueError, match="The corpus is empty"):
        trace_unigram(WordCounts((), ()))
    with pytest.raises(ValueError, match="The corpus is empty"):
        seed_rows(WordCounts((), ()), "strict")


def test_given_seed_on_a_corpus_without_a_name():
    with pytest.raises(ValueError, match="This corpus comes with no seed list"):
        seed_rows(from_pairs([("hug", 2)]), "given")


def test_too_big_for_the_textbook_variant(run_bug, monkeypatch):
    monkeypatch.setattr(unigram_entry, "TEXTBOOK_MAX_WORDS", 3)
    with pytest.raises(ValueError, match=r"at most 3 distinct words; this corpus has 4\. Use"):
        trace_unigram(run_bug, seed="strict")
    monkeypatch.setattr(unigram_entry, "TEXTBOOK_MAX_WORDS", 4)
    monkeypatch.setattr(unigram_entry, "TEXTBOOK_MAX_SEED", 12)
    with pytest.raises(ValueError, match="This seed has 13 pieces; the textbook variant takes"):
        trace_unigram(run_bug, seed="strict")
    monkeypatch.setattr(unigram_entry, "TEXTBOOK_MAX_SEED", 13)
    assert trace_unigram(run_bug, seed="strict", vocab_size=13).steps[0].vocab_size == 13


# --- models, traces, segment ----------------------------------------------------------------


def test_model_at_step_zero_is_the_seed(run_bug):
    trace = trace_unigram(run_bug, seed="strict", log_base="10")
    seed = model_from_trace(trace, 0)
    assert seed.pieces == tuple(p for p, _ in RUN_BUG_SEED)
    assert seed.logprobs == pytest.approx([math.log(f / 155) for _, f in RUN_BUG_SEED])
    assert seed.alphabet == ("r", "u", "n", "b", "g", "f", "s") and seed.marker == "none"
    after_prune = model_from_trace(trace, 3)
    assert after_prune.pieces == tuple(p for p, _ in RUN_BUG_SEED if p != "ru")
    assert model_from_trace(trace).pieces == seed.alphabet


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("toy:run-bug", {"seed": "strict", "log_base": "10", "choices": ("un",)}),
        ("toy:hug-pug", {"seed": "given", "vocab_size": 10}),
        ("toy:sunflower", {"seed": "all", "prune_percent": 20.0}),
    ],
)
def test_train_equals_the_last_step_and_runs_repeat(name, params):
    wc = load(name)
    trace = trace_unigram(wc, **params)
    assert train_unigram(wc, **params) == model_from_trace(trace)
    assert trace_unigram(wc, **params) == trace
    assert tuple(iter_unigram(wc, **params)) == trace.steps
    assert pickle.loads(pickle.dumps(trace)) == trace
    assert dict(trace.params)["variant"] == "textbook"


def test_segment_spans_point_at_the_text(hug_pug):
    model = train_unigram(hug_pug, seed="given", vocab_size=12)
    text = "  hugs\tpun hugs\n\nbun  hugs "
    encoded = segment(model, text)
    assert encoded.pieces == ["hug", "s", "pu", "n", "hug", "s", "bu", "n", "hug", "s"]
    assert [(s.start, s.end) for s in encoded.tokens] == [
        (2, 5), (5, 6), (7, 9), (9, 10), (11, 14), (14, 15), (17, 19), (19, 20),
        (22, 25), (25, 26),
    ]  # fmt: skip
    assert all(text[s.start : s.end] == s.text for s in encoded.tokens)
    assert [lat.word for lat in encoded.words] == ["hugs", "pun", "hugs", "bun", "hugs"]


def test_blank_text_is_refused(hug_pug):
    model = train_unigram(hug_pug, seed="given", vocab_size=12)
    for text in ("", "   ", "\t\n "):
        with pytest.raises(ValueError, match="Type a word to encode"):
            segment(model, text)


def test_unknown_characters_become_unk(hug_pug):
    model = train_unigram(hug_pug, seed="given", vocab_size=12)
    encoded = segment(model, "xhug pu!")
    assert encoded.tokens == (
        Span(UNK, 0, 1), Span("hug", 1, 4), Span("pu", 5, 7), Span(UNK, 7, 8)
    )  # fmt: skip
    lattice = encode_word(model, "x")
    assert lattice.pieces == (UNK,)
    assert lattice.best_logp == pytest.approx(min(model.logprobs) - unigram.UNK_PENALTY)


HUG_MODEL = UnigramModel(
    tuple(p for p, _ in HUG_PUG_SEED),
    tuple(math.log(f / 210) for _, f in HUG_PUG_SEED),
    ("h", "u", "g", "p", "n", "b", "s"),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.text("hugpnbsx", min_size=1, max_size=6), min_size=1, max_size=6),
    st.lists(st.sampled_from([" ", "  ", "\t", "\n", " \n "]), min_size=7, max_size=7),
)
def test_segment_spans_cover_every_word_in_order(words, gaps):
    text = gaps[0] + "".join(w + g for w, g in zip(words, gaps[1:]))
    encoded = segment(HUG_MODEL, text)
    position = 0
    for lattice, word in zip(encoded.words, words, strict=True):
        assert lattice.word == word
    for span in encoded.tokens:
        assert span.start >= position and span.end > span.start
        if span.text == UNK:
            assert span.end == span.start + 1 and text[span.start] not in HUG_MODEL.pieces
        else:
            assert text[span.start : span.end] == span.text
        position = span.end
    covered = "".join(text[s.start : s.end] for s in encoded.tokens)
    assert covered == "".join(words)
