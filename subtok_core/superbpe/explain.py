"""The sentence of each step, in the papers' terms: for SuperBPE the transition point and
the words a supermerge joins; for BoundlessBPE the two candidates that compete for the
step.

>>> import textwrap
>>> from subtok_core.superbpe.steps import trace_superbpe
>>> trace = trace_superbpe(["the cat the cat", "the cat"], merges=6, supermerges=1)
>>> print(textwrap.fill(explain(trace, 7), 88))
Merge 7 is a supermerge, after the transition point (6 ordinary merges): "the" and "
cat" stand side by side 2 times, the most of any pair: "the cat" is one token of 2
words.
"""

from __future__ import annotations

from ..bytebpe.symbols import show
from ..records import Trace
from .merging import TIE_TITLES
from .records import SUPER


def quoted(symbol: str) -> str:
    return '"' + show(symbol, "hex") + '"'


def pair_label(pair: tuple[str, str]) -> str:
    return f"{quoted(pair[0])} + {quoted(pair[1])}"


def _ties(step, ties: str) -> str:
    if not step.tied_with:
        return ""
    n = len(step.tied_with)
    others = pair_label(step.tied_with[0]) if n == 1 else f"{n} other pairs"
    return f" It ties with {others}; the tie rule ({TIE_TITLES[ties]}) picks it."


def _cap(trace: Trace) -> str:
    most = trace.param("max_words")
    return f", each joining at most {most} words, as the paper's rule" if most else ""


def explain_start(trace: Trace) -> str:
    lines = len(trace.start.words)
    merges = trace.param("merges")
    head = (
        f"Before the first merge: {lines} distinct lines, {trace.start.corpus_symbols:,} "
        "bytes in all, each pre-token its UTF-8 bytes (256 base tokens)."
    )
    if trace.param("supermerges") is not None:
        return head + (
            f" SuperBPE makes {merges} ordinary merges first, inside pre-tokens; that is "
            f"the transition point, after which {trace.param('supermerges')} supermerges may "
            "join neighbouring pre-tokens that are each one token and hold a letter (so "
            "punctuation such as a colon never ends one)" + _cap(trace) + "."
        )
    return head + (
        f" BoundlessBPE has a budget of {merges} merges: each step takes the next ordinary "
        "merge, unless the best supermerge occurs more often."
    )


def explain(trace: Trace, i: int) -> str:
    """Step i's sentence (0: the state before the first merge)."""
    if i == 0:
        return explain_start(trace)
    step = trace.steps[i - 1]
    ties = trace.param("ties")
    new = quoted(step.new_symbol)
    a, b = map(quoted, step.pair)
    point = trace.param("merges")
    superbpe = trace.param("supermerges") is not None
    if superbpe and step.stage == SUPER:
        return (
            f"Merge {i} is a supermerge, after the transition point ({point} ordinary "
            f"merges): {a} and {b} stand side by side {step.count} times, the most of any "
            f"pair: {new} is one token of {step.words} words." + _ties(step, ties)
        )
    if superbpe:
        return (
            f"Merge {i} is ordinary, before the transition point (merge {point}): {a} + {b} "
            f"occurs {step.count} times inside pre-tokens, the most of any pair, so {new} "
            "joins the vocabulary." + _ties(step, ties)
        )
    if step.stage == SUPER:
        lost = "no ordinary merge is left"
        if step.rival is not None:
            rival, times = step.rival
            lost = f"the next ordinary merge, {pair_label(rival)}, occurred {times} times"
        return (
            f"Merge {i} is a supermerge: {a} and {b} stand side by side {step.count} times "
            f"and {lost}, so the supermerge takes this step of the budget: {new} joins "
            f"{step.words} words." + _ties(step, ties)
        )
    if step.rival is None:
        why = "no supermerge is possible yet"
    else:
        why = (
            f"the best supermerge, {pair_label(step.rival[0])}, occurs {step.rival[1]} times, "
            f"not more than {step.count} (a tie goes to the ordinary merge)"
        )
    return (
        f"Merge {i} is the next ordinary merge, {a} + {b}, which occurred {step.count} "
        f"times when ordinary BPE learned it; {why}, so {new} joins the vocabulary."
    )


def judge_guess(guess: tuple[str, str], step, ties: str) -> tuple[bool, str]:
    """Whether `guess` is the pair merged at `step`, and why."""
    if tuple(guess) == tuple(step.pair):
        return True, f"Right: {pair_label(step.pair)} merges next ({step.count} times)."
    counts = {(a, b): n for a, b, n in step.pair_table}
    said = f"{pair_label(guess)} occurs {counts.get(tuple(guess), 0)} times; "
    return False, said + f"{pair_label(step.pair)} merges next ({step.count} times)."
