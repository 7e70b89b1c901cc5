"""A conversation as chat tokens, through mistral-common's own chat encoding (offline).

mistral-common writes a conversation the way Mistral's models were trained on it: control
tokens around each user turn (``[INST]`` ... ``[/INST]``), the answer closed by ``</s>``,
and the system prompt written into a user turn. Mistral v1 has no control token for
``[INST]``: its template spells it in ordinary text pieces. The conversation is encoded as
a training example (mistral-common's fine-tuning mode), so it may end with the answer.

>>> chat = encode_chat("tekken", "Be brief.", "Hi there!", "Hello.")
>>> [t.piece for t in chat.tokens if t.role == "control"]
['<s>', '[INST]', '[/INST]', '</s>']
>>> chat.counts()
{'control': 4, 'template': 0, 'system': 3, 'user': 3, 'assistant': 2}
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

from ..pretrained import files
from ..pretrained.base import display

TOKENIZERS = ("mistral-v1", "mistral-v3", "tekken")
ROLES = ("control", "template", "system", "user", "assistant")
CONTROL_MEANING = {
    "<s>": "beginning of the sequence",
    "</s>": "end of the sequence: the assistant's answer is over",
    "[INST]": "a user turn starts",
    "[/INST]": "the user turn ends; the assistant answers next",
}
NOT_PUBLISHED = (
    "OpenAI does not publish its chat format in tiktoken: cl100k_base defines no chat "
    "tokens, so this lab cannot show how GPT-4 marks a turn. Below is only the text of each "
    "turn, encoded as ordinary text."
)


@dataclass(frozen=True, slots=True)
class ChatToken:
    """One token of the encoded conversation: its id, its piece as the tokenizer writes
    it, and what it belongs to (one of ROLES)."""

    id: int
    piece: str
    role: str


@dataclass(frozen=True, slots=True)
class Chat:
    tokenizer: str
    tokens: tuple[ChatToken, ...]

    def counts(self) -> dict[str, int]:
        found = Counter(t.role for t in self.tokens)
        return {role: found[role] for role in ROLES}

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(t.id for t in self.tokens)


@functools.cache
def _tokenizer(name: str):
    from mistral_common.protocol.instruct.validator import ValidationMode
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    if name not in TOKENIZERS:
        raise ValueError(f"Chat turns are shown for {', '.join(TOKENIZERS)}, not {name!r}.")
    return MistralTokenizer.from_file(str(files.locate(name)), mode=ValidationMode.finetuning)


def _token_bytes(inner, token_id: int) -> bytes:
    """A text token's bytes: Tekken gives them; a SentencePiece piece is read with ▁ as
    a space and <0xNN> as its byte."""
    if hasattr(inner, "id_to_byte_piece"):  # Tekken
        return inner.id_to_byte_piece(token_id, "keep")
    piece = inner.id_to_piece(token_id)
    if piece.startswith("<0x") and piece.endswith(">") and len(piece) == 6:
        return bytes([int(piece[3:5], 16)])
    return piece.replace("\u2581", " ").encode("utf-8")


def encode_chat(name: str, system: str, user: str, assistant: str) -> Chat:
    """The conversation (a system prompt, a user message, the assistant's answer) as
    mistral-common encodes it for `name`, each token labelled with the turn it spells
    (or control: a control token; template: text the format adds, such as v1's [INST])."""
    from mistral_common.exceptions import MistralCommonException
    from mistral_common.protocol.instruct.messages import (
        AssistantMessage,
        SystemMessage,
        UserMessage,
    )  # fmt: skip
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    if not user.strip() or not assistant.strip():
        raise ValueError("Type a user message and the assistant's answer: a turn cannot be empty.")
    messages = [UserMessage(content=user), AssistantMessage(content=assistant)]
    if system.strip():
        messages.insert(0, SystemMessage(content=system))
    tok = _tokenizer(name)
    try:
        ids = tok.encode_chat_completion(ChatCompletionRequest(messages=messages)).tokens
    except MistralCommonException as err:
        raise ValueError(f"mistral-common refuses this conversation: {err}") from None
    inner = tok.instruct_tokenizer.tokenizer
    return Chat(name, tuple(_label(inner, ids, {"system": system, "user": user,
                                                "assistant": assistant})))  # fmt: skip


def _label(inner, ids, texts: dict[str, str]) -> list[ChatToken]:
    """Each token with the turn whose text it overlaps (the first), found in the bytes of
    the encoded text; a token that overlaps none is template text."""
    pieces = []
    for i in ids:
        control = bool(inner.is_special(i))
        pieces.append((i, control, None if control else _token_bytes(inner, i)))
    stream, starts = bytearray(), []
    for _, control, data in pieces:
        starts.append(len(stream))
        stream += b"" if control or data is None else data
    ranges, taken = [], 0
    for role, text in texts.items():  # each turn's text in the stream, in order
        data = text.encode("utf-8")
        at = bytes(stream).find(data, taken) if data else -1
        if at < 0 and data:
            at = bytes(stream).find(data)
        if at >= 0:
            ranges.append((at, at + len(data), role))
            taken = at + len(data)
    out = []
    for (token_id, control, data), start in zip(pieces, starts, strict=True):
        end = start + len(data or b"")
        role = "control" if control else "template"
        if not control:
            role = next((r for a, b, r in ranges if start < b and end > a), "template")
        tekken = data is not None and hasattr(inner, "id_to_byte_piece")
        shown = display(data) if tekken else inner.id_to_piece(token_id)
        out.append(ChatToken(token_id, shown, role))
    return out


def turn_texts(name: str, system: str, user: str, assistant: str) -> dict[str, list[str]]:
    """For cl100k_base (no published chat format): each turn's text alone as tokens."""
    from ..pretrained import BUILTIN

    tok = BUILTIN[name]()
    turns = {"system": system, "user": user, "assistant": assistant}
    return {role: [s.text for s in tok.encode(text).spans] for role, text in turns.items()}
