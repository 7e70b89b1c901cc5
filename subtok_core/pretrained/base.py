"""What every pretrained tokenizer shares: the record, how a byte token is shown, and how
byte offsets become character offsets.

A byte-level tokenizer (cl100k_base, Tekken) cuts the UTF-8 bytes of a text, so a token
can hold part of a character: 😀 is the four bytes F0 9F 98 80, and cl100k_base may cut
it into two tokens. ``display`` shows the bytes that spell whole characters as text and
the others as hex bytes in angle brackets:

>>> display("😀".encode()), display(b"\\xf0\\x9f"), display(b" \\xf0\\x9f"), display(b"\\x98\\x80!")
('😀', '<F0 9F>', ' <F0 9F>', '<98 80>!')

Character offsets of byte tokens (``char_spans``). Rule: a token covers every character
that has at least one of its bytes. So a token ending inside a character ends after that
character, and a token starting inside one starts at it; two tokens that split one
character both cover it, and their spans overlap by that one character. Starts and ends
never decrease, and a token made only of whole characters covers exactly those.

>>> char_spans([b"hi", b" \\xf0\\x9f", b"\\x98\\x80", b"!"])
[(0, 2), (2, 4), (3, 4), (4, 5)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from ..records import SOW, Encoded

CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 bytes that never start a character

# what pages and tables call each built-in tokenizer (known before its file is read)
LABELS = {
    "cl100k_base": "cl100k_base (GPT-4)",
    "mistral-v1": "Mistral v1",
    "mistral-v3": "Mistral v3",
    "tekken": "Tekken (Mistral)",
}


@dataclass(frozen=True, slots=True, eq=False)
class Pretrained:
    """A real tokenizer loaded from a vocabulary file that a package ships.

    ``name`` is what the registry and the CLI call it; ``provenance`` one line on where it
    comes from (the models that use it, its vocabulary size counted from the loaded file,
    byte-level or not, the package and file). ``encode(text)`` gives the tokens as spans
    with character offsets into ``text`` and their ids; ``word_segmenter()`` gives a
    function word -> token strings for the measures, whose pieces mark a word start with
    ``▁`` (``style`` "sow", as the measures name marker styles).
    """

    name: str
    label: str
    provenance: str
    vocab_size: int
    byte_level: bool
    encoder: Callable[[str], Encoded] = field(repr=False)
    segmenter: Callable[[str], list[str]] = field(repr=False)
    style: str = "sow"
    trained: ClassVar[bool] = False  # records.Tokenizer: read from a file, not trained here

    def encode(self, text: str) -> Encoded:
        """`text` as tokens: spans (text, start, end) in characters, and their ids."""
        return self.encoder(text)

    def word_segmenter(self) -> Callable[[str], list[str]]:
        """word -> its token strings, as the word is cut inside running text."""
        return self.segmenter

    def vocabulary(self, used: tuple[str, ...]) -> tuple[str, ...]:
        """The pieces the vocabulary measures read: those it `used` on the measured corpus
        (most of its entries were made on other text and never occur there)."""
        return used


def display(token: bytes) -> str:
    """A byte token as a student reads it: the bytes that spell whole characters as text,
    every other run of bytes as hex in angle brackets ("<F0 9F>")."""
    try:
        return token.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    stray = bytearray()
    i = 0
    while i < len(token):
        size = _char_size(token, i)
        if size:  # a whole character: flush the stray bytes before it, then write it
            if stray:
                out.append(_hex(stray))
                stray.clear()
            out.append(token[i : i + size].decode("utf-8"))
            i += size
        else:
            stray.append(token[i])
            i += 1
    if stray:
        out.append(_hex(stray))
    return "".join(out)


def _char_size(data: bytes, i: int) -> int:
    """The byte length of the whole UTF-8 character starting at data[i], or 0 if none does."""
    lead = data[i]
    size = 1 if lead < 0x80 else 2 if 0xC2 <= lead < 0xE0 else 3 if 0xE0 <= lead < 0xF0 else 4
    if lead >= 0xF5 or 0x80 <= lead < 0xC2:
        return 0
    try:
        data[i : i + size].decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return size


def _hex(data: bytes | bytearray) -> str:
    return "<" + " ".join(f"{b:02X}" for b in data) + ">"


def token_facts(token: bytes) -> tuple[str, int, int]:
    """What ``char_spans`` needs of one token, worked out once per token id: how it is
    shown, 1 if it starts inside a character (else 0), and how many characters start in it.
    """
    inside = 1 if token and token[0] in CONTINUATION else 0
    return display(token), inside, len(token.translate(None, CONTINUATION))


def char_spans(tokens: Iterable[bytes]) -> list[tuple[int, int]]:
    """Character spans (start, end) of byte tokens that spell a valid UTF-8 text in order
    (see the rule in the module docstring)."""
    spans, chars = [], 0
    for token in tokens:
        _, inside, starting = token_facts(token)
        start = chars - inside  # inside a character: the span starts at that character
        chars += starting  # every character whose first byte is here ends by this token
        spans.append((start, chars))
    return spans


def char_offsets(text: str) -> tuple[list[int], list[int]]:
    """Tables from a UTF-8 byte offset of `text` to character offsets: ``floor[b]`` is the
    character holding byte b (a span's start), ``ceil[b]`` the first character starting at
    or after b (a span's end). Both have len(text.encode()) + 1 entries.

    >>> char_offsets("aé")
    ([0, 1, 1, 2], [0, 1, 2, 2])
    """
    floor: list[int] = []
    ceil: list[int] = []
    for i, ch in enumerate(text):
        size = len(ch.encode("utf-8"))
        floor += [i] * size
        ceil += [i] + [i + 1] * (size - 1)
    floor.append(len(text))
    ceil.append(len(text))
    return floor, ceil


def as_word_start(pieces: list[str]) -> list[str]:
    """Pieces of " " + word with the leading space written ▁, as SentencePiece writes it.

    >>> as_word_start([" hello"]), as_word_start([" ", "123"])
    (['▁hello'], ['▁', '123'])
    """
    if pieces and pieces[0].startswith(" "):
        pieces[0] = SOW + pieces[0][1:]
    return pieces
