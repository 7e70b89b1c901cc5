"""AppTest: every URL parameter of every page survives a bad value (the class's issue "A
class on one server": ?step=-1 showed StreamlitValueBelowMinError, ?step=abc a ValueError).

A value a page cannot use gives one warning that names the parameter, the value given and
the value used; the page renders; the address holds the value used. The grid runs each
page on a tiny setting (toy corpora, SaGe on sample:crime, 5 lines, pruned in one step).

Streamlit's caches and the server-wide store are cleared once for this module, not per
test: many corrected values give the same run (SaGe's m=abc and m=-1 both run the base
settings), and training it again for each would add minutes without testing more.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import streamlit as st
from apptools import APP, broken
from streamlit.testing.v1 import AppTest

from subtok_core import compare, corpus, limits, sage

sys.path.insert(0, str(Path(__file__).parents[1]))  # lessons/, as the app imports it
from lessons.ui.address import parse_choice, parse_float, parse_int  # noqa: E402
from lessons.ui.compat import element_tree  # noqa: E402
from lessons.ui.corpus import cached_load  # noqa: E402

BAD = ["-1", "abc", "1e12", ""]
TITLES = {
    "bpe": "Byte-pair encoding",
    "bytebpe": "Byte-level BPE",
    "picky": "Picky BPE",
    "wordpiece": "WordPiece",
    "unigram": "Unigram language model",
    "compare": "Compare tokenizers",
    "sage": "SaGe: context-aware vocabulary pruning",
}
GRID = {  # page -> (base URL: a tiny setting, every parameter the page reads)
    "bpe": ({"corpus": "toy:low-lower"}, ["corpus", "marker", "ties", "merges", "step"]),
    "bytebpe": (
        {"corpus": "toy:emoji-cjk"},
        ["corpus", "pattern", "ties", "merges", "bytes", "step"],
    ),
    "picky": ({"corpus": "toy:low-lower"}, ["corpus", "size", "threshold", "ties", "step"]),
    "wordpiece": ({"corpus": "toy:sunflower"}, ["corpus", "ties", "merges", "step"]),
    "unigram": (
        {"corpus": "toy:run-bug"},
        ["corpus", "variant", "size", "base", "step", "remove", "seed"],
    ),
    "compare": (
        {"corpus": "toy:cat-bat", "size": "12", "tok": "bpe,unigram"},
        ["corpus", "size", "tok", "measure"],
    ),
    "sage": (  # 105 BPE pieces pruned to 100 in one step: each run takes under a second
        {"corpus": "sample:crime", "V": "100", "n": "1.05", "k": "10", "M": "20"},
        ["corpus", "lines", "V", "n", "k", "M", "m", "l", "window", "seed", "step"],
    ),
}
WITH = {("sage", "corpus"): {"lines": "5"}}  # a bad corpus gives sample:lee: its first lines
NOT_BOUND = {"unigram": {"remove", "seed"}, "compare": {"tok"}}  # read from st.query_params


@pytest.fixture(autouse=True, scope="module")
def shared_caches():
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture(autouse=True)
def fresh_caches():
    """Overrides conftest's: the runs of this module are shared (see the docstring)."""
    yield


