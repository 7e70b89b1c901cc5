"""Sentences that explain a WordPiece step or an encoded word, from the records.

WordPiece steps are explained by their score and its three counts:

>>> from subtok_core.corpus import load
>>> from subtok_core.wordpiece import trace_wordpiece
>>> step = trace_wordpiece(load("toy:sunflower"), merges=1).steps[0]
>>> for sentence in explain_wordpiece_step(step, "first").split(". "):
...     print(sentence)
Merge 1: (s, ##u) scores 1/3 = 3 / (3 x 3): the pair occurs 3 times, s 3 times and ##u 3 times
No other pair scores as high, so 'su' joins the vocabulary (15 symbols)
BPE would merge (##l, ##o) instead: it is the most frequent pair (9 times) but scores only 1/9.
"""

from __future__ import annotations

from typing import NamedTuple

from ..explain import TIE_REASONS, judge, pair_text, tied_text, times
from ..records import Trace
from .records import WordPieceStart, WordPieceStep, WordPieceWordTrace, fraction_text


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
    return judge(guess, step.pair, step.tied_with, phrases, "has the highest score", ties)


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
        f"({step.left_count} x {step.right_count}): the pair occurs {times(step.pair_count)}, "
        f"{a} {times(step.left_count)} and {b} {times(step.right_count)}."
    )
    if step.tied_with:
        won = f" It ties with {tied_text(step.tied_with)} at {score}; {TIE_REASONS[ties]}"
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
        f"({times(step.bpe_count)})"
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


class Tries(NamedTuple):
    """Longest match at one position of a word: the candidates tried in order (longest
    first) with whether each is in the vocabulary; the last one found is kept (none found:
    the whole word becomes [UNK])."""

    start: int  # the character the candidates start at
    rest: str  # the word from there on
    tried: tuple[tuple[str, bool], ...]  # (candidate, found), longest first

    @property
    def kept(self) -> str | None:
        return next((piece for piece, found in self.tried if found), None)


def tries_by_position(trace: WordPieceWordTrace) -> list[Tries]:
    """A word's longest-match attempts grouped by the position they start at, for a table
    with one row per piece found (see ``encode_word``).

    >>> from subtok_core.wordpiece import WordPieceModel, encode_word
    >>> model = WordPieceModel(("f", "##u", "##s", "##ed"), ())
    >>> for row in tries_by_position(encode_word(model, "fused")):
    ...     print(row.start, row.rest, [p for p, found in row.tried if not found], row.kept)
    0 fused ['fused', 'fuse', 'fus', 'fu'] f
    1 used ['##used', '##use', '##us'] ##u
    2 sed ['##sed', '##se'] ##s
    3 ed [] ##ed
    """
    rows: list[Tries] = []
    for attempt in trace.attempts:
        if not rows or rows[-1].start != attempt.start:
            rows.append(Tries(attempt.start, trace.word[attempt.start :], ()))
        last = rows[-1]
        rows[-1] = last._replace(tried=last.tried + ((attempt.piece, attempt.found),))
    return rows


def explain(trace: Trace, i: int) -> str:
    """The sentence for step i of a trace (0: the corpus before the first merge)."""
    if i == 0:
        return explain_wordpiece_start(trace.start, trace.param("prefix"))
    return explain_wordpiece_step(trace.steps[i - 1], trace.param("ties"))
