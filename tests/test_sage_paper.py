"""The SaGe paper beside a run: Table 1 (a token BPE keeps and SaGe drops), the target-
centric Table 2 (a window changed from outside it), the §4 summary figures, and the time
estimate of the paper preset. Every expected value is counted by hand in the comments or
printed in the paper (seeds file 000)."""

from __future__ import annotations

import math
from dataclasses import asdict

import pytest
from apptools import seeds_dir

from subtok_core import measure as metrics
from subtok_core import sage
from subtok_core.records import Trace
from subtok_core.sage import paper, summary, table1, table2, timing
from subtok_core.sage.records import SageModel, SageSettings, SageStart, SageStep

# --- the paper's own tables and figures, as printed ----------------------------------


def test_the_quoted_tables_and_figures_are_in_the_paper():
    text = (seeds_dir() / paper.FILE).read_text(encoding="utf-8")
    for row in paper.TABLE_1:  # each row's tokens stand in the flattened text, in order
        assert " ".join(row.tokens[:6]) in text
    assert "pseud og ene" in text and "_ pseud ogene" in text and "_ St o o g e s" in text
    assert "_use _of _an _includ [e _direct ive _is _when]" in text
    assert "_use _of _an _inc l u [de _direct ive _is _when]" in text
    for said in ("56% of BPE-only tokens are of length 2 and 3", "55% of SAGE-only tokens",
                 "83% of the tokens", "only 22% of the BPE-only", "4 million BPE tokens",
                 "SAGE produces 4.5 million"):  # fmt: skip
        assert said in text


def test_the_papers_table_2_is_a_window_changed_from_outside():
    """The paper's example through our function: only ive's window (e -> de) changes
    while _includ (position 3) lies outside it; _direct's window holds _includ."""
    t = paper.TABLE_2
    words_before = [("_use",), ("_of",), ("_an",), ("_includ", "e"), ("_direct", "ive"),
                    ("_is",), ("_when",), ("_ref", "er", "r", "ing"), ("_to",)]  # fmt: skip
    words_after = [*words_before[:3], ("_inc", "l", "u", "de"), *words_before[4:]]
    found = table2.window_changes(words_before, words_after, "_includ", 2)
    assert [(c.target, c.target_after) for c in found] == [(t.target, t.target_after)] == [(6, 8)]
    assert t.before_window == (4, 9) and t.after_window == (6, 11)
    assert t.replaced == (("e",), ("de",))


# --- Table 2 on a run: a hand-made trace ---------------------------------------------

PIECES = ["▁", "a", "b", "c", "d", "x", "▁a", "▁x", "▁ab", "cd", "bcd"]
# "abc" is cut ▁ab c and without ▁ab ▁a b c: ▁x's window of 1 stays [c ▁x] (a shift only).
# "abcd" is cut ▁ab cd and without ▁ab ▁a bcd: ▁x's window of 1 turns [cd ▁x] into
# [bcd ▁x], and ▁ab (two tokens before ▁x) was outside it: the paper's Table 2.
SENTENCES = [["abc", "x"], ["abcd", "x"], ["x", "x"]]


def hand_trace(window: int) -> Trace:
    """One prune step that removes ▁ab, written by hand (no training)."""
    s = SageSettings(vocab_size=10, initial_size=11, k=1, M=1, window=window)
    start = SageStart(tuple(PIECES), 9, 3, 6, 8)
    step = SageStep(1, 10, None, True, False, (("▁ab", 0.0),), (("▁ab", 0.0),), 10)
    return Trace("sage", (*asdict(s).items(), ("control", None)), start, (step,), False, "", True)


def test_find_window_change_on_a_hand_made_run():
    found = table2.find_window_change(hand_trace(window=1), SENTENCES)
    assert (found.step, found.piece, found.sentence) == (1, "▁ab", 1)
    assert found.before == ("▁ab", "cd", "▁x") and found.after == ("▁a", "bcd", "▁x")
    assert (found.target, found.target_after, found.removed) == (2, 2, (0,))
    assert found.replaced == (("cd",), ("bcd",))
    assert found.text(*found.shown()[0]) == "abcd x"


def test_no_window_change_when_the_piece_is_inside_every_changed_window():
    # with a window of 2, ▁x's window holds ▁ab in both sentences: not the paper's case
    assert table2.find_window_change(hand_trace(window=2), SENTENCES) is None


def test_a_removal_right_of_the_target_never_changes_its_window():
    # greedy longest prefix re-cuts a word only from the removed piece on
    before = [("▁x",), ("▁ab", "cd")]
    after = [("▁x",), ("▁ab", "c", "d")]
    assert table2.window_changes(before, after, "cd", 1) == []


def test_window_changes_refuses_bad_input():
    with pytest.raises(ValueError, match="same words"):
        table2.window_changes([("▁a",)], [], "▁a", 1)
    with pytest.raises(ValueError, match="at least 1 token"):
        table2.window_changes([("▁a",)], [("▁a",)], "▁a", 0)


# --- Table 1 on a tiny vocabulary ----------------------------------------------------

BPE = ["▁", "a", "b", "c", "d", "o", "g", "s", ",", "og", "▁d", "▁c", "▁a", "▁s"]
KEPT = [p for p in BPE if p != "og"]


