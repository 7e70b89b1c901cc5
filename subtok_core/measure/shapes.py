"""The shapes of the measures' tables (subtok_core.shapes), declared beside the measures
that make them: what a page checks a table read back from the disk cache against
(lessons.ui.store.derived). tests/test_derived_shapes.py checks fresh measures fit them."""

from __future__ import annotations

from subtok_core.shapes import frame, record

from .basic import Fertility, FrequencyProfile
from .morphology import ROW_COLUMNS, Alignment
from .names import COLUMN_NAMES
from .neighbours import NeighbourRatio

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
