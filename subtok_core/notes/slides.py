"""Notes on the 001 slides ("Tokenization Strategies"): the Unigram example's rounding,
its second removal table, its `hu`, and the BPE example's bag/bags. Every exact number is
computed here from the app's own runs.

>>> note = removal_note()
>>> note.figures[0].printed, note.figures[0].exact
('63.0126', '63.0226')
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from ..bpe import model_from_trace, segment, trace_bpe
from ..corpus import load
from ..lattice import viterbi
from ..unigram.seed import seed_rows
from ..unigram.textbook import LOG_BASES, rounded_loss
from ..unigram.train import trace_unigram
from .records import Figure, Note, approx

SLIDES = "001_cd5e11af49399106.txt"
RUN_BUG = (("corpus", "toy:run-bug"), ("seed", "strict"), ("base", "10"))
DIGITS = 4  # the 001 slides round every probability to 4 digits


@functools.cache
def run_bug():
    """001's run: strict substrings, log base 10, `un` removed in round 1 as the slides do
    ("Randomly, we select the token un"); round 2 then prunes automatically."""
    return trace_unigram(load("toy:run-bug"), seed="strict", log_base="10", choices=("un",))


def step_of(trace, round_no: int, kind: str):
    """The step of a Unigram trace at this round and of this kind ("e", "m", "prune").

    >>> step_of(run_bug(), 2, "m").number
    5
    """
    return next(s for s in trace.steps if s.round == round_no and s.kind == kind)


def slides_removal(step, log_base: str, digits: int = DIGITS) -> dict[str, float]:
    """The removal table of an M-step as the 001 slides compute it: each probability
    rounded to `digits` decimals first, then the corpus loss without each piece.

    >>> m2 = step_of(run_bug(), 2, "m")
    >>> round(slides_removal(m2, "10")["ru"], 4)
    63.0126
    """
    logp = {r.piece: math.log(round(r.prob, digits)) for r in step.vocab}
    scale = math.log(LOG_BASES[log_base])

    def loss(skip: str) -> float:
        return sum(-w.count * viterbi(w.word, logp, skip=skip)[1] for w in step.segmentations)

    return {piece: loss(piece) / scale for piece, _ in step.removal}


def rounding_note() -> Note:
    trace = run_bug()
    e1, e2 = step_of(trace, 1, "e"), step_of(trace, 2, "e")
    freq = dict(seed_rows(load("toy:run-bug"), "strict"))
    total = sum(freq.values())
    ru, n = e1.segmentations[0].pieces  # run -> ru n
    score = Fraction(freq[ru] * freq[n], total**2)  # P(ru) P(n), exactly
    slides = [rounded_loss(step, "10", DIGITS) for step in (e1, e2)]
    return Note(
        "001-rounding",
        "001 rounds every probability to 4 digits",
        SLIDES,
        "Unigram example, E-steps of the first and second iteration",
        (
            Figure(
                "P(ru, n), the score of run",
                "0.00325338",
                f"{score.numerator}/{score.denominator} ≈ {approx(float(score), '0.00325338')}",
                float(score),
                line=578,
            ),
            Figure("loss, first iteration", "66.102", approx(e1.loss, "66.102"), e1.loss, 586),
            Figure("loss, second iteration", "61.155", approx(e2.loss, "61.155"), e2.loss, 683),
        ),
        f"The slides multiply probabilities rounded to 4 digits ({freq[ru]}/{total} = "
        f"{freq[ru] / total:.6f} becomes {round(freq[ru] / total, DIGITS)}); "
        f"rounding them here the same way gives {slides[0]:.3f} and {slides[1]:.3f}, the "
        f"printed losses, while this app computes exactly.",
        "unigram",
        (*RUN_BUG, ("step", "1")),
    )


def removal_note() -> Note:
    m2 = step_of(run_bug(), 2, "m")
    exact, slides = dict(m2.removal), slides_removal(m2, "10")
    rows = (("ru", "63.0126", 694), ("bu", "61.155", 695), ("ug", "61.155", 696))
    rows += (("fu", "69.205", 697), ("su", "67.347", 698))
    figures = tuple(
        Figure(
            f"loss without {p}",
            printed,
            approx(exact[p], printed),
            exact[p],
            line,
            f"{p}\t{printed}",  # a row of the table, as the seed file has it
        )
        for p, printed, line in rows
    )
    shown = ", ".join(f"{p} {approx(slides[p], printed)}" for p, printed, _ in rows)
    gaps = sorted({f"{exact[p] - slides[p]:.3f}" for p, _, _ in rows})
    gap = gaps[0] if len(gaps) == 1 else f"{gaps[0]} to {gaps[-1]}"
    return Note(
        "001-removal-table",
        "001's second removal table is rounded",
        SLIDES,
        "Unigram example, M-step of the second iteration (after un is removed)",
        figures,
        f"Each printed loss comes from probabilities rounded to 4 digits (recomputed that "
        f"way here: {shown}), so each is {gap} below the exact loss.",
        "unigram",
        (*RUN_BUG, ("remove", "un"), ("step", str(m2.number))),
    )


def hu_note() -> Note:
    freq = dict(seed_rows(load("toy:run-bug"), "strict"))
    total = sum(freq.values())
    hug_pug = dict(seed_rows(load("toy:hug-pug"), "strict"))
    p_hu, p_su = Fraction(freq.get("hu", 0), total), Fraction(freq["su"], total)
    return Note(
        "001-hu",
        "001 gives the probability of hu, which run/bug/fun/sun never contains",
        SLIDES,
        "Unigram example, the slide with the token frequencies",
        (
            Figure(
                "P(hu) on run, bug, fun, sun",
                "15/155",
                f"{p_hu} (no word contains hu)",
                p_hu,
                526,
                r"\frac{15}{155}",
            ),
            Figure(
                "P(su), the next slide's example",
                "10/155",
                f"{freq['su']}/{total} ≈ {float(p_su):.4f}",
                p_su,
                543,
                r"\frac{10}{155}",
            ),
        ),
        f"The frequencies of run/bug/fun/sun add up to {total}, but hu occurs in none of "
        f"its words; 15 is hu's frequency in the hug/pug example of 004 and the Hugging "
        f"Face course (computed: {hug_pug['hu']}), so the sentence looks carried over.",
        "unigram",
        (*RUN_BUG, ("step", "1")),
    )


def bag_note() -> Note:
    merges = 3  # the slides encode with their three merges: at, ag, cat
    model = model_from_trace(trace_bpe(load("toy:cat-bat"), merges=merges, marker="none"))
    bag, bags = (tuple(word.final) for word in segment(model, "bag bags").words)
    return Note(
        "001-bag-bags",
        "001 announces bag and tokenizes bags",
        SLIDES,
        "BPE, the slide 'BPE Algorithm' on tokenizing with the learned merges",
        (
            Figure(
                "the word announced",
                '"bag"',
                f"bag → {' '.join(bag)}",
                bag,
                205,
                'the word "bag" would be tokenized',
            ),
            Figure("the word tokenized", "bags → b, ag, s", f"bags → {' '.join(bags)}", bags, 207),
        ),
        "The slide names bag, a word of the corpus, but then splits bags, which is not in it; "
        f"the second merge (a, g) applies to both: bag → {' '.join(bag)}, bags → "
        f"{' '.join(bags)}.",
        "bpe",
        (("corpus", "toy:cat-bat"), ("marker", "none"), ("step", str(merges))),
    )


def rounding_caption(corpus: str, slides: float, exact: float) -> str:
    """The /unigram caption on rounding, true for every corpus: only run/bug/fun/sun is
    computed by the 001 slides.

    >>> rounding_caption("toy:hug-pug", 169.764, 169.803)
    'Rounded to 4 digits before multiplying, as the 001 slides do on run/bug/fun/sun, these \
probabilities would give a loss of 169.764; computed exactly, as here, it is 169.803.'
    """
    if corpus == "toy:run-bug":
        return (
            f"The 001 slides round every probability to 4 digits before multiplying, which "
            f"gives a loss of {slides:.3f}; computed exactly, as here, it is {exact:.3f}."
        )
    return (
        f"Rounded to 4 digits before multiplying, as the 001 slides do on run/bug/fun/sun, "
        f"these probabilities would give a loss of {slides:.3f}; computed exactly, as here, "
        f"it is {exact:.3f}."
    )


CAPTION_PIECES = 40  # beyond a toy's removal table the rounded recount costs too much
SHOWN = 6  # pieces the caption names


def removal_caption(corpus: str, step, log_base: str) -> str | None:
    """The caption under a removal table of the textbook variant: the same losses with
    every probability first rounded to 4 digits, as the 001 slides compute them, and
    whether these are the numbers 001 prints (its second removal table). None when
    rounding changes nothing at 3 decimals, or the table is too long to recount.

    >>> m2 = step_of(run_bug(), 2, "m")
    >>> print(removal_caption("toy:run-bug", m2, "10"))
    Rounded to 4 digits before multiplying, as the 001 slides do, these losses would be \
