"""Sentences on a parity-aware BPE step, in the paper's terms: each language's length on
its dev set, the longest served, its own most frequent pair merged.

>>> from subtok_core.parity.trace import load, trace_parity
>>> dev = {"en": "low newest widest", "xx": "hug pun bun"}
>>> trace = trace_parity(load("en=toy:low-lower xx=toy:hug-pug"), dev, merges=8)
>>> print(explain(trace, 6))  # doctest: +NORMALIZE_WHITESPACE
Merge 6 serves xx: its dev set is the longest, 9 tokens against en's 8. In xx's training
words the pair (u, g) occurs 20 times, more than any other pair, and it makes ug, merged in
every language. After it the dev sets are en 8, xx 8 tokens (16 in all).
>>> print(explain(trace, 5))  # doctest: +NORMALIZE_WHITESPACE
Merge 5 serves en: its dev set is among the longest, 9 tokens as xx; a tie of lengths goes
to the language listed first, en (the reference's rule). In en's training words the pair
(w, est) occurs 6 times, tied with (n, e), (e, w); a tie goes to the greater pair, so
(w, est), and it makes west, merged in every language. After it the dev sets are en 8,
xx 9 tokens (17 in all).
"""

from __future__ import annotations

from ..explain import pair_text, tied_text, times
from ..records import Trace
from .records import ParityRecord

TIE_RULE = "greater pair"
TIE_REASON = "a tie goes to the greater pair"  # the authors' rule, as CS336's
LENGTH_TIE = "a tie of lengths goes to the language listed first"


def lengths_text(languages, lengths) -> str:
    said = ", ".join(f"{lang} {n}" for lang, n in zip(languages, lengths))
    return f"{said} tokens ({sum(lengths)} in all)"


def why_language(languages, step: ParityRecord) -> str:
    """Why the step served its language: its dev length against the others'."""
    k = languages.index(step.language)
    mine = step.dev_before[k]
    others = [(lang, n) for lang, n in zip(languages, step.dev_before) if lang != step.language]
    tied = [lang for lang, n in others if n == mine]
    against = ", ".join(f"{lang}'s {n}" for lang, n in others)
    if tied:
        return (
            f"its dev set is among the longest, {mine} tokens as {', '.join(tied)}; "
            f"{LENGTH_TIE}, {step.language} (the reference's rule)"
        )
    return f"its dev set is the longest, {mine} tokens against {against}"


def explain_step(trace: Trace, step: ParityRecord) -> str:
    languages = trace.start.languages
    if step.language is None:
        head = (
            f"Merge {step.number} is global (one of the first "
            f"{trace.param('global_merges')}): chosen on every language's counts together, "
            "as ordinary BPE. The pair"
        )
    else:
        head = (
            f"Merge {step.number} serves {step.language}: "
            f"{why_language(languages, step)}. In {step.language}'s training words the pair"
        )
    said = f"{head} {pair_text(step.pair)} occurs {times(step.count)}"
    if step.tied_with:
        said += f", tied with {tied_text(step.tied_with)}; {TIE_REASON}, so {pair_text(step.pair)},"
    else:
        said += ", more than any other pair,"
    return (
        f"{said} and it makes {step.new_symbol}, merged in every language. After it the dev "
        f"sets are {lengths_text(languages, step.dev_after)}."
    )


def explain(trace: Trace, i: int) -> str:
    """The sentence for step i (0: before the first merge)."""
    start = trace.start
    if i == 0:
        return (
            f"Before the first merge every word is its characters. The dev sets are "
            f"{lengths_text(start.languages, start.dev_lengths)}: each merge goes to the "
            "language whose dev set is then longest, and is that language's most frequent "
            "pair in its own training words."
        )
    return explain_step(trace, trace.steps[i - 1])


def judge_guess(guess: tuple[str, str], step: ParityRecord) -> tuple[bool, str]:
    """Was the predicted pair the one merged at `step`? Why, in a sentence."""
    who = step.language or "every language together"
    said = f"{pair_text(step.pair)} occurs {times(step.count)} in {who}'s words"
    if guess == step.pair:
        return True, f"Right: {who} is served, and {said}."
    if guess in step.tied_with:
        return False, f"Close: {pair_text(guess)} ties with it, but {TIE_REASON}: {said}."
    counts = {(a, b): n for a, b, n in step.pair_table}
    seen = f"occurs {times(counts[guess])}" if guess in counts else "is not among its best"
    return False, f"Not this time: {who} is served; {pair_text(guess)} {seen}, while {said}."
