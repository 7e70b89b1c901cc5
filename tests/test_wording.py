"""Issue 14's wording and layout points on the WordPiece, Unigram and Compare pages: the
longest-match trace as a table, [UNK] chips that say what they stand for, a status column
wide enough, the textbook Unigram without an "M-step", a removal that shows at once, the
lattice in the loss's log base with a legend that says what red means, and Compare's
tables and tooltips in words a student reads."""

from __future__ import annotations

import html
import json
import math
import re

import pandas as pd
import pytest
from apptools import infos, open_page

from subtok_core.charts import compare as viz_compare
from subtok_core.charts import lessons as viz
from subtok_core.corpus import load
from subtok_core.measure import COLUMN_NAMES, readable
from subtok_core.wordpiece import encode_word, model_from_trace, trace_wordpiece
from subtok_core.wordpiece.explain import tries_by_position


def frame_with(at, column: str):
    return next(df for df in at.dataframe if column in df.value.columns)


def column_config(element) -> dict:
    return json.loads(element.proto.columns)


def html_with(at, needle: str) -> list[str]:
    return [m.value for m in at.markdown if needle in m.value]


def table_rows(html_table: str) -> list[list[str]]:
    """The rows of one of our HTML tables, each cell as its text with chips marked: a chip
    not found is -x-, the one kept is +x+."""
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", html_table):
        cells = re.findall(r"<t[dh]>(.*?)</t[dh]>", row)
        cells = [re.sub(r'<span class="chip miss">(.*?)</span>', r"-\1-", c) for c in cells]
        cells = [re.sub(r'<span class="chip hit">(.*?)</span>', r"+\1+", c) for c in cells]
        rows.append([html.unescape(c) for c in cells])  # as the browser shows them
    return rows


# --- WordPiece ----------------------------------------------------------------------------


def test_longest_match_tries_group_by_position_as_the_course_encodes():
    # 001: after 3 merges on sunflower the vocabulary is the letters, su, ##er and ##ed;
    # longest match on "flowers" (flowers, flower, ..., fl are not in it) keeps
    # f, ##l, ##o, ##w, ##er, ##s
    model = model_from_trace(trace_wordpiece(load("toy:sunflower"), merges=3))
    rows = tries_by_position(encode_word(model, "flowers"))
    assert [r.start for r in rows] == [0, 1, 2, 3, 4, 6]
    assert [r.kept for r in rows] == ["f", "##l", "##o", "##w", "##er", "##s"]
    # from position 4 the candidates are ##ers, then ##er, which is in the vocabulary
    assert rows[4].tried == (("##ers", False), ("##er", True))
    assert all(found == (piece == r.kept) for r in rows for piece, found in r.tried)


def test_the_encode_trace_is_a_table_per_word_and_unk_chips_say_what_they_hide():
    at = open_page("lessons/wordpiece/page.py", corpus="toy:sunflower", step="3")
    at.text_input(key="wordpiece_encode").input("fused funny").run()
    fused = next(t for t in html_with(at, 'class="tries"') if "<b>fused</b>" in t)
    rows = table_rows(fused)
    assert rows[0] == ["from", "rest of the word", "tried, longest first"]
    # hand-run longest match on the vocabulary after merge 3 (no fu, no ##se, no ##us)
    assert rows[1:] == [
        ["0", "fused", "-fused--fuse--fus--fu-+f+"],
        ["1", "used", "-##used--##use--##us-+##u+"],
        ["2", "sed", "-##sed--##se-+##s+"],
        ["3", "ed", "+##ed+"],
    ]
    funny = next(t for t in html_with(at, 'class="tries"') if "<b>funny</b>" in t)
    assert table_rows(funny)[-1] == ["4", "y", "-##y- → none: the word becomes [UNK]"]
    tokens = html_with(at, "<b>WordPiece</b>, 5 tokens")[0]
    assert 'class="chip unk" title="[UNK] = &#x27;funny&#x27;"' in tokens  # the whole word
    assert 'title="[UNK] = &#x27;y&#x27;"' in tokens  # BPE: only the unknown character
    assert not any("tried &quot;" in m.value or 'tried "' in m.value for m in at.markdown)