bu 61.155, ug 61.155, ru 63.013, su 67.347, fu 69.205: the numbers of 001's second removal \
table (ru printed 63.0126), each 0.010 below the exact loss shown here.
    """
    if step.segmentations is None or not step.removal or len(step.removal) > CAPTION_PIECES:
        return None
    if any(round(row.prob, DIGITS) == 0 for row in step.vocab):
        return None  # a piece rounded to probability 0: the slides' arithmetic breaks
    slides, exact = slides_removal(step, log_base), dict(step.removal)
    gaps = sorted({round(exact[p] - slides[p], 3) for p in exact})
    if max(abs(g) for g in gaps) < 5e-4:
        return None
    shown = ", ".join(f"{p} {slides[p]:.3f}" for p, _ in step.removal[:SHOWN])
    if len(step.removal) > SHOWN:
        shown += f" (the first {SHOWN} of {len(step.removal)})"
    size = sorted({abs(g) for g in gaps})
    gap = f"{size[0]:.3f}" if len(size) == 1 else f"{size[0]:.3f} to {size[-1]:.3f}"
    printed = {f.label.removeprefix("loss without "): f.printed for f in removal_note().figures}
    if corpus == "toy:run-bug" and printed.keys() == slides.keys():
        same = all(approx(slides[p], text) == text for p, text in printed.items())
        if same:
            return (
                f"Rounded to 4 digits before multiplying, as the 001 slides do, these losses "
                f"would be {shown}: the numbers of 001's second removal table (ru printed "
                f"{printed['ru']}), each {gap} below the exact loss shown here."
            )
    where = "" if corpus == "toy:run-bug" else " on run/bug/fun/sun"
    return (
        f"Rounded to 4 digits before multiplying, as the 001 slides do{where}, "
        f"these losses would be {shown}; the exact losses shown here are {gap} "
        f"{'higher' if gaps[0] > 0 else 'lower' if gaps[-1] < 0 else 'away'}."
    )
