"""What plain data read from disk may build (subtok_core.plaindata): numpy numbers and
arrays of numbers only, and a record's fields of the types the record declares."""

from __future__ import annotations

import functools
import numbers
import sys
import types
import typing
from typing import Any

NUMERIC = "biufc"  # the numpy kinds a run holds: bool, integers, floats, complex numbers


def numeric(dtype) -> Any:
    """The numpy dtype named, if it is a number's (bool, int, float, complex) of at most 16
    bytes; else ValueError (a void, text, object or structured dtype of any size)."""
    import numpy as np  # (only a run that holds numpy's numbers or arrays needs it)

    try:
        kind = np.dtype(str(dtype))
    except TypeError:
        kind = None
    if kind is None or kind.kind not in NUMERIC or kind.itemsize > 16 or kind.fields:
        raise ValueError(f"a numpy number of dtype {str(dtype)[:40]!r} is not plain data")
    return kind


# what a declared number accepts: numpy's numbers as well (np.int64 is no int, np.bool_ no bool)
_NUMBERS = {int: numbers.Integral, float: numbers.Real, complex: numbers.Complex}


@functools.cache
def field_types(kind: type) -> dict[str, tuple[type, ...]]:
    """{field: the types its value may have} for the fields of a record whose declared
    type can be checked with isinstance (a class, a generic's container, a union of them);
    a field declared otherwise (Any, a type variable, a name that cannot be resolved) is
    not checked."""
    try:
        hints = typing.get_type_hints(kind)
    except Exception:  # a name imported only for type checkers: nothing is checked
        return {}
    found = {}
    for name, hint in hints.items():
        allowed = _classes(hint)
        if allowed:
            found[name] = allowed
    return found


def _classes(hint: Any) -> tuple[type, ...]:
    """The classes a value declared as `hint` is an instance of; () when it cannot be said."""
    if hint is None or hint is type(None):
        return (type(None),)
    if hint is bool:
        numpy = sys.modules.get("numpy")
        return (bool,) if numpy is None else (bool, numpy.bool_)
    if hint in _NUMBERS:
        return (_NUMBERS[hint],)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        parts = [_classes(arg) for arg in typing.get_args(hint)]
        return () if not all(parts) else tuple(c for part in parts for c in part)
    if origin is typing.Literal:
        return tuple({type(arg) for arg in typing.get_args(hint)})
    if origin is not None:
        hint = origin
    return (hint,) if isinstance(hint, type) and hint is not typing.Any else ()
