"""subtok_core.shapes: what a derived table read back from disk must be, said with where it
is not; every page's derived() call declares one; the measures' declared shapes fit what
the measures compute (and a fresh table that did not would be a page's error)."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from subtok_core import compare, corpus
from subtok_core import measure as metrics
from subtok_core.measure import information, morphology
from subtok_core.measure import shapes as measured
from subtok_core.measure.shapes import frame
from subtok_core.records import Span
from subtok_core.shapes import keys_of, many, mapping, maybe, record, refused, such_that

ROOT = Path(__file__).parents[1]


def test_a_dict_of_columns_is_refused_where_a_dataframe_is_expected():
    table = frame(token=str, tokens=int)
    assert refused(table, pd.DataFrame({"token": ["a", "b"], "tokens": [2, 1]})) is None
    assert refused(table, {"token": ["a", "b"], "tokens": [2]}) == (
        "it holds a dict, not a DataFrame"
    )
    assert refused(table, [("a", 2)]) == "it holds a list, not a DataFrame"


def test_a_column_of_text_where_numbers_are_expected_is_refused():
    table = frame(token=str, tokens=int, share=float)
    bad = pd.DataFrame({"token": ["a"], "tokens": ["2"], "share": [0.5]})
    assert refused(table, bad) == "['tokens'] holds string values, not integers"
    worse = pd.DataFrame({"token": [3], "tokens": [2], "share": [0.5]})
    assert refused(table, worse) == "['token'] holds integer values, not text"
    other = pd.DataFrame({"token": ["a"], "share": [0.5], "tokens": [2]})
    assert "has the columns token, share, tokens, not token, tokens, share" in refused(table, other)


def test_an_empty_table_may_have_columns_of_any_dtype_but_not_other_columns():
    table = frame(token=str, tokens=int)
    assert refused(table, pd.DataFrame(columns=["token", "tokens"])) is None
    assert "has the columns none" in refused(table, pd.DataFrame())


def test_missing_and_extra_keys_and_nested_items_are_named():
    shape = {"codes": str, "examples": {"ok": many((int, str))}}
    assert refused(shape, {"codes": "o"}) == "it lacks examples"
    assert "keys more" in refused(shape, {"codes": "o", "examples": {"ok": ()}, "x": 1})
    bad = {"codes": "o", "examples": {"ok": ((1, "a"), (2, 3))}}
    assert refused(shape, bad) == "['examples']['ok'][1][1] holds an int, not a str"


def test_numbers_are_numpy_numbers_too_but_a_bool_is_no_int():
    assert refused(many(int), (1, np.int64(2))) is None
    assert refused(float, np.float32(0.5)) is None and refused(float, 2) is None
    assert refused(int, True) == "it holds a bool, not an int"
    assert refused(int, 2.0) == "it holds a float, not an int"


def test_a_record_is_checked_by_the_types_its_fields_declare():
    assert refused(Span, Span("lo", 0, 2)) is None
    assert refused(Span, ("lo", 0, 2)) == "it holds a tuple, not a Span"
    wrong = tuple.__new__(Span, ("lo", "0", 2))  # as plaindata builds it: no constructor
    assert refused(Span, wrong) == "start holds a str, not an int"
    held = record(metrics.Fertility, table=measured.FERTILITY)
    fertility = metrics.fertility(compare.encode_corpus(*toy_encoded()[:2], "bpe"))
    assert refused(held, fertility) is None
    swapped = metrics.Fertility(fertility.table.astype(str), *list(vars_of(fertility))[1:])
    assert refused(held, swapped).startswith("table['subwords'] holds string values")


def vars_of(value) -> list:
    return [getattr(value, name) for name in value.__dataclass_fields__]


def test_a_huge_nested_value_is_refused_at_its_first_level_quickly():
    deep = "x"
    for _ in range(5000):
        deep = [deep]
    wide = tuple(range(2_000_000))
    began = time.perf_counter()
    assert refused(maybe(many(str)), ("a", deep)) == "[1] holds a list, not a str"
    assert refused(mapping(str, int), wide) == "it holds a tuple, not a dict"
    assert refused(many(many(int)), (deep,)) == "[0] holds a list, not a tuple"
    assert time.perf_counter() - began < 0.5


def test_a_test_more_says_what_the_value_does_instead():
    index = such_that(int, lambda i: 0 <= i < 3, "is no index of 3 candidates")
    assert refused(index, 2) is None
    assert refused(index, 10**6) == "it is no index of 3 candidates"
    assert refused(index, "2") == "it holds a str, not an int"


def toy_encoded():
    wc = corpus.load("toy:hug-pug")
    model = compare.train("bpe", wc, 30)
    return model, tuple(corpus.load_lines("toy:hug-pug")), wc


def test_the_measures_fit_the_shapes_declared_for_them():
    """What a page's table is read back against is what the measures compute: each
    declared shape, checked on fresh measures of a toy (an empty alignment too)."""
    model, lines, _ = toy_encoded()
    t = compare.encode_corpus(model, lines, "bpe")
    vocab = compare.vocabulary(model, t)
    other = compare.encode_corpus(compare.train("unigram", corpus.load("toy:hug-pug"), 30),
                                  lines, "unigram")  # fmt: skip
    fresh = [
        (measured.LENGTHS, metrics.token_lengths(vocab)),
        (measured.FERTILITY_RECORD, metrics.fertility(t)),
        (measured.NEIGHBOURS, metrics.distinct_neighbours(t, 5)),
        (measured.RATIO_RECORD, metrics.neighbour_ratio(t, 5)),
        (measured.PROFILE_RECORD, metrics.frequency_profile(t, vocab)),
        (measured.DIFF, metrics.frequency_diff(t, other)),
        (measured.OVERLAP, metrics.overlap(vocab, compare.vocabulary(model, other)).table),
        (measured.ALIGNMENT, morphology.model_alignment(model)),
        (keys_of(information.Measures), information.measure(t, 30).as_json()),
    ]
    for shape, value in fresh:
        assert refused(shape, value) is None, (shape, refused(shape, value))


def derived_calls() -> list[tuple[str, int]]:
    """(file:line, how many arguments) of every derived(...) call under lessons/."""
    found = []
    for path in sorted((ROOT / "lessons").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "derived":
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.append((where, len(node.args) + len(node.keywords)))
    return found


def test_every_derived_table_of_the_pages_declares_its_shape():
    calls = derived_calls()
    assert len(calls) >= 20  # vocab, sage, compare and the charts' specs
    assert [where for where, arguments in calls if arguments != 3] == []


@pytest.mark.parametrize("shape", [object(), "a str", 3])
def test_what_is_no_shape_is_said(shape):
    with pytest.raises(TypeError, match="is not a shape"):
        refused(shape, 1)


def test_a_window_change_read_back_names_a_target_inside_its_fragment():
    """/sage's Table 2 shows the target's token (before[target]): one outside is refused."""
    import dataclasses

    from lessons.sage.paper import TABLE_TWO
    from subtok_core.sage import paper

    assert refused(TABLE_TWO, paper.TABLE_2) is None
    far = dataclasses.replace(paper.TABLE_2, target=len(paper.TABLE_2.before))
    assert refused(TABLE_TWO, far) == "it names a target outside its fragment"
