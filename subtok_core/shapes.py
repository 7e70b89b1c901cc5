"""What a table read back from the disk cache must be, declared once per kind of table.

A derived table (lessons.ui.store.derived) is read from a file any process of this user
could have written: its header and seal say whose file it is, not that its body is the
table the page draws. A shape says what the page expects, and `refused(shape, value)`
says why a value is not that (a sentence naming where: ``['examples']['ok'][0]``), or
None. A shape is written as the value it describes:

- a class: an instance of it (``int`` and ``float`` take numpy's numbers too, never a
  bool for an int); a record of the core (a dataclass or a named tuple) has each field
  checked by the type it declares, all the way down (``tuple[Span, ...]``, ``int | None``);
  ``record(Kind, field=shape)`` overrides a field the declaration cannot say (a DataFrame's
  columns);
- ``None``: None; a dict ``{"key": shape}``: a dict with exactly these keys; a tuple
  ``(a, b)``: a tuple of that many items;
- ``many(shape)``: a tuple (or ``kind``) of any length, each item of `shape`;
  ``mapping(key, value)``: a dict of any keys; ``maybe(shape)``, ``either(*shapes)``;
  ``among(*values)``: one of these values; ``such_that(shape, test, says)``: a test more;
- ``frame(columns)`` (subtok_core.measure.shapes): a pandas DataFrame with these columns;
- ``said_by(why)``: what a function says (a chart's spec: lessons.ui.cached.spec_refused).

>>> refused({"size": int, "codes": str}, {"size": "7", "codes": "so"})
"['size'] holds a str, not an int"
>>> refused(many((int, str)), ((1, "a"), (2, "b", 3)))
'[1] holds 3 items, not 2'
>>> refused(maybe(many(str, list)), {"a": 1})
'it holds a dict, not a list'
"""

from __future__ import annotations

import dataclasses
import functools
import numbers
import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

_SAID = {int: "an int", float: "a number", str: "a str", bytes: "bytes", bool: "a bool"}
_CHECKED = {int: numbers.Integral, float: numbers.Real, complex: numbers.Complex}


def refused(shape: Any, value: Any) -> str | None:
    """Why `value` is not of `shape` (a sentence that names where), or None."""
    try:
        why = _why(shape, value, "")
    except RecursionError:
        return "it is nested deeper than any table"
    return None if why is None else f"{why[0] or 'it'} {why[1]}"


def expect(shape: Any) -> Callable[[Any], str | None]:
    """`shape` as what Store.get's `expect` takes: why(value) -> str | None."""
    return functools.partial(refused, shape)


class Shape:
    """A shape that is not a plain class or literal (see the module's list): its
    why(value, where) is (where, what is wrong there) or None."""


class many(Shape):  # (lower case: read as a declaration, many(int))
    def __init__(self, item: Any, kind: type | tuple[type, ...] = tuple) -> None:
        self.item, self.kind = item, kind

    def why(self, value, where):
        if not isinstance(value, self.kind):
            return holds_not(value, where, _said(self.kind))
        return _first(_why(self.item, item, f"{where}[{n}]") for n, item in enumerate(value))


class mapping(Shape):
    def __init__(self, key: Any, value: Any) -> None:
        self.key, self.value = key, value

    def why(self, value, where):
        if not isinstance(value, dict):
            return holds_not(value, where, "a dict")
        return _first(
            _why(self.key, k, f"{where} (a key)") or _why(self.value, v, f"{where}[{k!r}]")
            for k, v in value.items()
        )


class either(Shape):
    def __init__(self, *shapes: Any) -> None:
        self.shapes = shapes

    def why(self, value, where):
        found = [_why(shape, value, where) for shape in self.shapes]
        return None if None in found else found[-1]


def maybe(shape: Any) -> either:
    return either(None, shape)


class among(Shape):
    def __init__(self, *values: Any) -> None:
        self.values = values

    def why(self, value, where):
        if type(value) in (str, int, bool) and value in self.values:
            return None
        return where, f"holds {_text(value)}, none of {', '.join(map(repr, self.values))}"


class such_that(Shape):
    """`shape`, and test(value) true (else `says`: what the value does instead)."""

    def __init__(self, shape: Any, test: Callable[[Any], bool], says: str) -> None:
        self.shape, self.test, self.says = shape, test, says

    def why(self, value, where):
        return _why(self.shape, value, where) or (None if self.test(value) else (where, self.says))


