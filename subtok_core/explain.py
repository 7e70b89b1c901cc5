"""Sentences that explain a step to a student, generated from the step record.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> trace = trace_bpe(load("toy:low-lower"), merges=4, marker="eow")
>>> text = explain_bpe_step(trace.steps[3], "first")
>>> text.split(";")[0]
'Merge 4: the pair (l, o) occurs 7 times, tied with (o, w)'
>>> text.split(". ")[1]
"The new symbol 'lo' makes the vocabulary 15 symbols; the corpus now has 61 symbols."

WordPiece steps are explained by their score and its three counts:

>>> from subtok_core.wordpiece import trace_wordpiece
>>> step = trace_wordpiece(load("toy:sunflower"), merges=1).steps[0]
>>> for sentence in explain_wordpiece_step(step, "first").split(". "):
...     print(sentence)
Merge 1: (s, ##u) scores 1/3 = 3 / (3 x 3): the pair occurs 3 times, s 3 times and ##u 3 times
No other pair scores as high, so 'su' joins the vocabulary (15 symbols)
BPE would merge (##l, ##o) instead: it is the most frequent pair (9 times) but scores only 1/9.
"""

from __future__ import annotations

from .bpe import BpeStart, BpeStep
from .wordpiece import WordPieceStart, WordPieceStep, WordPieceWordTrace, fraction_text

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


def _judge(guess, chosen, tied, phrases: dict, best: str, ties: str) -> tuple[bool, str]:
    """The verdict on a predicted pair, from what each pair "occurs"/"scores" at this step."""
    said = phrases[chosen]
    if guess == chosen:
        if tied:
            return True, (
                f"Right: {pair_text(guess)} {said}, tied with {_tied(tied)}, and "
                f"{TIE_REASONS[ties]}."
            )
        return True, f"Right: {pair_text(guess)} {best} ({said})."
    if guess in tied:
        return False, (
            f"Close: {pair_text(guess)} also {said}, but {TIE_REASONS[ties]}, which is "
            f"{pair_text(chosen)}."
        )
    seen = phrases.get(guess, "is not among the best pairs")
    return False, f"Not this time: {pair_text(guess)} {seen}, while {pair_text(chosen)} {said}."


def judge_guess(guess: tuple[str, str], step: BpeStep, ties: str) -> tuple[bool, str]:
    """Was the student's predicted pair the one BPE merged next? Say why in a sentence.

    >>> from subtok_core.corpus import load
    >>> from subtok_core.bpe import trace_bpe
    >>> step = trace_bpe(load("toy:cat-bat"), merges=1).steps[0]
    >>> judge_guess(("b", "a"), step, "first")
    (False, 'Not this time: (b, a) occurs 17 times, while (a, t) occurs 20 times.')
    """
    phrases = {(a, b): f"occurs {_times(c)}" for a, b, c in step.pair_table}
    phrases.setdefault(step.pair, f"occurs {_times(step.count)}")
    return _judge(guess, step.pair, step.tied_with, phrases, "is the most frequent pair", ties)


def judge_wordpiece_guess(
    guess: tuple[str, str], step: WordPieceStep, ties: str
) -> tuple[bool, str]:
    """Was the predicted pair the one WordPiece merged next? Say why, with exact scores.

    >>> from subtok_core.corpus import load
    >>> from subtok_core.wordpiece import trace_wordpiece
    >>> step = trace_wordpiece(load("toy:sunflower"), merges=1).steps[0]
    >>> judge_wordpiece_guess(("f", "##l"), step, "first")[1]
    'Not this time: (f, ##l) scores 1/9, while (s, ##u) scores 1/3.'
    """
    phrases = {
        (row.left, row.right): f"scores {fraction_text(row.score_fraction)}"
        for row in step.pair_table
    }
    phrases.setdefault(step.pair, f"scores {fraction_text(step.score_fraction)}")
    return _judge(guess, step.pair, step.tied_with, phrases, "has the highest score", ties)


# --- WordPiece ------------------------------------------------------------------------


def explain_wordpiece_start(start: WordPieceStart, prefix: str) -> str:
    """The initial split and vocabulary in two sentences."""
    specials = len(start.vocab) - len(start.alphabet)
    extra = f", plus {specials} special tokens" if specials else ""
    return (
        f"Before the first merge: each of the {len(start.words)} distinct words is split into "
        f"its characters, every character after the first carrying the prefix {prefix}. The "
        f"vocabulary is the {len(start.alphabet)} symbols that occur{extra}; the corpus is "
        f"{start.corpus_symbols} symbols long."
    )


def explain_wordpiece_step(step: WordPieceStep, ties: str) -> str:
    """Which pair, its exact score from its three counts, why it won, and, when the most
    frequent pair is another one, what BPE would merge instead (see the module docstring)."""
    a, b = step.pair
    score = fraction_text(step.score_fraction)
    why = (
        f"Merge {step.number}: {pair_text(step.pair)} scores {score} = {step.pair_count} / "
        f"({step.left_count} x {step.right_count}): the pair occurs {_times(step.pair_count)}, "
        f"{a} {_times(step.left_count)} and {b} {_times(step.right_count)}."
    )
    if step.tied_with:
        won = f" It ties with {_tied(step.tied_with)} at {score}; {TIE_REASONS[ties]}"
    else:
        won = " No other pair scores as high"
    if step.new_in_vocab:
        won += f", so '{step.new_symbol}' joins the vocabulary ({step.vocab_size} symbols)."
    else:
        won += f"; '{step.new_symbol}' was in the vocabulary already ({step.vocab_size} symbols)."
    return why + won + _bpe_contrast(step)


def _bpe_contrast(step: WordPieceStep) -> str:
    """A sentence on the most frequent pair, when it is not the pair WordPiece merges."""
    if step.bpe_pair == step.pair:
        return ""
    text = (
        f" BPE would merge {pair_text(step.bpe_pair)} instead: it is the most frequent pair "
        f"({_times(step.bpe_count)})"
    )
    scores = {(row.left, row.right): row.score_fraction for row in step.pair_table}
    if step.bpe_pair in scores:  # compact tables may not list it
        text += f" but scores only {fraction_text(scores[step.bpe_pair])}"
    return text + "."


def explain_wordpiece_word(trace: WordPieceWordTrace) -> str:
    """How longest match first found the pieces of one word, in a sentence.

    >>> from subtok_core.wordpiece import WordPieceModel, encode_word
    >>> model = WordPieceModel(("f", "##u", "##s", "##n", "##ed"), ())
    >>> explain_wordpiece_word(encode_word(model, "fused"))
    'fused: f, ##u, ##s, ##ed, each the longest match in the vocabulary (13 tries).'
    >>> trace = encode_word(model, "funny")
    >>> explain_wordpiece_word(trace) == "funny: " + trace.note
    True
    >>> trace.note.split(", so ")[1]
    'the whole word becomes [UNK].'
    """
    if trace.unknown:
        return f"{trace.word}: {trace.note}"
    tries = len(trace.attempts)
    return (
        f"{trace.word}: {', '.join(trace.pieces)}, each the longest match in the vocabulary "
        f"({tries} {'try' if tries == 1 else 'tries'})."
    )