def test_the_status_column_is_wide_enough_for_merged():
    at = open_page("lessons/wordpiece/page.py", corpus="toy:sunflower", step="3")
    config = column_config(frame_with(at, "fraction"))
    assert config["status"]["width"] >= 90  # "mergec" was cut at the automatic width


def test_corpus_rows_may_wrap_between_words_and_inside_a_long_word():
    at = open_page("lessons/wordpiece/page.py", corpus="toy:sunflower", step="3")
    corpus = html_with(at, 'class="word"')[0]
    css = corpus.split("</style>")[0]
    word_rule = re.search(r"\.word \{([^}]*)\}", css).group(1)
    assert "nowrap" not in word_rule and "inline-block" in word_rule
    assert "×&nbsp;1" in corpus  # the count stays with its sign


# --- Unigram ------------------------------------------------------------------------------


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_textbook_variant_calls_the_removal_losses_pruning_not_an_m_step():
    at = open_page("lessons/unigram/page.py", corpus="toy:run-bug", step="2")
    said = [h.value for h in at.subheader] + [x.value for x in at.info]
    assert any("Round 1 · Pruning: the loss of removing each piece" in s for s in said)
    assert "loss without each of 6 pieces" in infos(at)
    # the title names the phase; the sentence under it does not say it again (issue 39)
    assert infos(at).count("Pruning:") == 1, infos(at)
    assert not any("M-step" in s for s in said)
    specs = [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]
    loss = next(
        s
        for s in specs
        if "loss" in json.dumps(s["layer"][0]["encoding"]) and "increase" not in json.dumps(s)
    )  # the loss curve, not the chart of the loss increases (also layered since issue 25)
    kinds = loss["layer"][1]["encoding"]["color"]["scale"]["domain"]
    assert kinds == ["E-step", "removal losses", "prune"]  # the legend of the loss curve
    em = open_page("lessons/unigram/page.py", corpus="toy:hug-pug", variant="em", step="2")
    said = [h.value for h in em.subheader] + [x.value for x in em.info]
    # EM's M-step is one, and keeps its name
    assert any("Round 1 · M-step: probabilities from expected counts" in s for s in said)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_prune_it_now_moves_to_the_prune_step_that_removes_the_choice():
    at = open_page("lessons/unigram/page.py", corpus="toy:run-bug", step="2")
    at.selectbox(key="unigram_pick_1").set_value("un").run()
    at.button(key="unigram_remove_1").click().run()
    assert at.slider(key="step").value == 3
    assert "Pruned un (chosen by you)" in infos(at)
    removal = frame_with(at, "loss without it").value.set_index("piece")
    assert list(removal[removal["status"] == "pruned"].index) == ["un"]
    assert "un" not in set(frame_with(at, "probability").value["piece"])
    assert at.query_params["remove"] == "un"  # a link reproduces the choice


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_lattice_speaks_the_log_base_of_the_loss():
    at = open_page("lessons/unigram/page.py", corpus="toy:run-bug", base="10", step="1")
    log = "log P (base 10)"
    edges = frame_with(at, log).value.set_index("piece")
    # 001's seed frequencies: r 3 and ru 3 of 155, n 26 of 155
    assert abs(edges.loc["r", log] - math.log10(3 / 155)) < 1e-9
    best = math.log10(3 / 155) + math.log10(26 / 155)  # ru n, as the slides pick
    assert list(edges[edges["on the best path"]].index) == ["ru", "n"]
    sentence = next(m.value for m in at.markdown if "The best path (red, Viterbi)" in m.value)
    assert f"{log} = {best:.4f}" in sentence and "**ru n**" in sentence
    em = open_page("lessons/unigram/page.py", corpus="toy:hug-pug", variant="em", step="1")
    assert "log P (base e)" in frame_with(em, "log P (base e)").value.columns


