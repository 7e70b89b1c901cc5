"""Any Hugging Face ``tokenizer.json``, read by the tokenizers library.

The file holds the whole pipeline (normalizer, pre-tokenizer, model, decoder); its tokens
and character offsets are taken as tokenizers gives them, without special tokens and
without the file's truncation or padding. For a byte-level file (GPT-2 style, tokens such
as ``Ġworld``) each token is turned back into its bytes and shown as text, or as hex bytes
in angle brackets for part of a character (see base.display).

>>> from tokenizers import Tokenizer, models, pre_tokenizers
>>> raw = Tokenizer(models.WordLevel({"[UNK]": 0, "hi": 1}, unk_token="[UNK]"))
>>> raw.pre_tokenizer = pre_tokenizers.Whitespace()
>>> tok = from_str(raw.to_str(), "tiny.json")
>>> tok.name, [(s.text, s.start, s.end) for s in tok.encode("hi yo").spans]
('hf:tiny.json', [('hi', 0, 2), ('[UNK]', 3, 5)])
"""

from __future__ import annotations

import functools
import stat
from pathlib import Path
from typing import Any

from .. import userjson
from ..markers import vocab_style
from ..records import Encoded, Span
from .base import Pretrained, as_word_start, display
from .crash import guarded, library_call
from .files import MAX_BYTES

# what a loaded tokenizer.json holds in memory per byte of its file: a 20 MB WordLevel file
# of 1M tokens added 297 MB to the process (tokenizers' own tables and ours)
MEMORY_PER_BYTE = 15


