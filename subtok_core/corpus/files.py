"""Bytes and files read as text, safely: UTF-8 only (UTF-16/32 and binary refused by name),
20 MB at most, and a path on the server's disk only where the caller allows it (the
command line, never the web app)."""

from __future__ import annotations

import codecs
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data"  # shipped in the package (wheel too)
MAX_BYTES = 20 * 1024 * 1024  # uploads and files above 20 MB are refused


def decode_upload(data: bytes, filename: str = "the file") -> str:
    """Bytes of an uploaded or opened file -> text, refusing what is not UTF-8 text.

    UTF-16 (and UTF-32) text is refused by name rather than decoded: a file without a
    byte order mark cannot be told apart from binary data for sure, and the lab reads
    every file one way.

    >>> decode_upload("low".encode("utf-16"), "notes.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: notes.txt is UTF-16 text, not UTF-8. Save it as UTF-8 (in most editors: ...
    """
    if len(data) > MAX_BYTES:
        size = len(data) / 1024 / 1024
        raise ValueError(f"{filename} is {size:.1f} MB; the limit is 20 MB. Use a shorter sample.")
    encoding = _wide_encoding(data)
    if encoding:
        raise ValueError(
            f"{filename} is {encoding} text, not UTF-8. Save it as UTF-8 (in most editors: "
            "Save as, encoding UTF-8) and use that file."
        )
    if b"\x00" in data:
        raise ValueError(
            f"{filename} looks like a binary file, not text. Upload a UTF-8 .txt file."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{filename} is not UTF-8 text (byte {err.start} cannot be read). Save it as UTF-8."
        ) from None
    if not text.strip():
        raise ValueError(f"{filename} is empty: it has no words.")
    return text


_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _wide_encoding(data: bytes) -> str | None:
    """'UTF-16' or 'UTF-32' when the bytes start with that byte order mark, or are UTF-16
    without one (a NUL byte in every other place, as Latin text in UTF-16 has); else None.

    >>> _wide_encoding("abc".encode("utf-16-le")), _wide_encoding(b"abc")
    ('UTF-16', None)
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if len(head) >= 4 and len(head) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        for nuls, rest in ((even, odd), (odd, even)):
            if nuls.count(0) >= 0.9 * len(nuls) and b"\x00" not in rest:
                return "UTF-16"
    return None


def read_file(path: str, allow_paths: bool = False) -> str:
    """The text of a .txt file as it is, line breaks included (a path only with
    `allow_paths`: the command line); a name that is no file raises ValueError."""
    return _read_path(path, allow_paths)


def _read_path(path_str: str, allow_paths: bool) -> str:
    if not allow_paths:  # the web app: nothing on the server's disk is named by a request
        raise ValueError(
            f"Unknown corpus {path_str[:80]!r}: choose toy:NAME or sample:NAME here, or upload "
            "a .txt file to use your own text."
        )
    path = Path(path_str)
    if not path.is_file():
        raise ValueError(
            f"Unknown corpus {path_str!r}: use toy:NAME, sample:NAME or the path of a .txt file."
        )
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path.name} is larger than 20 MB; use a shorter sample.")
    return decode_upload(path.read_bytes(), path.name)
