"""SaGe core: eq. (1) by hand, the local ablation against whole-sentence
re-tokenization, the Algorithm 3 schedule, the frequency and random controls, bad input.

The hand references below use only math.log / math.exp and plain Python loops; they share
no code with subtok_core.sage_loss.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from subtok_core import bpe, sage
from subtok_core.corpus import count_words
from subtok_core.records import SOW, UNK
from subtok_core.sage import SageModel, SageSettings
from subtok_core.sage import explain as sage_explain
from subtok_core.sage import loss as sage_loss
from subtok_core.sage.corpus import SentenceCorpus, is_protected
from subtok_core.sage.loss import (
    Embeddings,
    ablation_loss_whole,
    ablation_losses,
    corpus_loss,
    sequence_loss,
)


@pytest.fixture(params=["table", "dots"])
def pair_branch(request, monkeypatch):
    """PairLoss keeps a table up to MATRIX_MAX pieces, else takes dot products: test both."""
    if request.param == "dots":
        monkeypatch.setattr(sage_loss, "MATRIX_MAX", 0)
    return request.param


def n_pairs(n: int, window: int) -> int:
    """Ordered (target, context) pairs eq. (1) sums over in a sentence of n tokens."""
    return 2 * sum(max(n - d, 0) for d in range(1, window + 1))


# --- 1. a micro case by hand -------------------------------------------------------------

PIECES = ["▁", "a", "b", "c", "d", "x", "▁a", "▁x", "▁ab", "cd", "bcd"]
ID = {p: i for i, p in enumerate(PIECES)}
# 2-d target and context vectors, all different, so that the direction of a pair matters
T = {
    "▁": (0.1, 0.2), "a": (0.3, -0.1), "b": (0.5, 0.4), "c": (-0.2, 0.6),
    "d": (0.0, 0.1), "x": (0.2, 0.2), "▁a": (0.7, -0.3), "▁x": (-0.4, 0.5),
    "▁ab": (1.0, 0.5), "cd": (0.3, -0.8), "bcd": (-0.6, 0.2),
}  # fmt: skip
C = {
    "▁": (0.2, -0.1), "a": (-0.3, 0.4), "b": (0.9, -0.2), "c": (0.1, 0.8),
    "d": (-0.5, -0.5), "x": (0.3, 0.0), "▁a": (-0.2, 1.1), "▁x": (0.6, 0.3),
    "▁ab": (-0.7, 0.2), "cd": (0.4, 0.4), "bcd": (1.2, -0.6),
}  # fmt: skip
MICRO = Embeddings.from_arrays([T[p] for p in PIECES], [C[p] for p in PIECES])
# "abc" is cut ▁ab c; without ▁ab it becomes ▁a b c (one token more: positions shift).
# "abcd" is cut ▁ab cd; without ▁ab it becomes ▁a bcd (Table 2: ▁x's only neighbour at
# window 1 turns from cd into bcd, though the removed ▁ab was outside that window).
MICRO_SENTENCES = [["abc", "x"], ["abcd", "x"], ["x", "x"]]


def nls(t: str, c: str) -> float:
    """-log sigmoid(E_T[t] . E_C[c]), by hand."""
    dot = T[t][0] * C[c][0] + T[t][1] * C[c][1]
    return -math.log(1.0 / (1.0 + math.exp(-dot)))


def hand(pairs) -> float:
    return sum(nls(t, c) for t, c in pairs)


def both(*pairs):
    """Both directions of each unordered pair."""
    return [p for a, b in pairs for p in ((a, b), (b, a))]


# Every ordered (target, context) pair within the window, written out.
S0 = {  # ▁ab c ▁x
    1: both(("▁ab", "c"), ("c", "▁x")),
    2: both(("▁ab", "c"), ("c", "▁x"), ("▁ab", "▁x")),
}
S0_NO_AB = {  # ▁a b c ▁x
    1: both(("▁a", "b"), ("b", "c"), ("c", "▁x")),
    2: both(("▁a", "b"), ("b", "c"), ("c", "▁x"), ("▁a", "c"), ("b", "▁x")),
    3: both(("▁a", "b"), ("b", "c"), ("c", "▁x"), ("▁a", "c"), ("b", "▁x"), ("▁a", "▁x")),
}
S0[3] = S0[2]  # three tokens: nothing further than 2 apart
S1 = {  # ▁ab cd ▁x
    1: both(("▁ab", "cd"), ("cd", "▁x")),
    2: both(("▁ab", "cd"), ("cd", "▁x"), ("▁ab", "▁x")),
}
S1[3] = S1[2]
S1_NO_AB = {  # ▁a bcd ▁x
    1: both(("▁a", "bcd"), ("bcd", "▁x")),
    2: both(("▁a", "bcd"), ("bcd", "▁x"), ("▁a", "▁x")),
}
S1_NO_AB[3] = S1_NO_AB[2]
S1_NO_CD = {  # ▁ab c d ▁x
    1: both(("▁ab", "c"), ("c", "d"), ("d", "▁x")),
    2: both(("▁ab", "c"), ("c", "d"), ("d", "▁x"), ("▁ab", "d"), ("c", "▁x")),
    3: both(("▁ab", "c"), ("c", "d"), ("d", "▁x"), ("▁ab", "d"), ("c", "▁x"), ("▁ab", "▁x")),
}
S2 = {w: both(("▁x", "▁x")) for w in (1, 2, 3)}  # ▁x ▁x


def test_micro_pair_lists_are_complete():
    """The hand lists hold exactly as many pairs as eq. (1) sums over."""
    for w in (1, 2, 3):
        assert len(S0[w]) == len(S1[w]) == n_pairs(3, w)
        assert len(S0_NO_AB[w]) == len(S1_NO_CD[w]) == n_pairs(4, w)
        assert len(S1_NO_AB[w]) == n_pairs(3, w)
        assert len(S2[w]) == n_pairs(2, w)
    # the direction matters with these vectors, so a swapped T/C would be caught
    assert not math.isclose(nls("▁ab", "c"), nls("c", "▁ab"))


def test_micro_tokenization():
    corpus = SentenceCorpus(PIECES, MICRO_SENTENCES)
    assert corpus.token_sentences() == [["▁ab", "c", "▁x"], ["▁ab", "cd", "▁x"], ["▁x", "▁x"]]
    corpus.remove([ID["▁ab"]])
    assert corpus.token_sentences() == [["▁a", "b", "c", "▁x"], ["▁a", "bcd", "▁x"], ["▁x", "▁x"]]
    assert corpus.vocab() == [p for p in PIECES if p != "▁ab"]


@pytest.mark.parametrize("window", [1, 2, 3])
def test_micro_losses_by_hand(window, pair_branch):
    corpus = SentenceCorpus(PIECES, MICRO_SENTENCES)
    w = window
    before = hand(S0[w]) + hand(S1[w]) + hand(S2[w])
    assert corpus_loss(corpus, MICRO, w) == pytest.approx(before, rel=1e-12)
    ids0 = [ID[p] for p in ("▁a", "b", "c", "▁x")]
    assert sequence_loss(ids0, MICRO, w) == pytest.approx(hand(S0_NO_AB[w]), rel=1e-12)
    assert sequence_loss([ID["▁x"]], MICRO, w) == 0.0  # a lone token has no context

    no_ab = hand(S0_NO_AB[w]) + hand(S1_NO_AB[w]) - hand(S0[w]) - hand(S1[w])
    no_cd = hand(S1_NO_CD[w]) - hand(S1[w])
    got = ablation_losses(corpus, [ID["▁ab"]], MICRO, w)
    assert got.shape == (1,)
    assert got[0] == pytest.approx(no_ab, rel=1e-12, abs=1e-12)
    # several candidates at once; bcd is unused now, so removing it changes nothing
    many = ablation_losses(corpus, [ID["cd"], ID["▁ab"], ID["bcd"]], MICRO, w)
    np.testing.assert_allclose(many, [no_cd, no_ab, 0.0], rtol=1e-12, atol=1e-12)
    assert ablation_loss_whole(corpus, ID["▁ab"], MICRO, w) == pytest.approx(no_ab, rel=1e-12)
    # the ablation is the loss after re-tokenizing minus the loss before
    after = SentenceCorpus(PIECES, MICRO_SENTENCES)
    after.remove([ID["▁ab"]])
    assert corpus_loss(after, MICRO, w) - before == pytest.approx(no_ab, rel=1e-12, abs=1e-12)


def test_micro_window_effect_is_real():
    """The Table 2 sentence: at window 1 the change of ▁x's neighbour is part of the ablation
    (a computation that only looked at the removed token's own window would miss it)."""
    only_own_window = hand(both(("▁a", "bcd"))) - hand(both(("▁ab", "cd")))
    full = hand(S1_NO_AB[1]) - hand(S1[1])
    assert not math.isclose(only_own_window, full)
    corpus = SentenceCorpus(PIECES, [MICRO_SENTENCES[1]])
    assert ablation_losses(corpus, [ID["▁ab"]], MICRO, 1)[0] == pytest.approx(full, rel=1e-12)


# --- 3. untrained pieces ----------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # the NaN rows
def test_untrained_piece_costs_unseen_cost_per_direction(pair_branch):
    trained = [p != "b" for p in PIECES]
    target = [T[p] for p in PIECES]
    context = [C[p] for p in PIECES]
    # b's rows are garbage: they must never be read
    target[ID["b"]] = (math.nan, math.nan)
    context[ID["b"]] = (math.nan, math.nan)
    emb = Embeddings.from_arrays(target, context, trained=trained, unseen_cost=1.7)
    ids = [ID[p] for p in ("▁a", "b", "c", "▁x")]
    # window 1: (▁a, b) and (b, c) cost 1.7 each way; (c, ▁x) is an ordinary pair
    expected = 4 * 1.7 + hand(both(("c", "▁x")))
    assert sequence_loss(ids, emb, 1) == pytest.approx(expected, rel=1e-12)
    # window 2 adds (▁a, c) by vectors and (b, ▁x) at 1.7 each way
    expected2 = expected + hand(both(("▁a", "c"))) + 2 * 1.7
    assert sequence_loss(ids, emb, 2) == pytest.approx(expected2, rel=1e-12)
    # two untrained tokens: still one unseen_cost per direction, not per token
    assert sequence_loss([ID["b"], ID["b"]], emb, 1) == pytest.approx(2 * 1.7)
    # the ablation of ▁ab brings b back into "abc": the hand value with 1.7 for b's pairs
    corpus = SentenceCorpus(PIECES, MICRO_SENTENCES)
    s0_after = 4 * 1.7 + hand(both(("c", "▁x")))
    no_ab = s0_after + hand(S1_NO_AB[1]) - hand(S0[1]) - hand(S1[1])
    assert ablation_losses(corpus, [ID["▁ab"]], emb, 1)[0] == pytest.approx(no_ab, rel=1e-12)
    assert ablation_loss_whole(corpus, ID["▁ab"], emb, 1) == pytest.approx(no_ab, rel=1e-12)


def test_default_unseen_cost_is_ln2():
    emb = Embeddings.from_arrays([[5.0], [1.0]], [[5.0], [1.0]], trained=[False, True])
    assert emb.unseen_cost == pytest.approx(math.log(2))
    assert sequence_loss([0, 1], emb, 1) == pytest.approx(2 * math.log(2))


# --- 2. local ablation == whole-sentence re-tokenization ----------------------------------


def ref_greedy(word: str, vocab: set[str]) -> list[str]:
    out, i = [], 0
    while i < len(word):
        j = max(j for j in range(i + 1, len(word) + 1) if word[i:j] in vocab)
        out.append(word[i:j])
        i = j
    return out


def ref_loss(tokens: list[int], emb: Embeddings, window: int) -> float:
    """eq. (1) with plain loops: every ordered (target, context) pair within the window."""
    total = 0.0
    for i, t in enumerate(tokens):
        for j in range(max(0, i - window), min(len(tokens), i + window + 1)):
            if i == j:
                continue
            c = tokens[j]
            if not (emb.trained[t] and emb.trained[c]):
                total += emb.unseen_cost
                continue
            dot = sum(float(a) * float(b) for a, b in zip(emb.target[t], emb.context[c]))
            total += -math.log(1.0 / (1.0 + math.exp(-dot)))
    return total


def ref_ablation(pieces, vocab, sentences, t, emb, window) -> float:
    ids = {p: i for i, p in enumerate(pieces)}

    def cut(sentence, v):
        return [ids[p] for w in sentence for p in ref_greedy(SOW + w, v)]

    return sum(
        ref_loss(cut(s, vocab - {t}), emb, window) - ref_loss(cut(s, vocab), emb, window)
        for s in sentences
    )


def random_case(seed: int):
    """Random words over a 4-letter alphabet; pieces cut from them (so that most are used)
    plus a few random ones; random vectors, some pieces untrained."""
    rng = random.Random(seed)
    alphabet = "abcd"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(12)]
    pieces = [SOW, *alphabet, *(SOW + ch for ch in alphabet)]
    extra: set[str] = set()
    while len(extra) < 30:
        word = SOW + rng.choice(words)
        i = rng.randrange(len(word) - 1)
        extra.add(word[i : i + rng.randint(2, 4)])
    for _ in range(5):
        extra.add("".join(rng.choice(alphabet) for _ in range(rng.randint(2, 3))))
    pieces += sorted(p for p in extra - set(pieces) if not is_protected(p))
    sentences = [[rng.choice(words) for _ in range(rng.randint(1, 14))] for _ in range(10)]
    w = max(words, key=len)
    # the same word close together and far apart in one sentence, and alone
    sentences.append([w, w, words[1], w] + [rng.choice(words) for _ in range(12)] + [w])
    sentences.append([w])
    gen = np.random.default_rng(seed)
    n = len(pieces)
    emb = Embeddings.from_arrays(
        gen.normal(size=(n, 3)), gen.normal(size=(n, 3)), gen.random(n) > 0.15, unseen_cost=1.3
    )
    return pieces, sentences, emb


