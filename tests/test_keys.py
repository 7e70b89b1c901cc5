"""Cache keys (subtok_core.keys.fingerprint): equal values held by different objects give
one key, where the old key (an md5 of the values' pickle) gave two; unequal values, or
values of another type, give different keys; what cannot be a key says so."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import pickle
import string
from collections import Counter, OrderedDict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtok_core import corpus
from subtok_core.bpe.records import BpeModel
from subtok_core.keys import fingerprint


def old_key(*parts) -> str:
    """The key the pages used before (lessons.ui.store.fingerprint until this change)."""
    return hashlib.md5(pickle.dumps(parts)).hexdigest()


def fresh(text: str) -> str:
    """An equal string that is another object (a literal may be interned, a join is not)."""
    made = "".join(list(text))
    assert made == text and (made is not text or len(text) < 2)
    return made


# --- equal values, different objects: one key, where the pickle gave two -----------------


def test_two_equal_dicts_built_in_another_order_give_one_key():
    one = {"merges": 10, "marker": "eow", "ties": "first"}
    other = {"ties": "first", "marker": "eow", "merges": 10}
    assert one == other
    assert old_key(one) != old_key(other)  # a pickle writes a dict in insertion order
    assert fingerprint(one) == fingerprint(other)


def test_a_string_met_twice_and_two_equal_strings_give_one_key():
    name = fresh("toy:low-lower")
    shared, apart = (name, name), (name, fresh("toy:low-lower"))
    assert shared == apart
    assert old_key(shared) != old_key(apart)  # the pickle writes the second as a back-reference
    assert fingerprint(shared) == fingerprint(apart)


def test_two_equal_sets_iterated_in_another_order_give_one_key():
    one, other = {1, 9}, {9, 1}  # 1 and 9 share a slot of an 8-slot table: the first wins
    assert one == other and list(one) != list(other)
    assert old_key(one) != old_key(other)
    assert fingerprint(one) == fingerprint(other)
    assert fingerprint(frozenset(one)) == fingerprint(frozenset(other))


def test_a_word_count_built_twice_from_one_text_gives_one_key():
    """One text of a word per line: its counts and its line ends are equal tuples, held as
    one object or as two depending on how the table was built."""
    text = "low\nlower\nnewest"
    counted = corpus.from_text(text, name="toy:mine")
    assert counted.line_ends == counted.counts  # one word a line: each ends its line once
    rebuilt = dataclasses.replace(counted, line_ends=counted.counts)
    assert rebuilt == counted and rebuilt.line_ends is not counted.line_ends
    assert old_key(rebuilt) != old_key(counted)
    assert fingerprint(rebuilt) == fingerprint(counted)
    assert fingerprint(corpus.from_text(text, name="toy:mine")) == fingerprint(counted)


def test_a_corpus_named_by_its_own_name_or_by_an_equal_string_gives_one_key():
    """What a page does: the corpus's name from the address beside its word counts."""
    wc = corpus.load("toy:cat-bat")
    assert old_key(wc.name, wc) != old_key(fresh(wc.name), wc)
    assert fingerprint(wc.name, wc) == fingerprint(fresh(wc.name), wc)


def test_two_equal_frozen_dataclasses_built_apart_give_one_key():
    merges, vocab, alphabet = (("l", "o"), ("lo", "w")), ("l", "o", "w", "lo", "low"), "low"
    one = BpeModel(merges, vocab, tuple(alphabet), "eow")
    other = BpeModel(
        tuple((fresh(a), fresh(b)) for a, b in merges),
        tuple(map(fresh, vocab)),
        tuple(fresh(c) for c in alphabet),
        fresh("eow"),
    )
    assert one == other
    assert fingerprint(one) == fingerprint(other)
    assert fingerprint(one) != fingerprint(dataclasses.replace(one, merges=merges[:1]))


def test_equal_numpy_arrays_in_another_memory_layout_give_one_key():
    plain = np.arange(6, dtype=np.int64).reshape(2, 3)
    fortran = np.asfortranarray(plain)
    swapped = plain.astype(plain.dtype.newbyteorder(">"))
    assert (plain == fortran).all() and (plain == swapped).all()
    assert old_key(plain) != old_key(fortran)
    assert fingerprint(plain) == fingerprint(fortran) == fingerprint(swapped)
    assert fingerprint(plain) != fingerprint(plain.reshape(3, 2))  # another shape
    assert fingerprint(plain) != fingerprint(plain.astype(np.int32))  # another dtype
    assert fingerprint(np.float64(0.5)) == fingerprint(np.float64(0.5))


