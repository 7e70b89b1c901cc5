"""Runs as plain data: what the disk cache writes instead of a pickle.

A pickle read from disk can run any code it names; this format can only ever build the
containers below, numbers, strings, numpy arrays of numbers, and the core's own record
types (frozen dataclasses and named tuples defined in ``subtok_core``), each filled field
by field without calling any of its code. A name that is not such a type is refused, and
so is a field whose value is not of the type the record declares for it, a numpy number
or array of anything but numbers (a 2 GB "void" scalar is 118 bytes of JSON), and an
array whose bytes do not fill its shape.

Encoded, a value is JSON: a tuple is a JSON array (traces are tuples all the way down);
anything else is a one-key object whose key says what it is.

>>> decode(encode((1, "a", [2.5, None], {("l", "o"): 3})))
(1, 'a', [2.5, None], {('l', 'o'): 3})
>>> from subtok_core.records import Span
>>> decode(encode(Span("lo", 0, 2)))
Span(text='lo', start=0, end=2)
>>> decode(b'{"c": ["os", "system", []]}')
Traceback (most recent call last):
...
ValueError: the type os:system is not one of subtok's records
>>> decode(b'{"n": ["V", 2000000000]}')
Traceback (most recent call last):
...
ValueError: a numpy number of dtype 'V' is not plain data
"""

from __future__ import annotations

import base64
import dataclasses
import importlib
import json
import sys
from collections import Counter, OrderedDict
from fractions import Fraction
from typing import Any

from . import plaincheck

PACKAGE = "subtok_core"
_CONTAINERS = {list: "l", set: "s", frozenset: "f", Counter: "C", OrderedDict: "O"}


def encode(value: Any) -> bytes:
    """`value` as JSON bytes; TypeError for a value of a kind this format does not hold."""
    return json.dumps(_plain(value), separators=(",", ":")).encode()


def decode(data: bytes | str) -> Any:
    """The value `encode` wrote; ValueError for anything else."""
    try:
        return _value(json.loads(data))
    except (KeyError, IndexError, TypeError, AttributeError) as err:
        raise ValueError(f"not a run in subtok's plain format ({type(err).__name__})") from None


def _plain(value: Any) -> Any:
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is tuple:
        return [_plain(item) for item in value]
    if kind in _CONTAINERS:
        if kind in (Counter, OrderedDict):
            return {_CONTAINERS[kind]: [[_plain(k), _plain(v)] for k, v in value.items()]}
        items = sorted(value, key=repr) if kind in (set, frozenset) else value
        return {_CONTAINERS[kind]: [_plain(item) for item in items]}
    if kind is dict:
        return {"d": [[_plain(k), _plain(v)] for k, v in value.items()]}
    if kind is Fraction:
        return {"q": [value.numerator, value.denominator]}
    if kind is bytes:
        return {"b": base64.b64encode(value).decode()}
    # no array exists before numpy is imported: a run of BPE is written without importing it
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("an array of Python objects is not plain data")
        flat = np.ascontiguousarray(value)
        data = base64.b64encode(flat).decode()
        return {"a": [flat.dtype.str, list(flat.shape), data, bool(value.flags.writeable)]}
    if np is not None and isinstance(value, np.generic):
        return {"n": [value.dtype.str, value.item()]}
    if kind.__name__ == "DataFrame" and kind.__module__.partition(".")[0] == "pandas":
        return {"D": _frame(value)}
    return _record(value)


def _frame(frame) -> list:
    """A DataFrame as plain data: its columns' names, each column (a numeric one as a numpy
    array, any other as a list of plain values, with its dtype's name) and its index."""
    import numpy as np
    import pandas as pd  # here: a command that keeps no table does not pay for pandas

    if not frame.columns.is_unique:
        raise TypeError("a DataFrame with repeated column names is not plain data")
    columns = []
    for name in frame.columns:
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype) and column.dtype.ordered:
            raise TypeError("an ordered category column is not plain data")
        numeric = column.dtype.kind in "biufc" and isinstance(column.dtype, np.dtype)
        values = column.to_numpy() if numeric else column.tolist()
        columns.append([_plain(name), _dtype(column.dtype), _plain(values)])
    index = frame.index
    if isinstance(index, pd.RangeIndex):
        where = {"r": [index.start, index.stop, index.step, _plain(index.name)]}
    else:
        where = {"i": [_plain(index.tolist()), _plain(index.name), _dtype(index.dtype)]}
    return [columns, where]


def _unframe(body: list):
    """The DataFrame _frame wrote (a column's dtype set again by name: numeric, bool,
    object, string or category only)."""
    import pandas as pd

    columns, where = body
    ((tag, spec),) = where.items()
    if tag == "r":
        index = pd.RangeIndex(int(spec[0]), int(spec[1]), int(spec[2]), name=_value(spec[3]))
    else:
        index = pd.Index(list(_value(spec[0])), name=_value(spec[1]), dtype=_checked(spec[2]))
    data = {}
    for name, dtype, values in columns:
        data[_value(name)] = pd.Series(list(_value(values)), index=index, dtype=_checked(dtype))
    return pd.DataFrame(data, index=index, columns=[_value(c[0]) for c in columns])


