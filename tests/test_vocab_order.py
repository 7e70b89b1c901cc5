"""The merge order a /vocab card says and draws is the tokenizer's own.

SentencePiece BPE (Mistral v1) merges the adjacent pair whose joined piece has the highest
score, the leftmost on a tie (sentencepiece's bpe_model.cc); cl100k_base the lowest rank.
Expected values come from sentencepiece's own encoder, or by hand from that rule.
"""

from __future__ import annotations

import pytest

from subtok_core.corpus.builtin import load_lines
from subtok_core.vocab.card import order_sentence, token_card
from subtok_core.vocab.table import pretrained_table, without_dummy_prefix
from subtok_core.vocab.trees import merged, walk

pytest.importorskip("sentencepiece")


@pytest.fixture(scope="module")
def v1():
    from subtok_core.pretrained import files

    return pretrained_table("mistral-v1"), without_dummy_prefix(files.read("mistral-v1"))


def test_the_card_of_a_run_of_spaces_merges_left_to_right(v1):
    # all runs of ▁ have score -1e9 (equal), so the leftmost pair merges first each time:
    # ▁+▁, then ▁▁+▁, then ▁▁▁+▁ (by id, ▁▁ = 259 would merge twice: ▁▁ + ▁▁)
    table, sp = v1
    assert table.piece(260) == "▁▁▁▁" and sp.get_score(260) == sp.get_score(259) == -1e9
    tree = token_card(table, 260).tree
    assert [n.part for n in (tree.left, tree.right)] == ["▁▁▁", "▁"]
    assert [n.part for n in (tree.left.left, tree.left.right)] == ["▁▁", "▁"]
    assert tree.rank == sp.get_score(260)


def test_the_tree_of_la_holds_pieces_sentencepiece_makes(v1):
    table, sp = v1
    card = token_card(table, 1000)
    assert card.piece == "ла" and card.order == "score"
    assert sp.encode(card.text, out_type=str) == ["ла"]
    for _, node in walk(card.tree):
        text = node.part.replace("\u2581", " ")
        assert sp.encode(text, out_type=str) == [node.part]
        if not node.leaf:
            assert node.rank == sp.get_score(sp.piece_to_id(node.part))
    assert "highest score" in order_sentence(card, False)
    assert "lower id" not in order_sentence(card, False)


TEXTS = ["  t", "   the  end", "a  b   c    d", "\u00a0 x"]


def test_merging_by_score_is_what_sentencepiece_encodes(v1):
    # the card's order, applied to whole texts, cuts them as sentencepiece does (texts
    # whose every character is a piece: others fall back to bytes)
    table, sp = v1
    lines = load_lines("sample:crime")
    texts = TEXTS + lines + [" " + word for line in lines for word in line.split()]
    checked = 0
    for text in texts:
        symbols = list(text.replace(" ", "\u2581"))
        if any(sp.piece_to_id(s) == sp.unk_id() for s in symbols):
            continue
        parts = merged(symbols, table.rank_of, lambda _: None, table.order == "score")
        assert [n.part for n in parts] == sp.encode(text, out_type=str), text
        checked += 1
    assert checked >= 200


def test_cl100k_still_merges_the_lowest_rank_first():
    card = token_card(pretrained_table("cl100k_base"), 15339)
    assert card.order == "rank" and card.tree.rank == 15339
    assert "a lower rank merges first" in order_sentence(card, False)
