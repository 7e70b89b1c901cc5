"""The table of any Hugging Face tokenizer.json (an upload): its tokens by id, read by the
tokenizers library.

A token's bytes: through GPT-2's byte letters for a byte-level file (``Ġworld`` is
`` world``), else its string with ``▁`` read as a space. Its text alone is encoded by the
file's own pipeline (normalizer, pre-tokenizer, model), without special tokens; added
tokens marked special are the special category. For a file whose pipeline adds a marker
to every word (``##`` inside words, a ``▁`` prefix), pieces that only occur inside a word
count as unreachable: the pipeline never meets them at the start of a text.

>>> from tokenizers import Tokenizer, models, pre_tokenizers
>>> raw = Tokenizer(models.WordLevel({"[UNK]": 0, "hi": 1, "yo": 2}, unk_token="[UNK]"))
>>> raw.pre_tokenizer = pre_tokenizers.Whitespace()
>>> table = hf_table(raw.to_str(), "tiny.json")
>>> table.pieces, [table.alone(i) for i in table.ids]
(('[UNK]', 'hi', 'yo'), [(0, 0, 0), (1,), (2,)])

The text "[UNK]" is cut at its brackets by the Whitespace pre-tokenizer, and no piece
spells any of the three parts: three unknown tokens, so [UNK] itself is unreachable.
"""

from __future__ import annotations

from dataclasses import replace

from .. import userjson
from .table import Table, as_text


def hf_table(text: str, name: str = "tokenizer.json") -> Table:
    """A Table of the tokenizer.json whose text is `text`; ValueError if it is none. Every
    call into tokenizers, then and later (a token encoded alone), runs in library_call:
    a panic or a failure of the library is a sentence naming the file."""
    from tokenizers import Tokenizer

    from ..pretrained.crash import guarded, library_call
    from ..pretrained.hf import _has_byte_level, byte_table

    try:
        doc = userjson.loads(text)
        with library_call("tokenizers", f"reading {name!r}"):
            tok = Tokenizer.from_str(text)
    except Exception as err:  # json's ValueError, or the Rust loader's plain Exception
        why = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ValueError(f"{name!r} is not a Hugging Face tokenizer.json: {why}.") from None
    with library_call("tokenizers", f"listing the tokens of {name!r}"):
        tok.no_truncation()
        tok.no_padding()
        specials = {i for i, t in tok.get_added_tokens_decoder().items() if t.special}
        by_id = {i: s for s, i in tok.get_vocab(with_added_tokens=True).items()}
    byte_level = _has_byte_level(doc.get("pre_tokenizer")) or _has_byte_level(doc.get("decoder"))
    letters = byte_table()
    ids = tuple(sorted(by_id))
    pieces = tuple(by_id[i] for i in ids)

    def data_of(token_id: int, piece: str) -> bytes | None:
        if token_id in specials:
            return None
        if byte_level and all(c in letters for c in piece):
            return bytes(letters[c] for c in piece)
        return piece.replace("\u2581", " ").encode("utf-8")

    data = tuple(data_of(i, p) for i, p in zip(ids, pieces, strict=True))
    encode = guarded(tok.encode, library="tokenizers", doing=f"encoding with {name!r}")

    def alone(k: int) -> tuple[int, ...]:
        shown = as_text(data[k])
        return () if shown is None else tuple(encode(shown, add_special_tokens=False).ids)

    return Table(f"hf:{name}", f"{name} (tokenizers)", ids, pieces, data, alone, "byte"
                 if byte_level else "character", kind="uploaded")  # fmt: skip


def as_named(table: Table, name: str) -> Table:
    """The table of a file's content under this session's name for the file (the one
    kept on the server was read from whoever uploaded the same content first)."""
    return replace(table, name=f"hf:{name}", label=f"{name} (tokenizers)")
