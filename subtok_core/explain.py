"""Sentences that explain a step to a student, generated from the step record.

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

from .bpe import BpeStart, BpeStep

TIE_REASONS = {
    "first": "the tie rule 'first' takes the pair that appears first in the corpus",
    "lex": "the tie rule 'lex' takes the alphabetically smallest pair",
    "tokenizers": (
        "the tie rule 'tokenizers' takes the pair whose symbols were created first, as "
        "Hugging Face tokenizers does"
    ),
}


def pair_text(pair: tuple[str, str]) -> str:
    return f"({pair[0]}, {pair[1]})"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _tied(pairs: tuple[tuple[str, str], ...], limit: int = 4) -> str:
    shown = ", ".join(pair_text(p) for p in pairs[:limit])
    more = len(pairs) - limit
    return shown + (f" and {more} more" if more > 0 else "")


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
    why = f"Merge {step.number}: the pair {pair_text(step.pair)} occurs {_times(step.count)}"
    if step.tied_with:
        why += f", tied with {_tied(step.tied_with)}; {TIE_REASONS[ties]}."
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
    """Was the student's predicted pair the one merged next? Say why in a sentence."""
    table = {(a, b): c for a, b, c in step.pair_table}
    if guess == step.pair:
        if step.tied_with:
            return True, (
                f"Right: {pair_text(guess)} ties at {step.count} with "
                f"{_tied(step.tied_with)}, and {TIE_REASONS[ties]}."
            )
        return True, f"Right: {pair_text(guess)} is the most frequent pair ({step.count})."
    if guess in step.tied_with:
        return False, (
            f"Close: {pair_text(guess)} also occurs {_times(step.count)}, but "
            f"{TIE_REASONS[ties]}, which is {pair_text(step.pair)}."
        )
    count = table.get(guess)
    seen = f"occurs {_times(count)}" if count else "is not among the most frequent pairs"
    return False, (
        f"Not this time: {pair_text(guess)} {seen}, while {pair_text(step.pair)} "
        f"occurs {_times(step.count)}."
    )
