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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .corpus import SentenceCorpus, greedy
from .stretch import batches, stretches

LN2 = float(np.log(2))
MATRIX_MAX = 4096  # up to this many pieces the pair table is kept whole (128 MB at most)
DOTS_BATCH = 1 << 16  # above it, pairs take their dot products this many at a time


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
    on_epoch: Callable[[int, int], None] | None = None,
) -> Embeddings:
    """gensim Word2Vec skipgram on the tokenized sentences (Table 6 settings by default);
    the cost of an untrained piece's pair is the mean one-way loss of the sample's pairs
    within `loss_window`. `on_epoch(done, epochs)` is called after each epoch (gensim calls
    back no more often); an exception there ends the training."""
    from gensim.models import Word2Vec
    from gensim.models.callbacks import CallbackAny2Vec

    class Epochs(CallbackAny2Vec):
        done = 0

        def on_epoch_end(self, model) -> None:
            self.done += 1
            on_epoch(self.done, epochs)

    model = Word2Vec(
        corpus.token_sentences(), sg=1, vector_size=dim, window=window, negative=negative,
        min_count=1, seed=seed, workers=workers, epochs=epochs,
        callbacks=[Epochs()] if on_epoch else [],
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
            table = emb.target @ emb.context.T  # -log sigmoid(x) = log(1 + e^-x), in place
            np.logaddexp(0.0, np.negative(table, out=table), out=table)
            table[~emb.trained, :] = emb.unseen_cost
            table[:, ~emb.trained] = emb.unseen_cost
            self.table = _add_transpose(table)

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if self.table is not None:  # one flat index: faster than table[a, b], same values
            return self.table.ravel().take(a * len(self.table) + b)
        out = np.empty(len(a))
        for i in range(0, len(a), DOTS_BATCH):  # a batch at a time: two vectors per pair
            out[i : i + DOTS_BATCH] = self._dots(a[i : i + DOTS_BATCH], b[i : i + DOTS_BATCH])
        return out

    def _dots(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        t, c, known = self.emb.target, self.emb.context, self.emb.trained
        both = known[a] & known[b]
        forward = _neg_log_sigmoid(np.einsum("ij,ij->i", t[a], c[b]))
        backward = _neg_log_sigmoid(np.einsum("ij,ij->i", t[b], c[a]))
        return np.where(both, forward + backward, 2 * self.emb.unseen_cost)


def _add_transpose(table: np.ndarray, block: int = 512) -> np.ndarray:
    """table + table.T, written into `table` a block at a time (no second table in memory).

    >>> _add_transpose(np.array([[1.0, 2.0], [3.0, 4.0]]), block=1).tolist()
    [[2.0, 5.0], [5.0, 8.0]]
    """
    for i in range(0, len(table), block):
        for j in range(i, len(table), block):  # the blocks on and above the diagonal
            both = table[i : i + block, j : j + block] + table[j : j + block, i : i + block].T
            table[i : i + block, j : j + block] = both
            table[j : j + block, i : i + block] = both.T
    return table


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
    """The ablation loss of each candidate piece, computed on its local stretches (see
    stretch.py), a batch of candidates at a time to bound the memory."""
    pair = _loss_of(emb)
    candidates = np.asarray(candidates, dtype=np.int64)
    losses = np.zeros(len(candidates))
    for part in batches(corpus, candidates):  # each candidate's groups in one batch
        s = stretches(corpus, candidates[part], window)
        if g := len(s.owner):
            before = group_losses(s.before, s.before_group, g, pair, window)
            after = group_losses(s.after, s.after_group, g, pair, window)
            losses[part] = np.bincount(s.owner, after - before, minlength=len(losses[part]))
    return losses


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
