"""Pretrained tokenizers on the Compare page: the core's view of them (encode, the pieces
that hold part of a character, the measures, the tokenization premium) against tiktoken
used directly, and the page with trained and pretrained tokenizers side by side.

Expected values come from tiktoken on the same file (the `tiktoken_cl100k` fixture of
conftest.py), from sentencepiece directly, or from hand counts written here.
"""

from __future__ import annotations

import html

import pytest
import sentencepiece as spm
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from lessons.ui.escape import as_text
from subtok_core import compare, corpus, languages, registry
from subtok_core.measure import token_lengths
from subtok_core.measure.tokenized import length, tokenize_with
from subtok_core.pretrained import files
from tests.apptools import open_page

EMOJI_CJK = "I ❤️ Tokyo! 😀 我爱东京。語"


@pytest.fixture(scope="module")
def cl100k():
    return registry.pretrained("cl100k_base")


def test_labels_of_pretrained_tokenizers_are_known_before_loading():
    assert compare.PRETRAINED == ("cl100k_base", "mistral-v1", "mistral-v3", "tekken")
    assert compare.LABELS["cl100k_base"] == registry.pretrained("cl100k_base").label
    assert compare.parse_kinds("bpe,cl100k_base,mistral-v1,tekken,unigram,wordpiece") == (
        "bpe", "cl100k_base", "mistral-v1", "tekken", "unigram", "wordpiece",
    )  # fmt: skip
    with pytest.raises(ValueError, match="2 to 6 tokenizers at a time, not 7"):
        compare.parse_kinds("bpe,wordpiece,unigram,cl100k_base,mistral-v1,mistral-v3,tekken")


def test_byte_pieces_are_the_tokens_whose_bytes_are_no_whole_character(cl100k, tiktoken_cl100k):
    ids = tiktoken_cl100k.encode_ordinary(EMOJI_CJK)
    coded = compare.encode(cl100k, EMOJI_CJK)
    assert list(coded.ids) == ids
    expected = set()
    for i, token in enumerate(tiktoken_cl100k.decode_tokens_bytes(ids)):
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            expected.add(i)
    assert expected  # the emoji or a CJK character is cut inside its bytes
    assert compare.byte_pieces(coded, EMOJI_CJK) == expected


def test_byte_fallback_pieces_of_sentencepiece_are_byte_pieces():
    text = "a 𓀀 b"  # an Egyptian hieroglyph: not in Mistral's vocabulary, so its 4 bytes
    processor = spm.SentencePieceProcessor(model_file=str(files.locate("mistral-v1")))
    pieces = processor.encode(text, out_type=str)
    coded = compare.encode(registry.pretrained("mistral-v1"), text)
    assert [s.text for s in coded.spans] == pieces
    assert compare.byte_pieces(coded, text) == {
        i for i, piece in enumerate(pieces) if piece.startswith("<0x")
    }
    assert len(compare.byte_pieces(coded, text)) == len("𓀀".encode())


def test_a_text_that_spells_hex_itself_is_no_byte_piece(cl100k):
    text = "write <F0 9F> here"
    assert compare.byte_pieces(compare.encode(cl100k, text), text) == set()


def test_tokenize_counts_each_word_as_tiktoken_cuts_it_in_running_text(cl100k, tiktoken_cl100k):
    lines = corpus.load_lines("sample:lee")[:40]
    t = tokenize_with(cl100k, lines, "cl100k_base")
    words = [w for line in lines for w in corpus.split_words(line, False)]
    assert len(t) == sum(len(tiktoken_cl100k.encode_ordinary(" " + w)) for w in words)
    assert t.style == "sow"
    used = compare.vocabulary(cl100k, t)
    assert set(used) == set(t.pieces) and len(used) < 100_000


def test_lengths_count_a_partial_character_once():
    # hand counts: "▁the" 3 characters; "ра<D0>" two letters and part of a third
    assert length("▁the", "sow") == 3
    assert length("ра<D0>", "sow") == 3
    assert length("<F0 9F>", "sow") == 1
    assert token_lengths(["▁the", "<0xF0>", "ра<D0>"], "sow").to_dict("list")["length"] == [1, 2, 3]


def test_premium_of_cl100k_is_tiktokens_token_ratio(cl100k, tiktoken_cl100k):
    table = languages.premium({"GPT-4": cl100k.encode})

    def tokens(code):
        return sum(
            len(tiktoken_cl100k.encode_ordinary(s)) for s in languages.LANGUAGES[code].sentences
        )

    english = tokens("en")
    for code, lang in languages.LANGUAGES.items():
        row = table[table["language"] == lang.name].iloc[0]
        assert row["tokens"] == tokens(code)
        assert row["premium"] == pytest.approx(tokens(code) / english)
        assert row["unknown"] == 0  # byte-level: nothing is unknown
    assert table.loc[table["language"] == "English", "premium"].item() == 1.0


