"""Byte-level BPE (subtok_core/bytebpe/): byte letters, patterns, training, bad input.

Expected values come from Hugging Face tokenizers (its ByteLevel pre-tokenizer and
alphabet, BpeTrainer), from cl100k_base's rank file, or from hand counts written in the
comments; never from our own output. The encoder against tiktoken is in
test_bytebpe_encode.py, the trainer against BpeTrainer in test_bytebpe_parity.py.
"""

from __future__ import annotations

import pytest
from tokenizers import pre_tokenizers

from subtok_core.bytebpe import (
    BASE_SYMBOLS,
    BYTE_LETTERS,
    PARTS,
    chunk_counts,
    chunks,
    corpus_at,
    explain,
    model_from_trace,
    pattern_text,
    segment,
    show,
    split,
    to_bytes,
    to_letters,
    trace_bytebpe,
    train_bytebpe,
)
from subtok_core.bytebpe import io as bytebpe_io
from subtok_core.bytebpe.io import model_from_dict, model_to_dict
from subtok_core.pretrained.tiktoken_based import CL100K_PATTERN, cl100k_ranks

TEXT = (
    "Hello, world! It's 2024: x=12345678 + 3.14159; naïve café 😀🦜👩‍👩‍👧 🇫🇷\n\n"
    "  def f(x):\n\treturn x**2  # comment\r\n"
    "Привет, мир! 我喜欢自然语言处理。 مرحبا بالعالم ١٢٣٤   trailing   \n "
)


# --- GPT-2's byte letters ------------------------------------------------------------------


def test_the_letters_are_tokenizers_byte_level_alphabet():
    assert len(set(BYTE_LETTERS)) == 256
    assert set(BYTE_LETTERS) == set(pre_tokenizers.ByteLevel.alphabet())


def test_each_byte_gets_the_letter_tokenizers_gives_it():
    """tokenizers' ByteLevel pre-tokenizer writes the bytes of valid UTF-8 text; every
    byte value occurs in some character except C0, C1 and F5..FF, which UTF-8 never
    uses. Those are visible Latin-1 characters (À Á õ ... ÿ), so by GPT-2's rule they
    stand for themselves."""
    level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    chars = [chr(c) for c in range(0x801)]  # every byte below 80, 80..BF, leads C2..DF, E0
    chars += [chr(cp) for cp in range(0x1000, 0x10000, 0x1000)]  # leads E1..EF
    chars += [chr(cp) for cp in (0x10000, 0x40000, 0x80000, 0xC0000, 0x100000)]  # F0..F4
    seen: dict[int, str] = {}
    for ch in chars:
        (letters, _), *_ = level.pre_tokenize_str(ch)
        seen.update(zip(ch.encode("utf-8"), letters, strict=True))
    never = {0xC0, 0xC1, *range(0xF5, 0x100)}
    assert set(range(256)) - set(seen) == never
    assert all(BYTE_LETTERS[b] == letter for b, letter in seen.items())
    assert all(BYTE_LETTERS[b] == chr(b) for b in never)
    assert (BYTE_LETTERS[ord(" ")], BYTE_LETTERS[ord("\n")]) == ("Ġ", "Ċ")


def test_base_symbols_are_in_cl100k_base_rank_order():
    ranks = cl100k_ranks()
    by_rank = {rank: token for token, rank in ranks.items() if rank < 256}
    assert [to_letters(by_rank[r]) for r in range(256)] == list(BASE_SYMBOLS)


def test_letters_and_bytes_round_trip():
    data = "naïve 😀\n".encode()
    assert to_bytes(to_letters(data)) == data
    assert to_letters(bytes(range(256))) == "".join(BYTE_LETTERS)