def test_an_ordered_dict_keeps_its_order_and_a_counter_is_keyed_by_its_items():
    one, other = OrderedDict(a=1, b=2), OrderedDict(b=2, a=1)
    assert one != other  # two OrderedDicts in another order are unequal
    assert fingerprint(one) != fingerprint(other)
    assert fingerprint(Counter("abca")) == fingerprint(Counter("acab"))
    assert fingerprint(Counter("abca")) != fingerprint(dict(Counter("abca")))  # another type


# --- different values: different keys -------------------------------------------------


class Marker(enum.Enum):
    EOW = "eow"
    SOW = "sow"


class Size(enum.IntEnum):
    ONE = 1


def test_values_of_another_type_give_another_key():
    values = [1, 1.0, True, "1", b"1", (1,), [1], {1}, frozenset({1}), {1: None}, Size.ONE]
    values += [None, 0, 0.0, False, "", b"", (), [], set(), {}, Fraction(1), Marker.EOW]
    assert len({fingerprint(v) for v in values}) == len(values)
    assert fingerprint((1, 2)) != fingerprint([1, 2])  # unequal in Python: two keys


@pytest.mark.parametrize(
    "one, other",
    [
        (("a", "bc"), ("ab", "c")),  # where the strings end
        (("a,b",), ("a", "b")),
        (("ab",), "ab"),
        ((1, 2), (12,)),
        ((1, 23), (12, 3)),
        ((2**70,), (2**70 + 1,)),  # past 8 bytes
        ((0.1, 0.2), (0.1, 0.2000000001)),
        (("l", "o"), (("l", "o"),)),
        ((("l", "o"), ("w", "e")), (("l", "o", "w", "e"),)),
        (Marker.EOW, Marker.SOW),
        ({"a": 1}, {"a": 2}),
        ({"a": 1}, {"b": 1}),
        (b"\x00\x01", b"\x00\x01\x00"),
    ],
)
def test_unequal_values_give_different_keys(one, other):
    assert fingerprint(one) != fingerprint(other)
    assert fingerprint(one, other) != fingerprint(other, one)


def test_what_cannot_be_a_key_says_so():
    class Opaque:
        pass

    for value in (Opaque(), object(), lambda: 1, {"a": [Opaque()]}):
        with pytest.raises(TypeError, match="cannot be part of a cache key"):
            fingerprint(value)


# --- the property: one key exactly for values equal by type and content -----------------

ATOMS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False)
    | st.text(alphabet=string.ascii_letters + ",()[]:'|s1é▁\x00", max_size=6)
    | st.binary(max_size=4)
)
HASHABLE = ATOMS | st.tuples(ATOMS, ATOMS) | st.frozensets(ATOMS, max_size=3)
VALUES = st.recursive(
    ATOMS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(HASHABLE, inner, max_size=4)
        | st.sets(HASHABLE, max_size=4)
    ),
    max_leaves=12,
)


def same(value):
    """`value` remade from new objects: strings copied, dicts and sets filled in reverse."""
    kind = type(value)
    if kind is str:
        return fresh(value)
    if kind in (list, tuple):
        return kind(same(item) for item in value)
    if kind is dict:
        return {same(k): same(v) for k, v in reversed(list(value.items()))}
    if kind in (set, frozenset):
        return kind(same(item) for item in reversed(list(value)))
    return value


def shape(value):
    """What makes two values the same here, without fingerprint: type and content, a float
    by its repr (0.0 and -0.0 are two), a dict's and a set's items in any order."""
    kind = type(value)
    if kind is float:
        return ("float", repr(value))
    if kind in (list, tuple):
        return (kind.__name__, tuple(shape(item) for item in value))
    if kind is dict:
        return ("dict", frozenset((shape(k), shape(v)) for k, v in value.items()))
    if kind in (set, frozenset):
        return (kind.__name__, frozenset(shape(item) for item in value))
    return (kind.__name__, value)


# no deadline: the machine may be loaded (the other property tests do the same)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(VALUES)
@pytest.mark.slow  # a long run (fast tier: README)
def test_a_value_remade_from_new_objects_has_the_same_key(value):
    assert fingerprint(same(value)) == fingerprint(value)


@SETTINGS
@given(VALUES, VALUES)
@pytest.mark.slow  # a long run (fast tier: README)
def test_two_values_share_a_key_exactly_when_they_are_the_same(one, other):
    assert (fingerprint(one) == fingerprint(other)) == (shape(one) == shape(other))
