"""The EM variant of Unigram LM (unigram/em.py, unigram/em_arrays.py), checked against brute force.

Expected counts and losses are recomputed by enumerating every segmentation of every word
(lattice.all_segmentations); the vectorized Viterbi is compared with lattice.viterbi and
with the best of all segmentations under the latest-start tie rule; the prune schedule,
determinism and errors are checked on small corpora; a slow test compares the final
vocabulary with sentencepiece's unigram trainer on sample:enwiki.
"""

from __future__ import annotations

import io
import math
import random
from itertools import accumulate

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtok_core.corpus import WordCounts, count_lines, count_words, from_pairs, load_lines
from subtok_core.lattice import TIE_TOLERANCE, all_segmentations, segmentation_logp, viterbi
from subtok_core.records import SOW
from subtok_core.unigram.em import CHAR_FLOOR, COMPACT_ROWS, EmRun, _m_step
from subtok_core.unigram.em_arrays import lattices_of
from subtok_core.unigram.em_seed import build_seed

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MICRO = from_pairs([("hug", 10), ("pug", 5), ("hugs", 5), ("pun", 12)])
REPEATS = from_pairs([("abab", 3), ("aba", 2), ("bab", 4), ("ba", 1), ("abba", 2)])
SCHEDULE = from_pairs(
    [("lower", 5), ("lowest", 3), ("newer", 6), ("newest", 4), ("wider", 2), ("widest", 3),
     ("low", 7), ("new", 5), ("slow", 2), ("slower", 2)]
)  # fmt: skip
PROBS = (0.05, 0.1, 0.2, 0.25, 0.5)  # products of these tie often: 0.1 x 0.5 = 0.05 ...

# --- brute force ----------------------------------------------------------------------


def brute_e_step(wc: WordCounts, logp: dict[str, float], marker: str = "sow"):
    """Expected counts and corpus loss by enumerating every segmentation of every word."""
    counts, loss = dict.fromkeys(logp, 0.0), 0.0
    for word, count in wc.items():
        segs = all_segmentations(SOW + word if marker == "sow" else word, logp, limit=10**6)
        probs = [math.exp(segmentation_logp(seg, logp)) for seg in segs]
        total = sum(probs)
        loss -= count * math.log(total)
        for seg, p in zip(segs, probs, strict=True):
            for piece in seg:
                counts[piece] += count * p / total
    return counts, loss


def starts_backwards(seg: tuple[str, ...]) -> tuple[int, ...]:
    """Start of the last piece, of the one before, ...: the tie rule compares these."""
    return tuple(reversed(list(accumulate(len(p) for p in seg[:-1]))))


def brute_best(word: str, logp: dict[str, float]) -> tuple[tuple[str, ...], int]:
    """The best segmentation (latest-starting last piece among ties) and how many tie."""
    segs = all_segmentations(word, logp, limit=10**6)
    scores = [segmentation_logp(seg, logp) for seg in segs]
    top = max(scores)
    near = [seg for seg, s in zip(segs, scores, strict=True) if s >= top - TIE_TOLERANCE]
    return max(near, key=starts_backwards), len(near)


def logp_of(rows) -> dict[str, float]:
    return {row.piece: math.log(row.prob) for row in rows}


# --- E and M against brute force ------------------------------------------------------


