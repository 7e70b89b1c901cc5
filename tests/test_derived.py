"""The tables a page derives from finished runs (Compare's measures, chart tables, language
premium, morphology alignment) survive a restart: kept on disk as plain data by the store,
read back equal by a fresh one, and warmed by `subtok warm` (each test has its own cache
directory: tests/conftest.py)."""

from __future__ import annotations

import dataclasses
import html
import json
from pathlib import Path

import pandas as pd
import pytest
from apptools import open_page
from conftest import clear_every_cache

from lessons.sage import results as sage_results
from lessons.ui.store import trace_store
from subtok_core import compare, corpus, plaindata
from subtok_core import measure as metrics
from subtok_core.cli import main
from subtok_core.diskcache import DiskCache
from subtok_core.measure import morphology
from subtok_core.store import Store
from subtok_core.warm_links import readme_links

TOY, SIZE, KINDS = "toy:hug-pug", 30, ("bpe", "wordpiece", "unigram")
LINK = f"/compare?corpus={TOY}&size={SIZE}&tok={','.join(KINDS)}"
# what the Compare page derives for three tokenizers, by kind: per tokenizer its measures,
# its morphology alignment and its cuts of 002's examples; once the chart tables, the
# language premium and the pair; and the spec of each of its eight charts (efficiency, the
# five measures, the frequency differences of the pair, the premium; the morphology chart
# is drawn only when a tokenizer scored a gold word, and none does on this toy)
DERIVED = {
    "table: compare measures": len(KINDS),
    "table: compare morphology": len(KINDS),
    "table: compare example cuts": len(KINDS),
    "table: compare charts": 1,
    "table: compare languages": 1,
    "table: compare pair": 1,
    "table: compare papers": len(KINDS),  # the measures papers report, at the page's α
    "table: chart": 8,
}


def assert_same(a, b) -> None:
    """`a` and `b` hold equal values: DataFrames compared as pandas does (dtypes too),
    records field by field (a record holding a DataFrame has no == of its own)."""
    assert type(a) is type(b)
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name))
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert_same(x, y)
    else:
        assert a == b


def measures() -> dict:
    """What Compare measures of one tokenizer (lessons/compare/page.py's tables) on the toy."""
    model = compare.train("bpe", corpus.load(TOY), SIZE)
    t = compare.encode_corpus(model, tuple(corpus.load_lines(TOY)), "bpe")
    vocab = compare.vocabulary(model, t)
    return {
        "lengths": metrics.token_lengths(vocab),
        "fertility": metrics.fertility(t),
        "efficiency": metrics.efficiency(t),
        "neighbours": metrics.distinct_neighbours(t, 5),
        "ratio": metrics.neighbour_ratio(t, 5),
        "profile": metrics.frequency_profile(t, vocab),
        "morphology": morphology.model_alignment(model),
    }


def test_a_derived_table_written_by_one_store_is_read_back_equal_by_a_fresh_one(tmp_path):
    kind = "table: compare measures"
    key = (kind, "bpe", "a fingerprint")
    first = Store(disk=DiskCache(tmp_path, 1 << 26))
    made = first.get(key, lambda report: measures())
    assert first.counted("computed") == {kind: 1}

    def never(report):
        raise AssertionError("a restarted store computed a table kept on disk")

    fresh = Store(disk=DiskCache(tmp_path, 1 << 26))  # a restarted server: nothing in memory
    back = fresh.get(key, never)
    assert_same(made, back)
    assert fresh.counted("computed") == {} and fresh.counted("read") == {kind: 1}
    assert fresh.get(key, never) is back and fresh.counted("kept") == {kind: 1}


def test_a_vocabulary_health_written_by_one_store_is_read_back_equal_by_a_fresh_one(tmp_path):
    """The /vocab page's kept health of a trained BPE (lessons/_vocab_data.kept): plain
    data on disk, the same health again after a restart, each token's category included."""
    from lessons.vocab.data import Sorted, kept
    from subtok_core.vocab.health import health
    from subtok_core.vocab.trained import trained_table, usage

    wc = corpus.load("toy:cat-bat")
    model = compare.train("bpe", wc, 12)
    table = trained_table(model, "bpe")
    report = health(table, model=model, wc=wc)
    kind = "table: vocab health"
    key = (kind, "trained", "a fingerprint")
    first = Store(disk=DiskCache(tmp_path, 1 << 26))
    made = first.get(key, lambda _: kept(report, dict(usage(model, wc))))

    def never(report):
        raise AssertionError("a restarted store computed a health kept on disk")

    fresh = Store(disk=DiskCache(tmp_path, 1 << 26))
    back = fresh.get(key, never)
    assert_same(made, back)
    assert fresh.counted("computed") == {} and fresh.counted("read") == {kind: 1}
    again = Sorted(back, lambda: table).health()  # every token's category, from the disk
    assert again.category == report.category and again.unused == report.unused
    assert Sorted(back, lambda: table).counts() == report.counts()
    # the examples the page links to are the first tokens of each category, by id
    ok = [(table.ids[k], table.pieces[k]) for k in report.positions("ok")]
    assert list(Sorted(back, lambda: table).examples("ok")) == ok[:6]


