"""Sentences on a SaGe run, and one piece's ablation up close: a sentence cut with and
without it, the windows around the piece and around what replaces it in brackets (the
pairs of tokens whose loss the removal changes). The paper's Table 2 looks from the other
side, at a target whose window changes though the piece is outside it: see ``table2``.

>>> from subtok_core.sage.corpus import SentenceCorpus
>>> from subtok_core.sage.loss import Embeddings
>>> c = SentenceCorpus(["▁", "a", "b", "▁a", "▁ab"], [["ab", "a", "ab"]])
>>> e = Embeddings.from_arrays([[0.1 * i] for i in range(5)], [[0.2] for _ in range(5)])
>>> ex = ablation_example(c, e, c.index["▁ab"], 0, window=1)
>>> bracketed(ex.before, ex.before_windows, ex.before_targets)
'[**▁ab** ▁a **▁ab**]'
>>> bracketed(ex.after, ex.after_windows, ex.after_targets)
'[**▁a** **b** ▁a **▁a** **b**]'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..records import Trace
from .corpus import SentenceCorpus, greedy
from .loss import Embeddings, PairLoss, sequence_loss
from .train import embeddings_at, settings_of


def explain_step(trace: Trace, i: int) -> str:
    """The sentence for step i (0: the BPE vocabulary SaGe starts from)."""
    start = trace.start
    if i == 0:
        return (
            f"SaGe starts from BPE's {len(start.vocab):,} pieces on {start.sentences:,} "
            f"sentences ({start.tokens:,} tokens); {start.protected:,} of them are never pruned."
        )
    step = trace.steps[i - 1]
    pruned = ", ".join(p for p, _ in step.pruned[:5])
    more = f" and {len(step.pruned) - 5} more" if len(step.pruned) > 5 else ""
    return (
        f"Step {step.number} pruned {len(step.pruned)} pieces ({pruned}{more}), leaving "
        f"{step.vocab_size:,}; the sample is now {step.tokens:,} tokens."
    )


@dataclass(frozen=True, slots=True)
class AblationExample:
    """A sentence before and after removing one piece, with the windows it touches."""

    piece: str
    sentence: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    before_targets: tuple[int, ...]  # positions of the piece
    after_targets: tuple[int, ...]  # positions of what replaced it
    before_windows: tuple[tuple[int, int], ...]  # [lo, hi) around each, merged when they touch
    after_windows: tuple[tuple[int, int], ...]
    loss_before: float
    loss_after: float

    @property
    def change(self) -> float:
        return self.loss_after - self.loss_before


def sentences_with(corpus: SentenceCorpus, piece: int, limit: int = 20) -> list[int]:
    """The first `limit` sentences whose tokens include `piece`."""
    found = np.unique(corpus.sentence_of_token[corpus.flat == piece])
    return found[:limit].tolist()


def _windows(targets: list[int], length: int, window: int) -> tuple[tuple[int, int], ...]:
    spans: list[list[int]] = []
    for t in targets:
        lo, hi = max(0, t - window), min(length, t + window + 1)
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    return tuple((lo, hi) for lo, hi in spans)


def ablation_example(
    corpus: SentenceCorpus, emb: Embeddings | PairLoss, piece: int, sentence: int, window: int
) -> AblationExample:
    """Sentence `sentence` with the vocabulary as it is and without `piece`."""
    a, b = corpus.sentence_word_start[sentence], corpus.sentence_word_start[sentence + 1]
    before, after, old_t, new_t = [], [], [], []
    for w in corpus.running[a:b].tolist():
        seg = corpus.segs[w]
        recut = (
            greedy(corpus.words[w], corpus.index, corpus.max_len, piece) if piece in seg else seg
        )
        if piece in seg:
            old_t += [len(before) + i for i, t in enumerate(seg) if t == piece]
            new_t += [len(after) + i for i in range(len(recut))]
        before += seg
        after += recut
    names = corpus.pieces
    return AblationExample(
        names[piece], sentence, tuple(names[t] for t in before), tuple(names[t] for t in after),
        tuple(old_t), tuple(new_t), _windows(old_t, len(before), window),
        _windows(new_t, len(after), window),
        sequence_loss(before, emb, window), sequence_loss(after, emb, window),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class CloseUp:
    """One candidate of one step up close: its score, the sentences that use it, and one of
    them cut with and without it (None when no sentence uses the piece)."""

    step: int
    piece: str
    loss: float  # its ablation loss at that step, over every sentence that uses it
    pruned: bool  # pruned at that step (else kept)
    sentences: tuple[int, ...]  # the first sentences that use it
    example: AblationExample | None
    window: int
    unseen_cost: float  # what a pair with a piece that had no vector costs per direction


def first_used(trace: Trace, state: SentenceCorpus, step: int) -> int:
    """Where, in step `step`'s candidate set, the first piece the sample uses is (0: none).
    `state` is the sample as at that step (``corpus_at(trace, sentences, step)``)."""
    used = state.usage()
    names = [p for p, _ in trace.steps[step - 1].candidates]
    return next((n for n, p in enumerate(names) if used[state.index[p]]), 0)


def close_up(
    trace: Trace,
    state: SentenceCorpus,
    step: int,
    piece: str,
    sentence: int | None = None,
    pair: PairLoss | None = None,
) -> CloseUp:
    """Candidate `piece` of step `step` and sentence `sentence` (the first that uses the
    piece by default) cut with and without it; `state` as for :func:`first_used`. `pair`
    is ``PairLoss(embeddings_at(trace, step))`` when the caller keeps it for several close-ups
    (building it is most of the work: a table of every pair of pieces)."""
    record = trace.steps[step - 1]
    scores = dict(record.candidates)
    if piece not in scores:
        raise ValueError(f"{piece!r} is not among the candidates of step {step}.")
    emb = embeddings_at(trace, step)
    if emb is None:
        raise ValueError("A control run has no embeddings, so no loss to show up close.")
    window = settings_of(trace).window
    found = tuple(sentences_with(state, state.index[piece]))
    if sentence is not None and sentence not in found:
        raise ValueError(f"Sentence {sentence} does not use {piece!r} at step {step}.")
    chosen = found[0] if sentence is None and found else sentence
    example = None
    if chosen is not None:
        pair = PairLoss(emb) if pair is None else pair
        example = ablation_example(state, pair, state.index[piece], chosen, window)
    pruned = piece in dict(record.pruned)
    return CloseUp(step, piece, scores[piece], pruned, found, example, window, emb.unseen_cost)


def bracketed(tokens, windows, targets, strong=("**", "**"), escape=str) -> str:
    """Tokens joined by spaces, each window in [brackets], targets in bold (Markdown by
    default; the page passes HTML tags and html.escape)."""
    opens = {lo for lo, _ in windows}
    closes = {hi - 1 for _, hi in windows}
    marked = set(targets)
    words = []
    for i, token in enumerate(tokens):
        text = escape(token)
        text = f"{strong[0]}{text}{strong[1]}" if i in marked else text
        words.append(("[" if i in opens else "") + text + ("]" if i in closes else ""))
    return " ".join(words)