@pytest.mark.parametrize("wc", [MICRO, REPEATS], ids=["hug", "abab"])
@pytest.mark.parametrize("marker", ["sow", "none"])
def test_e_and_m_steps_equal_brute_force(wc, marker):
    run = EmRun(wc, vocab_size=len(set("".join(wc.words))) + 1, marker=marker, snapshot=True)
    e1, m1, e2 = [step for step, _ in zip(run.steps(), range(3), strict=False)]
    counts, loss = brute_e_step(wc, logp_of(run.start.vocab), marker)
    assert (e1.kind, m1.kind, e2.kind) == ("e", "m", "e")
    assert {row.piece: row.freq for row in e1.vocab} == pytest.approx(counts, abs=1e-9)
    assert e1.loss == pytest.approx(loss, abs=1e-9)
    # M-step: plain maximum likelihood, then the second E-step under the new probabilities
    total = sum(counts.values())
    assert {row.piece: row.prob for row in m1.vocab} == pytest.approx(
        {piece: c / total for piece, c in counts.items()}, abs=1e-12
    )
    counts2, loss2 = brute_e_step(wc, logp_of(m1.vocab), marker)
    assert m1.loss == pytest.approx(loss2, abs=1e-9) and e2.loss == m1.loss
    assert {row.piece: row.freq for row in e2.vocab} == pytest.approx(counts2, abs=1e-9)


def test_m_step_holds_a_character_at_the_floor():
    counts = np.array([0.0, 3.0, 1e-13, 6.0, 2.0])  # pieces 0-2 are characters
    alive = np.array([True, True, True, True, False])
    is_char = np.array([True, True, True, False, False])
    probs = np.exp(_m_step(counts, alive, is_char, CHAR_FLOOR))
    assert probs[[0, 2]] == pytest.approx([CHAR_FLOOR, CHAR_FLOOR], rel=1e-12)
    assert probs[[1, 3]] == pytest.approx(np.array([3.0, 6.0]) / 9 * (1 - 2 * CHAR_FLOOR))
    assert probs[4] == 0 and probs.sum() == pytest.approx(1.0, abs=1e-15)


def assert_em_monotone(steps) -> None:
    for a, b in zip(steps, steps[1:]):
        if a.round == b.round and a.kind in "em" and b.kind in "em":
            assert b.loss <= a.loss + 1e-9 * max(1.0, abs(a.loss)), (a.number, a.loss, b.loss)
            if b.kind == "e":
                assert b.loss == a.loss  # an E-step changes no probability


def test_loss_never_rises_within_a_round():
    run = EmRun(SCHEDULE, vocab_size=14, em_iterations=4)
    steps = list(run.steps())
    assert_em_monotone(steps)
    assert steps[1].loss < steps[0].loss  # the first M-step really learns something


words_st = st.lists(st.text(alphabet="abc", min_size=1, max_size=6), min_size=1, max_size=8)


@SETTINGS
@given(
    words=words_st,
    counts=st.lists(st.integers(1, 9), min_size=8, max_size=8),
    marker=st.sampled_from(["sow", "none"]),
)
@pytest.mark.slow  # a long run (fast tier: README)
def test_loss_never_rises_on_random_corpora(words, counts, marker):
    wc = from_pairs(list(zip(words, counts, strict=False)))
    vocab_size = len(set("".join(wc.words))) + (marker == "sow")
    run = EmRun(wc, vocab_size=vocab_size, em_iterations=3, marker=marker, snapshot=True)
    steps = list(run.steps())
    assert_em_monotone(steps)
    assert len(steps) == run.expected_steps
    assert steps[-1].vocab_size == min(vocab_size, len(run.start.vocab))
    for step in steps:
        for best in step.segmentations:
            assert "".join(best.pieces) == (SOW if marker == "sow" else "") + best.word


# --- Viterbi --------------------------------------------------------------------------


@st.composite
def vocab_st(draw):
    """Every character of "abc" and some random longer pieces, with probabilities that tie."""
    longer = draw(st.lists(st.text(alphabet="abc", min_size=2, max_size=4), max_size=10))
    pieces = list(dict.fromkeys(["a", "b", "c", *longer]))
    return {p: math.log(draw(st.sampled_from(PROBS))) for p in pieces}


def best_segmentations(words, logp) -> list[tuple[str, ...]]:
    """Every word's best segmentation through the arrays, as EM's Viterbi pass reads it
    (subtok_core/unigram/em.py: Lattices.viterbi, then best_edges)."""
    pieces = list(logp)
    lat = lattices_of(words, pieces)
    best = lat.viterbi(np.array([logp[p] for p in pieces], dtype=float))
    found: list[list[str]] = [[] for _ in words]
    for edge in lat.best_edges(best):
        found[lat.lat[edge]].append(pieces[lat.piece[edge]])
    return [tuple(f) for f in found]