def test_premium_counts_unknown_tokens_of_a_model_trained_on_english():
    bpe = compare.train("bpe", corpus.load("toy:cat-bat"), 12)  # letters a, b, c, g, s, t
    table = languages.premium({"BPE": lambda text: compare.encode(bpe, text)})
    hindi = table[table["language"] == "Hindi"].iloc[0]
    # every character of the Hindi sentences that is not a space is unknown to a model
    # that only knows a, b, c, g, s, t: one [UNK] token each (BPE marks single characters)
    letters = sum(len(s.replace(" ", "")) for s in languages.LANGUAGES["hi"].sentences)
    assert hindi["unknown"] == letters
    with pytest.raises(ValueError, match="relative to English"):
        languages.premium({"BPE": lambda text: compare.encode(bpe, text)}, {"de": ("x",)})


def test_the_sentences_cover_six_languages_with_the_same_count():
    assert list(languages.NAMES.values()) == [
        "English", "Russian", "German", "Chinese", "Arabic", "Hindi",
    ]  # fmt: skip
    assert {len(lang.sentences) for lang in languages.LANGUAGES.values()} == {
        len(languages.MEANING)
    }


# --- the page ---------------------------------------------------------------------------


def token_lines(at) -> dict[str, str]:
    """Tokenizer label -> the HTML of its line of tokens (the label escaped in it)."""
    return {
        html.unescape(md.value.split("**")[1]): md.value
        for md in at.markdown
        if md.value.startswith("**") and " tokens" in md.value.split("\n")[0]
    }


@pytest.mark.slow  # loads pretrained vocabularies
def test_trained_and_pretrained_side_by_side(tiktoken_cl100k):
    at = open_page(
        "lessons/compare/page.py", corpus="toy:cat-bat", size="12", tok="bpe,cl100k_base,mistral-v1"
    )
    lines = token_lines(at)
    assert set(lines) == {"BPE", "cl100k_base (GPT-4)", "Mistral v1"}
    at.text_area(key="compare_encode").input(EMOJI_CJK).run()
    assert not at.exception
    lines = token_lines(at)
    expected = len(tiktoken_cl100k.encode_ordinary(EMOJI_CJK))
    assert lines["cl100k_base (GPT-4)"].startswith(
        f"**{as_text('cl100k_base (GPT-4)')}**: {expected} tokens"
    )
    assert 'class="tok part"' in lines["cl100k_base (GPT-4)"]
    assert "&lt;F0 9F" in lines["cl100k_base (GPT-4)"] or "&lt;E" in lines["cl100k_base (GPT-4)"]
    assert any("part of a character" in c.value for c in at.caption)
    assert any("GPT-4 and GPT-3.5-turbo" in c.value for c in at.caption)  # provenance
    # the measures: one row per tokenizer
    summary = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
    assert list(summary["tokenizer"]) == [
        "BPE", "cl100k_base (GPT-4)", "Mistral v1",
    ]  # fmt: skip
    # the premium table: languages by tokenizer; BPE on cat-bat knows no Russian
    premium = next(df.value for df in at.dataframe if "cl100k_base (GPT-4)" in df.value.columns
                   and "Hindi" in df.value.index)  # fmt: skip
    assert premium.loc["English"].tolist() == [1.0, 1.0, 1.0]
    assert any("unknown token" in i.value for i in at.info)


@pytest.mark.slow  # loads pretrained vocabularies
def test_an_uploaded_tokenizer_json_joins_the_choices(tmp_path):
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(
        corpus.load_lines("sample:lee")[:200],
        trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]"], show_progress=False),
    )
    at = open_page(
        "lessons/compare/page.py", corpus="toy:cat-bat", size="12", tok="bpe,cl100k_base"
    )
    data = tok.to_str().encode()
    at.file_uploader(key="compare_hf_file").set_value(("mine.json", data, "application/json"))
    at.run()
    assert not at.exception
    assert any("can now be chosen" in s.value for s in at.success)
    at.multiselect(key="compare_tok").set_value(["bpe", "hf:mine.json"]).run()
    lines = token_lines(at)
    typed = at.text_area(key="compare_encode").value
    expected = tok.encode(typed).tokens
    assert lines["mine.json (tokenizers)"].startswith(
        f"**{as_text('mine.json (tokenizers)')}**: {len(expected)} tokens"
    )


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_broken_tokenizer_json_is_a_message():
    at = open_page(
        "lessons/compare/page.py", corpus="toy:cat-bat", size="12", tok="bpe,cl100k_base"
    )
    at.file_uploader(key="compare_hf_file").set_value(("bad.json", b'{"model": 3}', "text/json"))
    at.run()
    assert not at.exception
    assert at.error and "bad.json" in at.error[0].value


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_trained_tokenizer_exports_on_request_and_a_pretrained_one_does_not():
    at = open_page(
        "lessons/compare/page.py", corpus="toy:hug-pug", size="14", tok="bpe,cl100k_base"
    )
    assert not at.get("download_button") or all(
        "tokenizer.json" not in d.proto.label for d in at.get("download_button")
    )
    assert [b.key for b in at.button if b.key.startswith("compare_hf_")] == ["compare_hf_bpe_ask"]
    at.button(key="compare_hf_bpe_ask").click().run()
    assert not at.exception
    labels = [d.proto.label for d in at.get("download_button")]
    assert "Download as Hugging Face tokenizer.json" in labels