def _dtype(dtype) -> str:
    """A column's dtype by name (a category's categories are its values again)."""
    return str(dtype)


def _checked(dtype: str) -> str:
    """`dtype` if it is one a DataFrame read from disk may have: numbers, bool, text,
    object, category."""
    import numpy as np

    if not (dtype in _NAMED_DTYPES or np.dtype(dtype).kind in "biufcO"):
        raise ValueError(f"a column of dtype {dtype!r} is not plain data")
    return dtype


_NAMED_DTYPES = ("category", "str", "string", "object", "bool", "boolean", "Int64", "Float64")


def _record(value: Any) -> Any:
    kind = type(value)
    name = f"{kind.__module__}:{kind.__qualname__}"
    if not _ours(kind):
        raise TypeError(f"a {name} is not plain data")
    if dataclasses.is_dataclass(value):
        fields = [_plain(getattr(value, f.name)) for f in dataclasses.fields(value)]
    else:  # a named tuple
        fields = [_plain(item) for item in value]
    return {"c": [kind.__module__, kind.__qualname__, fields]}


def _ours(kind: type) -> bool:
    """Whether `kind` is one of the core's records: a dataclass or a named tuple defined in
    subtok_core."""
    module = getattr(kind, "__module__", "")
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return False
    named_tuple = issubclass(kind, tuple) and hasattr(kind, "_fields")
    return named_tuple or (dataclasses.is_dataclass(kind) and isinstance(kind, type))


def _type(module: str, qualname: str) -> type:
    """The record type named, looked up among the core's modules only."""
    ours = isinstance(module, str) and (module == PACKAGE or module.startswith(PACKAGE + "."))
    if not ours or "__main__" in module:  # importing the CLI's entry point would run it
        raise ValueError(f"the type {module}:{qualname} is not one of subtok's records")
    found: Any = importlib.import_module(module)
    for part in str(qualname).split("."):
        found = getattr(found, part, None)
    if not (isinstance(found, type) and _ours(found)):
        raise ValueError(f"the type {module}:{qualname} is not one of subtok's records")
    return found


def _value(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(_value(item) for item in data)
    if not isinstance(data, dict):
        return data
    ((tag, body),) = data.items()
    if tag == "d":
        return {_value(k): _value(v) for k, v in body}
    if tag in ("C", "O"):
        kind = Counter if tag == "C" else OrderedDict
        return kind((_value(k), _value(v)) for k, v in body)
    if tag in ("l", "s", "f"):
        kind = {"l": list, "s": set, "f": frozenset}[tag]
        return kind(_value(item) for item in body)
    if tag == "q":
        return Fraction(int(body[0]), int(body[1]))
    if tag == "b":
        return base64.b64decode(body)
    if tag == "a":
        return _array(*body)
    if tag == "n":
        return _number(*body)
    if tag == "D":
        return _unframe(body)
    if tag == "c":
        return _build(_type(body[0], body[1]), [_value(item) for item in body[2]])
    raise ValueError(f"unknown tag {tag!r}")


def _number(dtype: str, value: Any):
    kind = plaincheck.numeric(dtype)
    if not isinstance(value, bool | int | float):
        raise ValueError(f"a numpy number's value must be a number, not {type(value).__name__}")
    return kind.type(value)


def _array(dtype: str, shape: list, data: str, writeable: bool):
    import numpy as np

    kind = plaincheck.numeric(dtype)
    if not (isinstance(shape, list) and all(type(n) is int and n >= 0 for n in shape)):
        raise ValueError("an array's shape must be a list of counts")
    raw = base64.b64decode(data)
    if len(raw) != kind.itemsize * int(np.prod(shape, dtype=object)):
        raise ValueError(f"an array of shape {shape[:4]} holds {len(raw)} bytes, not its size")
    array = np.frombuffer(raw, dtype=kind).reshape(shape)
    return array.copy() if writeable else array  # frombuffer's array is read-only


def _build(kind: type, fields: list) -> Any:
    """An instance of the record type `kind` with these field values, made without calling
    its constructor (nothing of it runs)."""
    if issubclass(kind, tuple):
        names = list(kind._fields)
    else:
        names = [f.name for f in dataclasses.fields(kind)]
    if len(names) != len(fields):
        raise ValueError(f"{kind.__qualname__} has {len(names)} fields, not {len(fields)}")
    wanted = plaincheck.field_types(kind)
    for name, field in zip(names, fields, strict=True):
        if name in wanted and not isinstance(field, wanted[name]):
            raise ValueError(
                f"{kind.__qualname__}.{name} holds a {type(field).__name__}, not what it declares"
            )
    if issubclass(kind, tuple):
        return tuple.__new__(kind, fields)
    made = object.__new__(kind)
    for name, field in zip(names, fields, strict=True):
        object.__setattr__(made, name, field)
    return made
