"""Our byte-level encoder (bytebpe/ranks.py) against the libraries that define the ids.

On cl100k_base's ranks it must give tiktoken's ids for any text (tiktoken's own
cl100k_base definition on the same file, the ``tiktoken_cl100k`` fixture of conftest.py);
on Tekken's, the ids tiktoken gives with mistral-common's file (our pretrained wrapper,
itself held to mistral_common in test_pretrained.py); on a model trained here, the ids of
Hugging Face's BPE model loaded with the same vocabulary and merges.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers

from subtok_core import registry
from subtok_core.bytebpe import (
    encode_text,
    for_tokenizer,
    replay_text,
    segment,
    to_bytes,
    train_bytebpe,
    word_segmenter,
)
from subtok_core.corpus import load_lines
from subtok_core.pretrained.tiktoken_based import cl100k_ranks

TEXTS = (
    "hello world",
    "Hello, world! It's 2024 and IT'S x=12345678 + 3.14159 - 1e10; 0042",
    "emoji 😀🦜👩‍👩‍👧 and flags 🇫🇷, accents naïve café Ünïcödé",
    "def f(x):\n    return x**2  # squares\n\tif x != 0: pass\r\n\n\n    ",
    "Привет, мир! Съешь же ещё этих мягких французских булок.",
    "我喜欢自然语言处理。日本語のテキストを分割します。",
    "مرحبا بالعالم ١٢٣٤ — עברית",
    "  two  spaces,   three   and trailing   ",
    "<|endoftext|> is written as text",
)


@pytest.fixture(scope="module")
def cl100k():
    return for_tokenizer("cl100k_base")


@pytest.mark.parametrize("text", TEXTS)
def test_cl100k_ids_are_tiktokens(cl100k, tiktoken_cl100k, text):
    assert encode_text(cl100k, text).ids == tuple(tiktoken_cl100k.encode_ordinary(text))


def test_cl100k_spans_are_the_pretrained_tokenizers():
    library = registry.pretrained("cl100k_base")  # tiktoken underneath
    for text in TEXTS:
        assert encode_text(for_tokenizer("cl100k_base"), text) == library.encode(text)


# Characters assigned in Python 3.11's Unicode tables (14.0). The regex module we split
# with has newer tables than tiktoken's Rust regex: 4,657 code points added to Unicode
# since (CJK Extension J, new scripts) are letters to us and unassigned to tiktoken, so
# they are cut differently (checked over every code point when this test was written).
ASSIGNED = st.characters(exclude_categories=("Cn", "Cs"))


@settings(max_examples=150, deadline=None)
@given(st.text(ASSIGNED, max_size=60))
def test_cl100k_ids_for_any_text(tiktoken_cl100k, text):
    ids = encode_text(for_tokenizer("cl100k_base"), text).ids
    assert ids == tuple(tiktoken_cl100k.encode_ordinary(text))


@pytest.mark.slow  # the Lee sample through tiktoken
def test_the_whole_lee_sample(cl100k, tiktoken_cl100k):
    text = "\n".join(load_lines("sample:lee"))
    assert encode_text(cl100k, text).ids == tuple(tiktoken_cl100k.encode_ordinary(text))


@pytest.mark.parametrize("text", TEXTS)
def test_tekken_ids_are_tiktokens(text):
    ours = encode_text(for_tokenizer("tekken"), text)
    assert ours == registry.pretrained("tekken").encode(text)


def test_replay_merges_are_ranked_tokens_and_end_at_the_tokens(cl100k):
    ranks = cl100k_ranks()
    for text in TEXTS:
        for chunk in replay_text(cl100k, text):
            assert cl100k.tokens(chunk.data) == chunk.tokens
            *_, (_, last) = chunk.rows()
            assert last == chunk.tokens and not chunk.whole
            for merge in chunk.merges:  # each merge makes the token of its rank
                assert ranks[merge.left + merge.right] == merge.rank


def test_a_replay_by_hand(cl100k):
    # " lower" in cl100k_base: the ranks of the tokens each merge makes, lowest first
    ranks = cl100k_ranks()
    (chunk,) = replay_text(cl100k, " lower")
    made = [m.left + m.right for m in chunk.merges]
    assert [ranks[t] for t in made] == sorted(ranks[t] for t in made)  # here, rising
    assert made[-1] == b" lower" and chunk.ids == (4827,)


@pytest.mark.slow
def test_every_cl100k_token_is_reached_by_merging_its_bytes(cl100k):
    """So tiktoken's shortcut (a chunk that is a token is taken whole) never changes a
    result on cl100k_base: the replay always shows the merges that make it."""
    from subtok_core.bytebpe import merge_steps

    for token in cl100k_ranks():
        parts = [token[i : i + 1] for i in range(len(token))]
        for _ in merge_steps(parts, cl100k.rank_of):
            pass
        assert parts == [token]


# --- a model trained here against Hugging Face's BPE model --------------------------------


@pytest.fixture(scope="module")
def lee_model():
    return train_bytebpe(load_lines("sample:lee"), vocab_size=1500, ties="tokenizers")


def test_trained_model_ids_are_hugging_faces(lee_model):
    vocab = {symbol: i for i, symbol in enumerate(lee_model.vocab)}
    hf = Tokenizer(models.BPE(vocab=vocab, merges=list(lee_model.merges)))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    for text in TEXTS:
        coded = segment(lee_model, text)
        assert [vocab[s.text] for s in coded.tokens] == hf.encode(text).ids
        assert b"".join(to_bytes(s.text) for s in coded.tokens) == text.encode()


def test_word_segmenter_cuts_a_word_as_after_a_space(lee_model):
    """In a text of words and single spaces, every word is cut as the segmenter cuts it."""
    cut = word_segmenter(lee_model)
    single = [text for text in TEXTS if text == " ".join(text.split())]
    assert len(single) >= 5
    for text in single:
        assert [p for w in text.split() for p in cut(w)] == segment(lee_model, " " + text).pieces


# --- limits ---------------------------------------------------------------------------------


def test_a_chunk_too_long_to_merge_is_refused(cl100k):
    with pytest.raises(ValueError, match="bytes in one chunk 10,001 is more than the 10,000"):
        encode_text(cl100k, "x" * 10_001)


def test_the_web_replay_limit(cl100k):
    with pytest.raises(ValueError, match="bytes to replay 3,000 is more than the 2,000"):
        replay_text(cl100k, "ab " * 1000, where="web")


def test_replay_is_for_byte_level_tokenizers_only():
    with pytest.raises(ValueError, match="choose cl100k_base or tekken"):
        for_tokenizer("mistral-v1")
