"""Sentences on a byte-level BPE step, with bytes shown as a student reads them.

>>> from subtok_core.bytebpe.train import trace_bytebpe
>>> trace = trace_bytebpe(["the cat, the hat 😀"], merges=3)
>>> print(explain(trace, 0))  # doctest: +NORMALIZE_WHITESPACE
Before the first merge: GPT-2's pattern (also Hugging Face's ByteLevel pre-tokenizer) cut
the text into 6 distinct chunks, each written as its UTF-8 bytes. The vocabulary is the
256 byte values (11 of them occur here); the corpus is 21 bytes long.
>>> print(explain(trace, 1))  # doctest: +NORMALIZE_WHITESPACE
Merge 1: the pair ('t', 'h') occurs 2 times, tied with ('h', 'e') and ('a', 't'); the tie
rule 'first' takes the pair that appears first in the corpus. The new symbol 'th' (2 bytes)
makes the vocabulary 257 symbols; the corpus now has 19 symbols.

Hand count: the chunks are "the", " cat", ",", " the", " hat", " 😀" (3 + 4 + 1 + 4 + 4 + 5
= 21 bytes; t h e c a, space, comma and the emoji's 4 bytes are 11 byte values); (t,h),
(h,e) and (a,t) occur twice, every other pair once, and (t,h) comes first.
"""

from __future__ import annotations

from ..explain import TIE_REASONS, judge, times
from ..records import Trace
from .patterns import TITLES
from .symbols import show, to_bytes

BYTE_TIE_REASONS = {
    **TIE_REASONS,
    "lex": "the tie rule 'lex' takes the pair with the smallest bytes",
    "tokenizers": (
        "the tie rule 'tokenizers' takes the pair of the smallest ids (bytes in the order "
        "of their GPT-2 letters, then merged symbols in the order they were made), as "
        "Hugging Face tokenizers does"
    ),
}


def symbol_text(symbol: str) -> str:
    """A symbol (GPT-2 letters) quoted: the letters, and how it reads where that differs.

    >>> symbol_text("Ġthe"), symbol_text("the")
    ("'Ġthe' (shown ' the')", "'the'")
    """
    shown = show(symbol, "hex")
    return f"'{symbol}'" if shown == symbol else f"'{symbol}' (shown '{shown}')"


def pair_words(pair: tuple[str, str]) -> str:
    return f"('{pair[0]}', '{pair[1]}')" + _shown_pair(pair)


def _shown_pair(pair: tuple[str, str]) -> str:
    shown = show(pair[0] + pair[1], "hex")
    return "" if shown == pair[0] + pair[1] else f" (shown '{shown}')"


def explain_start(trace: Trace) -> str:
    start = trace.start
    used = len({b for chunk in start.words for b in chunk.encode("utf-8")})
    return (
        f"Before the first merge: {TITLES[trace.param('pattern')]} cut the text into "
        f"{len(start.words)} distinct chunks, each written as its UTF-8 bytes. The "
        f"vocabulary is the 256 byte values ({used} of them occur here); the corpus is "
        f"{start.corpus_symbols} bytes long."
    )


def explain_step(step, ties: str) -> str:
    """Which pair, why it won (count, ties), what changed."""
    why = f"Merge {step.number}: the pair {pair_words(step.pair)} occurs {times(step.count)}"
    if step.tied_with:
        shown = [pair_words(p) for p in step.tied_with[:4]]
        more = len(step.tied_with) - 4
        tied = (", ".join(shown[:-1]) + " and " + shown[-1]) if len(shown) > 1 else shown[0]
        tied += f" and {more} more" if more > 0 else ""
        why += f", tied with {tied}; {BYTE_TIE_REASONS[ties]}."
    else:
        why += ", more than any other pair."
    size = len(to_bytes(step.new_symbol))
    new = f"{symbol_text(step.new_symbol)} ({size} bytes)"
    if step.new_in_vocab:
        what = f" The new symbol {new} makes the vocabulary {step.vocab_size} symbols"
    else:
        what = f" The symbol {new} was already in the vocabulary, which stays at {step.vocab_size}"
    return f"{why}{what}; the corpus now has {step.corpus_symbols} symbols."


def judge_guess(guess: tuple[str, str], step, ties: str) -> tuple[bool, str]:
    """Was the predicted pair (GPT-2 letters) the one merged next? Pairs are written as
    they read (hex style), quoted so that a space shows.

    >>> from subtok_core.bytebpe.train import trace_bytebpe
    >>> step = trace_bytebpe(["ba ab"], merges=1).steps[0]  # (b,a), (Ġ,a), (a,b): once each
    >>> judge_guess(("Ġ", "a"), step, "first")[1]  # doctest: +ELLIPSIS
    "Close: (' ', 'a') also occurs once, but the tie rule 'first' takes ..., which is ('b', 'a')."
    """

    def shown(pair):
        return (f"'{show(pair[0], 'hex')}'", f"'{show(pair[1], 'hex')}'")

    phrases = {shown((a, b)): f"occurs {times(c)}" for a, b, c in step.pair_table}
    phrases.setdefault(shown(step.pair), f"occurs {times(step.count)}")
    tied = tuple(shown(p) for p in step.tied_with)
    return judge(shown(guess), shown(step.pair), tied, phrases, "is the most frequent pair", ties)


def explain(trace: Trace, i: int) -> str:
    """The sentence for step i of a trace (0: the chunks before the first merge)."""
    if i == 0:
        return explain_start(trace)
    return explain_step(trace.steps[i - 1], trace.param("ties"))