def test_the_lattice_legend_says_best_path_and_other_pieces():
    at_frame = {
        "start": [0, 0, 1],
        "end": [1, 2, 2],
        "piece": ["r", "ru", "u"],
        "logp": [-1.7, -1.7, -0.7],
        "posterior": [0.5, 0.5, 0.5],
        "best": [False, True, False],
        "row": [0, 1, 2],
    }
    spec = viz.lattice_chart(pd.DataFrame(at_frame), log_label="log P (base 10)").to_dict()
    color = spec["layer"][0]["encoding"]["color"]
    assert color["scale"]["domain"] == ["on the best path", "other pieces"]
    assert "log P (base 10)" in color["legend"]["title"]
    assert "Viterbi path" not in json.dumps(spec)


# --- Compare ------------------------------------------------------------------------------


@pytest.mark.slow  # compare trains
def test_compare_tables_show_readable_column_names():
    at = open_page("lessons/compare/page.py", corpus="toy:cat-bat", size="12", tok="bpe,unigram")
    overlap = frame_with(at, COLUMN_NAMES["word_initial_share"])
    assert list(overlap.value.columns) == [
        "part of the vocabulary",
        "tokens",
        "tokens that start a word",
        "share that starts a word",
        "examples",
    ]
    for df in at.dataframe:  # no raw field name (word_initial_share, chars_per_token, ...)
        assert not [c for c in df.value.columns if "_" in str(c)], df.value.columns
    raw = readable(pd.DataFrame(columns=["word_initial_share", "chars_per_token"]))
    assert list(raw.columns) == ["share that starts a word", "characters per token"]


def test_compare_chart_tooltips_and_axes_have_readable_titles():
    lengths = viz_compare.stack(
        {"BPE": pd.DataFrame({"length": [1], "tokens": [2], "share": [1.0]})}
    )
    fertility = viz_compare.stack(
        {
            "BPE": pd.DataFrame(
                {
                    "subwords": [1],
                    "words": [3],
                    "word_types": [2],
                    "words_share": [1.0],
                    "types_share": [1.0],
                }
            )
        }  # fmt: skip
    )
    for spec in (
        viz_compare.token_length_chart(lengths).to_dict(),
        viz_compare.fertility_chart(fertility).to_dict(),
        viz_compare.fertility_chart(fertility, by="word_types").to_dict(),
    ):
        enc = spec["encoding"]
        titles = [t["title"] for t in enc["tooltip"]]
        assert all("_" not in t for t in titles), titles
        assert "_" not in enc["x"]["title"] and "_" not in enc["y"]["title"]


@pytest.mark.slow  # compare trains
def test_an_unk_chip_on_compare_says_which_text_it_stands_for():
    at = open_page("lessons/compare/page.py", corpus="toy:cat-bat", size="12", tok="bpe,wordpiece")
    at.text_area(key="compare_encode").input("cat é").run()
    bpe_line = next(m.value for m in at.markdown if m.value.startswith("**BPE**"))
    assert 'title="[UNK] = &#x27;é&#x27;"' in bpe_line
    note = next(c.value for c in at.caption if c.value.startswith("An unknown token"))
    note = re.sub(r"\\(.)", r"\1", note)  # markdown's escapes, as the page shows it
    assert "BPE: [UNK] = 'é'" in note and "WordPiece: [UNK] = 'é'" in note


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_wordpiece_explanation_sits_under_the_side_by_side():
    at = open_page(
        "lessons/compare/page.py", corpus="toy:sunflower", size="20", tok="bpe,wordpiece"
    )
    text = "sunflower sun flower flow flowers flowing flows flowed"
    at.text_area(key="compare_encode").input(text).run()
    order = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) in ("header", "subheader", "info", "markdown"):
                order.append((child.type, str(child.value)))
            walk(child)

    walk(at.main)
    counts = {
        v.split("**")[1]: int(v.split(": ")[1].split()[0])
        for kind, v in order
        if kind == "markdown" and re.match(r"\*\*(BPE|WordPiece)\*\*: \d+ tokens", v)
    }
    assert counts["WordPiece"] > 1.5 * counts["BPE"]  # it cuts into letters here
    first_info = next(i for i, (kind, _) in enumerate(order) if kind == "info")
    languages = order.index(("header", "The same sentences in other languages"))
    assert first_info < languages  # beside the side-by-side, not a screen further down
    said = order[first_info][1]
    assert said.startswith(
        f"WordPiece needs {counts['WordPiece']} tokens for this text, BPE {counts['BPE']}."
    )