def test_a_dataframe_is_kept_as_plain_json_column_by_column():
    frame = pd.DataFrame(
        {
            "piece": ["▁hug", "s", None],
            "count": [15, 4, 1],
            "share": [0.75, 0.2, float("nan")],
            "start": [True, False, False],
            "kind": pd.Categorical(["bpe", "bpe", "unigram"]),
        },
        index=pd.Index(["a", "b", "c"], name="row"),
    )
    data = plaindata.encode(frame)
    assert b"pickle" not in data and json.loads(data)["D"]  # JSON, tagged as a DataFrame
    pd.testing.assert_frame_equal(plaindata.decode(data), frame)


def test_a_dataframe_of_an_unknown_dtype_is_refused():
    bad = {"D": [[["when", "datetime64[ns]", {"l": [0]}]], {"r": [0, 1, 1, None]}]}
    with pytest.raises(ValueError, match="dtype"):
        plaindata.decode(json.dumps(bad))


@pytest.mark.slow  # warms the pages
def test_warm_stores_compare_tables_and_a_fresh_page_computes_nothing(fresh_cache_dir, capsys):
    assert main(["warm", LINK]) == 0
    out = capsys.readouterr().out
    computed = sum(DERIVED.values())
    assert f"tables derived from them: {computed} computed" in out and ", 0 read" in out
    assert "compare measures 3" in out
    files = len(DiskCache(fresh_cache_dir, 1 << 30).files())
    assert files == len(KINDS) * 2 + computed  # each training and encoding, and the tables

    clear_every_cache()  # a restarted server: st caches and the in-memory store emptied
    at = open_page("lessons/compare/page.py", corpus=TOY, size=str(SIZE), tok=",".join(KINDS))
    store = trace_store()
    assert store.counted("computed") == {}
    # the encodings of the corpus are not even read: every table drawn from them is kept
    assert store.counted("read") == {**DERIVED, "run": len(KINDS)}
    assert any(frame.value.shape[0] == len(KINDS) for frame in at.dataframe)  # the summary


def test_the_readme_links_are_the_shared_ones_of_its_share_a_view_section():
    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    links = readme_links(text)
    section = text.split("## Share a view", 1)[1].split("\n## ", 1)[0]
    assert all(f"`{link}`" in section for link in links)  # each one written there
    assert "/bpe?corpus=toy:low-lower&marker=eow&step=3" in links
    assert not any(link.startswith("&") for link in links)  # `&remove=un`: a fragment
    assert section.count("`/") == len(links)  # and none of the section's links missed


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_warm_from_a_file_opens_its_addresses_once_each(tmp_path, capsys):
    listed = tmp_path / "monday.txt"
    listed.write_text(f"# Monday's class\n{LINK}\n\n{LINK}\n", encoding="utf-8")
    assert main(["warm", "--from", str(listed)]) == 0
    out = capsys.readouterr().out
    # each tokenizer's training and its encoding of the corpus, the link once
    assert out.count(LINK) == 1 and f"{len(KINDS) * 2} runs trained" in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([], "Name the pages to warm"),
        (["--from", "/nowhere/monday.txt"], "There is no list of addresses at"),
    ],
)
def test_warm_without_addresses_says_how_to_name_them(args, said, capsys):
    assert main(["warm", *args]) == 2
    assert said in capsys.readouterr().err