def test_show_hex_writes_unprintable_and_partial_bytes_in_hex():
    assert show(b"\xe2\x80", "hex") == "<E2 80>"  # two of the three bytes of "—"
    assert show(b"\t x\r\n", "hex") == "<09> x<0D><0A>"
    assert show("😀".encode(), "hex") == "😀"
    assert show("Ġthe", "hex") == " the"  # a record's symbol (GPT-2 letters) too
    assert show(" \xe9".encode(), "gpt2") == "ĠÃ©"  # é is C3 A9: Ã and ©


# --- patterns ---------------------------------------------------------------------------------


def test_cl100k_parts_are_tiktokens_pattern():
    assert pattern_text("cl100k") == CL100K_PATTERN


def test_gpt2_chunks_are_tokenizers_byte_level_words():
    level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    theirs = [to_bytes(word).decode("utf-8") for word, _ in level.pre_tokenize_str(TEXT)]
    assert split(TEXT, "gpt2") == theirs


@pytest.mark.parametrize("name", ["gpt2", "cl100k"])
def test_chunks_cover_the_text_and_name_their_part(name):
    found = chunks(TEXT, name)
    assert "".join(c.text for c in found) == TEXT
    assert all(TEXT[c.start : c.end] == c.text for c in found)
    assert all(0 <= c.part < len(PARTS[name]) for c in found)


def test_which_part_matched_by_hand():
    # GPT-2: letters (part 1), 's (0), space + digits of any length (2), punctuation (3)
    assert [(c.text, c.part) for c in chunks("It's 12345!", "gpt2")] == [
        ("It", 1), ("'s", 0), (" 12345", 2), ("!", 3),
    ]  # fmt: skip
    # cl100k: the space before a number is alone (part 7, \s); digits go by three (2)
    assert [(c.text, c.part) for c in chunks("It's 12345!", "cl100k")] == [
        ("It", 1), ("'s", 0), (" ", 7), ("123", 2), ("45", 2), ("!", 3),
    ]  # fmt: skip
    assert split("a  b\tc\n", "none") == ["a", "b", "c"]


# --- training by hand -------------------------------------------------------------------------


def test_chunks_are_counted_in_first_appearance_order():
    # "the cat" and "the hat": "the" twice (no space: each starts its line)
    assert chunk_counts(["the cat", "the hat"], "gpt2").items() == [
        ("the", 2), (" cat", 1), (" hat", 1),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("ties", "first_merge"),
    [
        # "ba ab" -> chunks "ba", " ab": the pairs (b,a), (Ġ,a), (a,b) occur once each
        ("first", ("b", "a")),  # the first pair of the first chunk
        ("lex", ("Ġ", "a")),  # smallest bytes: the space (20) before a (61) and b (62)
        ("tokenizers", ("a", "b")),  # smallest ids: a < b < Ġ (U+0120) by letter
    ],
)
def test_the_three_tie_rules_on_bytes(ties, first_merge):
    trace = trace_bytebpe(["ba ab"], merges=1, ties=ties)
    step = trace.steps[0]
    assert step.pair == first_merge and step.count == 1
    assert len(step.tied_with) == 2


def test_a_hand_counted_run():
    # "aaab aab" -> "aaab", " aab": (a,a) 2 + 1 = 3 wins; then four pairs occur once
    # ((aa,a), (a,b), (Ġ,aa), (aa,b)) and "first" takes (aa,a), seen first
    trace = trace_bytebpe(["aaab aab"], vocab_size=258)
    assert [(s.pair, s.count, s.new_symbol) for s in trace.steps] == [
        (("a", "a"), 3, "aa"), (("aa", "a"), 1, "aaa"),
    ]  # fmt: skip
    assert trace.start.corpus_symbols == 8 and trace.steps[-1].corpus_symbols == 5
    assert [s.vocab_size for s in trace.steps] == [257, 258]
    assert corpus_at(trace, 1) == [("aaab", 1, ("aa", "a", "b")), (" aab", 1, ("Ġ", "aa", "b"))]


