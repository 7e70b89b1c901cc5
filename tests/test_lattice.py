"""The word lattice against brute force: Viterbi with its tie rule, forward-backward
posteriors, the total probability, [UNK] edges and `skip` (hypothesis + worked examples).

The brute force below cuts the word at every subset of its inner positions and keeps the
cuts whose pieces are all in the vocabulary; it knows nothing of the lattice code.
Probabilities are small integer frequencies over their total, as in the textbook variant,
so that exact ties (3 x 26 = 26 x 3) are frequent.
"""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtok_core.lattice import (
    TIE_TOLERANCE,
    UNK,
    all_segmentations,
    edges_of,
    segmentation_logp,
    viterbi,
    word_lattice,
)

ALPHABET = "abcж"  # few letters (many repeated substrings) and one Cyrillic letter
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# 001, toy:run-bug, strict seed: the frequencies of the slides (total 155)
RUN_BUG = {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26, "b": 5, "g": 5, "bu": 5, "ug": 5}
RUN_BUG |= {"f": 13, "fu": 13, "s": 10, "su": 10}
# 004, toy:hug-pug, the blog's seed (total 210)
HUG_PUG = {"h": 15, "u": 36, "g": 20, "hu": 15, "ug": 20, "p": 17, "pu": 17, "n": 16}
HUG_PUG |= {"un": 16, "b": 4, "bu": 4, "s": 5, "hug": 15, "gs": 5, "ugs": 5}


def logp_of(freq: dict[str, int]) -> dict[str, float]:
    total = sum(freq.values())
    return {piece: math.log(f / total) for piece, f in freq.items()}


# --- the brute force --------------------------------------------------------------------


def brute_segmentations(word: str, vocab) -> list[tuple[str, ...]]:
    """Every segmentation of `word` into pieces of `vocab`, by trying every set of cuts."""
    found = []
    inner = range(1, len(word))
    for k in range(len(word)):
        for cuts in combinations(inner, k):
            bounds = (0, *cuts, len(word))
            pieces = tuple(word[a:b] for a, b in zip(bounds, bounds[1:]))
            if all(p in vocab for p in pieces):
                found.append(pieces)
    return found


def starts(pieces: tuple[str, ...]) -> tuple[int, ...]:
    """Where each piece starts in the word."""
    out, at = [], 0
    for piece in pieces:
        out.append(at)
        at += len(piece)
    return tuple(out)


def brute_viterbi(word: str, logp: dict[str, float]) -> tuple[tuple[str, ...], float]:
    """The most probable segmentation; among ties, the one whose last piece starts latest,
    then (same last piece) whose second-to-last starts latest, and so on."""
    segs = brute_segmentations(word, logp)
    scores = [sum(logp[p] for p in seg) for seg in segs]
    top = max(scores)
    tied = [seg for seg, s in zip(segs, scores) if s >= top - TIE_TOLERANCE]
    return max(tied, key=lambda seg: starts(seg)[::-1]), top


def brute_posteriors(word: str, logp: dict[str, float]) -> dict[tuple[int, int], float]:
    """(start, end) -> expected uses of that edge: sum over segmentations of P(seg) / Z."""
    segs = brute_segmentations(word, logp)
    probs = [math.exp(sum(logp[p] for p in seg)) for seg in segs]
    z = sum(probs)
    out: dict[tuple[int, int], float] = {}
    for seg, prob in zip(segs, probs):
        for start, piece in zip(starts(seg), seg):
            key = (start, start + len(piece))
            out[key] = out.get(key, 0.0) + prob / z
    return out


# --- random words and vocabularies ------------------------------------------------------


@st.composite
def word_and_vocab(draw, every_char: bool = True):
    """A word of 1-8 characters and a vocabulary of some of its substrings (and a few
    strings that are not in it), each with a small integer frequency."""
    word = draw(st.text(ALPHABET, min_size=1, max_size=8))
    subs = sorted({word[i:j] for i in range(len(word)) for j in range(i + 2, len(word) + 1)})
    chosen = draw(st.lists(st.sampled_from(subs), unique=True)) if subs else []
    extra = draw(st.lists(st.text(ALPHABET, min_size=2, max_size=4), max_size=3))
    chars = sorted(set(word))
    if not every_char:
        chars = draw(st.lists(st.sampled_from(chars), unique=True))
    pieces = list(dict.fromkeys([*chars, *chosen, *extra]))
    freqs = draw(st.lists(st.integers(1, 6), min_size=len(pieces), max_size=len(pieces)))
    return word, logp_of(dict(zip(pieces, freqs)))