# what /sage derives, from what the page shows: the four vocabularies it compares (BPE,
# SaGe and the two controls) each get their paper tables and their verdict's measures, and
# so does each other seed of the random control; the summary figures count the tokens of BPE
# and of SaGe; the link opens one close-up (with the first use it starts from), the table of
# frequency differences and Tables 1 and 2; every chart on the page is one kept spec
SAGE_VOCABS = ("BPE", "SaGe", "frequency-pruned", "random-pruned")
SAGE_DERIVED = {
    "sage tables": len(SAGE_VOCABS),
    "sage measures": len(SAGE_VOCABS) + sage_results.RANDOM_SEEDS - 1,
    "sage token count": len(("BPE", "SaGe")),
    "sage close-up": 1,
    "sage first used": 1,
    "sage diff": 1,
    "sage table 1": 1,
    "sage table 2": 1,
}


@pytest.mark.slow  # SaGe on a real sample (19 sentences of crime)
def test_warm_stores_sage_tables_and_verdicts_and_a_fresh_page_computes_nothing(capsys):
    tiny = {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"}  # tests/test_app_sage
    assert main(["warm", "/sage?" + "&".join(f"{k}={v}" for k, v in tiny.items())]) == 0
    out = capsys.readouterr().out
    clear_every_cache()
    at = open_page("lessons/sage/page.py", **tiny)
    charts = len(at.get("vega_lite_chart"))  # the loss curve, Figs. 1-4 and efficiency, Table 3
    assert charts == 1 + 5 + 1
    kinds = sorted({**SAGE_DERIVED, "chart": charts}.items())
    computed = ", ".join(f"{kind} {n}" for kind, n in kinds)
    assert f"{sum(n for _, n in kinds)} computed ({computed}), 0 read" in out
    store = trace_store()
    assert store.counted("computed") == {}
    read = store.counted("read")
    assert read["table: chart"] == charts
    assert {kind: read[f"table: {kind}"] for kind in SAGE_DERIVED} == SAGE_DERIVED
    assert "Which of the paper's trends" in " ".join(h.value for h in at.header)


VOCAB = {"tok": "cl100k_base", "id": "15339", "corpus": "toy:cat-bat", "size": "12"}
# what /vocab derives: the card the link opens, the health of the three real vocabularies it
# sets side by side and of the three it trains, the tokens of the category browsed, and the
# page's conversation through Mistral's three chat tokenizers and its turns through cl100k_base
VOCAB_DERIVED = {
    "table: vocab card": 1,
    "table: vocab health": 6,
    "table: vocab listed": 1,
    "table: vocab chat": 3,
    "table: vocab chat turns": 1,
}


@pytest.mark.slow  # sorts cl100k_base's, Mistral v1's and Tekken's 230,000 tokens
def test_warm_stores_the_vocab_health_and_chats_and_a_fresh_page_computes_nothing(capsys):
    assert main(["warm", "/vocab?" + "&".join(f"{k}={v}" for k, v in VOCAB.items())]) == 0
    out = capsys.readouterr().out
    computed = "vocab card 1, vocab chat 3, vocab chat turns 1, vocab health 6, vocab listed 1"
    assert f"tables derived from them: 12 computed ({computed}), 0 read" in out

    clear_every_cache()  # a restarted server
    at = open_page("lessons/vocab/page.py", **VOCAB)
    store = trace_store()
    assert store.counted("computed") == {}
    read = store.counted("read")
    assert {k: read[k] for k in VOCAB_DERIVED} == VOCAB_DERIVED
    frame = next(d.value for d in at.dataframe if "unreachable" in d.value.columns)
    assert len(frame) == 6  # three real vocabularies and three trained here, read back
    assert "cl100k_base (GPT-4), id 15339" in html.unescape("\n".join(m.value for m in at.markdown))


def test_a_derived_table_made_by_other_page_code_is_not_read_back(tmp_path, monkeypatch):
    """The disk copy is checked against the core's version only: a page whose own code
    changed (lessons/*.py) computes its table again instead of reading the old one."""
    import lessons.ui.store as pages_store

    computed = []

    def compute():
        computed.append(1)
        return {"rows": len(computed)}

    def restarted(pages: str) -> dict:  # a fresh server, its pages' sources digested as `pages`
        monkeypatch.setattr(
            pages_store, "trace_store", lambda: Store(disk=DiskCache(tmp_path, 1 << 20))
        )
        monkeypatch.setattr(pages_store, "pages_version", lambda: pages)
        return pages_store.derived(("compare charts", "a fingerprint"), compute, {"rows": int})

    assert restarted("old pages") == {"rows": 1}
    assert restarted("old pages") == {"rows": 1} and len(computed) == 1  # read from disk
    assert restarted("edited pages") == {"rows": 2} and len(computed) == 2
