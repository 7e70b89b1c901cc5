"""SaGe (Yehezkel & Pinter, 000): prune a large BPE vocabulary by a skipgram context loss.

Algorithm 3: start from our BPE with the ``▁`` word-start marker at n x V pieces; then,
step by step, prune the k pieces whose removal raises the eq. (1) loss least
(sage_loss). Every m steps the ablation loss of every piece is recomputed and the M lowest
kept as the candidate set; in between only the candidates' losses are. Embeddings are
retrained every l x m steps. Single characters and ``▁`` + character are never pruned.

Two controls run the same schedule with another rule: ``frequency`` prunes
the pieces least used by the current tokenization, ``random`` draws them (seeded).

>>> sentences = [["the", "cat"], ["the", "hat"], ["a", "cat", "sat"]] * 3
>>> s = SageSettings(vocab_size=14, initial_size=17, k=1, M=3, m=1, l=2, dim=4, seed=1)
>>> trace = trace_sage(sentences, s)
>>> [step.vocab_size for step in trace.steps]
[16, 15, 14]
>>> [step.retrained_embeddings for step in trace.steps]
[True, False, True]
>>> len(model_from_trace(trace).vocab)
14

Ties: equal losses (or counts) are pruned in the order BPE learned the pieces, earliest
first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict

import numpy as np

from .. import bpe, limits
from ..corpus import count_words
from ..records import Progress, Trace
from .corpus import SentenceCorpus
from .loss import Embeddings, PairLoss, ablation_losses, corpus_loss, train_embeddings
from .records import CONTROLS, SCORE_NAMES, SageModel, SageSettings, SageStart, SageStep

DEFAULT = SageSettings()  # the settings of a run that names none


def check_settings(s: SageSettings, control: str | None = None) -> None:
    """Refuse settings Algorithm 3 cannot run, in a sentence a student understands."""
    if control is not None and control not in CONTROLS:
        raise ValueError(f"Unknown control {control!r}; choose {' or '.join(CONTROLS)}.")
    limits.check("sage_n", s.n)  # before start_size multiplies by it (inf, nan)
    if not s.n > 1 and not s.initial_size:
        raise ValueError(f"The overshoot n must be more than 1, not {s.n}: SaGe prunes n x V.")
    limits.check("sage_vocab_size", s.vocab_size)
    limits.check("sage_vocab_size", s.start_size)
    limits.check("sage_window", s.window)
    for name in ("vocab_size", "k", "M", "m", "l", "window", "dim", "negative", "epochs"):
        if getattr(s, name) < 1:
            raise ValueError(f"{name} must be at least 1, not {getattr(s, name)}.")
    if s.start_size <= s.vocab_size:
        raise ValueError(
            f"The initial size {s.start_size} must be larger than the final vocab size "
            f"{s.vocab_size}: SaGe only removes pieces."
        )
    if s.k * s.m > s.M:
        raise ValueError(
            f"The candidate set (M = {s.M}) must hold the k x m = {s.k * s.m} pieces pruned "
            "before the next full recomputation (k per step, every piece rescored every m "
            "steps)."
        )


def prepare(
    sentences: Sequence[Sequence[str]], s: SageSettings, progress: Progress = None
) -> SentenceCorpus:
    """Train BPE (▁ marker) to the initial size (`progress(merges, total)` as it goes) and
    tokenize the sample with it."""
    sentences = [list(words) for words in sentences if words]
    if not sentences:
        raise ValueError("The sample is empty: SaGe needs sentences of words.")
    wc = count_words([w for words in sentences for w in words])
    limits.check_words(wc.words)
    alphabet = len({ch for w in wc.words for ch in w}) + 1
    reachable = alphabet + sum(len(w) for w in wc.words)  # each merge removes a symbol
    if s.start_size > reachable:
        raise ValueError(  # known before BPE runs: no need to train to find out
            f"This sample is too small for an initial vocabulary of {s.start_size:,}: its "
            f"{len(wc):,} distinct words allow BPE at most {reachable:,} pieces. Choose a "
            "smaller size or a bigger sample."
        )
    if s.vocab_size < alphabet:
        raise ValueError(
            f"vocab size {s.vocab_size} is smaller than the {alphabet} characters (▁ "
            "included) of this sample, which are never pruned."
        )
    trace = bpe.trace_bpe(wc, vocab_size=s.start_size, marker="sow", progress=progress)
    if trace.truncated:
        made = len(bpe.model_from_trace(trace).vocab)
        raise ValueError(
            f"This sample is too small for an initial vocabulary of {s.start_size}: BPE "
            f"runs out of pairs at {made} pieces. Choose a smaller size or a bigger sample."
        )
    corpus = SentenceCorpus(bpe.model_from_trace(trace).vocab, sentences)
    protected = int(corpus.protected.sum())
    if s.vocab_size < protected:
        raise ValueError(
            f"vocab size {s.vocab_size} is smaller than the {protected} single characters "
            "and ▁ + character pieces of this vocabulary, which SaGe never prunes."
        )
    return corpus


def _scorer(control: str | None, s: SageSettings) -> Callable:
    """The rule that ranks the pieces: ablation loss, uses, or a seeded random draw."""
    if control == "frequency":
        return lambda corpus, pool, emb: corpus.usage()[pool].astype(float)
    if control == "random":
        rng = np.random.default_rng(s.seed)
        return lambda corpus, pool, emb: rng.random(len(pool))
    return lambda corpus, pool, emb: ablation_losses(corpus, pool, emb, s.window)


def _scores(score: Callable, corpus, pool: np.ndarray, pair, progress: Progress) -> np.ndarray:
    """score(corpus, pool, pair), in parts of about 5 % of the pool when someone follows
    the progress (each piece's score is its own: the parts give the same scores)."""
    parts = np.array_split(pool, min(len(pool), 20)) if progress and len(pool) else [pool]
    done = []
    for part in parts:
        done.append(np.asarray(score(corpus, part, pair), dtype=float))
        if progress:
            progress(sum(map(len, done)), len(pool))
    return np.concatenate(done)


def _ranked(pool: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.lexsort((pool, scores))  # lowest score first; ties: earlier piece first
    return pool[order], scores[order]


def iter_sage(
    corpus: SentenceCorpus,
    s: SageSettings,
    control: str | None = None,
    on_phase: Callable[[str], None] | None = None,
    on_progress: Progress = None,
) -> Iterator[SageStep]:
    """Algorithm 3 on a prepared corpus, one SageStep per prune; the run prunes a copy, so
    `corpus` stays as it was. `on_phase(text)` hears what is being computed (a status line),
    `on_progress(done, total)` how far that phase is (Word2Vec's epochs, pieces scored).
    """
    check_settings(s, control)
    say = on_phase or (lambda text: None)
    score = _scorer(control, s)
    corpus = corpus.copy()  # the run prunes its own copy
    pair, cands = None, np.zeros(0, dtype=np.int64)
    i = 0
    while (size := int(corpus.alive.sum())) > s.vocab_size:
        # every l x m steps, retrain Word2Vec on the sample as the vocabulary cuts it now
        retrain = control is None and i % (s.l * s.m) == 0
        emb = None
        if retrain:
            say(f"step {i + 1}: training Word2Vec on {len(corpus.flat):,} tokens")
            emb = train_embeddings(corpus, s.dim, s.w2v_window, s.negative, s.seed,
                                   s.epochs, s.workers, s.window, on_progress)  # fmt: skip
            pair = PairLoss(emb)
        # every m steps (or with no candidate left) score every prunable piece, else the candidates
        full = control is not None or i % s.m == 0 or len(cands) == 0
        pool = np.flatnonzero(corpus.alive & ~corpus.protected) if full else cands
        say(f"step {i + 1}: scoring {len(pool):,} pieces by {SCORE_NAMES[control]}")
        ranked, scores = _ranked(pool, _scores(score, corpus, pool, pair, on_progress))
        # a full scoring keeps the M lowest as the new candidate set
        if full:
            ranked, scores = ranked[: s.M], scores[: s.M]
        # eq. (1) on the whole sample before the prune, for the log
        loss = corpus_loss(corpus, pair, s.window) if pair is not None else None
        # prune the k lowest (never below V) and re-cut the words that used them
        take = min(s.k, size - s.vocab_size, len(ranked))
        names = [corpus.pieces[t] for t in ranked.tolist()]
        cand_rows = tuple(zip(names, scores.tolist(), strict=True))
        corpus.remove(ranked[:take].tolist())
        # the rest stay candidates until the next full scoring
        cands = ranked[take:]
        i += 1
        yield SageStep(i, size - take, loss, full, retrain, cand_rows, cand_rows[:take],
                       len(corpus.flat), emb)  # fmt: skip


def trace_sage(
    sentences: Sequence[Sequence[str]],
    s: SageSettings = DEFAULT,
    control: str | None = None,
    on_step: Callable[[SageStep, int], None] | None = None,
    on_phase: Callable[[str], None] | None = None,
    on_progress: Progress = None,
) -> Trace:
    """Run Algorithm 3 (or a control) to the vocab size; `on_step(step, total)` is called
    after every prune (the page's progress bar), `on_phase(text)` before each long part,
    `on_progress(done, total)` within it (BPE's merges, Word2Vec's epochs, pieces scored)."""
    check_settings(s, control)
    if on_phase:
        on_phase(f"training BPE to {s.start_size:,} pieces")
    corpus = prepare(sentences, s, on_progress)
    start = SageStart(
        tuple(corpus.pieces), int(corpus.protected.sum()),
        corpus.n_sentences, len(corpus.running), len(corpus.flat),
    )  # fmt: skip
    total = steps_needed(s)
    steps = []
    for step in iter_sage(corpus, s, control, on_phase, on_progress):
        steps.append(step)
        if on_step:
            on_step(step, total)
    params = tuple(asdict(s).items()) + (("control", control),)
    reason = f"Reached the vocab size {s.vocab_size} in {len(steps)} prune steps."
    return Trace("sage", params, start, tuple(steps), False, reason, True)


def steps_needed(s: SageSettings) -> int:
    """How many prune steps take n x V down to V, k at a time."""
    return -(-(s.start_size - s.vocab_size) // s.k)


def settings_of(trace: Trace) -> SageSettings:
    """The settings a trace was run with."""
    return SageSettings(**{k: v for k, v in trace.params if k != "control"})


def vocab_after(trace: Trace, upto: int | None = None) -> tuple[str, ...]:
    """The vocabulary after the first `upto` prune steps (all of them by default)."""
    steps = trace.steps if upto is None else trace.steps[:upto]
    gone = {piece for step in steps for piece, _ in step.pruned}
    return tuple(p for p in trace.start.vocab if p not in gone)


def model_from_trace(trace: Trace, upto: int | None = None) -> SageModel:
    """The model after the first `upto` prune steps (all of them by default)."""
    return SageModel(vocab_after(trace, upto))


def bpe_model(trace: Trace, size: int | None = None) -> SageModel:
    """BPE(V): the first V pieces BPE learned (its vocabulary at that size), applied by the
    same greedy longest prefix, so only the vocabularies differ."""
    size = settings_of(trace).vocab_size if size is None else size
    return SageModel(trace.start.vocab[:size])


def train_sage(
    sentences: Sequence[Sequence[str]], s: SageSettings = DEFAULT, control: str | None = None
) -> SageModel:
    """Run to the end and keep the final vocabulary."""
    return model_from_trace(trace_sage(sentences, s, control))


def embeddings_at(trace: Trace, step: int) -> Embeddings | None:
    """The embeddings in force during step `step` (1-based): the last retrained by then."""
    for record in reversed(trace.steps[:step]):
        if record.embeddings is not None:
            return record.embeddings
    return None


def corpus_at(trace: Trace, sentences: Sequence[Sequence[str]], step: int) -> SentenceCorpus:
    """The sample tokenized as at the start of step `step` (before its prune); one past
    the last step is the sample as the final vocabulary cuts it."""
    if not 1 <= step <= len(trace.steps) + 1:
        raise ValueError(f"There is no step {step}; the run has steps 1 to {len(trace.steps)}.")
    corpus = SentenceCorpus(trace.start.vocab, [list(w) for w in sentences if w])
    gone = set(vocab_after(trace, 0)) - set(vocab_after(trace, step - 1))
    if gone:
        corpus.remove([corpus.index[p] for p in gone])
    return corpus