def test_an_emoji_is_four_bytes_and_merges_like_any_pair():
    # 😀 is F0 9F 98 80; written twice, its three byte pairs occur twice each
    trace = trace_bytebpe(["😀 😀"], merges=1, pattern="none")
    assert trace.start.corpus_symbols == 8
    assert to_bytes(trace.steps[0].new_symbol) == b"\xf0\x9f"


def test_the_base_vocabulary_is_all_256_bytes_even_unused():
    model = model_from_trace(trace_bytebpe(["ab ab"], merges=1))
    assert model.vocab[:256] == BASE_SYMBOLS and len(model.vocab) == 257


def test_compact_steps_rebuild_the_same_chunks_as_snapshots():
    lines = ["the cat sat on the mat, the cat's hat", "2024 + 12345 = 14369 😀😀"]
    full = trace_bytebpe(lines, merges=20, snapshot=True)
    compact = trace_bytebpe(lines, merges=20, snapshot=False)
    assert [s.pair for s in full.steps] == [s.pair for s in compact.steps]
    for i in range(len(full.steps) + 1):
        assert corpus_at(full, i) == corpus_at(compact, i)


def test_learned_unk_is_allowed_there_is_no_unknown_token():
    trace = trace_bytebpe(["[UNK] [UNK]"], merges=4, pattern="none")
    assert trace.steps[-1].new_symbol == "[UNK]"  # 5 bytes, 4 merges


def test_model_round_trips_and_encodes_with_its_ids():
    model = train_bytebpe(["the cat sat on the mat"], merges=5)
    assert model_from_dict(model_to_dict(model)) == model
    coded = segment(model, "the mat")
    assert "".join(coded.pieces) == to_letters(b"the mat")


def test_explain_names_the_pattern_and_the_bytes():
    trace = trace_bytebpe(["aaab aab"], merges=2)
    assert "256 byte values" in explain(trace, 0)
    assert explain(trace, 1).startswith("Merge 1: the pair ('a', 'a') occurs 3 times")


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"vocab_size": 100}, "vocab size 100 is smaller than the 256 symbols"),
        ({"merges": 3, "pattern": "gpt4"}, "Unknown pattern 'gpt4'; choose one of gpt2, cl100k"),
        ({"merges": 3, "ties": "random"}, "Unknown tie rule 'random'"),
        ({"merges": -1}, "must be 0 or more"),
        ({}, "Give either a number of merges or a target vocabulary size"),
    ],
)
def test_bad_parameters_are_refused_with_a_sentence(params, message):
    with pytest.raises(ValueError, match=message):
        trace_bytebpe(["the cat"], **params)


def test_an_unknown_byte_display_is_refused_with_a_sentence():
    trace = trace_bytebpe(["the cat"], merges=3)  # how bytes are written is the reader's
    for write in (bytebpe_io.trace_to_dict, bytebpe_io.steps_csv):
        with pytest.raises(ValueError, match="Unknown byte display 'utf8'"):
            write(trace, style="utf8")


def test_a_corpus_without_chunks_is_refused():
    with pytest.raises(ValueError, match="found no chunk"):
        trace_bytebpe([" \t ", ""], merges=1, pattern="none")


def test_damaged_model_files_are_refused():
    data = model_to_dict(train_bytebpe(["ab ab"], merges=1))
    with pytest.raises(ValueError, match="pattern 'regex'"):
        model_from_dict({**data, "pattern": "regex"}, "m.json")
    with pytest.raises(ValueError, match="start with the 256 bytes"):
        model_from_dict({**data, "vocab": data["vocab"][1:]}, "m.json")
    with pytest.raises(ValueError, match="not written in GPT-2's byte letters"):
        model_from_dict({**data, "vocab": [*data["vocab"], "a b"]}, "m.json")
    with pytest.raises(ValueError, match="needs 'xy'"):
        model_from_dict({**data, "merges": [["x", "y"]]}, "m.json")


def test_a_blank_text_is_refused():
    with pytest.raises(ValueError, match="Type a word"):
        segment(train_bytebpe(["ab"], merges=1), " \n ")
