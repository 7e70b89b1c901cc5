"""A byte no UTF-8 text contains has its own words on a /vocab card, and the GPT-2 byte
letters row shows only for byte-level vocabularies.

By hand from RFC 3629: F7 would lead a 4-byte sequence above U+10FFFF, so it never occurs
in UTF-8; E2 leads 3-byte characters (E2 80 94 is the em dash) and is part of them.
"""

from __future__ import annotations

import pytest

from lessons.vocab.card import facts_frame
from subtok_core.vocab.card import token_card
from subtok_core.vocab.health import NEVER_IN_UTF8, never_in_utf8
from subtok_core.vocab.table import pretrained_table

pytest.importorskip("sentencepiece")


def test_the_bytes_never_in_utf8_are_the_ones_rfc_3629_excludes():
    # every byte that starts or continues some character, found by decoding every character
    used = {b for c in range(0x110000) if not 0xD800 <= c < 0xE000
            for b in chr(c).encode("utf-8")}  # fmt: skip
    assert set(NEVER_IN_UTF8) == set(range(256)) - used
    assert set(NEVER_IN_UTF8) == {0xC0, 0xC1, *range(0xF5, 0x100)}


def test_mistral_f7_is_never_in_utf8_not_part_of_a_character():
    card = token_card(pretrained_table("mistral-v1"), 250)
    assert card.piece == "<0xF7>" and card.data == b"\xf7"
    name, sentence = card.category_sentence()
    assert card.never_in_utf8 and card.category == "partial"
    assert "never in UTF-8" in name and "no text contains this byte" in sentence
    assert "part of a character" not in sentence
    facts = dict(facts_frame(card).itertuples(index=False))
    assert facts["category"] == name


def test_a_lead_byte_stays_part_of_a_character():
    card = token_card(pretrained_table("mistral-v1"), 0xE2 + 3)
    assert card.piece == "<0xE2>" and not never_in_utf8(card.data)
    name, sentence = card.category_sentence()
    assert name == "partial" and "part of a character" in sentence


def test_byte_letters_only_on_byte_level_cards():
    mistral = dict(facts_frame(token_card(pretrained_table("mistral-v1"), 1000)).values)
    assert "GPT-2 byte letters" not in mistral
    cl100k = dict(facts_frame(token_card(pretrained_table("cl100k_base"), 15339)).values)
    assert cl100k["GPT-2 byte letters"] == "hello"
