"""Byte-level merges against Hugging Face tokenizers' BpeTrainer (ties="tokenizers").

BpeTrainer here gets the ByteLevel pre-tokenizer (GPT-2's pattern, no prefix space) and
the 256 byte letters as its initial alphabet, and is fed the same lines as we are. It
breaks ties between pairs of equal count by the smaller (left id, right id), its ids being
the alphabet by code point of the GPT-2 letters, then merged symbols in the order made;
ours follow the same rule (``symbols.BASE_SYMBOLS``). Byte-level has none of the
word-final symbols whose ids BpeTrainer draws from a hash map (see test_bpe_parity.py),
so no tie is left to chance: on the toys, Lee and Wikipedia to 8,000 every merge is
equal, ties included (the tests count the ties, to show there were some to break), and
so is the vocabulary, id for id.
"""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from subtok_core.bytebpe import trace_bytebpe
from subtok_core.corpus import load_lines, toy_names


def hf_train(lines: list[str], vocab_size: int) -> tuple[list[tuple[str, str]], list[str]]:
    """BpeTrainer on the lines: its merges in order and its vocabulary in id order."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(lines, trainer)
    model = json.loads(tok.to_str())["model"]
    merges = [tuple(m) for m in model["merges"]]
    vocab = [token for token, _ in sorted(model["vocab"].items(), key=lambda kv: kv[1])]
    return merges, vocab


def check_parity(lines: list[str], vocab_size: int) -> tuple[int, int]:
    """Every merge and the vocabulary equal; returns (merges, merges that broke a tie)."""
    hf_merges, hf_vocab = hf_train(lines, vocab_size)
    trace = trace_bytebpe(lines, vocab_size=vocab_size, ties="tokenizers")
    assert [step.pair for step in trace.steps] == hf_merges
    vocab = [*trace.start.vocab, *(s.new_symbol for s in trace.steps if s.new_in_vocab)]
    assert vocab == hf_vocab  # the same symbols with the same ids
    assert trace.truncated == (len(hf_vocab) < vocab_size)
    return len(trace.steps), sum(1 for step in trace.steps if step.tied_with)


@pytest.mark.parametrize("name", toy_names())
def test_toy_corpora_until_no_pair_is_left(name):
    merges, _ = check_parity(load_lines(name), vocab_size=1000)  # more than a toy reaches
    assert merges > 0


def test_lee_to_2000():
    merges, tied = check_parity(load_lines("sample:lee"), vocab_size=2000)
    assert merges == 2000 - 256 and tied > 100


@pytest.mark.slow
def test_enwiki_to_8000():
    merges, tied = check_parity(load_lines("sample:enwiki"), vocab_size=8000)
    assert merges == 8000 - 256 and tied > 1000
