"""SaGe's fast ablation scoring against straightforward loops written here.

The fast path (subtok_core/sage/stretch.py and loss.ablation_losses) builds every stretch
with numpy, scores candidates in batches, looks pairs up in a flat table (or takes dot
products a batch at a time) and remembers each word's cut without a piece across prune
steps. Each of these is checked on small random cases against a plain Python computation
that shares no code with the module: greedy longest prefix, the stretches and eq. (1)
written as loops, with math.exp and math.log.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from subtok_core.records import SOW
from subtok_core.sage import loss as sage_loss
from subtok_core.sage import stretch as sage_stretch
from subtok_core.sage.corpus import SentenceCorpus, is_protected
from subtok_core.sage.loss import Embeddings, PairLoss, ablation_losses
from subtok_core.sage.stretch import stretches


def plain_greedy(word: str, vocab: dict[str, int], banned: int = -2) -> list[int]:
    """Greedy longest prefix with plain loops (every character is in the vocabulary)."""
    out, i = [], 0
    while i < len(word):
        j = max(j for j in range(i + 1, len(word) + 1) if vocab.get(word[i:j], banned) != banned)
        out.append(vocab[word[i:j]])
        i = j
    return out


def plain_pair(emb: Embeddings, a: int, b: int) -> float:
    """-log sigmoid(T[a].C[b]) - log sigmoid(T[b].C[a]); unseen_cost per direction when a
    piece is untrained."""
    if not (emb.trained[a] and emb.trained[b]):
        return 2 * emb.unseen_cost
    total = 0.0
    for t, c in ((a, b), (b, a)):
        dot = sum(float(x) * float(y) for x, y in zip(emb.target[t], emb.context[c]))
        total += math.log(1.0 + math.exp(-dot))
    return total


def plain_loss(tokens: list[int], emb: Embeddings, window: int) -> float:
    return sum(
        plain_pair(emb, tokens[i], tokens[j])
        for i in range(len(tokens))
        for j in range(i + 1, min(len(tokens), i + window + 1))
    )


def plain_stretches(corpus: SentenceCorpus, vocab: dict[str, int], candidates, window: int):
    """For each candidate, each sentence using it: (candidate's slot, tokens before, after),
    the stretch running from `window` tokens before its first word to `window` after its last."""
    out = []
    for slot, t in enumerate(candidates):
        for s in range(corpus.n_sentences):
            first, last = corpus.sentence_word_start[s], corpus.sentence_word_start[s + 1]
            words = [corpus.words[w] for w in corpus.running[first:last]]
            cuts = [plain_greedy(w, vocab) for w in words]
            changed = [k for k, cut in enumerate(cuts) if t in cut]
            if not changed:
                continue
            starts = [sum(map(len, cuts[:k])) for k in range(len(cuts) + 1)]
            lo = max(0, starts[changed[0]] - window)
            hi = min(starts[-1], starts[changed[-1] + 1] + window)
            tokens = [u for cut in cuts for u in cut]
            new_cuts = [
                plain_greedy(w, vocab, t) if t in cut else cut for w, cut in zip(words, cuts)
            ]
            new_tokens = [u for cut in new_cuts for u in cut]
            shift = len(new_tokens) - len(tokens)
            out.append((slot, tokens[lo:hi], new_tokens[lo : hi + shift]))
    return out


def random_case(seed: int):
    """Random words over 4 letters, pieces cut from them, random vectors (some untrained)."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcd") for _ in range(rng.randint(1, 7))) for _ in range(14)]
    pieces = [SOW, *"abcd", *(SOW + ch for ch in "abcd")]
    extra = set()
    while len(extra) < 30:
        word = SOW + rng.choice(words)
        i = rng.randrange(len(word) - 1)
        extra.add(word[i : i + rng.randint(2, 4)])
    pieces += sorted(p for p in extra - set(pieces) if not is_protected(p))
    sentences = [[rng.choice(words) for _ in range(rng.randint(1, 12))] for _ in range(12)]
    gen = np.random.default_rng(seed)
    n = len(pieces)
    emb = Embeddings.from_arrays(
        gen.normal(size=(n, 3)), gen.normal(size=(n, 3)), gen.random(n) > 0.15, unseen_cost=1.1
    )
    return pieces, sentences, emb


def as_groups(s: sage_stretch.Stretches):
    """The stretches as (slot, tokens before, tokens after), group by group."""
    return [
        (int(slot), s.before[s.before_group == g].tolist(), s.after[s.after_group == g].tolist())
        for g, slot in enumerate(s.owner)
    ]


