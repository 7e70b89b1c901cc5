"""Encode text with a SuperBPE or BoundlessBPE model, as the reference's encoder does:
cut the text into pre-tokens, apply the ordinary merges by rank inside each, then, over
each run of neighbouring pre-tokens that became one token and hold a letter, apply the
supermerges by rank.

>>> from subtok_core.superbpe.records import SuperModel
>>> model = SuperModel("superbpe", (("t", "h"), ("th", "e"), ("Ġ", "a"), ("the", "Ġa")),
...                    (False, False, False, True), (), "o200k")
>>> segment(model, "the a, the b").pieces  # " the" is no token: Ġ the; " b" is Ġ b
['theĠa', ',', 'Ġ', 'the', 'Ġ', 'b']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bytebpe.symbols import show, to_bytes, to_letters
from ..pretrained.base import char_spans
from ..records import SegmentTrace, Span
from .merging import apply_by_rank
from .presplit import joinable, split
from .records import Pair, SuperModel


class Encoder:
    """The merges of a model (or of its first steps) ready to encode lines."""

    def __init__(self, merges: Sequence[Pair], supers: Sequence[bool], pattern: str):
        self.pattern = pattern
        self.ordinary: dict[tuple[bytes, bytes], int] = {}
        self.super: dict[tuple[bytes, bytes], int] = {}
        for rank, (pair, is_super) in enumerate(zip(merges, supers, strict=True)):
            table = self.super if is_super else self.ordinary
            table.setdefault((to_bytes(pair[0]), to_bytes(pair[1])), rank)
        self._words: dict[str, list[bytes]] = {}

    def word(self, pretoken: str) -> list[bytes]:
        """A pre-token's tokens after the ordinary merges (kept: pre-tokens repeat)."""
        if pretoken not in self._words:
            data = pretoken.encode("utf-8")
            self._words[pretoken] = apply_by_rank(
                [data[i : i + 1] for i in range(len(data))], self.ordinary
            )
        return self._words[pretoken]

    def groups(self, line: str) -> list[tuple[list[str], list[bytes]]]:
        """The line as groups: (its pre-tokens, their tokens); a run of joinable one-token
        pre-tokens is one group, with the supermerges applied; any other pre-token alone."""
        out: list[tuple[list[str], list[bytes]]] = []
        run: list[str] = []

        def close() -> None:
            if run:
                out.append((list(run), apply_by_rank([self.word(p)[0] for p in run], self.super)))
                run.clear()

        for pretoken in split(line, self.pattern):
            tokens = self.word(pretoken)
            if len(tokens) == 1 and joinable(pretoken):
                run.append(pretoken)
            else:
                close()
                out.append(([pretoken], list(tokens)))
        close()
        return out

    def tokens(self, line: str) -> list[bytes]:
        return [token for _, tokens in self.groups(line) for token in tokens]


def encoder(model: SuperModel) -> Encoder:
    return Encoder(model.merges, model.supers, model.pattern)


def segment(model: SuperModel, text: str) -> SegmentTrace:
    """Tokens as spans (GPT-2 letters) and, per group of pre-tokens, how it was cut."""
    if not text.strip():
        raise ValueError("Type a word or a text to encode.")
    groups = encoder(model).groups(text)
    tokens = [token for _, group in groups for token in group]
    spans = tuple(
        Span(to_letters(token), s, e)
        for token, (s, e) in zip(tokens, char_spans(tokens), strict=True)
    )
    words = tuple((tuple(pretokens), tuple(map(to_letters, group))) for pretokens, group in groups)
    return SegmentTrace(text, spans, words)


def word_segmenter(model: SuperModel):
    """word -> its tokens (GPT-2 letters) as the word is cut after a space in running text;
    alone, a word has no neighbour to join (the measures cut words one by one)."""
    cut = encoder(model)
    return lambda word: [to_letters(token) for token in cut.tokens(" " + word)]


def word_lines(encoded: SegmentTrace, model: SuperModel | None = None) -> list[str]:
    """One line per group: its pre-tokens and the tokens they became."""
    lines = []
    for pretokens, tokens in encoded.words:
        shown = " ".join(f"[{show(t, 'hex')}]" for t in tokens)
        joined = f"{len(pretokens)} pre-tokens" if len(pretokens) > 1 else "1 pre-token"
        lines.append(f"{''.join(pretokens)!r} ({joined}): {shown}")
    return lines


def piece_alone(model: SuperModel):
    """Token k cut on its own -> its ids (the vocabulary card)."""
    ids = {piece: k for k, piece in enumerate(model.vocab)}
    cut = encoder(model)

    def alone(k: int) -> tuple[int, ...]:
        text = to_bytes(model.vocab[k]).decode("utf-8", errors="replace")
        return tuple(ids.get(to_letters(t), -1) for t in cut.tokens(text))

    return alone