@pytest.mark.parametrize("window", [1, 2, 5])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_local_ablation_equals_whole_sentences(seed, window, pair_branch):
    pieces, sentences, emb = random_case(seed)
    corpus = SentenceCorpus(pieces, sentences)
    for _ in range(3):  # the full vocabulary, then after two rounds of removals
        candidates = [i for i in np.flatnonzero(corpus.alive) if not is_protected(pieces[i])]
        local = ablation_losses(corpus, candidates, emb, window)
        whole = [ablation_loss_whole(corpus, t, emb, window) for t in candidates]
        np.testing.assert_allclose(local, whole, rtol=1e-10, atol=1e-9)
        assert np.count_nonzero(local) > 5  # the case is not trivial
        used = [t for t in candidates if corpus.usage()[t] > 0]
        corpus.remove(used[:4])
    # the corpus after removals agrees with a plain re-tokenization
    vocab = set(corpus.vocab())
    assert corpus.token_sentences() == [
        [p for w in s for p in ref_greedy(SOW + w, vocab)] for s in sentences
    ]


@pytest.mark.parametrize("window", [1, 2, 5])
def test_ablation_against_plain_reference(window):
    """Both computations against a reference that shares nothing with the module."""
    pieces, sentences, emb = random_case(7)
    corpus = SentenceCorpus(pieces, sentences)
    vocab = set(pieces)
    ref_total = sum(
        ref_loss([corpus.index[p] for w in s for p in ref_greedy(SOW + w, vocab)], emb, window)
        for s in sentences
    )
    assert corpus_loss(corpus, emb, window) == pytest.approx(ref_total, rel=1e-10)
    candidates = [i for i, p in enumerate(pieces) if not is_protected(p)]
    local = ablation_losses(corpus, candidates, emb, window)
    ref = [ref_ablation(pieces, vocab, sentences, pieces[t], emb, window) for t in candidates]
    np.testing.assert_allclose(local, ref, rtol=1e-10, atol=1e-9)