@pytest.mark.parametrize("window", [1, 2, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stretches_equal_plain_loops(seed, window):
    pieces, sentences, _ = random_case(seed)
    corpus = SentenceCorpus(pieces, sentences)
    vocab = dict(corpus.index)
    candidates = [i for i, p in enumerate(pieces) if not is_protected(p)]
    expected = plain_stretches(corpus, vocab, candidates, window)
    assert as_groups(stretches(corpus, candidates, window)) == expected
    assert len(expected) > 20  # many groups, some with several changed words
    # after removals (and with a candidate list in another order)
    used = [t for t in candidates if corpus.usage()[t] > 0]
    corpus.remove(used[::3])
    vocab = {p: i for i, p in enumerate(pieces) if corpus.alive[i]}
    alive = [t for t in reversed(candidates) if corpus.alive[t]]
    assert as_groups(stretches(corpus, alive, window)) == plain_stretches(
        corpus, vocab, alive, window
    )


@pytest.mark.parametrize("batch_tokens", [1, 7, 1 << 18])
@pytest.mark.parametrize("branch", ["table", "dots"])
def test_fast_ablation_equals_plain_loops(monkeypatch, branch, batch_tokens):
    """Batches of any size, the flat table or dot products in small batches: the scores
    of a plain loop over whole sentences, step after step (the remembered cuts in use)."""
    monkeypatch.setattr(sage_stretch, "BATCH_TOKENS", batch_tokens)
    if branch == "dots":
        monkeypatch.setattr(sage_loss, "MATRIX_MAX", 0)
        monkeypatch.setattr(sage_loss, "DOTS_BATCH", 5)
    pieces, sentences, emb = random_case(4)
    corpus = SentenceCorpus(pieces, sentences)
    pair = PairLoss(emb)
    assert (pair.table is None) == (branch == "dots")
    for _ in range(3):
        vocab = {p: i for i, p in enumerate(pieces) if corpus.alive[i]}
        candidates = [i for i in np.flatnonzero(corpus.alive) if not is_protected(pieces[i])]
        expected = []
        for t in candidates:
            change = 0.0
            for words in sentences:
                cuts = [plain_greedy(SOW + w, vocab) for w in words]
                if any(t in cut for cut in cuts):
                    after = [u for w in words for u in plain_greedy(SOW + w, vocab, t)]
                    before = [u for cut in cuts for u in cut]
                    change += plain_loss(after, emb, 2) - plain_loss(before, emb, 2)
            expected.append(change)
        got = ablation_losses(corpus, candidates, pair, 2)
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-9)
        assert np.count_nonzero(got) > 10
        order = np.lexsort((candidates, got))  # prune the 4 lowest, as Algorithm 3 does
        corpus.remove([candidates[i] for i in order[:4]])


def test_remembered_cuts_stay_right_after_removals():
    """recut(w, t) after several removals equals a fresh greedy cut without t, whether it
    was remembered from before the removals or not."""
    pieces, sentences, _ = random_case(5)
    corpus = SentenceCorpus(pieces, sentences)
    candidates = [i for i, p in enumerate(pieces) if not is_protected(p)]
    for t in candidates:  # remember every cut
        for w in range(len(corpus.words)):
            corpus.recut(w, t)
    rng = random.Random(0)
    for _ in range(4):
        alive = [t for t in candidates if corpus.alive[t]]
        corpus.remove(rng.sample(alive, 3))
        vocab = {p: i for i, p in enumerate(pieces) if corpus.alive[i]}
        for t in (t for t in candidates if corpus.alive[t]):
            for w, word in enumerate(corpus.words):
                assert list(corpus.recut(w, t)) == plain_greedy(word, vocab, t)


def test_a_copy_remembers_on_its_own():
    pieces, sentences, _ = random_case(6)
    corpus = SentenceCorpus(pieces, sentences)
    t = next(i for i, p in enumerate(pieces) if not is_protected(p) and corpus.usage()[i])
    corpus.recut(0, t)
    other = corpus.copy()
    other.remove([t])
    assert (0, t) in corpus._recuts and (0, t) not in other._recuts


def test_pair_table_equals_plain_formula():
    _, _, emb = random_case(7)
    pair = PairLoss(emb)
    n = len(emb.target)
    a, b = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
    expected = [plain_pair(emb, x, y) for x, y in zip(a.tolist(), b.tolist())]
    np.testing.assert_allclose(pair(a, b), expected, rtol=1e-12)


def test_table_plus_its_transpose_in_place():
    """Block by block, the same numbers as table + table.T (to the bit)."""
    table = np.random.default_rng(8).normal(size=(10, 10))
    expected = table + table.T
    assert np.array_equal(sage_loss._add_transpose(table.copy(), block=3), expected)