@functools.cache
def byte_table() -> dict[str, int]:
    """GPT-2's printable stand-in character for each byte -> the byte (Ġ -> 0x20)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
            *range(ord("®"), ord("ÿ") + 1)]  # fmt: skip
    table, extra = {}, 0
    for byte in range(256):
        if byte in keep:
            table[chr(byte)] = byte
        else:  # bytes without a printable look-alike take the characters after 255
            table[chr(256 + extra)] = byte
            extra += 1
    return table


def _has_byte_level(part: Any) -> bool:
    """Whether a pre-tokenizer or decoder (as JSON) is ByteLevel or a sequence holding one."""
    if not isinstance(part, dict):
        return False
    if part.get("type") == "ByteLevel":
        return True
    inner = part.get("pretokenizers") or part.get("decoders") or []
    return any(_has_byte_level(p) for p in inner)


def _shower(byte_level: bool):
    """token string -> what a student reads: byte-level tokens through their bytes."""
    if not byte_level:
        return str
    table = byte_table()

    @functools.cache
    def show(token: str) -> str:
        if all(c in table for c in token):
            return display(bytes(table[c] for c in token))
        return token  # an added token (<|endoftext|>) is written as itself

    return show


def from_str(text: str, name: str = "tokenizer.json", origin: str = "") -> Pretrained:
    """A Pretrained from the text of a tokenizer.json; ValueError if tokenizers refuses it."""
    from tokenizers import Tokenizer

    def refused(err: Exception) -> ValueError:
        why = str(err).splitlines()[0] if str(err) else type(err).__name__
        return ValueError(f"{name!r} is not a Hugging Face tokenizer.json: {why}.")

    try:
        data = userjson.loads(text)
    except ValueError as err:
        raise refused(err) from None
    if not isinstance(data, dict):
        raise refused(ValueError("it holds no JSON object"))
    why = merges_refused(data.get("model"))
    if why:
        raise ValueError(f"{name!r} is not a usable tokenizer.json: {why}.")
    with library_call("tokenizers", f"reading {name!r}", quiet=True):
        try:
            tok = Tokenizer.from_str(text)
        except Exception as err:  # the Rust loader's plain Exception
            raise refused(err) from None
        tok.no_truncation()
        tok.no_padding()
    byte_level = _has_byte_level(data.get("pre_tokenizer")) or _has_byte_level(data.get("decoder"))
    show = _shower(byte_level)

    doing = f"encoding with {name!r}"

    @functools.partial(guarded, library="tokenizers", doing=doing)
    def encode(text: str) -> Encoded:
        out = tok.encode(text, add_special_tokens=False)
        spans = tuple(Span(show(t), s, e) for t, (s, e) in zip(out.tokens, out.offsets))
        return Encoded(spans, tuple(out.ids))

    def segment(word: str) -> list[str]:
        if byte_level:  # as inside running text, after a space, written ▁
            return as_word_start([show(t) for t in encode_tokens(" " + word)])
        return encode_tokens(word)

    @functools.partial(guarded, library="tokenizers", doing=doing)
    def encode_tokens(text: str) -> list[str]:
        return tok.encode(text, add_special_tokens=False).tokens

    with library_call("tokenizers", f"reading {name!r}"):
        size = tok.get_vocab_size(with_added_tokens=True)
        style = "sow" if byte_level else _style(tok)
    model = (data.get("model") or {}).get("type", "unknown")
    level = "byte-level" if byte_level else "not byte-level"
    provenance = f"a Hugging Face tokenizer.json; {size:,} tokens ({model} model); {level}"
    provenance += f"; from {origin or name}"
    return Pretrained(f"hf:{name}", f"{name} (tokenizers)", provenance, size, byte_level,
                      encode, segment, style)  # fmt: skip


def merges_refused(model: Any) -> str | None:
    """Why a BPE model's merges (as JSON) do not fit its vocabulary, or None: each merge is
    two tokens of the vocabulary whose join is a token of it too (tokenizers panicked on a
    join it lacks, printing Rust's report before any sentence). Other models: None.

    >>> merges_refused({"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2},
    ...                 "merges": [["a", "b"], "ab b"]})
    "merge 2 ('ab', 'b') makes 'abb', which is not in the vocabulary"
    """
    if not (isinstance(model, dict) and model.get("type") == "BPE"):
        return None
    vocab, merges = model.get("vocab"), model.get("merges")
    if not isinstance(vocab, dict) or not isinstance(merges, list):
        return "its BPE model needs a vocabulary (an object) and merges (a list)"
    prefix = model.get("continuing_subword_prefix") or ""
    for number, merge in enumerate(merges, 1):
        pair = merge.split(" ") if isinstance(merge, str) else merge
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        ):
            return f"merge {number} ({str(merge)[:60]!r}) is not two tokens"
        a, b = pair
        for part in (a, b):
            if part not in vocab:
                return (
                    f"merge {number} ({a!r}, {b!r}) joins {part!r}, which is not in the vocabulary"
                )
        joined = a + (b[len(prefix) :] if prefix and b.startswith(prefix) else b)
        if joined not in vocab:
            return f"merge {number} ({a!r}, {b!r}) makes {joined!r}, which is not in the vocabulary"
    return None


def _style(tok) -> str:
    """The marker style of the vocabulary (▁, ##, </w> or none), as the measures read it."""
    return vocab_style(list(tok.get_vocab(with_added_tokens=False)))


def load(path: str | Path) -> Pretrained:
    """The tokenizer.json at `path` (read again when the file changes)."""
    name = str(path)
    try:
        info = Path(path).stat()
    except FileNotFoundError:
        raise ValueError(f"There is no tokenizer file {name!r}.") from None
    except OSError as err:
        raise ValueError(f"{name!r} cannot be read: {err.strerror or err}.") from None
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{name!r} is not a regular file, so it is no tokenizer.json.")
    if info.st_size > MAX_BYTES:
        raise ValueError(f"{name!r} has {info.st_size:,} bytes; a tokenizer.json here has "
                         f"at most {MAX_BYTES:,}.")  # fmt: skip
    return _load(str(Path(path).resolve()), info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> Pretrained:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise ValueError(
            f"{path!r} cannot be read as a text file, so it is no tokenizer.json."
        ) from None
    return from_str(text, Path(path).name, path)