# --- 4. the schedule of Algorithm 3 -------------------------------------------------------

LINES = [
    "the cat sat on the mat",
    "the dog sat on the log",
    "a cat and a dog ate the hat",
    "the rat ran to the mat and sat",
    "cats and dogs sat on mats",
    "the hat on the cat is red",
    "a red hat and a red mat",
    "the dog ran to the cat",
    "the farmer planted carrots and potatoes",
    "the painter painted the garden gate",
    "a gardener waters the garden in the morning",
    "the baker baked bread and carrot cake",
]
SAMPLE = [line.split() for line in LINES] * 2
# M >= k x m, so the candidate set never runs short between full recomputes
SCHEDULE = SageSettings(vocab_size=60, initial_size=80, k=3, M=8, m=2, l=2, dim=8, epochs=3, seed=3)


@pytest.fixture(scope="module")
def schedule_trace():
    return sage.trace_sage(SAMPLE, SCHEDULE)


@pytest.fixture(scope="module")
def control_traces():
    return {c: sage.trace_sage(SAMPLE, SCHEDULE, c) for c in sage.CONTROLS}


def test_schedule_counts(schedule_trace):
    s, trace = SCHEDULE, schedule_trace
    assert len(trace.start.vocab) == s.initial_size
    assert trace.algorithm == "sage" and not trace.truncated
    size = s.initial_size
    for step in trace.steps:
        assert len(step.pruned) == min(s.k, size - s.vocab_size)
        size -= len(step.pruned)
        assert step.vocab_size == size
        i = step.number - 1
        assert step.recomputed_losses == (i % s.m == 0)
        assert step.retrained_embeddings == (i % (s.l * s.m) == 0)
        assert (step.embeddings is not None) == step.retrained_embeddings
        assert step.loss is not None
    assert [st.number for st in trace.steps] == list(range(1, len(trace.steps) + 1))
    assert size == s.vocab_size == len(sage.vocab_after(trace))
    assert len(trace.steps) == sage.steps_needed(s) == 7  # ceil(20 / 3)
    assert [st.retrained_embeddings for st in trace.steps] == [i in (0, 4) for i in range(7)]
    assert [st.recomputed_losses for st in trace.steps] == [i % 2 == 0 for i in range(7)]


