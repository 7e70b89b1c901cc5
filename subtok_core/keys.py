"""Cache keys from values: a digest of a canonical encoding, the same for equal values.

Every cache shared between sessions (the server-wide store, its copy on disk, the pages'
Streamlit caches) is keyed by what its result depends on: a corpus, settings, a model, a
text. ``fingerprint(*values)`` turns those into one short string. It used to be an md5 of
the values' pickle, and a pickle is not canonical: it writes a dict in insertion order, a
set in iteration order, and an object met twice as a back-reference, so two equal values
held by different objects could get two keys (a cache miss, a run trained twice).

Here each value is written in one canonical form, then hashed (sha256):

- a ``str`` by its length and its text; ``None``, ``bool``, ``int`` and ``float`` by their
  ``repr`` (whole numbers and floats in a tuple of nothing else by their 8 bytes), so
  ``1``, ``1.0``, ``True`` and ``"1"`` differ;
- a tuple, a list, ``bytes``, each tagged with its kind: ``(1, 2)`` and ``[1, 2]`` differ,
  as they are unequal in Python;
- a dict, a set, a frozenset with their items sorted by their own canonical form, so the
  order they were built in does not count (an ``OrderedDict`` keeps its order: two of them
  with another order are unequal); any other mapping (``Counter``...) by its type and its
  sorted items;
- an enum member, a dataclass or a named tuple (the core's records) by its type's module
  and name and its fields (those that take part in its equality);
- a numpy array by its dtype, shape and bytes; a numpy scalar by its dtype and value;
  a ``Fraction`` by its numerator and denominator.

Anything else raises TypeError with a sentence: a key never falls back to an object's
address or its pickle.

A page hashes a big value (a real sample's words, a model) once and passes the digest on:
a cached function that does not hash an argument (``_model``) takes its digest beside it.

>>> fingerprint({"a": 1, "b": 2}) == fingerprint({"b": 2, "a": 1})
True
>>> len({fingerprint(1), fingerprint(1.0), fingerprint(True), fingerprint("1")})
4
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import sys
from array import array
from collections import OrderedDict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

VERSION = "subtok-key 1"  # written before every encoding: change it when the encoding does
_ATOMS = frozenset({str, int, float, bool, type(None)})
PAIRS = 4  # tuples of at most this many atoms (a merge, a word and its count) go as one repr


def fingerprint(*values: Any) -> str:
    """A sha256 hex digest of `values` in their canonical form: equal values give one key
    wherever they were built, different ones (by value and type) different keys.

    >>> fingerprint("bpe", 10) == fingerprint("bpe", 10) != fingerprint("bpe", 11)
    True
    """
    return hashlib.sha256(canonical(values)).hexdigest()


def canonical(value: Any) -> bytes:
    """The bytes `fingerprint` hashes: VERSION, a line break, then the value's text.

    >>> canonical((1, "a", [2.5, None], {"b": True}))
    b'subtok-key 1\\nt*[1,s1:a,l(2.5, None),d[[s1:b|True]],]'
    """
    out = [VERSION, "\n"]
    _write(value, out)
    return "".join(out).encode("utf-8", "surrogatepass")


def _text(value: Any) -> str:
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _write(value: Any, out: list[str]) -> None:
    """Append `value`'s text to `out`: a string as its length and its text, any other atom
    as its repr (a float with its point: 1, 1.0, True and 's1:1' differ), anything else a
    tag that says what it is, then its parts. Each piece ends where a reader of it can
    tell, so the text of a value is never the text of another."""
    kind = type(value)
    if kind is str:
        out.append(f"s{len(value)}:{value}")
    elif kind in _ATOMS:
        out.append(repr(value))
    elif kind is tuple:
        _sequence("t", value, out)
    elif kind is list:
        _sequence("l", value, out)
    elif kind is dict:
        _items("d", value, out)
    elif kind is set or kind is frozenset:
        out.append(("s[" if kind is set else "f[") + ",".join(sorted(map(_text, value))) + "]")
    elif kind is bytes:
        out.append(f"b{len(value)}:{value.hex()}")
    elif isinstance(value, enum.Enum):
        out.append(f"e{_name(kind)}.{value.name!r}")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append(f"c{_name(kind)}[")
        for field in dataclasses.fields(value):
            if field.compare:  # the fields its equality reads
                out.append(f"{field.name}=")
                _write(getattr(value, field.name), out)
                out.append(",")
        out.append("]")
    elif isinstance(value, tuple) and hasattr(kind, "_fields"):  # a named tuple
        out.append(f"n{_name(kind)}")
        _sequence("t", value, out)
    elif isinstance(value, OrderedDict):  # its order is part of its equality
        out.append(f"o{_name(kind)}")
        _sequence("t", tuple(value.items()), out)
    elif isinstance(value, Mapping):
        _items(f"m{_name(kind)}", value, out)
    elif kind is Fraction:
        out.append(f"q{value.numerator}/{value.denominator}")
    else:
        numpy = sys.modules.get("numpy")  # no array exists before numpy is imported
        if numpy is None or not isinstance(value, numpy.ndarray | numpy.generic):
            raise TypeError(
                f"a value of type {_name(kind)} cannot be part of a cache key: a key is made "
                "from plain values (numbers, strings, bytes, tuples, lists, dicts, sets, "
                "enums, numpy arrays) and dataclasses or named tuples of them; pass what the "
                "result depends on instead."
            )
        _numpy(numpy, value, out)


def _sequence(tag: str, items, out: list[str]) -> None:
    """A tuple's or a list's items. Fast paths (no walk in Python) for items that are all
    strings, all atoms, or all short tuples of atoms (merges, pairs): the tag says which form
    follows, and which one a value takes depends on the value only."""
    kinds = set(map(type, items))
    if kinds == {str}:  # their lengths, then their text (repr scans every character)
        out.append(tag + "s" + _ints(tuple(map(len, items))) + "".join(items))
    elif kinds == {int} and (ints := _ints(items, strict=True)):
        out.append(tag + "i" + ints)
    elif kinds == {float}:  # their 8 bytes (as exact as their repr, and much faster)
        out.append(tag + "d" + _packed(array("d", items)))
    elif kinds <= _ATOMS:
        out.append(tag + repr(tuple(items)))
    elif kinds == {tuple} and all(len(i) <= PAIRS and set(map(type, i)) <= _ATOMS for i in items):
        out.append(tag + "t" + repr(tuple(items)))
    else:
        out.append(tag + "*[")
        for item in items:
            _write(item, out)
            out.append(",")
        out.append("]")


def _ints(items, strict: bool = False) -> str:
    """Whole numbers as their count and their 8-byte values in hex (much faster than their
    repr); those that do not all fit in 8 bytes as their repr, or "" when `strict`."""
    try:
        packed = array("q", items)
    except OverflowError:
        return "" if strict else repr(tuple(items))
    return _packed(packed)


def _packed(numbers: array) -> str:
    """An array of numbers as its length and its bytes (little-endian) in hex."""
    if sys.byteorder != "little":
        numbers.byteswap()
    return f"{len(numbers)}:{numbers.tobytes().hex()}"


def _items(tag: str, mapping, out: list[str]) -> None:
    """A mapping's items sorted by their keys' text (the order they were put in aside)."""
    pairs = sorted((_text(key), item) for key, item in mapping.items())
    out.append(tag + "[")
    for key, item in pairs:
        out.append(f"[{key}|")
        _write(item, out)
        out.append("]")
    out.append("]")


def _numpy(numpy, value, out: list[str]) -> None:
    """An array by dtype (in native byte order), shape and a digest of its bytes; a scalar
    by dtype and value; an array of Python objects by its items."""
    if isinstance(value, numpy.generic):
        out.append(f"g{value.dtype.newbyteorder('=').str}:")
        _write(value.item(), out)
    elif value.dtype.hasobject:
        out.append(f"A{value.shape}")
        _write(value.tolist(), out)
    else:
        native = value.astype(value.dtype.newbyteorder("="), copy=False)
        data = hashlib.sha256(numpy.ascontiguousarray(native).tobytes()).hexdigest()
        out.append(f"a{native.dtype.str}{value.shape}{data}")


def _name(kind: type) -> str:
    return f"{kind.__module__}:{kind.__qualname__}"