@SETTINGS
@given(word_and_vocab())
def test_viterbi_equals_brute_force_with_its_tie_rule(case):
    word, logp = case
    pieces, best = viterbi(word, logp)
    expected, top = brute_viterbi(word, logp)
    assert pieces == expected
    assert best == pytest.approx(top, abs=1e-12)
    assert best == pytest.approx(segmentation_logp(pieces, logp), abs=1e-12)
    assert "".join(pieces) == word
    lattice = word_lattice(word, logp)
    assert lattice.pieces == expected and lattice.best_logp == pytest.approx(top, abs=1e-12)


@SETTINGS
@given(word_and_vocab())
def test_all_segmentations_are_every_segmentation_in_length_order(case):
    word, logp = case
    segs = all_segmentations(word, logp)
    assert sorted(segs) == sorted(brute_segmentations(word, logp))
    assert len(set(segs)) == len(segs)
    assert all("".join(seg) == word for seg in segs)
    lengths = [tuple(len(p) for p in seg) for seg in segs]
    assert lengths == sorted(lengths)  # shortest first piece first


@SETTINGS
@given(word_and_vocab())
def test_posteriors_and_total_equal_brute_force(case):
    word, logp = case
    lattice = word_lattice(word, logp)
    expected = brute_posteriors(word, logp)
    for edge in lattice.edges:
        assert word[edge.start : edge.end] == edge.piece
        assert edge.logp == logp[edge.piece]
        assert edge.posterior == pytest.approx(expected.get((edge.start, edge.end), 0.0), abs=1e-9)
    total = sum(math.exp(segmentation_logp(s, logp)) for s in brute_segmentations(word, logp))
    assert lattice.total_logp == pytest.approx(math.log(total), abs=1e-9)
    # every occurrence of the word covers each character exactly once
    for i in range(len(word)):
        covering = sum(e.posterior for e in lattice.edges if e.start <= i < e.end)
        assert covering == pytest.approx(1.0, abs=1e-9)


@SETTINGS
@given(word_and_vocab())
def test_edges_are_every_vocabulary_piece_inside_the_word(case):
    word, logp = case
    found = edges_of(word, logp)
    expected = {(i, j, word[i:j]) for i in range(len(word)) for j in range(i + 1, len(word) + 1)}
    expected = {e for e in expected if e[2] in logp}
    assert {(s, e, p) for s, e, p, _ in found} == expected
    assert [(s, e) for s, e, _, _ in found] == sorted((s, e) for s, e, _, _ in found)
    assert all(lp == logp[p] for _, _, p, lp in found)


@SETTINGS
@given(word_and_vocab(every_char=False), st.integers(1, 40))
@pytest.mark.slow  # a long run (fast tier: README)
def test_unk_edges_only_for_characters_without_a_piece(case, penalty):
    word, logp = case
    unk = min(logp.values(), default=0.0) - penalty
    lattice = word_lattice(word, logp, unk_logp=unk)
    unk_at = sorted(e.start for e in lattice.edges if e.piece == UNK)
    assert unk_at == [i for i, ch in enumerate(word) if ch not in logp]
    assert all(e.end == e.start + 1 and e.logp == unk for e in lattice.edges if e.piece == UNK)
    # with [UNK] every word has a segmentation; decoding gives the word back
    decoded = "".join(
        word[lattice.edges[i].start] if p == UNK else p
        for i, p in zip(lattice.best, lattice.pieces)
    )
    assert decoded == word
    # without unk_logp there is no [UNK] edge, and no segmentation is an error
    if brute_segmentations(word, logp):
        plain = word_lattice(word, logp)
        assert all(e.piece != UNK for e in plain.edges)
        assert plain.pieces == brute_viterbi(word, logp)[0]
    else:
        with pytest.raises(ValueError, match="cannot be segmented"):
            word_lattice(word, logp)
        with pytest.raises(ValueError, match="cannot be segmented"):
            viterbi(word, logp)


