"""Sentences shared by the merge lessons (BPE, WordPiece): pairs, counts, ties, verdicts.

>>> pair_text(("l", "o")), times(1), times(7)
('(l, o)', 'once', '7 times')
>>> tied_text((("a", "b"), ("c", "d")), limit=1)
'(a, b) and 1 more'
"""

from __future__ import annotations

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


def times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def tied_text(pairs: tuple[tuple[str, str], ...], limit: int = 4) -> str:
    shown = ", ".join(pair_text(p) for p in pairs[:limit])
    more = len(pairs) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def judge(guess, chosen, tied, phrases: dict, best: str, ties: str) -> tuple[bool, str]:
    """The verdict on a predicted pair, from what each pair "occurs"/"scores" at this step."""
    said = phrases[chosen]
    if guess == chosen:
        if tied:
            return True, (
                f"Right: {pair_text(guess)} {said}, tied with {tied_text(tied)}, and "
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