def test_schedule_candidates(schedule_trace):
    s, trace = SCHEDULE, schedule_trace
    previous = None
    for step in trace.steps:
        names = [p for p, _ in step.candidates]
        scores = [x for _, x in step.candidates]
        assert len(names) <= s.M
        assert scores == sorted(scores)
        assert step.pruned == step.candidates[: len(step.pruned)]
        if not step.recomputed_losses:
            left = [p for p, _ in previous.candidates[len(previous.pruned) :]]
            assert sorted(names) == sorted(left)
        previous = step


def test_schedule_scores_recomputed_from_the_trace(schedule_trace):
    """Each step's record equals a recomputation on the sample as it was at that step."""
    s, trace = SCHEDULE, schedule_trace
    for step in trace.steps:
        corpus = sage.corpus_at(trace, SAMPLE, step.number)
        assert corpus.vocab() == list(sage.vocab_after(trace, step.number - 1))
        emb = sage.embeddings_at(trace, step.number)
        last_retrain = (step.number - 1) // (s.l * s.m) * (s.l * s.m)
        assert emb is trace.steps[last_retrain].embeddings
        assert step.loss == pytest.approx(corpus_loss(corpus, emb, s.window), rel=1e-12)
        ids = [corpus.index[p] for p, _ in step.candidates]
        recorded = [x for _, x in step.candidates]
        np.testing.assert_allclose(
            ablation_losses(corpus, ids, emb, s.window), recorded, rtol=1e-12, atol=1e-9
        )
        if step.recomputed_losses:  # the candidates are the M lowest of all prunable pieces
            pool = [i for i in np.flatnonzero(corpus.alive) if not is_protected(corpus.pieces[i])]
            assert len(ids) == min(s.M, len(pool))
            rest = [t for t in pool if t not in set(ids)]
            if rest:
                others = ablation_losses(corpus, rest, emb, s.window)
                assert others.min() >= max(recorded) - 1e-9
        after = sage.corpus_at(trace, SAMPLE, step.number + 1)
        assert step.tokens == len(after.flat)