@SETTINGS
@given(
    logp=vocab_st(),
    words=st.lists(st.text(alphabet="abc", min_size=1, max_size=8), min_size=1, max_size=6),
)
def test_vectorized_viterbi_equals_lattice_viterbi_and_brute_force(logp, words):
    ours = best_segmentations(words, logp)
    assert ours == [viterbi(word, logp)[0] for word in words]
    assert ours == [brute_best(word, logp)[0] for word in words]
    lat = lattices_of(words, list(logp))
    best = lat.viterbi(np.array(list(logp.values())), count_paths=True)
    ends = lat.node0 + lat.lengths
    assert list(best.paths[ends]) == [brute_best(word, logp)[1] for word in words]
    assert list(best.score[ends]) == pytest.approx([viterbi(w, logp)[1] for w in words])


def test_forward_and_backward_shift_by_the_neighbour_only_when_it_is_safe():
    def brute_total(word: str, logp: dict[str, float]) -> float:
        probs = [math.exp(segmentation_logp(s, logp)) for s in all_segmentations(word, logp)]
        return math.log(sum(probs))

    pieces = ["a", "b", "ab", "ba", "aba", "abab"]
    lat = lattices_of(["abab", "ba"], pieces)
    # every character an edge, none too improbable: the neighbour shifts the sums
    plain = dict(zip(pieces, np.log([0.3, 0.2, 0.2, 0.1, 0.1, 0.1]), strict=True))
    # a character so improbable that skipping it by abab would overflow exp: the maximum
    rare = {**plain, "b": -400.0}
    for logp in (plain, rare):
        lp = np.array([logp[p] for p in pieces])
        alpha, beta = lat.forward(lp), lat.backward(lp)
        for w, word in enumerate(["abab", "ba"]):
            assert lat.totals(alpha)[w] == pytest.approx(brute_total(word, logp), rel=1e-12)
            assert beta[lat.node0[w]] == pytest.approx(brute_total(word, logp), rel=1e-12)
    assert lat.shift_by_neighbour(np.array([plain[p] for p in pieces]))
    assert not lat.shift_by_neighbour(np.array([rare[p] for p in pieces]))  # 3 x 400 > 700
    # a position without its character's edge (no b): the maximum
    assert not lattices_of(["ab"], ["a", "ab"]).shift_by_neighbour(np.log([0.5, 0.5]))


def test_ties_go_to_the_latest_starting_last_piece():
    logp = {"a": math.log(0.5), "b": math.log(0.5), "ab": math.log(0.25)}  # P(a)P(b) = P(ab)
    assert best_segmentations(["ab", "aab"], logp) == [("a", "b"), ("a", "a", "b")]
    assert viterbi("ab", logp)[0] == ("a", "b")


# --- the schedule, the records, determinism ---------------------------------------------


def test_prune_schedule_keeps_floor_of_the_shrinking_factor():
    vocab_size, factor = 16, 0.75
    run = EmRun(SCHEDULE, vocab_size=vocab_size, shrinking_factor=factor, snapshot=True)
    steps, size = list(run.steps()), len(run.start.vocab)
    desired = int(vocab_size * 1.1)
    alphabet = set(run.start.alphabet)
    assert alphabet == set("".join(SCHEDULE.words)) | {SOW}
    prunes = [s for s in steps if s.kind == "prune"]
    assert len(prunes) >= 3 and "Final prune" in prunes[-1].note
    for step in steps:
        if step.kind == "prune":
            final = step is prunes[-1]
            kept = vocab_size if final else max(desired, math.floor(factor * size))
            assert step.vocab_size == kept == len(step.vocab)
            assert len(step.removed) == size - kept
            assert set(step.removed) <= {piece for piece, _ in step.removal}
        size = step.vocab_size
        assert alphabet <= {row.piece for row in step.vocab}  # characters are never pruned
        assert math.isfinite(step.loss)  # every word stays segmentable
    last = steps[-1]
    assert last.kind == "m" and len(last.vocab) == last.vocab_size == vocab_size
    assert sum(row.prob for row in last.vocab) == pytest.approx(1.0, abs=1e-9)
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert [s.round for s in prunes] == list(range(1, len(prunes) + 1))
    assert len(steps) == run.expected_steps and not run.truncated
    assert run.stop_reason.startswith("Reached 16 pieces")


