"""Chat turns as tokens: the ids shown are mistral-common's own, each token labelled with
its turn; cl100k_base shows only the text of each turn."""

import pytest
from mistral_common.protocol.instruct.messages import (
    AssistantMessage,
    SystemMessage,
    UserMessage,
)
from mistral_common.protocol.instruct.request import ChatCompletionRequest
from mistral_common.protocol.instruct.validator import ValidationMode
from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

from subtok_core.pretrained import files
from subtok_core.vocab.chat import ROLES, encode_chat, turn_texts

SYSTEM, USER, ANSWER = "Answer in one word.", "What colour is the sky? 😀", "Blue."


def reference_ids(name: str) -> list[int]:
    tok = MistralTokenizer.from_file(str(files.locate(name)), mode=ValidationMode.finetuning)
    messages = [SystemMessage(content=SYSTEM), UserMessage(content=USER),
                AssistantMessage(content=ANSWER)]  # fmt: skip
    return tok.encode_chat_completion(ChatCompletionRequest(messages=messages)).tokens


@pytest.mark.parametrize("name", ["mistral-v1", "mistral-v3", "tekken"])
@pytest.mark.slow  # mistral-common's own tokenizer
def test_ids_equal_mistral_commons_own(name):
    chat = encode_chat(name, SYSTEM, USER, ANSWER)
    assert list(chat.ids) == reference_ids(name)
    counts = chat.counts()
    assert sum(counts.values()) == len(chat.ids) and set(counts) == set(ROLES)
    assert counts["system"] and counts["user"] and counts["assistant"]
    # the sequence starts with <s> and the answer ends with </s>, both control tokens
    assert (chat.tokens[0].piece, chat.tokens[-1].piece) == ("<s>", "</s>")
    assert chat.tokens[0].role == chat.tokens[-1].role == "control"


def test_v1_spells_inst_in_text_pieces_where_v3_has_control_tokens():
    v1 = encode_chat("mistral-v1", SYSTEM, USER, ANSWER)
    v3 = encode_chat("mistral-v3", SYSTEM, USER, ANSWER)
    assert "[INST]" not in [t.piece for t in v1.tokens if t.role == "control"]
    assert "INST" in [t.piece for t in v1.tokens if t.role == "template"]
    assert [t.piece for t in v3.tokens if t.role == "control"] == [
        "<s>",
        "[INST]",
        "[/INST]",
        "</s>",
    ]


@pytest.mark.slow  # a long run (fast tier: README)
def test_answer_tokens_spell_the_answer():
    chat = encode_chat("tekken", SYSTEM, USER, ANSWER)
    assert "".join(t.piece for t in chat.tokens if t.role == "assistant") == ANSWER


def test_empty_turn_is_refused_and_cl100k_shows_text_only():
    with pytest.raises(ValueError, match="cannot be empty"):
        encode_chat("tekken", SYSTEM, " ", ANSWER)
    with pytest.raises(ValueError, match="not 'cl100k_base'"):
        encode_chat("cl100k_base", SYSTEM, USER, ANSWER)
    texts = turn_texts("cl100k_base", SYSTEM, USER, ANSWER)
    assert "".join(texts["assistant"]) == ANSWER
