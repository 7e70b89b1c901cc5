"""The shape of a table (subtok_core.shapes): `frame`, a pandas DataFrame's columns and
their dtypes; and the shapes of the measures' tables, declared beside the measures that
make them: what a page checks a table read back from the disk cache against
(lessons.ui.store.derived). tests/test_shapes.py checks fresh measures fit them."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from subtok_core.shapes import Shape, holds_not, record

from .basic import Fertility, FrequencyProfile
from .morphology import ROW_COLUMNS, Alignment
from .names import COLUMN_NAMES
from .neighbours import NeighbourRatio

COLUMN = {int: "integers", float: "numbers", str: "text", bool: "true or false"}


class frame(Shape):
    """A pandas DataFrame with exactly these columns, in this order, each of a dtype of its
    kind (int, float, str, bool, or object for any), on an index of integers (an empty
    frame's columns may be of any dtype: pandas makes them objects).

    >>> from subtok_core.shapes import refused
    >>> refused(frame(token=str, tokens=int), {"token": ["a"]})
    'it holds a dict, not a DataFrame'
    >>> refused(frame(token=str, tokens=int), pd.DataFrame({"token": ["a"], "tokens": ["2"]}))
    "['tokens'] holds string values, not integers"
    """

    def __init__(self, columns: Mapping[str, type] | None = None, **more: type) -> None:
        self.columns = {**(columns or {}), **more}

    def why(self, value, where):
        if not isinstance(value, pd.DataFrame):
            return holds_not(value, where, "a DataFrame")
        if list(value.columns) != list(self.columns):
            names = ", ".join(map(str, list(value.columns)[:8]))
            return where, f"has the columns {names or 'none'}, not {', '.join(self.columns)}"
        if len(value) == 0:
            return None
        if not pd.api.types.is_integer_dtype(value.index.dtype):
            return where, f"is indexed by {value.index.dtype}, not by row numbers"
        for name, kind in self.columns.items():
            column = value[name]
            if not _column_is(column, kind):
                said = pd.api.types.infer_dtype(column, skipna=False)
                return f"{where}[{name!r}]", f"holds {said} values, not {COLUMN[kind]}"
        return None


def _column_is(column: pd.Series, kind: type) -> bool:
    types_ = pd.api.types
    if kind is object:
        return True
    if kind is bool:
        return types_.is_bool_dtype(column.dtype)
    if kind is int:
        return types_.is_integer_dtype(column.dtype)
    if kind is float:  # a number, or missing (NaN, None) in every row
        number = types_.is_numeric_dtype(column.dtype) and not types_.is_bool_dtype(column.dtype)
        return number or bool(column.isna().all())
    return types_.infer_dtype(column, skipna=False) == "string"  # str


LENGTHS = frame(length=int, tokens=int, share=float)  # token_lengths
FERTILITY = frame(subwords=int, words=int, word_types=int, words_share=float, types_share=float)
NEIGHBOURS = frame(rank=int, token=str, neighbours=int, frequency=int)  # distinct_neighbours
RATIO = frame(token=str, neighbours=int, frequency=int, ratio=float)  # neighbour_ratio's table
HISTOGRAM = frame(bin_start=float, bin_end=float, tokens=int, share=float)  # and its histogram
PROFILE = frame(rank=int, token=str, frequency=int)  # frequency_profile
DIFF = frame(token=str, freq_a=int, freq_b=int, difference=int, more_in=str)  # frequency_diff
# overlap's table (its word-initial counts are missing for a notation that marks no start)
OVERLAP = frame(part=str, tokens=int, word_initial=float, word_initial_share=float,
                examples=object)  # fmt: skip
ALIGNMENT = record(Alignment, rows=frame(dict(zip(ROW_COLUMNS, (str, str, str, int, int, int)))))

# the records that hold a table, their table's columns said
FERTILITY_RECORD = record(Fertility, table=FERTILITY)
RATIO_RECORD = record(NeighbourRatio, table=RATIO, histogram=HISTOGRAM)
PROFILE_RECORD = record(FrequencyProfile, table=PROFILE)


def stacked(table: frame) -> frame:
    """A table of one tokenizer's as charts.compare.stack makes it for several."""
    return frame({"tokenizer": str, **table.columns})


def readable(table: frame) -> frame:
    """A table as measure.readable renames its columns."""
    return frame({COLUMN_NAMES.get(name, name): kind for name, kind in table.columns.items()})
