"""Our trained models as Hugging Face ``tokenizer.json`` files.

``to_hf(model)`` builds the tokenizers pipeline (normalizer, pre-tokenizer, model, decoder)
with the tokenizers library itself; ``hf_json(model)`` is its JSON text. Loaded with
``tokenizers.Tokenizer.from_file``, the file cuts the words of a text into the tokens our
``segment`` gives, with the ids of our vocabulary; :func:`our_tokens` maps its tokens back
(``</w>`` for its stand-in, ``[UNK]`` for an unknown character). What the format cannot
say faithfully is refused with a ValueError that says why (``check``); the rare words an
exported file may still cut otherwise are said in sentences by ``notes``.

- ``bpe``: BPE with each marker (``none``, ``▁``, ``</w>`` alone or glued) and every tie rule;
- ``greedy``: WordPiece, and SaGe (greedy longest prefix is WordPiece with no prefix);
- ``unigram``: Unigram, textbook and EM; ``words``: our word split as tokenizers' parts.

>>> from subtok_core.bpe import train_bpe
>>> from subtok_core.corpus import load
>>> model = train_bpe(load("toy:low-lower"), merges=10, marker="sow")
>>> from tokenizers import Tokenizer
>>> tok = Tokenizer.from_str(hf_json(model))
>>> our_tokens(tok, "lowest newer") == segment(model, "lowest newer")
True
"""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer

from .. import registry
from ..entry import Export
from ..pretrained.crash import library_call
from ..records import EOW, UNK
from .bpe import EOW_STAND_IN


def _exporter(model) -> Export:
    """check, build and notes of `model`'s algorithm, from its registry entry."""
    algo = registry.of_model(model)
    if algo.export is None:
        raise ValueError(f"{algo.label} models cannot be exported to a tokenizer.json yet.")
    return algo.export()


def check(model) -> None:
    """Raise ValueError, with the reason, when `model` cannot be exported faithfully, without
    building the file (for a page to choose between a button and a caption; a Unigram
    model's tie search takes about a second)."""
    with library_call("tokenizers", "checking the export"):
        _exporter(model).check(model)


def notes(model) -> list[str]:
    """What an exported file may still do otherwise than our ``segment``, in sentences (a
    Unigram tie between the same pieces in two orders; the text [UNK] typed in a word)."""
    algo = registry.of_model(model)
    export = algo.export() if algo.export else None
    return export.notes(model) if export and export.notes else []


def to_hf(model) -> Tokenizer:
    """`model` as a tokenizers Tokenizer that cuts every text as our ``segment`` does."""
    with library_call("tokenizers", "building the tokenizer.json"):
        return _exporter(model).build(model)


def hf_json(model) -> str:
    """`model` as the text of a Hugging Face tokenizer.json (indented)."""
    tok = to_hf(model)
    with library_call("tokenizers", "writing the tokenizer.json"):
        return tok.to_str(pretty=True)


def save_hf(model, path: str | Path) -> None:
    """Write `model` as a tokenizer.json at `path`; a path that cannot be written raises
    ValueError."""
    text = hf_json(model) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        reason = err.strerror or str(err)
        raise ValueError(f"Cannot write the tokenizer to {str(path)!r}: {reason}.") from None


def our_tokens(tok: Tokenizer, text: str) -> list[str]:
    """The tokens an exported file gives for `text`, written as ours: the stand-in
    character of ``</w>`` back as ``</w>``, an unknown character (tokenizers' Unigram keeps
    the character itself, with the unknown token's id) as ``[UNK]``."""
    encoding = tok.encode(text, add_special_tokens=False)
    unk_id = tok.token_to_id(UNK)
    tokens = []
    for token, token_id in zip(encoding.tokens, encoding.ids, strict=True):
        if token_id == unk_id:
            token = UNK
        tokens.append(token.replace(EOW_STAND_IN, EOW))
    return tokens


def segment(model, text: str) -> list[str]:
    """Our own tokens of `text` (what the exported file must give)."""
    return registry.of_model(model).segment(model, text).pieces


__all__ = [
    "check", "hf_json", "notes", "our_tokens", "save_hf", "segment", "to_hf",
]  # fmt: skip