def run_page(page: str, query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    return at.switch_page(f"lessons/{page}/page.py").run()


def naming(at: AppTest, param: str) -> list[str]:
    return [x.value for x in at.warning if f"`{param}=" in x.value]


def cases(lessons):
    """Every parameter with every bad value. The fast tier runs one bad value a parameter,
    each kind of bad value in turn (the k-th parameter gets BAD[k % 4]), so every parameter
    and every kind of bad value runs there; the other three are marked slow (CI runs them)."""
    return [
        pytest.param(
            lesson,
            param,
            bad,
            id=f"{lesson}-{param}={bad or 'empty'}",
            marks=() if bad == BAD[k % len(BAD)] else pytest.mark.slow,
        )
        for lesson in lessons
        for k, param in enumerate(GRID[lesson][1])
        for bad in BAD
    ]


def check_bad_value(page: str, param: str, bad: str) -> AppTest:
    base, _ = GRID[page]
    at = run_page(page, {**base, **WITH.get((page, param), {}), param: bad})
    assert not at.exception, [e.message for e in at.exception]
    assert not broken(at), broken(at)
    assert at.title and at.title[0].value == TITLES[page]
    said = naming(at, param)
    assert len(said) == 1, [x.value for x in at.warning]
    assert f"`{param}={bad}`" in said[0] if bad else "with no value" in said[0]
    return at


@pytest.mark.parametrize(
    ("lesson", "param", "bad"), cases(["bpe", "bytebpe", "picky", "wordpiece", "unigram"])
)
def test_a_bad_value_of_a_lesson_parameter_is_named_corrected_and_the_page_renders(
    lesson, param, bad
):
    check_bad_value(lesson, param, bad)


@pytest.mark.parametrize(("lesson", "param", "bad"), cases(["compare"]))
def test_a_bad_value_of_a_compare_parameter_is_named_corrected_and_the_page_renders(
    lesson, param, bad
):
    check_bad_value(lesson, param, bad)


@pytest.mark.slow
@pytest.mark.parametrize(("lesson", "param", "bad"), cases(["sage"]))
def test_a_bad_value_of_a_sage_parameter_is_named_corrected_and_the_page_renders(
    lesson, param, bad
):
    check_bad_value(lesson, param, bad)


def bound_keys(at: AppTest) -> set[str]:
    found, stack = set(), [element_tree(at)]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "children", {}).values())
        key = getattr(getattr(node, "proto", None), "query_param_key", "")
        if key:
            found.add(key)
    return found


@pytest.mark.parametrize("lesson", list(GRID))
def test_the_grid_covers_every_parameter_bound_on_the_page(lesson):
    base, params = GRID[lesson]
    at = run_page(lesson, base)
    assert not at.exception and not broken(at) and not at.warning
    assert bound_keys(at) | NOT_BOUND.get(lesson, set()) == set(params)


# --- what is used instead, and where it goes -----------------------------------------


@pytest.mark.parametrize(
    ("query", "param", "used", "address"),
    [
        ({"merges": "1e12"}, "merges", 20_000, "20000"),
        ({"merges": "-1"}, "merges", 0, "0"),
        ({"merges": "2.5"}, "merges", 2, "2"),
        ({"marker": "eow", "step": "99"}, "step", 10, "10"),  # low-lower: 10 merges with eow
        ({"step": "nan"}, "step", 0, None),  # the default is not kept in the address
    ],
)
def test_the_value_used_is_in_the_widget_and_the_address(query, param, used, address):
    at = run_page("bpe", {"corpus": "toy:low-lower", **query})
    assert len(naming(at, param)) == 1
    assert f"this page uses `{param}={used}` instead" in naming(at, param)[0]
    widget = at.slider(key="step") if param == "step" else at.number_input(key="merges")
    assert widget.value == used
    assert at.query_params.get(param) == address


def test_an_unknown_choice_goes_back_to_the_default_which_the_address_then_names():
    at = run_page("bpe", {"corpus": "toy:low-lower", "marker": "EOW"})
    assert "not one of: none, eow, suffix, sow" in naming(at, "marker")[0]
    # the default is low-lower's own marker, 003's </w> (subtok_core/data/toys.toml)
    assert at.selectbox(key="marker").value == "eow" and at.query_params["marker"] == "eow"


@pytest.mark.parametrize(
    ("lesson", "query"),
    [  # each value below is its page's default (issue 39: Streamlit took them out)
        ("wordpiece", {"corpus": "toy:sunflower", "step": "2"}),
        ("bpe", {"corpus": "toy:cat-bat", "marker": "none", "ties": "first", "merges": "7"}),
        ("compare", {"corpus": "sample:lee", "size": "2000"}),
        ("vocab", {"tok": "cl100k_base", "id": "15339"}),
    ],
)
def test_a_link_keeps_naming_the_defaults_it_gives(lesson, query):
    """A shared link keeps every parameter it names, a page's default too, so that a later
    change of a default cannot change what the link shows."""
    at = run_page(lesson, query)
    assert not at.exception
    assert {k: at.query_params.get(k) for k in query} == query


