"""Sentences that explain a Unigram step to a student: each step record carries its own.

>>> from subtok_core.corpus import load
>>> from subtok_core.unigram.train import trace_unigram
>>> trace = trace_unigram(load("toy:run-bug"), seed="strict", vocab_size=12, log_base="10")
>>> explain(trace, 0)
'Seed: every strict substring of a word (001), 13 pieces.'
>>> explain(trace, 2).split(";")[0]  # the textbook prices removals: it has no M-step
'The loss without each of 6 pieces (probabilities not renormalized)'
>>> explain(trace, 3).split(";")[0]
'Pruned ru (smallest increase of the loss)'
>>> explain(trace, 3).split(";")[1].split(" (")[0]  # every removal costs +0.000 here
' 5 other pieces tie with them at +0.000'
"""

from __future__ import annotations

from ..records import Trace


def explain(trace: Trace, i: int) -> str:
    """The sentence for step i (0: how the seed was made)."""
    return trace.start.seed if i == 0 else trace.steps[i - 1].note