def test_table_one_picks_the_token_inside_the_most_words():
    # og is the only BPE-only token; BPE cuts dog, cog, dogs and "dog," with it:
    # distinct words (punctuation and case aside) dog, cog, dogs = 3; uses 1+1+1+1+1 = 5
    sentences = [["a", "dog", "a"], ["cog"], ["Dog,", "s"], ["dogs", "a", "dog"]]
    t = table1.table_one(BPE, KEPT, sentences, rows=5, context=1)
    assert (t.token, t.words, t.uses) == ("og", 3, 5)
    # "Dog," is dog again: sentence 2 gives no row; sentence 3 gives dogs
    assert [(r.sentence, r.words[r.focus]) for r in t.rows] == [(0, "dog"), (1, "cog"), (3, "dogs")]
    first = t.rows[0]
    assert first.words == ("a", "dog", "a") and first.focus == 1
    assert first.bpe == (("▁a",), ("▁d", "og"), ("▁a",))
    assert first.sage == (("▁a",), ("▁d", "o", "g"), ("▁a",))
    assert (first.more_before, first.more_after) == (False, False)
    last = t.rows[2]  # dogs a dog, context 1 around dogs: "dogs a", more after
    assert last.words == ("dogs", "a") and (last.more_before, last.more_after) == (False, True)
    assert last.bpe[0] == ("▁d", "og", "s") and last.sage[0] == ("▁d", "o", "g", "s")


def test_table_one_is_none_when_bpe_uses_no_token_sage_lacks():
    assert table1.table_one(BPE, KEPT, [["a", "sad"]]) is None
    with pytest.raises(ValueError, match="at least one row"):
        table1.table_one(BPE, KEPT, [["dog"]], rows=0)


# --- the summary figures, counted by hand -------------------------------------------

TINY_BPE = ["▁", "a", "b", "c", "▁a", "ab", "abc", "▁abcde", "bc"]
TINY_SAGE = ["▁", "a", "b", "c", "▁a", "▁abc", "▁abcdef", "▁b"]


def test_summary_figures_by_hand():
    # BPE-only: ab, abc, ▁abcde, bc (lengths 2, 3, 5, 2: 3 of 4 short; 1 of 4 word-initial)
    # SaGe-only: ▁abc, ▁abcdef, ▁b (lengths 3, 6, 1: 1 of 3 long; 3 of 3 word-initial)
    # the text "abc b": BPE ▁a bc ▁ b (4 tokens), SaGe ▁abc ▁b (2 tokens)
    lines = ["abc b"]
    counts = [len(metrics.tokenize_with(SageModel(tuple(v)), lines)) for v in (TINY_BPE, TINY_SAGE)]
    assert counts == [4, 2]
    f = summary.summary_figures(TINY_BPE, TINY_SAGE, *counts)
    assert (f.bpe_only, f.sage_only) == (4, 3)
    assert f.bpe_only_short == 0.75 and f.sage_only_long == pytest.approx(1 / 3)
    assert f.sage_only_initial == 1.0 and f.bpe_only_initial == 0.25
    assert [c.holds(f) for c in summary.CLAIMS] == [True, False, False, True]
    rows = summary.figure_rows(f)
    assert [r["this run"] for r in rows] == ["75%", "33%", "4", "2 (-50.0%)", "100%", "25%"]
    assert [r["the paper"] for r in rows] == [
        "56%", "55%", "4,000,000", "4,500,000 (+12.5%)", "83%", "22%",
    ]  # fmt: skip
    assert summary.agreement(f) == (
        "As in the paper: most BPE-only tokens are 2-3 characters long; SaGe-only tokens are "
        "more often word-initial than BPE-only tokens. Not in this run: most SaGe-only tokens "
        "are 5 or more characters long; SaGe needs more tokens than BPE for the same text."
    )


def test_equal_vocabularies_cannot_tell():
    f = summary.summary_figures(TINY_BPE, TINY_BPE, 4, 4)
    assert math.isnan(f.bpe_only_short) and math.isnan(f.sage_only_initial)
    assert [c.holds(f) for c in summary.CLAIMS] == [None, None, False, None]
    assert summary.agreement(f).startswith("Not in this run: SaGe needs more tokens")
    assert "Cannot tell here" in summary.agreement(f)


# --- the preset's estimate ------------------------------------------------------------


def test_the_presets_schedule_by_hand():
    # 20,000 - 16,000 = 4,000 pieces, 100 a step: 40 steps; every piece scored at steps
    # 1, 11, 21, 31; Word2Vec at step 1 only (every 4 x 10 = 40 steps)
    assert timing.schedule(sage.PAPER) == timing.Schedule(40, 4, 36, 1)
    # the page's default: 1,200 -> 1,000 by 50: 4 steps, all full (m = 1), Word2Vec at 1, 3
    assert timing.schedule(SageSettings()) == timing.Schedule(4, 4, 0, 2)


def test_the_schedule_is_the_trainers():
    sentences = [["the", "cat"], ["the", "hat"], ["a", "cat", "sat"]] * 3
    s = SageSettings(vocab_size=12, initial_size=17, k=1, M=3, m=2, l=2, dim=4, seed=1)
    steps = sage.trace_sage(sentences, s).steps
    plan = timing.schedule(s)
    assert plan.steps == len(steps) == 5
    assert plan.full == sum(x.recomputed_losses for x in steps) == 3  # steps 1, 3, 5
    assert plan.retrains == sum(x.retrained_embeddings for x in steps) == 2  # steps 1, 5


def test_the_estimate_needs_every_phase():
    with pytest.raises(ValueError, match="lack word2vec"):
        timing.estimate({p: 1.0 for p in timing.PHASES if p != "word2vec"})


def test_the_timing_file_round_trips(tmp_path):
    seconds = {p: float(i + 1) for i, p in enumerate(timing.PHASES)}
    path = tmp_path / "t.toml"
    timing.write(seconds, {"tokens": 10}, "cmd", "box", "2025-01-01", path=path)
    read = timing.load_timing(path)
    assert read["seconds"] == seconds and read["measured"]["date"] == "2025-01-01"
    assert timing.load_timing(tmp_path / "none.toml") is None