def test_the_warning_is_shown_once_and_the_next_run_keeps_the_value():
    at = run_page("bpe", {"corpus": "toy:low-lower", "marker": "eow", "step": "-1"})
    assert len(naming(at, "step")) == 1 and at.slider(key="step").value == 0
    at.button(key="bpe_step_next").click().run()
    assert not at.warning and at.slider(key="step").value == 1
    assert at.query_params["step"] == "1"


def test_sage_settings_out_of_range_are_clamped_to_the_web_limits():
    at = run_page(
        "sage",
        {**GRID["sage"][0], "window": "99", "n": "inf", "V": "1e9", "lines": "1e12"},
    )
    assert not at.exception and not broken(at)
    assert at.number_input(key="window").value == limits.limit("sage_window", "web")
    assert at.number_input(key="n").value == 1.2  # inf is no number: the default
    assert at.number_input(key="V").value == limits.limit("sage_vocab_size", "web")
    assert at.number_input(key="lines").value == limits.limit("sample_lines", "web")
    assert "At most 10 in the web app" in at.number_input(key="window").help


def test_unigram_remove_that_no_round_can_make_prunes_automatically():
    at = run_page("unigram", {"corpus": "toy:run-bug", "step": "3", "remove": "zz"})
    assert "Cannot remove 'zz' in round 1" in naming(at, "remove")[0]
    assert "remove" not in at.query_params
    assert "Pruned" in " ".join(i.value for i in at.info)


def test_compare_tok_naming_sage_before_it_was_trained_keeps_bpe():
    # issue 25: the valid names of a link are kept; a second trained one fills in
    at = run_page("compare", {**GRID["compare"][0], "tok": "bpe,sage"})
    assert "'sage' is not a tokenizer this page has yet" in naming(at, "tok")[0]
    assert at.multiselect(key="compare_tok").value == ["bpe", "wordpiece"]
    assert at.query_params["tok"] == "bpe,wordpiece"


# --- the deep links of the README still open their view, with no warning ----------------


@pytest.mark.parametrize(
    ("lesson", "query", "expected"),
    [
        ("bpe", {"corpus": "toy:low-lower", "marker": "eow", "step": "3"}, "Merge 3"),
        ("wordpiece", {"corpus": "toy:sunflower", "step": "2"}, "Merge 2"),
        ("unigram", {"corpus": "toy:run-bug", "step": "2", "remove": "un"}, "Round 1"),
    ],
)
def test_the_readme_deep_links_open_without_a_warning(lesson, query, expected):
    at = run_page(lesson, query)
    assert not at.exception and not broken(at) and not at.warning and not at.error
    assert at.slider(key="step").value == int(query["step"])
    shown = " ".join(x.value for x in [*at.info, *at.subheader])
    assert expected in shown
    assert all(at.query_params.get(k) in (v, None) for k, v in query.items())


