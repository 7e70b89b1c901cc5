"""Sentences that explain a BPE step to a student, generated from the step record.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> trace = trace_bpe(load("toy:low-lower"), merges=4, marker="eow")
>>> text = explain_bpe_step(trace.steps[3], "first")
>>> text.split(";")[0]
'Merge 4: the pair (l, o) occurs 7 times, tied with (o, w)'
>>> text.split(". ")[1]
"The new symbol 'lo' makes the vocabulary 15 symbols; the corpus now has 61 symbols."
"""

from __future__ import annotations

from ..explain import TIE_REASONS, judge, pair_text, tied_text, times
from ..records import Trace
from .records import BpeStart, BpeStep


def explain_bpe_start(start: BpeStart, marker: str) -> str:
    words = len(start.words)
    marker_note = {
        "none": "",
        "eow": " followed by the end-of-word symbol </w>",
        "suffix": ", the last one carrying </w>",
        "sow": ", after the word-start symbol ▁",
    }[marker]
    return (
        f"Before the first merge: each of the {words} distinct words is split into its "
        f"characters{marker_note}. The vocabulary is the {len(start.vocab)} symbols that "
        f"occur; the corpus is {start.corpus_symbols} symbols long."
    )


def explain_bpe_step(step: BpeStep, ties: str) -> str:
    """One or two sentences: which pair, why it won (count, ties), what changed."""
    why = f"Merge {step.number}: the pair {pair_text(step.pair)} occurs {times(step.count)}"
    if step.tied_with:
        why += f", tied with {tied_text(step.tied_with)}; {TIE_REASONS[ties]}."
    else:
        why += ", more than any other pair."
    if step.new_in_vocab:
        what = f" The new symbol '{step.new_symbol}' makes the vocabulary {step.vocab_size} symbols"
    else:
        what = (
            f" The symbol '{step.new_symbol}' was already in the vocabulary, which "
            f"stays at {step.vocab_size} symbols"
        )
    return f"{why}{what}; the corpus now has {step.corpus_symbols} symbols."


def judge_guess(guess: tuple[str, str], step: BpeStep, ties: str) -> tuple[bool, str]:
    """Was the student's predicted pair the one BPE merged next? Say why in a sentence.

    >>> from subtok_core.corpus import load
    >>> from subtok_core.bpe import trace_bpe
    >>> step = trace_bpe(load("toy:cat-bat"), merges=1).steps[0]
    >>> judge_guess(("b", "a"), step, "first")
    (False, 'Not this time: (b, a) occurs 17 times, while (a, t) occurs 20 times.')
    """
    phrases = {(a, b): f"occurs {times(c)}" for a, b, c in step.pair_table}
    phrases.setdefault(step.pair, f"occurs {times(step.count)}")
    return judge(guess, step.pair, step.tied_with, phrases, "is the most frequent pair", ties)


def explain(trace: Trace, i: int) -> str:
    """The sentence for step i of a trace (0: the corpus before the first merge)."""
    if i == 0:
        return explain_bpe_start(trace.start, trace.param("marker"))
    return explain_bpe_step(trace.steps[i - 1], trace.param("ties"))
