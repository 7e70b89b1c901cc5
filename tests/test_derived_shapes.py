"""A table a page derives (lessons.ui.store.derived) and reads back from the disk cache
is the shape its page declares (issue 40). Each test opens a page (its tables computed and
kept on disk), then rewrites a table's file as the cache's own writer would, its header and
seal true (a file any process of this user could have written), its table of another shape;
a restarted page removes that file with a log line naming the table and why, computes the
table again and shows what it showed before. Before, the crafted table was served: the page
broke (or showed another table) for every visitor until a restart."""

from __future__ import annotations

import json
import logging

import pandas as pd
import pytest
from apptools import open_page
from conftest import clear_every_cache
from test_derived import assert_same

from subtok_core import plaindata
from subtok_core.diskcache import DiskCache

TABLE = "table: "


def kept(directory, kind: str) -> list[tuple]:
    """The keys of the files on disk that hold a table of `kind` (as their headers say)."""
    disk, keys = DiskCache(directory, 1 << 30), []
    for path in disk.files():
        header = json.loads(path.read_bytes().split(b"\n", 1)[0])
        key = plaindata.decode(json.dumps(header[2]))
        if isinstance(key, tuple) and key[0] == TABLE + kind:
            keys.append(key)
    return keys


def craft(directory, kind: str, bad) -> list[tuple]:
    """Write `bad` in place of every kept table of `kind`, through the cache's own writer
    (DiskCache.save: a true header, the body sealed with the key); their keys."""
    keys = kept(directory, kind)
    assert keys, f"the page kept no table of kind {kind}"
    disk = DiskCache(directory, 1 << 30)
    for key in keys:
        disk.save(key, plaindata.encode(bad))
        assert disk.load(key) is not None  # the crafted file passes the cache's own checks
    return keys


def shown(at) -> dict:
    """What a page shows a student: its tables, texts and numbers."""
    return {
        "frames": [d.value for d in at.dataframe] + [t.value for t in at.table],
        "text": [m.value for m in at.markdown] + [c.value for c in at.caption],
        "metrics": [(m.label, m.value) for m in at.metric],
        "boxes": [b.value for b in (*at.info, *at.warning, *at.error)],
    }


def assert_shown_alike(before: dict, after: dict) -> None:
    assert len(before["frames"]) == len(after["frames"])
    for a, b in zip(before["frames"], after["frames"], strict=True):
        pd.testing.assert_frame_equal(a, b)
    for part in ("text", "metrics", "boxes"):
        assert before[part] == after[part], part


def crafted_and_restarted(directory, caplog, page: str, query: dict, bad: dict) -> dict:
    """Open `page`, craft the tables `bad` names ({kind: its crafted table}), restart and
    open it again: the same page shown, each crafted file removed with a log line naming
    its table, each key's file holding the table computed again; {kind: the log's lines}."""
    first = shown(open_page(page, **query))
    fresh = {}
    for kind, table in bad.items():
        for key in craft(directory, kind, table):
            fresh[key] = kind
    clear_every_cache()  # a restarted server: its memory empty, its disk cache as crafted
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert_shown_alike(first, shown(open_page(page, **query)))
    ignored = [r.getMessage() for r in caplog.records if "ignored cache file" in r.getMessage()]
    said = {kind: [line for line in ignored if f"{TABLE}{kind}:" in line] for kind in bad}
    assert all(said.values()), ignored
    disk = DiskCache(directory, 1 << 30)
    for key, kind in fresh.items():
        again = disk.load(key)  # the crafted file is gone: the table computed again is kept
        assert again is not None and not _same(again, bad[kind]), kind
    return said


def _same(a, b) -> bool:
    try:
        assert_same(a, b)
    except AssertionError:
        return False
    return True


COMPARE = ("lessons/compare/page.py", {"corpus": "toy:hug-pug", "size": "30"})
DEEP = "x"
for _ in range(200):
    DEEP = (DEEP,)  # a text two hundred tuples deep
LANGUAGE_COLUMNS = ("tokenizer", "language", "tokens", "unknown", "characters", "premium")


@pytest.mark.parametrize(
    ("kind", "bad", "why"),
    [
        # a list where the page expects a DataFrame (its rows, as plain tuples)
        ("compare languages", [("BPE", "English", 9, 0, 40, 1.0)], "holds a list, not a DataFrame"),
        # the same columns, the counts as text
        (
            "compare languages",
            pd.DataFrame({c: ["9"] for c in LANGUAGE_COLUMNS}),
            "['tokens'] holds string values, not integers",
        ),
        # a dict of columns of unequal length, a key missing
        ("compare measures", {"lengths": [1, 2, 3], "fertility": [1]}, "lacks"),
        # the pair's two tables: text nested two hundred tuples deep
        ("compare pair", (DEEP, DEEP), "[0] holds a tuple, not a DataFrame"),
    ],
)
def test_a_compare_table_of_another_shape_is_removed_and_computed_again(
    fresh_cache_dir, caplog, kind, bad, why
):
    page, query = COMPARE
    said = crafted_and_restarted(fresh_cache_dir, caplog, page, query, {kind: bad})
    assert any(why in line for line in said[kind]), said


SAGE = ("lessons/sage/page.py", {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"})


@pytest.mark.slow  # SaGe on a real sample (19 sentences of crime)
def test_sage_tables_of_another_shape_are_removed_and_computed_again(fresh_cache_dir, caplog):
    page, query = SAGE
    bad = {
        "sage measures": (3.1, 120, 4.0, 0.5, 0.2, 0.1),  # the verdict's numbers, no record
        "sage first used": 10**6,  # no index of the step's candidates
        "sage tables": {"lengths": pd.DataFrame({"length": [1], "tokens": ["many"]})},
    }
    said = crafted_and_restarted(fresh_cache_dir, caplog, page, query, bad)
    assert "holds a tuple, not a Measures" in said["sage measures"][0]
    assert "is no index of" in said["sage first used"][0]
    assert "lacks" in said["sage tables"][0]


VOCAB = ("lessons/vocab/page.py", {"corpus": "toy:cat-bat", "size": "12"})


@pytest.mark.slow  # sorts cl100k_base's, Mistral v1's and Tekken's 230,000 tokens
def test_vocab_tables_of_another_shape_are_removed_and_computed_again(fresh_cache_dir, caplog):
    page, query = VOCAB
    health = {"codes": "xyz", "unused": None, "used": None, "size": 3, "examples": {}}
    bad = {
        "vocab health": health,  # letters that are no category, no examples
        "vocab chat turns": {"system": "not a list of tokens", "user": [], "assistant": []},
    }
    said = crafted_and_restarted(fresh_cache_dir, caplog, page, query, bad)
    assert "holds a letter other than" in said["vocab health"][0]
    assert "['system'] holds a str, not a list" in said["vocab chat turns"][0]
