"""Sentences on a Picky BPE step, in the paper's terms: IoS per part, the threshold τ.

>>> from subtok_core.corpus import load
>>> from subtok_core.picky.train import trace_picky
>>> trace = trace_picky(load("toy:low-lower"), vocab_size=25, threshold=0.9)
>>> print(explain(trace, 25))  # doctest: +NORMALIZE_WHITESPACE
Merge 25: the pair (▁low, er) occurs 2 times, more than any other pair, and makes ▁lower.
IoS of ▁low = f(▁lower) / f(▁low) = 2/7 = 0.29, not above τ = 0.9: ▁low stays. IoS of er =
2/2 = 1.00 > τ = 0.9: er is removed (the next step). The vocabulary has 16 tokens.
"""

from __future__ import annotations

from ..explain import pair_text, tied_text, times
from ..records import Trace
from .records import MERGE, PartCheck, PickyStart, PickyStep

TIE_RULE = "first pair seen"
TIE_REASON = (
    "the reference's rule takes the pair seen first: the one that entered the pair table "
    "first (at the start, words in order, left to right; later, as merges and splits make them)"
)


def ios_text(check: PartCheck, new: str, threshold: float, first: bool = True) -> str:
    """One part's check: its IoS as a fraction and a number, against τ."""
    ratio = f"{check.merged}/{check.before} = {check.ios:.2f}"
    said = (
        f"IoS of {check.part} = f({new}) / f({check.part}) = {ratio}"
        if first
        else (f"IoS of {check.part} = {ratio}")
    )
    if check.removed:
        return f"{said} > τ = {threshold:g}: {check.part} is removed (the next step)."
    if check.atomic and check.ios > threshold:
        return f"{said} > τ = {threshold:g}, but a single character is never removed."
    return f"{said}, not above τ = {threshold:g}: {check.part} stays."


def explain_start(start: PickyStart) -> str:
    return (
        f"Before the first merge: each of the {len(start.words)} distinct words is split into "
        f"its characters after the word-start symbol ▁. The vocabulary is the "
        f"{len(start.vocab)} symbols that occur; the corpus is {start.corpus_symbols} "
        "symbols long."
    )


def explain_step(step: PickyStep, threshold: float) -> str:
    """A merge: the pair, why it won, what it made, then each part's IoS against τ. A
    split: the token removed, its IoS, what it falls back to."""
    if step.kind == MERGE:
        why = f"Merge {step.number}: the pair {pair_text(step.pair)} occurs {times(step.count)}"
        if step.tied_with:
            why += f", tied with {tied_text(step.tied_with)}; {TIE_REASON}, and"
        else:
            why += ", more than any other pair, and"
        made = f" makes {step.symbol}" + (" again (it had been removed)." if step.restored else ".")
        checks = " ".join(
            ios_text(c, step.symbol, threshold, first=n == 0) for n, c in enumerate(step.checks)
        )
        return f"{why}{made} {checks} The vocabulary has {step.vocab_size} tokens."
    (check,) = step.checks
    left = "none of its occurrences is left; it"
    if step.count == 1:
        left = "its one occurrence left"
    elif step.count > 1:
        left = f"each of its {step.count} occurrences left"
    return (
        f"Split {step.number}: {step.symbol} is removed, since merge {step.after} took "
        f"{check.merged} of its {check.before} occurrences (IoS {check.ios:.2f} > τ = "
        f"{threshold:g}); {left} falls back to {' + '.join(step.parts)}. The vocabulary has "
        f"{step.vocab_size} tokens; a removed token can come back if a merge makes it again."
    )


def explain(trace: Trace, i: int) -> str:
    """The sentence for step i (0: the corpus before the first event)."""
    if i == 0:
        return explain_start(trace.start)
    return explain_step(trace.steps[i - 1], trace.param("threshold"))


def judge_guess(guess: tuple[str, str], step: PickyStep) -> tuple[bool, str]:
    """Was the predicted pair the one merged at `step`? Why, in a sentence."""
    counts = {(a, b): n for a, b, n in step.pair_table}
    said = f"{pair_text(step.pair)} occurs {times(step.count)}"
    if guess == step.pair:
        if step.tied_with:
            return True, f"Right: {said}, tied with {tied_text(step.tied_with)}, and {TIE_REASON}."
        return True, f"Right: {said}, more than any other pair."
    if guess in step.tied_with:
        return (
            False,
            f"Close: {pair_text(guess)} also occurs {times(step.count)}, but "
            f"{TIE_REASON}: {pair_text(step.pair)}.",
        )
    seen = f"occurs {times(counts[guess])}" if guess in counts else "is not among the best pairs"
    return False, f"Not this time: {pair_text(guess)} {seen}, while {said}."


def judge_removal(guess: str, steps: tuple[PickyStep, ...]) -> tuple[bool, str]:
    """Was the predicted part the one removed? `steps`: the splits after one merge."""
    removed = [s.symbol for s in steps]
    if guess in removed:
        return (
            True,
            f"Right: {guess} is removed ({steps[removed.index(guess)].checks[0].ios:.2f} > τ).",
        )
    return False, f"Not this time: {', '.join(removed) or 'nothing'} is removed, not {guess}."