def test_a_candidate_set_too_small_for_m_steps_is_refused():
    """With M < k x m the candidate set would run out before the next full recomputation
    (Algorithm 3 would then prune fewer than k and the step count would drift)."""
    s = SageSettings(vocab_size=70, initial_size=80, k=3, M=4, m=3, l=1, dim=8, epochs=1)
    with pytest.raises(ValueError, match=r"k x m = 9"):
        sage.trace_sage(SAMPLE, s)
    ok = SageSettings(vocab_size=70, initial_size=80, k=3, M=9, m=3, l=1, dim=8, epochs=1)
    trace = sage.trace_sage(SAMPLE, ok)
    assert [len(st.pruned) for st in trace.steps] == [3, 3, 3, 1]
    assert len(trace.steps) == sage.steps_needed(ok)


# --- 5. protected pieces ------------------------------------------------------------------


def test_is_protected():
    assert [is_protected(p) for p in ("a", "▁", "▁a", "ж", "😀", "▁ж")] == [True] * 6
    assert [is_protected(p) for p in ("ab", "▁ab", "a▁", "▁▁a")] == [False] * 4


# bb x6, bc x4, bbcc x2, cc x1
FREQ_SAMPLE = [
    ["bb", "bc", "bb", "cc"],
    ["bbcc", "bb", "bc"],
    ["bb", "bc", "bbcc", "bb"],
    ["bc", "bb"],
]
FREQ = SageSettings(vocab_size=4, initial_size=9, k=1, M=5, dim=4, epochs=1)


@pytest.mark.parametrize("control", [None, "frequency", "random"])
def test_protected_pieces_are_never_pruned(control, schedule_trace, control_traces):
    trace = schedule_trace if control is None else control_traces[control]
    protected = [p for p in trace.start.vocab if is_protected(p)]
    assert trace.start.protected == len(protected) > 0
    assert not any(is_protected(p) for st in trace.steps for p, _ in st.pruned)
    assert not any(is_protected(p) for st in trace.steps for p, _ in st.candidates)
    assert set(protected) <= set(sage.vocab_after(trace))
    # pruning down to the protected pieces leaves exactly them: b c ▁ ▁b (see test_frequency)
    small = sage.trace_sage(FREQ_SAMPLE, FREQ, control)
    assert sorted(sage.vocab_after(small)) == sorted(["b", "c", SOW, "▁b"])


# --- 6. determinism -----------------------------------------------------------------------


def test_same_seed_same_trace(schedule_trace):
    again = sage.trace_sage(SAMPLE, SCHEDULE)
    assert again == schedule_trace
    assert again.steps[0].embeddings is not schedule_trace.steps[0].embeddings
    other = sage.trace_sage(SAMPLE, SageSettings(**{**_fields(SCHEDULE), "seed": 4}))
    assert other.steps[0].embeddings != schedule_trace.steps[0].embeddings
    assert other != schedule_trace


def _fields(s: SageSettings) -> dict:
    return {name: getattr(s, name) for name in SageSettings.__dataclass_fields__}


def test_embeddings_equality_is_by_value():
    a = Embeddings.from_arrays([[1.0, 2.0]], [[3.0, 4.0]])
    assert a == Embeddings.from_arrays([[1.0, 2.0]], [[3.0, 4.0]])
    assert a != Embeddings.from_arrays([[1.0, 2.0]], [[3.0, 4.5]])
    assert a != Embeddings.from_arrays([[1.0, 2.0]], [[3.0, 4.0]], trained=[False])
    assert a != Embeddings.from_arrays([[1.0, 2.0]], [[3.0, 4.0]], unseen_cost=1.0)


# --- 7. controls --------------------------------------------------------------------------


def test_controls_follow_the_same_schedule(schedule_trace, control_traces):
    sizes = [st.vocab_size for st in schedule_trace.steps]
    for control, trace in control_traces.items():
        assert trace.param("control") == control
        assert [st.vocab_size for st in trace.steps] == sizes
        for step in trace.steps:
            assert step.loss is None and step.embeddings is None
            assert not step.retrained_embeddings and step.recomputed_losses
            scores = [x for _, x in step.candidates]
            assert scores == sorted(scores) and len(scores) <= SCHEDULE.M
        assert sage.embeddings_at(trace, len(trace.steps)) is None