def test_the_readme_sage_link_keeps_every_setting(monkeypatch):
    """The link's run takes minutes (SaGe on all of Lee): the settings are read, then the
    run is refused, as the core refuses settings it cannot run."""
    link = {"corpus": "sample:lee", "V": "1000", "n": "1.2", "k": "50", "M": "400"}
    link |= {"m": "1", "l": "2", "step": "2"}

    def refuse(settings, control=None):
        raise ValueError("not run in this test")

    monkeypatch.setattr(sage, "check_settings", refuse)
    at = run_page("sage", link)
    assert not at.exception and not broken(at) and not at.warning
    assert [e.value for e in at.error] == ["not run in this test"]
    assert at.selectbox(key="corpus").value == "sample:lee"
    for key in ("V", "n", "k", "M", "m", "l"):
        assert at.number_input(key=key).value == float(link[key]), key
    assert at.query_params["step"] == "2"


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_readme_compare_link_keeps_every_setting(monkeypatch):
    """The link's run takes minutes (three tokenizers on Wikipedia): Wikipedia is stood in
    for by a toy, and training refused, once the settings are read."""
    real_load = corpus.load

    def small(name, split_punct=False, **kwargs):
        return real_load("toy:cat-bat" if name == "sample:enwiki" else name, split_punct)

    def refuse(*args, **kwargs):
        raise ValueError("not trained in this test")

    monkeypatch.setattr(corpus, "load", small)
    monkeypatch.setattr(compare, "train", refuse)
    monkeypatch.setenv("SUBTOK_WORKERS", "0")  # trained in this process, where train refuses
    try:
        at = run_page("compare", {"corpus": "sample:enwiki", "size": "8000", "tok": "bpe,unigram"})
    finally:
        st.cache_data.clear()
        cached_load.clear()  # the toy stood in for Wikipedia in cached_load
    assert not at.exception and not broken(at) and not at.warning
    assert [e.value for e in at.error] == ["not trained in this test"]
    assert at.selectbox(key="corpus").value == "sample:enwiki"
    assert at.number_input(key="size").value == 8000
    assert at.multiselect(key="compare_tok").value == ["bpe", "unigram"]


# --- the parsers themselves ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", (3, None)),
        (" 3", (3, None)),  # as int() and Streamlit read it
        ("-1", (0, "below the smallest value, 0")),
        ("1e12", (10, "above the largest value, 10")),
        ("abc", (5, "not a number")),
        ("", (5, "empty")),
        ("nan", (5, "not a number")),
        ("inf", (5, "not a number")),
        ("-inf", (5, "not a number")),
        ("2.5", (2, "not a whole number")),
        ("3.0", (3, "not a whole number")),  # Streamlit's number box refuses it
        ("0x10", (5, "not a number")),
    ],
)
def test_parse_int(text, expected):
    assert parse_int(text, 0, 10, 5) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.2", (1.2, None)),
        ("1", (1.01, "below the smallest value, 1.01")),
        ("1e12", (4.0, "above the largest value, 4")),
        ("nan", (1.2, "not a number")),
        ("inf", (1.2, "not a number")),
        ("", (1.2, "empty")),
    ],
)
def test_parse_float(text, expected):
    assert parse_float(text, 1.01, 4.0, 1.2) == expected


def test_parse_choice_takes_an_option_exactly_as_written():
    options = ("textbook", "em")
    assert parse_choice("em", options, "textbook") == ("em", None)
    assert parse_choice("EM", options, "textbook") == ("textbook", "not one of: textbook, em")
    assert parse_choice(" ", options, "textbook") == ("textbook", "empty")


@pytest.mark.parametrize(
    ("lesson", "param", "given", "value", "address"),
    [  # Streamlit writes a choice shown through a format_func as its label; a link may
        # give the option itself (the labels: lessons/bytebpe/views.py, superbpe/merging.py)
        ("bytebpe", "bytes", "GPT-2 letters", "gpt2", "GPT-2 letters"),
        ("bytebpe", "bytes", "gpt2", "gpt2", "GPT-2 letters"),
        ("superbpe", "ties", "first seen in the corpus", "first", "first seen in the corpus"),
        ("superbpe", "ties", "first", "first", "first seen in the corpus"),
    ],
)
def test_a_choice_shown_by_its_label_is_read_back_from_the_address(
    lesson, param, given, value, address
):
    """The byte display chosen as 'GPT-2 letters' was written into the address as the
    label, and the next visit read it as no option ('not one of: hex, gpt2'), so a reload
    or a shared link showed hex."""
    at = run_page(lesson, {param: given})
    assert not naming(at, param), naming(at, param)
    assert at.selectbox(key=param).value == value
    assert at.query_params.get(param) == address