def test_removal_is_sorted_and_counts_from_the_current_loss():
    steps = list(EmRun(SCHEDULE, vocab_size=16, snapshot=True).steps())
    prune = next(s for s in steps if s.kind == "prune")
    before = steps[prune.number - 2].loss
    losses = [loss for _, loss in prune.removal]
    assert losses == sorted(losses)
    assert prune.removed == tuple(piece for piece, _ in prune.removal[: len(prune.removed)])
    assert min(losses) >= before - 1e-9  # a piece no Viterbi segmentation uses costs 0


def test_compact_steps_keep_the_top_rows_but_all_on_the_last_step():
    rng = random.Random(0)
    wc = count_words(["".join(rng.choices("abcdefgh", k=rng.randint(2, 7))) for _ in range(900)])
    steps = list(EmRun(wc, vocab_size=120).steps())
    assert all(s.segmentations is None for s in steps)
    assert all(len(s.vocab) <= COMPACT_ROWS for s in steps[:-1])
    assert len(steps[-1].vocab) == steps[-1].vocab_size == 120
    for step in steps:
        probs = [row.prob for row in step.vocab]
        assert probs == sorted(probs, reverse=True)
        if step.kind == "prune":  # the removed pieces and the 20 next candidates
            assert len(step.removal) == len(step.removed) + 20
            assert set(step.removed) <= {piece for piece, _ in step.removal}


def test_segmentations_follow_the_corpus():
    run = EmRun(MICRO, vocab_size=12, snapshot=True)
    last = list(run.steps())[-1]
    assert [(b.word, b.count) for b in last.segmentations] == MICRO.items()
    for best in last.segmentations:
        assert best.pieces == viterbi(SOW + best.word, logp_of(last.vocab))[0]
        assert best.logprob == pytest.approx(segmentation_logp(best.pieces, logp_of(last.vocab)))


def test_the_seed_keeps_substrings_with_two_followers_scored_by_frequency_x_length():
    # "▁ab▁ab" ends a line, "▁x▁x" too: ▁ab is followed by ▁ and by a line's end (twice,
    # so a candidate), ▁a always by b, ab like ▁ab, ▁x like ▁ab; by hand, the characters
    # scored by frequency (▁ 4, a b x 2), the candidates by frequency x length: ▁ab 2 x 3,
    # ab 2 x 2, ▁x 2 x 2, over their total 24 (sentencepiece 0.2 also seeds 7 pieces)
    seed = build_seed(count_lines(["ab ab", "x x"]), "sow", 100, 16)
    assert seed.pieces == ["▁", "a", "b", "x", "▁ab", "ab", "▁x"]
    assert list(seed.freq) == [4, 2, 2, 2, 2, 2, 2]
    assert np.exp(seed.logp) == pytest.approx(np.array([4, 2, 2, 2, 6, 4, 4]) / 24)
    assert seed.candidates == 3