def test_frequency_control_by_hand():
    # BPE with the ▁ marker on ▁bb x6, ▁bc x4, ▁bbcc x2, ▁cc x1 (no ties at any merge):
    #   pairs ▁b 12, bb 8, bc 6, cc 3, ▁c 1  -> ▁b
    #   ▁b-b 8, ▁b-c 4, cc 3, b-c 2, ▁c 1    -> ▁bb
    #   ▁b-c 4, cc 3, ▁bb-c 2, ▁c 1          -> ▁bc
    #   cc 3, ▁bb-c 2, ▁c 1                  -> cc
    #   ▁bb-cc 2, ▁-cc 1                     -> ▁bbcc, then ▁cc: 3 characters + 6 = 9
    trace = sage.trace_sage(FREQ_SAMPLE, FREQ, "frequency")
    assert set(trace.start.vocab[:3]) == {"b", "c", SOW}
    assert trace.start.vocab[3:] == ("▁b", "▁bb", "▁bc", "cc", "▁bbcc", "▁cc")
    # greedy longest prefix: ▁bb ▁bc ▁bbcc ▁cc are whole words; cc is never used
    #   step 1 uses: ▁bb 6, ▁bc 4, ▁bbcc 2, ▁cc 1, cc 0          -> prune cc
    #   step 2: unchanged (cc was unused)                         -> prune ▁cc (▁cc = ▁ c c)
    #   step 3: ▁bb 6, ▁bc 4, ▁bbcc 2                             -> prune ▁bbcc
    #   step 4: ▁bbcc is now ▁bb c c, so ▁bb 6 + 2 = 8, ▁bc 4     -> prune ▁bc
    #   step 5: ▁bb 8                                             -> prune ▁bb
    # running tokens after each prune, from 13 words: +2 for the one ▁cc (▁ c c), +2 for
    # each of the two ▁bbcc (▁bb c c), +1 for each of the four ▁bc (▁b c), +1 for each of
    # the six ▁bb and the two ▁bb in ▁bb c c (▁b b)
    expected = [
        {"▁bb": 6, "▁bc": 4, "▁bbcc": 2, "▁cc": 1, "cc": 0},
        {"▁bb": 6, "▁bc": 4, "▁bbcc": 2, "▁cc": 1},
        {"▁bb": 6, "▁bc": 4, "▁bbcc": 2},
        {"▁bb": 8, "▁bc": 4},
        {"▁bb": 8},
    ]
    assert [dict(st.candidates) for st in trace.steps] == expected
    assert [st.pruned[0][0] for st in trace.steps] == ["cc", "▁cc", "▁bbcc", "▁bc", "▁bb"]
    assert [st.vocab_size for st in trace.steps] == [8, 7, 6, 5, 4]
    assert [st.tokens for st in trace.steps] == [13, 15, 19, 23, 31]


def test_frequency_control_prunes_least_used(control_traces):
    trace = control_traces["frequency"]
    for step in trace.steps:
        corpus = sage.corpus_at(trace, SAMPLE, step.number)
        uses = {p: 0 for p in corpus.vocab() if not is_protected(p)}
        for sentence in corpus.token_sentences():
            for p in sentence:
                if p in uses:
                    uses[p] += 1
        least = sorted(uses.values())[: len(step.pruned)]
        assert [x for _, x in step.pruned] == least
        assert all(uses[p] == x for p, x in step.candidates)


def test_random_control_is_seeded(control_traces):
    trace = control_traces["random"]
    assert sage.trace_sage(SAMPLE, SCHEDULE, "random") == trace
    assert all(0 <= x < 1 for st in trace.steps for _, x in st.candidates)
    pruned = [st.pruned for st in trace.steps]
    for seed in (4, 5):
        other = sage.trace_sage(
            SAMPLE, SageSettings(**{**_fields(SCHEDULE), "seed": seed}), "random"
        )
        assert [st.pruned for st in other.steps] != pruned


# --- 8. bad input -------------------------------------------------------------------------

TINY = [["the", "cat", "sat"], ["the", "hat"], ["a", "cat", "sat"]] * 3


@pytest.mark.parametrize(
    ("sentences", "settings", "control", "message"),
    [
        ([], SageSettings(vocab_size=10, initial_size=12), None, "sample is empty"),
        ([[], []], SageSettings(vocab_size=10, initial_size=12), None, "sample is empty"),
        (TINY, SageSettings(vocab_size=14, initial_size=14), None, "must be larger than"),
        (TINY, SageSettings(vocab_size=16, initial_size=12), None, "must be larger than"),
        (TINY, SageSettings(vocab_size=5, initial_size=12), None, r"smaller than the 7 char"),
        # 7 symbols (▁ included) + 13 characters of the 5 distinct words: at most 20 pieces
        (TINY, SageSettings(vocab_size=14, initial_size=500), None, "allow BPE at most 20"),
        (TINY, SageSettings(vocab_size=14, initial_size=19), None, "runs out of pairs at 18"),
        (TINY, SageSettings(vocab_size=14, initial_size=17, k=5, M=3), None, "M = 3"),
        (TINY, SageSettings(vocab_size=14, initial_size=17), "bogus", "Unknown control"),
        (TINY, SageSettings(vocab_size=14, initial_size=17, k=0), None, "k must be at least"),
        ([["ab", "ba"]] * 2, SageSettings(vocab_size=4, initial_size=7), None, "5 single"),
    ],
)
def test_bad_input(sentences, settings, control, message):
    with pytest.raises(ValueError, match=message):
        sage.trace_sage(sentences, settings, control)


