r"""A token's card: everything the lab can say about one token of one tokenizer.

>>> from subtok_core.vocab.table import pretrained_table
>>> card = token_card(pretrained_table("cl100k_base"), 15339)
>>> card.text, card.hex, card.letters, card.category, card.reachable
('hello', '68 65 6C 6C 6F', 'hello', 'ok', True)
>>> card.tree.rank, card.tree.part
(15339, b'hello')
>>> table = pretrained_table("cl100k_base")
>>> part = token_card(table, table.ids[table.data.index(b"\xe2\x80")])
>>> part.hex, part.letters, part.text, part.category, part.tree.left.part + part.tree.right.part
('E2 80', 'âĢ', None, 'partial', b'\xe2\x80')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .. import registry
from ..bytebpe.symbols import to_letters
from .health import SENTENCES, category_of, never_in_utf8
from .table import Table, as_text
from .trained import made_at
from .trees import Node, merge_tree, replayed_tree


@dataclass(frozen=True, slots=True)
class Card:
    """One token: its id and piece, its bytes (text or None, hex, GPT-2's byte letters),
    its category, what encoding its text alone gives (ids and pieces), its merge tree
    (None where the tokenizer has no merges or they never join its parts), and, where the
    tokenizer has them, its Unigram score, the step that made it and how often the
    finished tokenizer uses it on its corpus, with some words that use it."""

    tokenizer: str
    label: str
    id: int
    piece: str
    data: bytes | None
    text: str | None
    hex: str
    letters: str
    special: bool
    valid_utf8: bool
    category: str
    reachable: bool
    alone_ids: tuple[int, ...]
    alone_pieces: tuple[str, ...]
    tree: Node | None
    unit: str
    score: float | None = None
    step: int | None = None
    frequency: int | None = None
    words: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    order: str = "rank"

    @property
    def never_in_utf8(self) -> bool:
        """Whether it holds a byte no UTF-8 text contains (Mistral's ``<0xF7>``)."""
        return never_in_utf8(self.data)

    def category_sentence(self) -> tuple[str, str]:
        """What the card calls its category and the sentence that says what it means."""
        if self.never_in_utf8:
            return "partial, never in UTF-8", SENTENCES["never in UTF-8"]
        return self.category, SENTENCES[self.category]


def tree_of(table: Table, k: int, model=None) -> Node | None:
    """The merge tree of the k-th token of `table` (None: a special token, or no merges)."""
    data = table.data[k]
    if data is None:
        return None
    replay = _replay_of(model)
    if replay is not None:
        return replayed_tree(*replay(model, table.pieces[k]))
    if table.rank_of is None:
        return None
    if table.unit == "byte":
        leaf = _byte_ids(table).get
        return merge_tree([data[i : i + 1] for i in range(len(data))], table.rank_of, leaf)
    text = table.pieces[k]
    if table.order == "score":  # a leaf's own score never orders a merge: leaves unmarked
        return merge_tree(list(text), table.rank_of, lambda _: None, highest=True)
    ids = {p: table.ids[i] for i, p in enumerate(table.pieces)}
    return merge_tree(list(text), table.rank_of, ids.get)


def order_sentence(card: Card, trained: bool) -> str:
    """How the card's tokenizer orders its merges, said beside the tree."""
    if card.order == "score":
        return ("SentencePiece BPE merges the adjacent pair whose joined piece has the "
                "highest score first (the leftmost on a tie), not the lowest id; each "
                "merge's score is beside it.")  # fmt: skip
    if trained:
        return (
            "its merges, each with the number of the merge that made it; merges are "
            "replayed in the order they were learned (a lower number first)."
        )
    word = "rank" if card.unit == "byte" else "id"
    return f"its merges, the {word} of each beside it; a lower {word} merges first" + (
        " (a token's rank is its id)." if card.unit == "byte" else "."
    )


def _replay_of(model):
    """How the card replays a token's merges for `model`'s algorithm (BPE), from its
    registry entry; None with no model (a pretrained tokenizer) or no such replay."""
    if model is None:
        return None
    vocabulary = registry.of_model(model).vocabulary
    return vocabulary.replay if vocabulary else None


@functools.lru_cache(maxsize=8)
def _byte_ids(table: Table) -> dict[bytes, int]:
    """The id of each single byte's token (cl100k_base and Tekken rank all 256 bytes)."""
    return {d: table.ids[i] for i, d in enumerate(table.data) if d is not None and len(d) == 1}


def token_card(table: Table, token_id: int, model=None, used=None, wc=None) -> Card:
    """The card of id `token_id` of `table`. For a tokenizer trained here give its `model`,
    and `used` (trained.usage on its corpus) and the training words `wc` for the step, the
    frequency and the words that use the token."""
    k = table.position(token_id)
    data, piece = table.data[k], table.pieces[k]
    text = as_text(data)
    category = category_of(table, k)
    alone = table.encode_alone(k) if text is not None else ()
    shown = tuple(table.pieces[table.position(i)] if i >= 0 else "[UNK]" for i in alone)
    score = table.scores[k] if table.scores is not None else None
    step = frequency = None
    words: tuple = ()
    if model is not None:
        step = made_at(model, piece)
        if used is not None:
            frequency = used.get(piece, 0)
        if wc is not None:
            words = words_using(model, wc, piece)
    return Card(
        table.name, table.label, token_id, piece, data, text,
        "" if data is None else " ".join(f"{b:02X}" for b in data),
        "" if data is None else to_letters(data), data is None, text is not None,
        category, category == "ok", alone, shown, tree_of(table, k, model), table.unit,
        score, step, frequency, words, table.order,
    )  # fmt: skip


def words_using(model, wc, piece: str, limit: int = 5) -> tuple:
    """The most frequent training words whose segmentation uses `piece`: (word, count,
    segmentation), at most `limit` of them."""
    from .. import registry

    cut = registry.of_model(model).word_segmenter(model)
    found = []
    for word, count in sorted(wc.items(), key=lambda item: -item[1]):
        pieces = tuple(cut(word))
        if piece in pieces:
            found.append((word, count, pieces))
            if len(found) == limit:
                break
    return tuple(found)