def test_the_line_ends_decide_whether_a_whole_word_is_a_seed():
    # "▁ab▁ab▁x" then "▁x": ▁ab is always followed by ▁, ▁x always ends a line: no candidate
    # (sentencepiece 0.2 seeds only the 4 characters and ▁x, the end of its text)
    assert build_seed(count_lines(["ab ab x", "x"]), "sow", 100, 16).pieces == ["▁", "a", "b", "x"]
    # a word table is read as one line per word (ab ab / x x): both are candidates again
    table = build_seed(from_pairs([("ab", 2), ("x", 2)]), "sow", 100, 16)
    assert table.pieces == ["▁", "a", "b", "x", "▁ab", "ab", "▁x"]
    # the seed_size best candidates are kept, after every character
    assert build_seed(from_pairs([("ab", 2), ("x", 2)]), "sow", 1, 16).pieces[-1] == "▁ab"


def test_pieces_never_mix_scripts_and_sow_only_starts_them():
    wc = from_pairs([("ab12", 3), ("ab", 2), ("12", 2), ("(ab)", 4), ("жж", 2), ("abжж", 2)])
    pieces = [row.piece for row in EmRun(wc, vocab_size=12).start.vocab]
    assert {"ab", "▁ab", "▁12", "▁жж"} <= set(pieces)
    for piece in pieces:
        body = piece.removeprefix(SOW)
        assert SOW not in body
        scripts = {"latin" if ch.isascii() and ch.isalpha() else ch.isalpha() for ch in body}
        assert len(scripts) <= 1, piece  # True: Cyrillic, False: digits and punctuation


def test_two_runs_are_equal():
    def run() -> tuple:
        em = EmRun(SCHEDULE, vocab_size=15, snapshot=True)
        return em.start, tuple(em.steps()), em.stop_reason

    assert run() == run()


def test_a_small_seed_is_not_pruned():
    run = EmRun(MICRO, vocab_size=40, em_iterations=3)
    steps = list(run.steps())
    assert [s.kind for s in steps] == ["e", "m"] * 3
    assert run.truncated and "nothing was pruned" in run.stop_reason
    assert len(steps[-1].vocab) == len(run.start.vocab)


ERRORS = [
    ({"vocab_size": 5}, "vocab size 5 is smaller than the 7 characters of this corpus "
     "(▁ included); choose at least 7."),
    ({"vocab_size": 10, "shrinking_factor": 1.0}, "The shrinking factor must be between 0 and 1"),
    ({"vocab_size": 10, "shrinking_factor": 0}, "The shrinking factor must be between 0 and 1"),
    ({"vocab_size": 10, "em_iterations": 0}, "Run at least one EM iteration per round, not 0."),
    ({"vocab_size": 10, "max_piece_len": 0}, "A piece needs at least 1 character"),
    ({"vocab_size": 10, "marker": "eow"}, "Unknown marker 'eow'"),
]  # fmt: skip


@pytest.mark.parametrize(("params", "message"), ERRORS)
def test_errors_are_sentences(params, message):
    with pytest.raises(ValueError) as err:
        EmRun(MICRO, **params)
    assert str(err.value).startswith(message)


def test_empty_corpus_is_refused():
    with pytest.raises(ValueError, match="The corpus is empty"):
        EmRun(WordCounts((), ()), vocab_size=10)


# --- parity with sentencepiece --------------------------------------------------------


@pytest.mark.slow
def test_vocabulary_overlaps_sentencepiece():
    spm = pytest.importorskip("sentencepiece")
    lines = load_lines("sample:enwiki")
    wc = count_lines(lines)  # the seed reads which words end lines, as sentencepiece's does
    last = list(EmRun(wc, vocab_size=2000).steps())[-1]
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, model_type="unigram",
        vocab_size=2000, character_coverage=1.0, normalization_rule_name="identity",
        max_sentence_length=max(len(line.encode()) for line in lines) + 1, minloglevel=2,
        num_threads=1,
    )  # fmt: skip
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    theirs = {sp.id_to_piece(i) for i in range(3, sp.get_piece_size())}  # no <unk> <s> </s>
    ours = {row.piece for row in last.vocab[: len(theirs)]}  # our most probable pieces
    assert len(ours & theirs) / len(theirs) >= 0.8
