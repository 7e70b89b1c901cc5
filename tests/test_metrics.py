"""Comparison metrics (metrics.py, metrics_neighbours.py, metrics_tokenized.py).

Micro cases are worked out by hand in the comments; hypothesis checks the vectorized code
against plain Python (tokenizing word by word, collecting neighbours in sets) and the
invariants of each metric (means x words = tokens, parts partition the union, ...).
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtok_core import bpe, unigram, wordpiece
from subtok_core.corpus import from_pairs, load, load_lines
from subtok_core.measure import (
    distinct_neighbours,
    efficiency,
    fertility,
    frequency_diff,
    frequency_profile,
    model_style,
    neighbour_ratio,
    overlap,
    token_lengths,
    tokenize_corpus,
    vocab_style,
    word_segmenter,
)
from subtok_core.measure.neighbours import neighbour_counts
from subtok_core.measure.tokenized import bare, common_notation, word_initial

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# low -> lo w, lower -> lo w er, newest -> n e w est (a hand-made BPE-like table)
TABLE = {"low": ["lo", "w"], "lower": ["lo", "w", "er"], "newest": ["n", "e", "w", "est"]}


def chars(word: str) -> list[str]:
    return list(word)


def whole(word: str) -> list[str]:
    return [word]


# --- Tokenized ------------------------------------------------------------------------


def test_tokenize_lines_expands_running_text():
    t = tokenize_corpus(TABLE.get, ["low lower", "low newest"], name="toy")
    running = ["lo", "w", "lo", "w", "er", "lo", "w", "n", "e", "w", "est"]
    assert [t.pieces[i] for i in t.ids] == running
    assert t.word_index.tolist() == [0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 3]
    assert t.line_index.tolist() == [0] * 5 + [1] * 6
    assert t.words == ("low", "lower", "newest")
    assert t.word_ids.tolist() == [0, 1, 0, 2]
    assert t.type_lengths.tolist() == [2, 3, 4]
    assert t.frequencies().tolist() == [3, 4, 1, 1, 1, 1]  # lo w er n e est (w in all 4)
    assert len(t) == 11 and t.name == "toy"


def test_tokenize_word_counts_and_text():
    t = tokenize_corpus(chars, from_pairs([("ab", 2), ("c", 1)]))
    assert [t.pieces[i] for i in t.ids] == ["a", "b", "a", "b", "c"]
    assert t.line_index is None  # word counts keep no running order
    text = tokenize_corpus(chars, "ab\nc ab")  # a str is split into lines
    assert text.line_index.tolist() == [0, 0, 1, 1, 1]


def test_each_distinct_word_is_encoded_once():
    calls = []
    tokenize_corpus(lambda w: calls.append(w) or [w], ["a b a", "b a c"])
    assert calls == ["a", "b", "c"]


def test_tokenized_arrays_are_read_only():
    t = tokenize_corpus(chars, ["ab"])
    with pytest.raises(ValueError):
        t.ids[0] = 1


def test_tokenized_pickles():
    t = tokenize_corpus(TABLE.get, ["low lower", "low newest"], name="toy")
    back = pickle.loads(pickle.dumps(t))
    assert (back.name, back.style, back.pieces, back.words) == (t.name, t.style, t.pieces, t.words)
    assert np.array_equal(back.ids, t.ids) and np.array_equal(back.line_index, t.line_index)


def test_model_style():
    wc = load("toy:low-lower")
    styles = [model_style(bpe.train_bpe(wc, merges=2, marker=m)) for m in bpe.MARKERS]
    assert styles == ["none", "eow", "eow", "sow"]  # none, eow, suffix, sow
    assert model_style(wordpiece.train_wordpiece(wc, merges=2)) == "wordpiece"
    with pytest.raises(ValueError, match="continuations"):
        model_style(wordpiece.WordPieceModel(("a",), ("a",), prefix="@@"))


@pytest.mark.parametrize("source", [[], [""], ["  ", ""], ""])
def test_empty_corpus_is_refused(source):
    with pytest.raises(ValueError, match="empty"):
        tokenize_corpus(chars, source)


def test_a_word_without_tokens_is_refused():
    with pytest.raises(ValueError, match="no token"):
        tokenize_corpus(lambda w: [], ["ab"])


words_ = st.text(alphabet="abc", min_size=1, max_size=6)
lines_ = st.lists(st.lists(words_, max_size=6), min_size=1, max_size=6).filter(lambda ls: any(ls))


def chunker(size: int):
    """A deterministic toy tokenizer: cut a word into chunks of `size` characters."""
    return lambda w: [w[i : i + size] for i in range(0, len(w), size)]


@SETTINGS
@given(lines=lines_, size=st.integers(1, 3))
def test_expansion_equals_word_by_word(lines, size):
    seg = chunker(size)
    t = tokenize_corpus(seg, [" ".join(line) for line in lines])
    naive = [(p, n) for n, w in enumerate(w for line in lines for w in line) for p in seg(w)]
    assert [t.pieces[i] for i in t.ids] == [p for p, _ in naive]
    assert t.word_index.tolist() == [n for _, n in naive]
    lines_naive = [k for k, line in enumerate(lines) for w in line for _ in seg(w)]
    assert t.line_index.tolist() == lines_naive


def test_word_segmenter_matches_each_model():
    cat_bat = load("toy:cat-bat")
    words = [*cat_bat.words, "tacs", "xat"]
    model = bpe.train_bpe(cat_bat, merges=4, marker="sow")
    seg = word_segmenter(model)
    assert [seg(w) for w in words] == [bpe.segment(model, w).pieces for w in words]
    wp = wordpiece.train_wordpiece(load("toy:sunflower"), merges=6)
    seg = word_segmenter(wp)
    assert [seg(w) for w in ["sun", "flows", "fux"]] == [
        wordpiece.segment(wp, w).pieces for w in ["sun", "flows", "fux"]
    ]
    uni = unigram.train_unigram(load("toy:hug-pug"), seed="given", vocab_size=12)
    seg = word_segmenter(uni)
    assert [seg(w) for w in ["hugs", "pun", "bugx"]] == [
        unigram.segment(uni, w).pieces for w in ["hugs", "pun", "bugx"]
    ]
    # a ▁-marked unigram model, with an unknown character (z): the lattice's [UNK] path
    pieces, logprobs = ("▁", "a", "b", "▁a", "ab"), (-2.0, -1.0, -1.5, -1.2, -2.5)
    sow = unigram.UnigramModel(pieces, logprobs, ("a", "b"), marker="sow")
    seg = word_segmenter(sow)
    assert [seg(w) for w in ["ab", "ba", "azb"]] == [
        unigram.segment(sow, w).pieces for w in ["ab", "ba", "azb"]
    ]
    assert seg("ab") == ["▁a", "b"]  # -1.2 - 1.5 = -2.7 beats ▁ ab (-4.5) and ▁ a b (-4.5)
    with pytest.raises(ValueError, match="no word segmenter"):
        word_segmenter(object())


# --- markers --------------------------------------------------------------------------


def test_marker_styles():
    assert vocab_style(["a", "▁ab"]) == "sow"
    assert vocab_style(["a", "b</w>"]) == "eow"
    assert vocab_style(["a", "##b"]) == "wordpiece"
    assert vocab_style(["a", "##", "ab"]) == "none"  # "##" alone is two characters
    assert [bare(p, "eow") for p in ["low</w>", "</w>", "lo"]] == ["low", "", "lo"]
    assert bare("##", "wordpiece") == "##" and bare("##s", "wordpiece") == "s"
    assert [word_initial(p, "sow") for p in ["▁a", "a"]] == [True, False]
    assert [word_initial(p, "wordpiece") for p in ["a", "##a", "##"]] == [True, False, True]
    assert word_initial("a</w>", "eow") is None
    to_a, to_b = common_notation("sow", "wordpiece")
    assert (to_a("▁ab"), to_b("ab"), to_b("##ab"), to_b("[UNK]")) == ("▁ab", "▁ab", "ab", "[UNK]")
    with pytest.raises(ValueError, match="cannot be matched"):
        common_notation("eow", "sow")


# --- token_lengths --------------------------------------------------------------------


def test_token_lengths_eow():
    # l o w </w> lo low</w> w</w> -> 1 1 1 0 2 3 1: length 0 once, 1 four times, 2, 3 once
    table = token_lengths(["l", "o", "w", "</w>", "lo", "low</w>", "w</w>"])
    assert table["length"].tolist() == [0, 1, 2, 3]
    assert table["tokens"].tolist() == [1, 4, 1, 1]
    assert table["share"].tolist() == pytest.approx([1 / 7, 4 / 7, 1 / 7, 1 / 7])


def test_token_lengths_wordpiece_fills_gaps_and_skips_specials():
    # t 1, ##o 1, ##ing 3, [UNK] left out: lengths 1 1 3, so length 2 has no token
    table = token_lengths(["[UNK]", "t", "##o", "##ing"])
    assert table[["length", "tokens"]].values.tolist() == [[1, 2], [2, 0], [3, 1]]
    # the same vocabulary read as marker-free: ##o is 3 characters, ##ing 5
    plain = token_lengths(["t", "##o", "##ing"], style="none")
    assert plain.loc[plain["tokens"] > 0, "length"].tolist() == [1, 3, 5]


def test_token_lengths_errors():
    with pytest.raises(ValueError, match="empty"):
        token_lengths(["[UNK]", "[PAD]"])
    with pytest.raises(ValueError, match="Unknown marker style"):
        token_lengths(["a"], style="suffix")


# --- fertility and efficiency ---------------------------------------------------------


def test_fertility_micro():
    # running words low lower low newest: 2 3 2 4 tokens = 11 for 4 words (2.75);
    # word types low lower newest: 2 3 4 = 9 for 3 types (3.0)
    f = fertility(tokenize_corpus(TABLE.get, ["low lower", "low newest"]))
    assert (f.tokens, f.words, f.word_types) == (11, 4, 3)
    assert (f.tokens_per_word, f.tokens_per_type) == (2.75, 3.0)
    assert f.table["subwords"].tolist() == [2, 3, 4]
    assert f.table["words"].tolist() == [2, 1, 1]
    assert f.table["word_types"].tolist() == [1, 1, 1]
    assert f.table["words_share"].tolist() == [0.5, 0.25, 0.25]


def test_efficiency_micro():
    # characters 3 + 5 + 3 + 6 = 17 in 11 tokens
    e = efficiency(tokenize_corpus(TABLE.get, ["low lower", "low newest"], name="toy"))
    assert (e.name, e.tokens, e.words, e.characters) == ("toy", 11, 4, 17)
    assert (e.chars_per_token, e.tokens_per_word) == (17 / 11, 2.75)


@SETTINGS
@given(lines=lines_, size=st.integers(1, 3))
def test_fertility_properties(lines, size):
    t = tokenize_corpus(chunker(size), [" ".join(line) for line in lines])
    f, e = fertility(t), efficiency(t)
    assert math.isclose(f.tokens_per_word * f.words, f.tokens)
    assert math.isclose(f.tokens_per_type * f.word_types, int(t.type_lengths.sum()))
    assert (f.table["subwords"] * f.table["words"]).sum() == f.tokens == len(t) == e.tokens
    assert f.table["words"].sum() == f.words and f.table["word_types"].sum() == f.word_types
    assert e.characters == sum(len(w) for line in lines for w in line)
    assert e.chars_per_token * e.tokens == pytest.approx(e.characters)


# --- neighbours -----------------------------------------------------------------------


def counts_of(t, window) -> dict[str, tuple[int, int]]:
    table = distinct_neighbours(t, window)
    return {row.token: (row.neighbours, row.frequency) for row in table.itertuples()}


def test_neighbour_ratio_a_b_a_c():
    # window 1 over a b a c: a sees b (pos 0) and b, c (pos 2): 2 distinct in 2 occurrences;
    # b sees a: 1 in 1; c sees a: 1 in 1. Every ratio is 1.0.
    t = tokenize_corpus(whole, ["a b a c"])
    assert counts_of(t, 1) == {"a": (2, 2), "b": (1, 1), "c": (1, 1)}
    ratio = neighbour_ratio(t, window=1)
    assert dict(zip(ratio.table["token"], ratio.table["ratio"], strict=True)) == {
        "a": 1.0, "b": 1.0, "c": 1.0
    }  # fmt: skip
    assert ratio.mean == 1.0 and ratio.window == 1


def test_neighbours_stop_at_line_ends_but_cross_words():
    # one line a b c d, window 2: b sees a, c, d; split into lines "a b" / "c d": b sees a
    assert counts_of(tokenize_corpus(whole, ["a b c d"]), 2)["b"] == (3, 1)
    assert counts_of(tokenize_corpus(whole, ["a b", "c d"]), 2)["b"] == (1, 1)
    # "ab cd" in characters, window 1: b sees a (same word) and c (next word)
    assert counts_of(tokenize_corpus(chars, ["ab cd"]), 1)["b"] == (2, 1)


def test_a_piece_next_to_itself_is_its_own_neighbour():
    # a a b, window 1: a sees a and b; b sees a
    assert counts_of(tokenize_corpus(whole, ["a a b"]), 1) == {"a": (2, 2), "b": (1, 1)}


def test_neighbour_ranking_and_columns():
    # x y x z x, window 1: x sees y, z (2, freq 3); y sees x (1, freq 1); z sees x (1, freq 1)
    table = distinct_neighbours(tokenize_corpus(whole, ["x y x z x", "w"]), window=1)
    assert list(table.columns) == ["rank", "token", "neighbours", "frequency"]
    assert table.values.tolist() == [[1, "x", 2, 3], [2, "y", 1, 1], [3, "z", 1, 1], [4, "w", 0, 1]]
    ratio = neighbour_ratio(tokenize_corpus(whole, ["x y x z x", "w"]), window=1, bins=4)
    assert ratio.table["token"].tolist() == ["y", "z", "x", "w"]  # 1, 1, 2/3, 0
    # bins of width 0.5 over [0, 2]: w (0) in the first, x (0.667) the second, y z the third
    assert ratio.histogram["tokens"].tolist() == [1, 1, 2, 0]
    assert ratio.histogram["bin_end"].tolist() == [0.5, 1.0, 1.5, 2.0]


@pytest.mark.parametrize("window", [0, -1, 1.5])
def test_window_must_be_a_positive_whole_number(window):
    with pytest.raises(ValueError, match="window"):
        distinct_neighbours(tokenize_corpus(whole, ["a b"]), window=window)


def test_neighbours_need_running_text():
    t = tokenize_corpus(whole, from_pairs([("a", 2), ("b", 1)]))
    with pytest.raises(ValueError, match="no running order"):
        neighbour_ratio(t)
    with pytest.raises(ValueError, match="bin"):
        neighbour_ratio(tokenize_corpus(whole, ["a b"]), bins=0)


def naive_neighbours(lines: list[list[str]], window: int) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for line in lines:
        for i, token in enumerate(line):
            near = line[max(0, i - window) : i] + line[i + 1 : i + 1 + window]
            seen.setdefault(token, set()).update(near)
    return seen


@SETTINGS
@given(lines=lines_, window=st.integers(1, 4), block=st.integers(1, 30))
def test_neighbours_equal_plain_sets(lines, window, block):
    t = tokenize_corpus(chars, [" ".join(line) for line in lines])
    token_lines = [[c for w in line for c in w] for line in lines]
    expected = {p: len(s) for p, s in naive_neighbours(token_lines, window).items()}
    table = distinct_neighbours(t, window)
    assert dict(zip(table["token"], table["neighbours"], strict=True)) == expected
    blocked = neighbour_counts(t, window, block_cells=block)  # row blocks of the table
    assert blocked.tolist() == neighbour_counts(t, window).tolist()
    assert (table["neighbours"] <= 2 * window * table["frequency"]).all()
    assert (table["neighbours"] <= len(t.pieces)).all()
    assert table["neighbours"].is_monotonic_decreasing
    ratio = neighbour_ratio(t, window)
    assert ratio.histogram["tokens"].sum() == len(t.pieces)
    assert (ratio.table["ratio"] <= 2 * window).all()


# --- frequency_diff -------------------------------------------------------------------


def test_frequency_diff_micro():
    # "ab ab c" in characters: a 2, b 2, c 1; as whole words: ab 2, c 1.
    # a +2, b +2 (more in chars, ties alphabetical), ab -2 (more in words), c 0 (left out)
    a = tokenize_corpus(chars, ["ab ab c"], name="chars")
    b = tokenize_corpus(whole, ["ab ab c"], name="words")
    table = frequency_diff(a, b, top=5)
    assert list(table.columns) == ["token", "freq_a", "freq_b", "difference", "more_in"]
    assert table.values.tolist() == [
        ["a", 2, 0, 2, "chars"], ["b", 2, 0, 2, "chars"], ["ab", 0, 2, -2, "words"]
    ]  # fmt: skip
    assert frequency_diff(a, b, top=1)["token"].tolist() == ["a", "ab"]


def test_frequency_diff_matches_sow_with_wordpiece():
    # the same cut in two notations: ▁a b and a ##b are equal, so no difference at all
    a = tokenize_corpus(lambda w: ["▁" + w[0], w[1:]], ["ab ab"])
    b = tokenize_corpus(lambda w: [w[0], "##" + w[1:]], ["ab ab"])
    assert frequency_diff(a, b).empty
    # a wordpiece tokenizer that keeps words whole: no ## is ever used, so its style is
    # given; ab is ▁ab in ▁-notation (▁ sorts after the letters)
    c = tokenize_corpus(whole, ["ab ab"], style="wordpiece")
    assert vocab_style(c.pieces) == "none" and c.style == "wordpiece"
    assert frequency_diff(a, c).values.tolist() == [
        ["b", 2, 0, 2, "A"], ["▁a", 2, 0, 2, "A"], ["▁ab", 0, 2, -2, "B"]
    ]  # fmt: skip


def test_frequency_diff_errors():
    a = tokenize_corpus(chars, ["ab"])
    with pytest.raises(ValueError, match="at least 1"):
        frequency_diff(a, a, top=0)
    with pytest.raises(ValueError, match="different corpora"):
        frequency_diff(a, tokenize_corpus(chars, ["ab ab"]))
    sow = tokenize_corpus(lambda w: ["▁" + w], ["ab"])
    eow = tokenize_corpus(lambda w: [w + "</w>"], ["ab"])
    with pytest.raises(ValueError, match="cannot be matched"):
        frequency_diff(sow, eow)


@SETTINGS
@given(lines=lines_, size_a=st.integers(1, 3), size_b=st.integers(1, 3))
def test_frequency_diff_adds_up(lines, size_a, size_b):
    text = [" ".join(line) for line in lines]
    a, b = tokenize_corpus(chunker(size_a), text), tokenize_corpus(chunker(size_b), text)
    table = frequency_diff(a, b, top=10_000)
    assert table["difference"].sum() == len(a) - len(b)
    assert (table["difference"] == table["freq_a"] - table["freq_b"]).all()
    assert (table["difference"] != 0).all()


# --- overlap --------------------------------------------------------------------------


def test_overlap_same_style():
    # shared ▁the ing (1 of 2 word-initial); only A ▁a s (1 of 2); only B ▁cat ▁dog ed (2 of 3)
    a = ["▁the", "▁a", "s", "ing", "[UNK]"]
    b = ["▁the", "ing", "▁cat", "▁dog", "ed", "[UNK]"]
    o = overlap(a, b, examples=2, names=("BPE", "SaGe"))
    assert o.notation == "sow"
    assert o.table["part"].tolist() == ["shared", "only in BPE", "only in SaGe"]
    assert o.table["tokens"].tolist() == [2, 2, 3]
    assert o.table["word_initial"].tolist() == [1, 1, 2]
    assert o.table["word_initial_share"].tolist() == [0.5, 0.5, pytest.approx(2 / 3)]
    assert o.table["examples"].tolist() == [["▁the", "ing"], ["▁a", "s"], ["▁cat", "▁dog"]]
    assert (o.shared, o.only_a, o.only_b) == (("▁the", "ing"), ("▁a", "s"), ("▁cat", "▁dog", "ed"))


def test_overlap_notation_and_unmarked_word_starts():
    # wordpiece a ##b ac in ▁-notation: ▁a b ▁ac
    o = overlap(["▁a", "b", "▁ab"], ["a", "##b", "ac"])
    assert (o.notation, o.shared, o.only_a, o.only_b) == ("sow", ("▁a", "b"), ("▁ab",), ("▁ac",))
    # examples: entries of two or more characters first, each group in vocab order
    assert overlap(["a", "b", "ab", "c"], ["c"]).table["examples"][1] == ["ab", "a", "b"]
    # eow vocabularies do not mark word starts: no share
    e = overlap(["lo", "w</w>"], ["lo", "er</w>"])
    assert e.notation == "eow" and e.table["tokens"].tolist() == [1, 1, 1]
    assert e.table["word_initial_share"].isna().all()
    # an empty part has no share either
    assert math.isnan(overlap(["▁a"], ["▁a"]).table["word_initial_share"][1])
    with pytest.raises(ValueError, match="cannot be matched"):
        overlap(["▁a"], ["a</w>"])


vocab_ = st.lists(st.sampled_from(["▁a", "▁b", "a", "b", "▁ab", "ab", "▁ba", "ba"]), max_size=8)


@SETTINGS
@given(a=vocab_, b=vocab_)
def test_overlap_parts_partition_the_union(a, b):
    o = overlap(a, b, style_a="sow", style_b="sow")
    parts = [set(o.shared), set(o.only_a), set(o.only_b)]
    assert set().union(*parts) == set(a) | set(b)
    assert sum(len(p) for p in parts) == len(set(a) | set(b))  # disjoint
    assert set(o.shared) | set(o.only_a) == set(a) and set(o.shared) | set(o.only_b) == set(b)
    assert o.table["tokens"].tolist() == [len(p) for p in parts]


# --- frequency_profile ----------------------------------------------------------------


def test_frequency_profile_micro():
    # "ab a" in characters: a 2, b 1; vocab a b c ab: c and ab unused; below 2: b, c, ab
    p = frequency_profile(tokenize_corpus(chars, ["ab a"]), ["a", "b", "c", "ab", "[PAD]"], 2)
    assert p.table.values.tolist() == [[1, "a", 2], [2, "b", 1], [3, "c", 0], [4, "ab", 0]]
    assert (p.rare_below, p.rare, p.unused, p.outside) == (2, 3, 2, 0)


def test_frequency_profile_counts_unknown_tokens_outside():
    # x is no piece: [UNK] twice, outside the vocabulary
    t = tokenize_corpus(lambda w: ["[UNK]"] if w == "x" else [w], ["a x b x a"])
    p = frequency_profile(t, ["a", "b", "[UNK]"])
    assert p.table.values.tolist() == [[1, "a", 2], [2, "b", 1]]
    assert (p.rare, p.unused, p.outside) == (2, 0, 2)
    with pytest.raises(ValueError, match="same tokenizer"):
        frequency_profile(t, ["zz"])
    with pytest.raises(ValueError, match="empty"):
        frequency_profile(t, [])


@SETTINGS
@given(lines=lines_, size=st.integers(1, 3), extra=st.lists(st.text("abcd", min_size=1)))
def test_frequency_profile_properties(lines, size, extra):
    t = tokenize_corpus(chunker(size), [" ".join(line) for line in lines])
    vocab = list(t.pieces) + extra
    p = frequency_profile(t, vocab, rare_below=2)
    assert p.table["frequency"].sum() + p.outside == len(t) and p.outside == 0
    assert p.table["frequency"].is_monotonic_decreasing
    assert p.table["rank"].tolist() == list(range(1, len(set(vocab)) + 1))
    assert p.unused == len(set(extra) - set(t.pieces)) <= p.rare


# --- real models ----------------------------------------------------------------------


def test_three_tokenizers_on_a_toy_corpus():
    """BPE (▁), WordPiece (##) and Unigram on one toy text: every metric runs, and the
    pieces of the two marked vocabularies are matched in ▁-notation."""
    wc, lines = load("toy:low-lower"), load_lines("toy:low-lower")
    b = bpe.train_bpe(wc, merges=6, marker="sow")
    w = wordpiece.train_wordpiece(wc, merges=6)
    tb = tokenize_corpus(word_segmenter(b), lines, "BPE")
    tw = tokenize_corpus(word_segmenter(w), lines, "WordPiece")
    assert fertility(tb).words == fertility(tw).words == wc.total
    assert efficiency(tb).characters == efficiency(tw).characters
    diff = frequency_diff(tb, tw)
    assert diff["difference"].sum() == len(tb) - len(tw)
    o = overlap(b.vocab, w.vocab, names=("BPE", "WordPiece"))
    assert o.notation == "sow" and "▁l" in o.shared
    assert frequency_profile(tb, b.vocab).outside == 0
    assert np.array_equal(distinct_neighbours(tb, 2)["rank"], np.arange(1, len(tb.pieces) + 1))
