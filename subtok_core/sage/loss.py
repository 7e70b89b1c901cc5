"""SaGe's skipgram loss, eq. (1), and the ablation loss of a piece.

eq. (1): L = - sum over every token t and every context token c at most `window`
positions away in the same sentence (both sides) of log sigmoid(E_T[t] . E_C[c]), with
E_T the Word2Vec input vectors and E_C its output (negative-sampling) vectors. No
negative samples enter the loss (SaGe §3).

Every pair of positions i < j within the window adds both directions, so the loss of a
sequence is the sum of ``pair(a_i, a_j) = -log s(T[a_i].C[a_j]) - log s(T[a_j].C[a_i])``.

>>> e = Embeddings.from_arrays([[1.0], [0.5]], [[2.0], [-1.0]])
>>> manual = 2 * (np.logaddexp(0, -1.0 * -1.0) + np.logaddexp(0, -0.5 * 2.0))
>>> bool(np.isclose(sequence_loss([0, 1, 0], e, window=1), manual))
True

A piece with no trained vector (it was unused when the embeddings were trained, and a
re-tokenization brought it back) has no dot product to take. Each direction of each of its
pairs costs ``unseen_cost`` instead: the mean one-way loss of the pairs the sample had
when the embeddings were trained, so it counts as an ordinary pair. (Zero vectors would
cost ln 2 = 0.69, far below the 2 to 3 nats a trained pair costs on the gensim samples,
and make every ablation that brings unused pieces back look like a gain.)

The ablation loss of a piece t is the loss of every sentence containing t re-tokenized
without t, minus its current loss. Only the words that contain t change, so the change is
computed on each sentence's stretch from `window` tokens before its first changed word to
`window` tokens after its last: pairs further out are the same on both sides of the
subtraction (tests/test_sage.py checks this against whole-sentence re-tokenization).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .corpus import SentenceCorpus, greedy

LN2 = float(np.log(2))
MATRIX_MAX = 4096  # up to this many pieces the pair table is kept whole (128 MB at most)


@dataclass(frozen=True, slots=True, eq=False)
class Embeddings:
    """Input (target) and output (context) vectors, one row per piece id. ``trained``
    marks the pieces that had a vector (the others' rows are zero and unused); a pair with
    an untrained piece costs ``unseen_cost`` per direction."""

    target: np.ndarray
    context: np.ndarray
    trained: np.ndarray
    unseen_cost: float = LN2

    @classmethod
    def from_arrays(cls, target, context, trained=None, unseen_cost=LN2):
        """Embeddings given by hand (every piece trained unless `trained` says otherwise)."""
        target, context = np.asarray(target, float), np.asarray(context, float)
        trained = np.ones(len(target), bool) if trained is None else np.asarray(trained, bool)
        return cls(target, context, trained, float(unseen_cost))

    def __eq__(self, other) -> bool:
        return isinstance(other, Embeddings) and all(
            np.array_equal(a, b)
            for a, b in zip(
                (self.target, self.context, self.trained, self.unseen_cost),
                (other.target, other.context, other.trained, other.unseen_cost),
                strict=True,
            )
        )

    __hash__ = None  # type: ignore[assignment]


def train_embeddings(
    corpus: SentenceCorpus,
    dim: int = 50,
    window: int = 5,
    negative: int = 15,
    seed: int = 1,
    epochs: int = 5,
    workers: int = 1,
    loss_window: int = 5,
) -> Embeddings:
    """gensim Word2Vec skipgram on the tokenized sentences (Table 6 settings by default);
    the cost of an untrained piece's pair is the mean one-way loss of the sample's pairs
    within `loss_window`."""
    from gensim.models import Word2Vec

    model = Word2Vec(
        corpus.token_sentences(), sg=1, vector_size=dim, window=window, negative=negative,
        min_count=1, seed=seed, workers=workers, epochs=epochs,
    )  # fmt: skip
    n = len(corpus.pieces)
    target, context = np.zeros((n, dim)), np.zeros((n, dim))
    trained = np.zeros(n, dtype=bool)
    rows = np.array([corpus.index.get(k, -1) for k in model.wv.index_to_key], dtype=np.int64)
    keep = rows >= 0
    target[rows[keep]] = model.wv.vectors[keep]
    context[rows[keep]] = model.syn1neg[keep]
    trained[rows[keep]] = True
    raw = Embeddings(target, context, trained)
    pairs = _directed_pairs(corpus, loss_window)
    mean = corpus_loss(corpus, raw, loss_window) / pairs if pairs else LN2
    return Embeddings(target, context, trained, mean)


def _directed_pairs(corpus: SentenceCorpus, window: int) -> int:
    """How many (target, context) pairs eq. (1) sums over in the sample."""
    sentence = corpus.sentence_of_token
    return 2 * sum(
        int(np.count_nonzero(sentence[:-d] == sentence[d:])) for d in range(1, window + 1)
    )


def _neg_log_sigmoid(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, -x)


class PairLoss:
    """pair(a, b) for arrays of piece ids: a table for small vocabularies, else dot products."""

    def __init__(self, emb: Embeddings):
        self.emb = emb
        self.table = None
        if len(emb.target) <= MATRIX_MAX:
            one_way = _neg_log_sigmoid(emb.target @ emb.context.T)
            one_way[~emb.trained, :] = emb.unseen_cost
            one_way[:, ~emb.trained] = emb.unseen_cost
            self.table = one_way + one_way.T

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if self.table is not None:
            return self.table[a, b]
        t, c, known = self.emb.target, self.emb.context, self.emb.trained
        both = known[a] & known[b]
        forward = _neg_log_sigmoid(np.einsum("ij,ij->i", t[a], c[b]))
        backward = _neg_log_sigmoid(np.einsum("ij,ij->i", t[b], c[a]))
        return np.where(both, forward + backward, 2 * self.emb.unseen_cost)


def _loss_of(emb: Embeddings | PairLoss) -> PairLoss:
    return emb if isinstance(emb, PairLoss) else PairLoss(emb)


def group_losses(ids: np.ndarray, group: np.ndarray, n_groups: int, pair, window: int):
    """The loss of each group (a sentence or a stretch of one) of consecutive ids."""
    total = np.zeros(n_groups)
    for d in range(1, window + 1):
        same = group[:-d] == group[d:]
        if same.any():
            values = pair(ids[:-d][same], ids[d:][same])
            total += np.bincount(group[:-d][same], weights=values, minlength=n_groups)
    return total


def sequence_loss(ids: Sequence[int], emb: Embeddings | PairLoss, window: int) -> float:
    """eq. (1) on one sentence given as piece ids."""
    ids = np.asarray(ids, dtype=np.int64)
    zeros = np.zeros(len(ids), dtype=np.int64)
    return float(group_losses(ids, zeros, 1, _loss_of(emb), window)[0])


def corpus_loss(corpus: SentenceCorpus, emb: Embeddings | PairLoss, window: int) -> float:
    """eq. (1) on the whole tokenized sample."""
    pair = _loss_of(emb)
    n = corpus.n_sentences
    return float(group_losses(corpus.flat, corpus.sentence_of_token, n, pair, window).sum())


def ablation_losses(
    corpus: SentenceCorpus, candidates: Sequence[int], emb: Embeddings | PairLoss, window: int
) -> np.ndarray:
    """The ablation loss of each candidate piece, computed on local stretches."""
    pair = _loss_of(emb)
    old, new, old_len, new_len, owner = [], [], [], [], []
    flat = corpus.flat_list
    starts, sent_starts = corpus.word_start, corpus.sentence_start
    for slot, t in enumerate(candidates):
        words = corpus.holders.get(int(t), ())
        if not words:
            continue  # an unused piece: removing it changes nothing
        recut = {w: greedy(corpus.words[w], corpus.index, corpus.max_len, int(t)) for w in words}
        runs = np.concatenate([corpus.occurrences[w] for w in words])
        runs.sort()
        sentences = corpus.sentence_of_word[runs]
        cuts = np.flatnonzero(np.diff(sentences)) + 1
        for group in np.split(runs, cuts):
            s = corpus.sentence_of_word[group[0]]
            lo = max(int(sent_starts[s]), int(starts[group[0]]) - window)
            hi = min(int(sent_starts[s + 1]), int(starts[group[-1] + 1]) + window)
            stretch, pos = [], lo
            for r in group.tolist():
                stretch += flat[pos : starts[r]]
                stretch += recut[corpus.running[r]]
                pos = int(starts[r + 1])
            stretch += flat[pos:hi]
            old += flat[lo:hi]
            new += stretch
            old_len.append(hi - lo)
            new_len.append(len(stretch))
            owner.append(slot)
    if not owner:
        return np.zeros(len(candidates))
    g = len(owner)
    before = group_losses(
        np.asarray(old, np.int64), np.repeat(np.arange(g), old_len), g, pair, window
    )
    after = group_losses(
        np.asarray(new, np.int64), np.repeat(np.arange(g), new_len), g, pair, window
    )
    return np.bincount(owner, weights=after - before, minlength=len(candidates))


def ablation_loss_whole(
    corpus: SentenceCorpus, t: int, emb: Embeddings | PairLoss, window: int
) -> float:
    """The ablation loss of one piece, re-tokenizing each whole sentence that contains it
    (slow; the reference the local computation is tested against)."""
    pair = _loss_of(emb)
    sentences = sorted({int(s) for s in corpus.sentence_of_token[corpus.flat == t]})
    change = 0.0
    for s in sentences:
        words = corpus.running[corpus.sentence_word_start[s] : corpus.sentence_word_start[s + 1]]
        before = [u for w in words for u in corpus.segs[w]]
        after = [u for w in words for u in greedy(corpus.words[w], corpus.index, corpus.max_len, t)]
        change += sequence_loss(after, pair, window) - sequence_loss(before, pair, window)
    return change