@SETTINGS
@given(word_and_vocab(), st.data())
def test_skip_removes_one_piece(case, data):
    word, logp = case
    skip = data.draw(st.sampled_from(sorted(logp)))
    without = {p: lp for p, lp in logp.items() if p != skip}
    assert all(p != skip for _, _, p, _ in edges_of(word, logp, skip=skip))
    if brute_segmentations(word, without):
        pieces, best = viterbi(word, logp, skip=skip)
        assert (pieces, best) == viterbi(word, without)
        assert skip not in pieces
        assert pieces == brute_viterbi(word, without)[0]
    else:
        with pytest.raises(ValueError, match="cannot be segmented"):
            viterbi(word, logp, skip=skip)


# --- the worked examples ----------------------------------------------------------------


def test_run_bug_ties_go_to_the_latest_starting_last_piece():
    logp = logp_of(RUN_BUG)
    assert all_segmentations("run", logp) == [("r", "u", "n"), ("r", "un"), ("ru", "n")]
    # P(ru) P(n) = P(r) P(un) = 3 x 26 / 155^2: the slides pick (ru, n)
    pieces, best = viterbi("run", logp)
    assert pieces == ("ru", "n")
    assert math.exp(best) == pytest.approx(3 * 26 / 155**2, rel=1e-12)
    assert segmentation_logp(("r", "un"), logp) == pytest.approx(best, abs=1e-12)
    for word, expected in [("bug", ("bu", "g")), ("fun", ("fu", "n")), ("sun", ("su", "n"))]:
        assert viterbi(word, logp)[0] == expected
    # the tie rule applies again to what is left of the word: (ru n) before (r un)
    assert viterbi("runs", logp)[0] == ("ru", "n", "s")


def test_hug_pug_ties_of_the_blog():
    logp = logp_of(HUG_PUG)
    expected = {"pug": ("pu", "g"), "hugs": ("hug", "s"), "bun": ("bu", "n"), "hug": ("hug",)}
    for word, pieces in expected.items():
        assert viterbi(word, logp)[0] == pieces
    # P(p ug) = P(pu g) = 17 x 20 / 210^2
    assert math.exp(viterbi("pug", logp)[1]) == pytest.approx(17 * 20 / 210**2, rel=1e-12)
    assert segmentation_logp(("p", "ug"), logp) == pytest.approx(
        segmentation_logp(("pu", "g"), logp), abs=1e-12
    )
    # hugs: hug s = h ugs = hu gs = 15 x 5 / 210^2; the last piece starting latest wins
    assert math.exp(viterbi("hugs", logp)[1]) == pytest.approx(15 * 5 / 210**2, rel=1e-12)


def test_word_lattice_of_run_by_hand():
    logp = logp_of(RUN_BUG)
    lattice = word_lattice("run", logp)
    assert [(e.start, e.end, e.piece) for e in lattice.edges] == [
        (0, 1, "r"),
        (0, 2, "ru"),
        (1, 2, "u"),
        (1, 3, "un"),
        (2, 3, "n"),
    ]
    p = {k: v / 155 for k, v in RUN_BUG.items()}
    run_un, r_un, ru_n = p["r"] * p["u"] * p["n"], p["r"] * p["un"], p["ru"] * p["n"]
    z = run_un + r_un + ru_n
    assert lattice.total_logp == pytest.approx(math.log(z), abs=1e-12)
    posterior = {e.piece: e.posterior for e in lattice.edges}
    assert posterior == pytest.approx(
        {
            "r": (run_un + r_un) / z,
            "ru": ru_n / z,
            "u": run_un / z,
            "un": r_un / z,
            "n": (run_un + ru_n) / z,
        }  # fmt: skip
    )
    assert lattice.pieces == ("ru", "n") and lattice.best == (1, 4)


def test_unknown_character_without_unk_is_an_error_naming_the_word():
    with pytest.raises(ValueError, match="'rux' cannot be segmented"):
        viterbi("rux", logp_of(RUN_BUG))
    lattice = word_lattice("rux", logp_of(RUN_BUG), unk_logp=-20.0)
    assert lattice.pieces == ("ru", UNK)
    assert lattice.best_logp == pytest.approx(math.log(3 / 155) - 20.0)