def test_prepare_refuses_bad_samples():
    with pytest.raises(ValueError, match="empty"):
        sage.prepare([[]], SageSettings(vocab_size=10, initial_size=12))
    with pytest.raises(ValueError, match="too small for an initial vocabulary of 500"):
        sage.prepare(TINY, SageSettings(vocab_size=14, initial_size=500))
    # t h e c a s and ▁: 7 characters
    with pytest.raises(ValueError, match="smaller than the 7 characters"):
        sage.prepare(TINY, SageSettings(vocab_size=6, initial_size=12))


def test_empty_lines_are_skipped():
    lines = ["The cat sat.", "", "   ", "The hat sat. A cat sat."]
    sentences = sage.sample_sentences(lines)
    assert sentences == [["The", "cat", "sat."], ["The", "hat", "sat."], ["A", "cat", "sat."]]
    s = SageSettings(vocab_size=14, initial_size=16, k=1, M=3, dim=4, epochs=1)
    trace = sage.trace_sage([*sentences, [], *sentences, []], s)
    assert trace.start.sentences == 6
    assert len(sage.vocab_after(trace)) == 14


def test_non_latin_sample():
    text = ["Кошка сидит на окне. Собака спит на полу.", "Кошка и собака спят дома."]
    sentences = sage.sample_sentences(text)
    assert len(sentences) == 3
    letters = {ch for s in sentences for w in s for ch in w}
    assert len(letters) == 19  # 18 Cyrillic letters (К and С among them) and "."
    # BPE runs out of pairs at 58 pieces here
    s = SageSettings(vocab_size=30, initial_size=45, k=2, M=4, dim=4, epochs=1)
    trace = sage.trace_sage(sentences, s)
    vocab = sage.vocab_after(trace)
    assert len(vocab) == s.vocab_size
    assert letters <= set(vocab)  # every Cyrillic letter kept
    assert "".join(sage.word_segmenter(sage.model_from_trace(trace))("Кошка")) == "▁Кошка"


# --- 9. segmenting with a model -----------------------------------------------------------

MODEL = SageModel(("▁", "a", "b", "c", "▁a", "bc", "▁ab"))


def test_word_segmenter_greedy_longest_prefix():
    cut = sage.word_segmenter(MODEL)
    assert cut("abc") == ["▁ab", "c"]  # greedy: not ▁a bc, though that is as short
    assert cut("bca") == ["▁", "bc", "a"]
    assert cut("abz") == ["▁ab", UNK]
    assert cut("zz") == ["▁", UNK, UNK]


def test_segment_spans():
    text = " abc 😀b  abz"
    trace = sage.segment(MODEL, text)
    assert trace.pieces == ["▁ab", "c", "▁", UNK, "b", "▁ab", UNK]
    spans = [(t.text, t.start, t.end) for t in trace.tokens]
    assert spans == [
        ("▁ab", 1, 3), ("c", 3, 4), ("▁", 5, 5), (UNK, 5, 6), ("b", 6, 7),
        ("▁ab", 9, 11), (UNK, 11, 12),
    ]  # fmt: skip
    assert text[5:6] == "😀" and text[11:12] == "z"
    for t in trace.tokens:
        if t.text != UNK:
            assert text[t.start : t.end] == t.text.removeprefix(SOW)
    with pytest.raises(ValueError):
        sage.segment(MODEL, "   ")


def test_segmenter_matches_the_corpus(schedule_trace):
    """The final model cuts every word as the sample was cut at the end of the run."""
    final = sage.corpus_at(schedule_trace, SAMPLE, len(schedule_trace.steps) + 1)
    cut = sage.word_segmenter(sage.model_from_trace(schedule_trace))
    assert final.token_sentences() == [[p for w in s for p in cut(w)] for s in SAMPLE]


# --- 10. sample_sentences and the trace helpers -------------------------------------------


def test_sample_sentences():
    lines = ["It rains. The cat sleeps.", "  ", "Done."]
    assert sage.sample_sentences(lines) == [["It", "rains."], ["The", "cat", "sleeps."], ["Done."]]
    assert sage.sample_sentences(lines, limit=2) == [["It", "rains."], ["The", "cat", "sleeps."]]
    assert sage.sample_sentences(lines, sentences=False) == [
        ["It", "rains.", "The", "cat", "sleeps."],
        ["Done."],
    ]


