"""Bytes as a student reads them: GPT-2's byte letters, or text with hex for the rest.

Byte-level BPE works on the 256 byte values. The records (steps, models) write every
byte as one letter of GPT-2's table, so a symbol is a plain string, merging two symbols
is joining two strings, and a model file reads like Hugging Face's: visible bytes stand
for themselves, and the 68 others borrow a letter from U+0100 on (a space is ``Ġ``, a
line break ``Ċ``). ``show`` writes a token either way:

>>> show(" the".encode(), "gpt2"), show(" the".encode(), "hex")
('Ġthe', ' the')
>>> show("é".encode(), "gpt2"), show(b"\\xc3", "hex"), show("a\\n".encode(), "hex")
('Ã©', '<C3>', 'a<0A>')
>>> to_bytes("Ġthe")
b' the'
"""

from __future__ import annotations

from ..pretrained.base import display

STYLES = ("hex", "gpt2")


def _gpt2_letters() -> tuple[str, ...]:
    """The letter GPT-2 writes for each byte value 0..255 (its ``bytes_to_unicode``).

    Why a table at all: GPT-2's BPE code works on Unicode strings and keeps its merges in
    a text file, one "left right" pair per line. Every byte therefore needs a character
    that is visible and not whitespace: a space would split a line into three fields, and
    a control character would be invisible or break the file.
    """
    # bytes that are visible Latin-1 characters stand for themselves: ! to ~, ¡ to ¬, ® to ÿ
    visible = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    letters = {b: chr(b) for b in visible}
    # the other 68 (controls, space, DEL, no-break space, soft hyphen) take the characters
    # from U+0100 on, in byte order: byte 0 is Ā, the space (32) is Ġ, a line break (10) Ċ
    hidden = [b for b in range(256) if b not in letters]
    letters.update({b: chr(0x100 + n) for n, b in enumerate(hidden)})
    return tuple(letters[b] for b in range(256))


BYTE_LETTERS = _gpt2_letters()  # byte value -> its letter
LETTER_BYTES = {letter: b for b, letter in enumerate(BYTE_LETTERS)}  # and back

# The 256 base symbols in id order: by the code point of their letters, as Hugging Face's
# BpeTrainer numbers its alphabet. cl100k_base's first 256 ranks follow the same order
# (! is 0, byte 0 is 188), so ids of byte-level models here line up with both.
BASE_SYMBOLS = tuple(sorted(BYTE_LETTERS))


def to_letters(token: bytes) -> str:
    """Bytes -> GPT-2 letters, one letter per byte."""
    return "".join(BYTE_LETTERS[b] for b in token)


def to_bytes(symbol: str) -> bytes:
    """GPT-2 letters -> bytes; a character outside the table raises ValueError.

    >>> to_bytes("a b")
    Traceback (most recent call last):
    ...
    ValueError: ' ' is not one of GPT-2's byte letters, so 'a b' is no byte-level symbol.
    """
    try:
        return bytes(LETTER_BYTES[ch] for ch in symbol)
    except KeyError as err:
        raise ValueError(
            f"{err.args[0]!r} is not one of GPT-2's byte letters, so {symbol!r} is no "
            "byte-level symbol."
        ) from None


def show(token: bytes | str, style: str = "hex") -> str:
    """A token as a student reads it. `token` is bytes, or a symbol as the records write
    it (GPT-2 letters).

    - ``hex``: printable characters as themselves; every other byte (line breaks, tabs,
      control characters, the bytes of a character cut apart) as hex in angle brackets.
    - ``gpt2``: one GPT-2 letter per byte, as Hugging Face tokenizers writes merges.
    """
    data = to_bytes(token) if isinstance(token, str) else bytes(token)
    if style == "gpt2":
        return to_letters(data)
    if style != "hex":
        raise ValueError(f"Unknown byte display {style!r}; choose one of {', '.join(STYLES)}.")
    # whole characters as text, stray bytes as <hex> (as the pretrained tokenizers show them)
    return "".join(ch if ch.isprintable() else _hex(ch.encode()) for ch in display(data))


def _hex(data: bytes) -> str:
    return "<" + " ".join(f"{b:02X}" for b in data) + ">"
