"""Vocabulary health: every token of a tokenizer in exactly one category.

- **special**: a control token (``<|endoftext|>``, ``<s>``, ``[INST]``);
- **partial**: its bytes are not valid UTF-8 on their own (part of a character). A few
  of these hold a byte that never occurs in UTF-8 at all (C0, C1, F5-FF: RFC 3629), such
  as Mistral's byte-fallback piece ``<0xF7>``; they are no part of any character, and the
  card says so (``never_in_utf8``), but they are counted here, not in a category of their
  own: like the others, no text on its own spells them;
- **unreachable**: its bytes are valid text, but encoding that text as ordinary text does
  not give exactly this one token;
- **ok**: everything else.

For a tokenizer trained here one more measure, **unused**: tokens the final tokenizer never
produces on its own training corpus (intermediate tokens, as Picky BPE calls them). It
counts tokens of the other categories again, so it is given beside them.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import train_bpe
>>> from subtok_core.vocab.trained import trained_table
>>> wc = load("toy:cat-bat")
>>> model = train_bpe(wc, merges=3, marker="sow")
>>> report = health(trained_table(model), model=model, wc=wc)
>>> report.counts()
{'special': 0, 'partial': 0, 'unreachable': 0, 'ok': 10, 'unused': 3}
>>> [report.table.pieces[k] for k in report.unused]
['a', 'b', 'g']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..corpus import WordCounts
from .table import Table

CATEGORIES = ("special", "partial", "unreachable", "ok")
# bytes no UTF-8 text contains (RFC 3629): C0 and C1 would start overlong characters,
# F5-FF characters beyond U+10FFFF
NEVER_IN_UTF8 = bytes([0xC0, 0xC1, *range(0xF5, 0x100)])
SENTENCES = {
    "special": "A control token the model uses to mark the start or end of a text or a turn; "
    "typing its name in a text does not produce it.",
    "partial": "Its bytes are only part of a character, so it is not text on its own; it "
    "appears only next to the tokens that hold the rest of that character.",
    "never in UTF-8": "It holds a byte that never occurs in UTF-8 (C0, C1, F5-FF): no text "
    "contains this byte, so no text ever produces it. It is counted as partial.",
    "unreachable": "It is valid text, but when the tokenizer meets that text it cuts it into "
    "other tokens, so this token never comes out on its own.",
    "ok": "Encoding its text gives exactly this one token.",
    "unused": "The finished tokenizer never produces it anywhere in its own training corpus: "
    "a step on the way to longer tokens, kept in the vocabulary.",
}
Progress = Callable[[int, int], None] | None


@dataclass(frozen=True, slots=True)
class Health:
    """The category of every token (``category[k]`` for the k-th token of ``table``) and,
    for a tokenizer trained here, the positions of its unused tokens (else None)."""

    table: Table
    category: tuple[str, ...]
    unused: tuple[int, ...] | None

    def counts(self) -> dict[str, int | None]:
        counts: dict[str, int | None] = {c: 0 for c in CATEGORIES}
        for c in self.category:
            counts[c] += 1
        counts["unused"] = None if self.unused is None else len(self.unused)
        return counts

    def positions(self, category: str) -> list[int]:
        """The table positions of the tokens in one category (or the unused ones)."""
        if category == "unused":
            return list(self.unused or ())
        if category not in CATEGORIES:
            raise ValueError(f"Unknown category {category!r}; choose one of "
                             f"{', '.join((*CATEGORIES, 'unused'))}.")  # fmt: skip
        return [k for k, c in enumerate(self.category) if c == category]


def never_in_utf8(data: bytes | None) -> bool:
    """Whether `data` holds a byte that no UTF-8 text contains.

    >>> never_in_utf8(b"\\xf7"), never_in_utf8(b"\\xe2"), never_in_utf8(None)
    (True, False, False)
    """
    return data is not None and any(b in NEVER_IN_UTF8 for b in data)


def category_of(table: Table, k: int) -> str:
    """The category of the k-th token of `table`."""
    data = table.data[k]
    if data is None:
        return "special"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "partial"
    return "ok" if table.encode_alone(k) == (table.ids[k],) else "unreachable"


def health(
    table: Table, progress: Progress = None, model=None, wc: WordCounts | None = None
) -> Health:
    """Every token's category; with the trained `model` and its training words `wc`, the
    unused tokens too. `progress(done, total)` is called every 5,000 tokens."""
    found = []
    for k in range(table.size):
        found.append(category_of(table, k))
        if progress is not None and (k % 5000 == 0 or k == table.size - 1):
            progress(k + 1, table.size)
    unused = None
    if model is not None and wc is not None:
        from .trained import usage

        used = usage(model, wc)
        unused = tuple(k for k, p in enumerate(table.pieces) if not used.get(p) and
                       table.data[k] is not None)  # fmt: skip
    return Health(table, tuple(found), unused)