def test_trace_helpers(schedule_trace):
    trace, s = schedule_trace, SCHEDULE
    assert sage.settings_of(trace) == s
    assert sage.vocab_after(trace, 0) == trace.start.vocab
    assert sage.model_from_trace(trace).vocab == sage.vocab_after(trace)
    assert sage.embeddings_at(trace, 0) is None
    gone = [p for st in trace.steps for p, _ in st.pruned]
    assert len(gone) == len(set(gone)) == s.initial_size - s.vocab_size
    assert set(sage.vocab_after(trace)) == set(trace.start.vocab) - set(gone)
    # BPE(V) is the first V pieces BPE learned: the same as training BPE to V directly
    assert sage.bpe_model(trace).vocab == trace.start.vocab[: s.vocab_size]
    wc = count_words([w for sentence in SAMPLE for w in sentence])
    direct = bpe.train_bpe(wc, vocab_size=s.vocab_size, marker="sow")
    assert sage.bpe_model(trace).vocab == direct.vocab
    assert sage.bpe_model(trace, 20).vocab == trace.start.vocab[:20]
    assert trace.start.sentences == len(SAMPLE)
    assert trace.start.words == sum(map(len, SAMPLE))
    assert trace.start.tokens == len(sage.corpus_at(trace, SAMPLE, 1).flat)


def test_iter_sage_leaves_the_corpus_it_is_given_unchanged(schedule_trace):
    """The run prunes its own copy: the caller's corpus is the same after it, and a second
    run on it gives the same steps again."""
    corpus = sage.prepare(SAMPLE, SCHEDULE)
    vocab, flat, segs = corpus.vocab(), corpus.flat.copy(), list(corpus.segs)
    alive, index = corpus.alive.copy(), dict(corpus.index)
    steps = list(sage.iter_sage(corpus, SCHEDULE))
    assert tuple(steps) == schedule_trace.steps
    assert corpus.vocab() == vocab and corpus.index == index and corpus.segs == segs
    np.testing.assert_array_equal(corpus.alive, alive)
    np.testing.assert_array_equal(corpus.flat, flat)
    assert tuple(sage.iter_sage(corpus, SCHEDULE)) == schedule_trace.steps


def test_close_up_is_table_2_for_a_candidate_of_a_step(schedule_trace):
    """One candidate up close: its recorded score, the sentences using it at that step and
    one of them with and without it, under the embeddings in force then."""
    trace, step = schedule_trace, 3  # its candidate set starts with unused pieces
    state = sage.corpus_at(trace, SAMPLE, step)
    record = trace.steps[step - 1]
    first = sage.first_used(trace, state, step)
    piece, score = record.candidates[first]
    used = state.usage()
    assert used[state.index[piece]] > 0 and first > 0
    assert all(used[state.index[p]] == 0 for p, _ in record.candidates[:first])
    unused = sage.close_up(trace, state, step, record.candidates[0][0])
    assert unused.sentences == () and unused.example is None and unused.loss == 0
    up = sage.close_up(trace, state, step, piece)
    assert (up.step, up.piece, up.loss, up.window) == (step, piece, score, SCHEDULE.window)
    assert up.pruned == (piece in dict(record.pruned))
    assert up.sentences == tuple(sage_explain.sentences_with(state, state.index[piece]))
    emb = sage.embeddings_at(trace, step)
    last = up.sentences[-1]
    direct = sage_explain.ablation_example(state, emb, state.index[piece], last, SCHEDULE.window)
    assert sage.close_up(trace, state, step, piece, last).example == direct
    assert up.example.sentence == up.sentences[0] and up.unseen_cost == emb.unseen_cost
    with pytest.raises(ValueError, match="not among the candidates of step 3"):
        sage.close_up(trace, state, step, SOW)
    other = next(n for n in range(len(SAMPLE)) if n not in up.sentences)
    with pytest.raises(ValueError, match="does not use"):
        sage.close_up(trace, state, step, piece, other)


# --- 11. a real sample --------------------------------------------------------------------


@pytest.mark.slow
def test_lee_sample():
    sentences = sage.sample_sentences("sample:lee")[:600]
    s = SageSettings(vocab_size=400, initial_size=480, k=20, M=100, m=2, l=2, dim=8, epochs=2)
    trace = sage.trace_sage(sentences, s)
    assert trace.steps[-1].vocab_size == 400 == len(sage.vocab_after(trace))
    assert len(trace.steps) == 4
    corpus = sage.corpus_at(trace, sentences, 3)
    emb = sage.embeddings_at(trace, 3)
    alive = [p for p in corpus.vocab() if not is_protected(p)]
    picks = ["▁the", *random.Random(0).sample([p for p in alive if p != "▁the"], 19)]
    ids = [corpus.index[p] for p in picks]
    local = ablation_losses(corpus, ids, emb, s.window)
    whole = [ablation_loss_whole(corpus, t, emb, s.window) for t in ids]
    np.testing.assert_allclose(local, whole, rtol=1e-9, atol=1e-7)
    assert local[0] != 0  # ▁the is used, and removing it changes the loss