class record(Shape):
    """An instance of the record `kind`, each field of its declared type, or of the shape
    given here for it (a field declared as a DataFrame: its columns)."""

    def __init__(self, kind: type, **fields: Any) -> None:
        self.kind = kind
        self.fields = {**_declared(kind), **fields}

    def why(self, value, where):
        if not isinstance(value, self.kind):
            return holds_not(value, where, f"a {self.kind.__name__}")
        return _first(
            _why(shape, getattr(value, name), f"{where}.{name}" if where else name)
            for name, shape in self.fields.items()
        )


def keys_of(kind: type) -> dict[str, Any]:
    """The shape of a record's fields as a dict (what dataclasses.asdict makes of it)."""
    return dict(_declared(kind))


def _why(shape: Any, value: Any, where: str) -> tuple[str, str] | None:
    """(where, what is wrong there) or None."""
    if isinstance(shape, Shape):
        return shape.why(value, where)
    if shape is None or shape is type(None):
        return None if value is None else holds_not(value, where, "None")
    if isinstance(shape, dict):
        if type(value) is not dict:
            return holds_not(value, where, "a dict")
        if set(value) != set(shape):
            missing, more = sorted(map(str, set(shape) - set(value))), set(value) - set(shape)
            return where, (f"lacks {', '.join(missing)}" if missing else f"holds {len(more)} "
                           "keys more than it should")  # fmt: skip
        return _first(_why(s, value[k], f"{where}[{k!r}]") for k, s in shape.items())
    if isinstance(shape, tuple):
        if type(value) is not tuple:
            return holds_not(value, where, "a tuple")
        if len(value) != len(shape):
            return where, f"holds {len(value)} items, not {len(shape)}"
        return _first(_why(s, v, f"{where}[{n}]") for n, (s, v) in enumerate(zip(shape, value)))
    if isinstance(shape, type):
        if _is_record(shape):
            return record(shape).why(value, where)
        if shape is int and isinstance(value, bool):
            return holds_not(value, where, "an int")
        if isinstance(value, _CHECKED.get(shape, shape)) or (shape is bool and _numpy_bool(value)):
            return None
        return holds_not(value, where, _said(shape))
    raise TypeError(f"{shape!r} is not a shape")


def _numpy_bool(value: Any) -> bool:
    numpy = sys.modules.get("numpy")  # (no numpy bool exists before numpy is imported)
    return numpy is not None and isinstance(value, numpy.bool_)


def _first(found) -> tuple[str, str] | None:
    """The first of `found` that is not None (the first thing wrong), or None."""
    return next(filter(None, found), None)


def holds_not(value: Any, where: str, wanted: str) -> tuple[str, str]:
    return where, f"holds {_text(value)}, not {wanted}"


def _text(value: Any) -> str:
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def _said(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_SAID.get(k, f"a {k.__name__}") for k in kinds)


def _is_record(kind: type) -> bool:
    return dataclasses.is_dataclass(kind) or (issubclass(kind, tuple) and hasattr(kind, "_fields"))


@functools.cache
def _declared(kind: type) -> dict[str, Any]:
    """{field: its shape} of a record, from the types it declares (a field whose type
    cannot be resolved is not checked)."""
    try:
        hints = typing.get_type_hints(kind)
    except Exception:  # a name imported only for type checkers
        hints = {}
    names = kind._fields if issubclass(kind, tuple) else [f.name for f in dataclasses.fields(kind)]
    return {name: _from_hint(hints[name]) for name in names if name in hints}


class said_by(Shape):
    """A shape a function checks: why(value) -> a sentence, or None."""

    def __init__(self, why: Callable[[Any], str | None]) -> None:
        self.function = why

    def why(self, value, where):
        found = self.function(value)
        return None if found is None else (where, found.removeprefix("it "))


ANYTHING = said_by(lambda value: None)


def _from_hint(hint: Any) -> Any:
    """The shape of a declared type (Any, a type variable, a callable: anything)."""
    if hint is None or hint is type(None) or hint in (int, float, str, bytes, bool):
        return hint
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return either(*map(_from_hint, args))
    if origin is typing.Literal:
        return among(*args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return many(_from_hint(args[0]))
        return tuple(map(_from_hint, args)) if args else tuple
    if origin in (list, set, frozenset):
        return many(_from_hint(args[0]) if args else ANYTHING, origin)
    if origin is Sequence:
        return many(_from_hint(args[0]) if args else ANYTHING, (tuple, list))
    if origin in (dict, Mapping) and len(args) == 2:
        return mapping(_from_hint(args[0]), _from_hint(args[1]))
    kind = origin or hint
    if isinstance(kind, type) and kind is not typing.Any and not issubclass(kind, Callable):
        return kind
    return ANYTHING
