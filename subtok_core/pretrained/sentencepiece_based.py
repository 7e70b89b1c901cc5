"""Mistral's SentencePiece models (v1 and v3), read by the sentencepiece library.

Both are BPE models with byte fallback: a character outside the vocabulary becomes one
``<0xF0>``-style piece per UTF-8 byte. Pieces start a word with ``▁`` (a space of the text,
or the dummy prefix SentencePiece puts before the first word). Spans use the offsets
sentencepiece gives (characters; a ``▁`` piece covers the space it stands for, and of the
byte pieces of one character the last covers it, the others cover nothing). No
beginning-of-sentence id is added.

>>> tok = mistral_v1()
>>> coded = tok.encode("hello world")
>>> [(s.text, s.start, s.end) for s in coded.spans], coded.ids
([('▁hell', 0, 4), ('o', 4, 5), ('▁world', 5, 11)], (6312, 28709, 1526))
"""

from __future__ import annotations

import functools

from ..records import Encoded, Span
from . import files
from .base import LABELS, Pretrained, char_offsets
from .crash import guarded, library_call

FAMILIES = {
    "mistral-v1": "Mistral 7B v0.1 and Mixtral 8x7B",
    "mistral-v3": "Mistral 7B v0.3, Mixtral 8x22B and Codestral",
}


def _processor(key: str, path: str):
    import sentencepiece as spm

    data = files.read(key, path)
    processor = spm.SentencePieceProcessor()
    try:
        with library_call("sentencepiece", f"reading {path!r}"):
            processor.LoadFromSerializedProto(data)
    except (RuntimeError, OSError, ValueError, TypeError) as err:
        why = f"sentencepiece cannot read it ({err})".replace("\n", " ")
        raise files.damaged(key, path, why) from None
    return processor


def has_offset_mapping(processor) -> bool:
    """Whether this sentencepiece gives character offsets itself (``out_type=
    "offset_mapping"``, newer releases); older ones give byte offsets in a proto."""
    try:
        processor.encode("", out_type="offset_mapping")
    except (ValueError, TypeError, RuntimeError):
        return False
    return True


def spans_from_proto(text: str, proto) -> Encoded:
    """An Encoded from a SentencePieceText (its pieces' begin/end are UTF-8 byte offsets),
    for sentencepiece releases without offset_mapping."""
    floor, ceil = char_offsets(text)
    pieces = list(proto.pieces)
    spans = tuple(Span(p.piece, floor[p.begin], ceil[p.end]) for p in pieces)
    return Encoded(spans, tuple(p.id for p in pieces))


def _encoder(processor):
    if has_offset_mapping(processor):

        def encode(text: str) -> Encoded:
            out = processor.encode(text, out_type="offset_mapping")
            if not out["ids"]:
                return Encoded((), ())
            starts, ends = zip(*out["offsets"])
            spans = tuple(map(Span._make, zip(out["pieces"], starts, ends)))
            return Encoded(spans, tuple(out["ids"]))

        return encode
    return lambda text: spans_from_proto(text, processor.encode_as_immutable_proto(text))


@functools.cache
def load(key: str, path: str | None = None) -> Pretrained:
    """Mistral's v1 or v3 model (key "mistral-v1" or "mistral-v3") from mistral-common, or
    the .model file at `path`."""
    path = str(path or files.locate(key))
    processor = _processor(key, path)
    label = LABELS[key]
    with library_call("sentencepiece", f"reading {path!r}"):
        size = processor.get_piece_size()
        provenance = _line(key, processor, path)

    def segment(word: str) -> list[str]:
        return processor.encode(word, out_type=str)

    doing = f"encoding with {label}"
    encode = guarded(_encoder(processor), "sentencepiece", doing)
    return Pretrained(key, label, provenance, size, False, encode,
                      guarded(segment, "sentencepiece", doing))  # fmt: skip


def _line(key: str, processor, path: str) -> str:
    size = processor.get_piece_size()
    fallback = sum(processor.is_byte(processor.piece_to_id(f"<0x{b:02X}>")) for b in range(256))
    kind = f"BPE pieces with {fallback} byte-fallback pieces" if fallback else "BPE pieces"
    return f"{FAMILIES[key]}; {size:,} SentencePiece {kind}; not byte-level; " + files.shipped(
        key, path
    )


def describe(key: str, path: str | None = None) -> str:
    """The provenance line of Mistral's v1 or v3 model (for `subtok tokenizers`)."""
    path = str(path or files.locate(key))
    return _line(key, _processor(key, path), path)


def mistral_v1(path: str | None = None) -> Pretrained:
    return load("mistral-v1", path)


def mistral_v3(path: str | None = None) -> Pretrained:
    return load("mistral-v3", path)
