"""BPE on the worked examples of the course material, number for number.

001 = ../shared/seeds/001_cd5e11af49399106.txt (slides "Tokenization Strategies", cat/bat)
003 = ../shared/seeds/003_fbf19eb985f31fbe.txt (slides "Sub-word Tokenization", low/lower)
004 = ../shared/seeds/004_39df60022dd20ca2.txt (blog post "Subword Tokenization", fox)
"""

from __future__ import annotations

import pytest

from subtok_core.bpe import (
    EOW,
    SOW,
    UNK,
    encode_word,
    initial_symbols,
    iter_bpe,
    model_from_trace,
    segment,
    trace_bpe,
    train_bpe,
)
from subtok_core.corpus import from_pairs, from_text, load
from subtok_core.records import Span


def table(rows) -> dict[tuple[str, str], int]:
    """A pair table as {pair: count}; fails on a pair listed twice."""
    out = {(a, b): c for a, b, c in rows}
    assert len(out) == len(rows), f"pair listed twice in {rows}"
    return out


def segs(*rows: str) -> tuple[tuple[str, ...], ...]:
    """Write a corpus as the slides do, one word per string, symbols separated by ', '."""
    return tuple(tuple(row.split(", ")) for row in rows)


# --- 001: cat, bat, bag, tag, cats (no marker) ----------------------------------------


@pytest.fixture(scope="module")
def cat_bat():
    return trace_bpe(load("toy:cat-bat"), merges=3, marker="none")


def test_001_base_vocabulary(cat_bat):
    # "Base vocabulary: a, b, c, g, s, t"
    assert cat_bat.start.vocab == ("a", "b", "c", "g", "s", "t")
    assert cat_bat.start.segmentations == segs(
        "c, a, t", "b, a, t", "b, a, g", "t, a, g", "c, a, t, s"
    )


def test_001_initial_pair_table(cat_bat):
    # slides: ca 15, at 20, ba 17, ag 16, ts 5; plus ta 4 (from "tag", 4), which they omit
    expected = {
        ("a", "t"): 20,
        ("b", "a"): 17,
        ("a", "g"): 16,
        ("c", "a"): 15,
        ("t", "s"): 5,
        ("t", "a"): 4,
    }
    assert table(cat_bat.start.pair_table) == expected
    assert table(cat_bat.steps[0].pair_table) == expected
    counts = [c for _, _, c in cat_bat.start.pair_table]
    assert counts == sorted(counts, reverse=True)


def test_001_three_merges(cat_bat):
    assert [s.pair for s in cat_bat.steps] == [("a", "t"), ("a", "g"), ("c", "at")]
    assert [s.count for s in cat_bat.steps] == [20, 16, 15]
    assert [s.new_symbol for s in cat_bat.steps] == ["at", "ag", "cat"]
    assert [s.number for s in cat_bat.steps] == [1, 2, 3]
    assert all(s.tied_with == () for s in cat_bat.steps)
    assert all(s.new_in_vocab for s in cat_bat.steps)
    assert [s.vocab_size for s in cat_bat.steps] == [7, 8, 9]


def test_001_corpus_after_each_merge(cat_bat):
    after = [s.segmentations for s in cat_bat.steps]
    assert after[0] == segs("c, at", "b, at", "b, a, g", "t, a, g", "c, at, s")
    assert after[1] == segs("c, at", "b, at", "b, ag", "t, ag", "c, at, s")
    assert after[2] == segs("cat", "b, at", "b, ag", "t, ag", "cat, s")


def test_001_pair_table_after_first_merge(cat_bat):
    # slides: ag 16, cat 15, ba 12, bat 5, ats 5; plus t-a 4 from "tag"
    assert table(cat_bat.steps[1].pair_table) == {
        ("a", "g"): 16,
        ("c", "at"): 15,
        ("b", "a"): 12,
        ("b", "at"): 5,
        ("at", "s"): 5,
        ("t", "a"): 4,
    }


def test_001_corpus_symbols(cat_bat):
    # symbols in the corpus, by hand: 10*3 + 5*3 + 12*3 + 4*3 + 5*4 = 113;
    # each merge removes one symbol per occurrence of the pair: -20, -16, -15
    assert cat_bat.start.corpus_symbols == 113
    assert [s.corpus_symbols for s in cat_bat.steps] == [93, 77, 62]


def test_001_vocabulary_after_three_merges():
    model = train_bpe(load("toy:cat-bat"), merges=3)
    # "Vocabulary: a, b, c, g, s, t, at, ag, cat"
    assert model.vocab == ("a", "b", "c", "g", "s", "t", "at", "ag", "cat")
    assert model.merges == (("a", "t"), ("a", "g"), ("c", "at"))
    assert model.alphabet == ("a", "b", "c", "g", "s", "t")


def test_001_encode_bags():
    model = train_bpe(load("toy:cat-bat"), merges=3)
    # "bags -> b, a, g, s ... the second rule can be applied ... bags -> b, ag, s"
    enc = segment(model, "bags")
    assert enc.pieces == ["b", "ag", "s"]
    assert enc.tokens == (Span("b", 0, 1), Span("ag", 1, 3), Span("s", 3, 4))
    (word,) = enc.words
    assert word.initial == ("b", "a", "g", "s")
    assert word.applied == ((2, ("a", "g"), ("b", "ag", "s")),)


def test_001_encode_mat_unknown_character():
    model = train_bpe(load("toy:cat-bat"), merges=3)
    # "mat -> [UNK], at"
    enc = segment(model, "mat")
    assert enc.pieces == [UNK, "at"]
    assert enc.tokens == (Span(UNK, 0, 1), Span("at", 1, 3))
    assert enc.words[0].applied == ((1, ("a", "t"), (UNK, "at")),)


def test_001_encode_text_offsets():
    model = train_bpe(load("toy:cat-bat"), merges=3)
    text = "  cats mat\tbag"
    enc = segment(model, text)
    assert enc.pieces == ["cat", "s", UNK, "at", "b", "ag"]
    assert [text[s.start : s.end] for s in enc.tokens] == ["cat", "s", "m", "at", "b", "ag"]
    assert enc.tokens[0] == Span("cat", 2, 5)
    assert [w.start for w in enc.words] == [2, 7, 11]


def test_001_encode_empty_raises():
    model = train_bpe(load("toy:cat-bat"), merges=3)
    with pytest.raises(ValueError, match="Type a word"):
        segment(model, "   ")


# --- 003: low, lower, newest, widest with </w>, 4 merges ------------------------------


@pytest.fixture(scope="module")
def low_lower():
    return trace_bpe(load("toy:low-lower"), merges=4, marker="eow")


def test_003_initial_vocabulary(low_lower):
    # "Initial vocab: </w>, d, e, i, l, n, o, r, s, t, w"
    assert low_lower.start.vocab == ("</w>", "d", "e", "i", "l", "n", "o", "r", "s", "t", "w")
    assert low_lower.start.segmentations[0] == ("l", "o", "w", EOW)


def test_003_initial_pair_counts(low_lower):
    # by hand from the slide's table (low 5, lower 2, newest 6, widest 3)
    assert table(low_lower.start.pair_table) == {
        ("l", "o"): 7,
        ("o", "w"): 7,
        ("w", EOW): 5,
        ("w", "e"): 8,
        ("e", "r"): 2,
        ("r", EOW): 2,
        ("n", "e"): 6,
        ("e", "w"): 6,
        ("e", "s"): 9,
        ("s", "t"): 9,
        ("t", EOW): 9,
        ("w", "i"): 3,
        ("i", "d"): 3,
        ("d", "e"): 3,
    }


def test_003_merges_and_counts(low_lower):
    # "e s" 6+3=9, "es t" 9, "est </w>" 9, "l o" 5+2=7
    assert [s.pair for s in low_lower.steps] == [("e", "s"), ("es", "t"), ("est", EOW), ("l", "o")]
    assert [s.new_symbol for s in low_lower.steps] == ["es", "est", "est</w>", "lo"]
    assert [s.count for s in low_lower.steps] == [9, 9, 9, 7]


def test_003_ties(low_lower):
    # merge 1: e-s, s-t and t-</w> all 9 (newest 6 + widest 3); e-s comes first in "newest"
    # merge 2: es-t and t-</w> 9; es-t comes first
    # merge 3: est-</w> 9 and nothing else has 9 (w-est 6, l-o 7, o-w 7)
    # merge 4: l-o and o-w both 7 ("low" 5 + "lower" 2); l-o comes first
    assert [s.tied_with for s in low_lower.steps] == [
        (("s", "t"), ("t", EOW)),
        (("t", EOW),),
        (),
        (("o", "w"),),
    ]


def test_003_corpus_after_each_merge(low_lower):
    after = [s.segmentations for s in low_lower.steps]
    lo_low, lo_lower = ("l", "o", "w", EOW), ("l", "o", "w", "e", "r", EOW)
    assert after[0] == (
        lo_low,
        lo_lower,
        ("n", "e", "w", "es", "t", EOW),
        ("w", "i", "d", "es", "t", EOW),
    )
    assert after[1] == (lo_low, lo_lower, ("n", "e", "w", "est", EOW), ("w", "i", "d", "est", EOW))
    assert after[2] == (lo_low, lo_lower, ("n", "e", "w", "est</w>"), ("w", "i", "d", "est</w>"))
    assert after[3] == (
        ("lo", "w", EOW),
        ("lo", "w", "e", "r", EOW),
        ("n", "e", "w", "est</w>"),
        ("w", "i", "d", "est</w>"),
    )


def test_003_final_vocabulary_is_the_slides():
    model = train_bpe(load("toy:low-lower"), merges=4, marker="eow")
    # "The learned vocabulary is: </w>, d, e, i, l, n, o, r, s, t, w, es, est, est</w>, lo"
    slide = ["</w>", "d", "e", "i", "l", "n", "o", "r", "s", "t", "w", "es", "est", "est</w>", "lo"]
    assert list(model.vocab) == slide
    # "final learned vocabulary size = initial size + num_merges"
    assert len(model.vocab) == 11 + 4


def test_003_encode_unseen_words():
    model = train_bpe(load("toy:low-lower"), merges=4, marker="eow")
    # by hand: lowest = l o w e s t </w> -> es -> est -> est</w> -> lo
    assert segment(model, "lowest").pieces == ["lo", "w", "est</w>"]
    enc = segment(model, "newer")
    assert enc.pieces == ["n", "e", "w", "e", "r", EOW]
    assert enc.tokens[-1] == Span(EOW, 5, 5)  # the marker covers no character


# --- 004: "The big brown fox jumps over the box and ox" with </w> ---------------------

BLOG_AFTER_1 = (
    "T, h, e, </w>, b, i, g, </w>, b, r, o, w, n, </w>, f, ox, </w>, j, u, m, p, s, </w>, "
    "o, v, e, r, </w>, t, h, e, </w>, b, ox, </w>, a, n, d, </w>, ox, </w>"
)
BLOG_AFTER_3 = (
    "T, he, </w>, b, i, g, </w>, b, r, o, w, n, </w>, f, ox</w>, j, u, m, p, s, </w>, "
    "o, v, e, r, </w>, t, he, </w>, b, ox</w>, a, n, d, </w>, ox</w>"
)


def blog_words(symbol_list: str) -> tuple[tuple[str, ...], ...]:
    """The blog writes the corpus as one list; cut it after every symbol ending in </w>."""
    words, word = [], []
    for sym in symbol_list.split(", "):
        word.append(sym)
        if sym.endswith(EOW):
            words.append(tuple(word))
            word = []
    assert not word
    return tuple(words)


@pytest.fixture(scope="module")
def fox():
    return trace_bpe(load("toy:fox"), merges=3, marker="eow")


def test_004_character_counts(fox):
    # the blog's table: o:5, b:3, e:3, x:3, h:2, r:2, n:2 and one of each other letter
    # ("w:8" in the blog is the </w> count garbled; it is 10, one per word, and w is 1)
    counts: dict[str, int] = {}
    for word, seg in zip(fox.start.words, fox.start.segmentations, strict=True):
        assert seg == tuple(word) + (EOW,)
        for sym in seg:
            counts[sym] = counts.get(sym, 0) + 1
    assert counts == {
        EOW: 10, "o": 5, "b": 3, "e": 3, "x": 3, "h": 2, "r": 2, "n": 2,
        "T": 1, "i": 1, "g": 1, "w": 1, "f": 1, "j": 1, "u": 1, "m": 1, "p": 1, "s": 1,
        "v": 1, "t": 1, "a": 1, "d": 1,
    }  # fmt: skip


def test_004_merges(fox):
    # "ox" and "x</w>" are the most frequent (3); "ox" is chosen; then (ox, </w>), (h, e)
    assert [s.pair for s in fox.steps] == [("o", "x"), ("ox", EOW), ("h", "e")]
    assert [s.count for s in fox.steps] == [3, 3, 2]
    assert fox.steps[0].tied_with == (("x", EOW),)
    assert fox.steps[2].tied_with == (("e", EOW),)  # "he" and "e</w>" in The and the


def test_004_symbols_after_each_merge(fox):
    assert fox.steps[0].segmentations == blog_words(BLOG_AFTER_1)
    assert fox.steps[2].segmentations == blog_words(BLOG_AFTER_3)
    assert model_from_trace(fox).vocab[-3:] == ("ox", "ox</w>", "he")


# --- tie rules on a corpus where the three rules disagree -----------------------------

# xy 2, abz 2, by 2, ab 3. Pairs: (x,y) 2, (a,b) 2+3=5, (b,z) 2, (b,y) 2.
# Merge 1 is (a,b) 5 under every rule. Then xy = x y, abz = ab z, by = b y, ab = ab:
# (x,y) 2, (ab,z) 2, (b,y) 2 tie, and each merge leaves the other two at 2.
#   first:      scanning words in order: (x,y) in word 1, (ab,z) in word 2, (b,y) in word 3
#   lex:        by names: ("ab","z") < ("b","y") < ("x","y")
#   tokenizers: ids are characters by code point a0 b1 x2 y3 z4, then ab5:
#               (b,y)=(1,3) < (x,y)=(2,3) < (ab,z)=(5,4)
TIE_CORPUS = [("xy", 2), ("abz", 2), ("by", 2), ("ab", 3)]
TIE_EXPECTED = {
    "first": [("a", "b"), ("x", "y"), ("ab", "z"), ("b", "y")],
    "lex": [("a", "b"), ("ab", "z"), ("b", "y"), ("x", "y")],
    "tokenizers": [("a", "b"), ("b", "y"), ("x", "y"), ("ab", "z")],
}


@pytest.mark.parametrize("ties", sorted(TIE_EXPECTED))
def test_tie_rules_disagree_as_documented(ties):
    trace = trace_bpe(from_pairs(TIE_CORPUS), merges=4, ties=ties)
    assert [s.pair for s in trace.steps] == TIE_EXPECTED[ties]
    assert [s.count for s in trace.steps] == [5, 2, 2, 2]
    # the table of merge 2 lists the three tied pairs in the rule's order
    assert [(a, b) for a, b, _ in trace.steps[1].pair_table] == TIE_EXPECTED[ties][1:]
    assert trace.steps[1].tied_with == tuple(TIE_EXPECTED[ties][2:])
    assert trace.steps[3].tied_with == ()
    assert train_bpe(from_pairs(TIE_CORPUS), merges=4, ties=ties).merges == tuple(
        TIE_EXPECTED[ties]
    )


def test_first_rule_uses_symbol_position_within_a_word():
    # one word "abcab" 1: pairs (a,b) 2, (b,c) 1, (c,a) 1; then "ab c ab": (ab,c) 1, (c,ab) 1
    # first: (ab,c) at position 0; lex: ("ab","c") < ("c","ab"); tokenizers: ids a0 b1 c2 ab3:
    # (ab,c)=(3,2) vs (c,ab)=(2,3) -> (c,ab)
    wc = from_text("abcab")
    assert trace_bpe(wc, merges=2).steps[1].pair == ("ab", "c")
    assert trace_bpe(wc, merges=2, ties="lex").steps[1].pair == ("ab", "c")
    assert trace_bpe(wc, merges=2, ties="tokenizers").steps[1].pair == ("c", "ab")


def test_unknown_tie_rule_and_marker_raise():
    wc = from_text("a b")
    with pytest.raises(ValueError, match="Unknown tie rule 'random'"):
        train_bpe(wc, merges=1, ties="random")
    with pytest.raises(ValueError, match="Unknown marker 'bow'"):
        train_bpe(wc, merges=1, marker="bow")


# --- markers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("none", ["l", "o", "w"]),
        ("eow", ["l", "o", "w", "</w>"]),
        ("suffix", ["l", "o", "w</w>"]),
        ("sow", ["\u2581", "l", "o", "w"]),
    ],
)
def test_initial_symbols(marker, expected):
    assert initial_symbols("low", marker) == expected


def test_initial_symbols_one_character_and_non_latin():
    assert initial_symbols("я", "suffix") == ["я</w>"]
    assert initial_symbols("я", "eow") == ["я", EOW]
    assert initial_symbols("😀ы", "sow") == [SOW, "😀", "ы"]


@pytest.mark.parametrize(
    ("marker", "alphabet"),
    [
        ("none", ("l", "o", "w")),
        ("eow", ("</w>", "l", "o", "w")),
        ("sow", ("l", "o", "w", SOW)),
        # bare characters, then the word-final symbols in order of first appearance
        ("suffix", ("l", "o", "w", "w</w>", "o</w>")),
    ],
)
def test_marker_alphabet(marker, alphabet):
    trace = trace_bpe(from_text("low lo"), merges=0, marker=marker)
    assert trace.start.vocab == alphabet
    assert trace.steps == ()


def test_suffix_marker_merges_with_the_suffixed_symbol():
    model = train_bpe(load("toy:low-lower"), merges=4, marker="suffix")
    # by hand: l o w</w> 5, l o w e r</w> 2, n e w e s t</w> 6, w i d e s t</w> 3
    # 1: e-s 9 ties s-t</w> 9; e-s comes first in "newest"
    # 2: es-t</w> 9 (w-e drops to 2: only "lower" keeps it)
    # 3: l-o 7 is now alone at the top (o-w</w> 5, o-w 2: the suffix splits o-w in two)
    # 4: n-e 6, e-w 6, w-est</w> 6 tie; n-e comes first in "newest"
    assert model.merges == (("e", "s"), ("es", "t</w>"), ("l", "o"), ("n", "e"))
    # bare characters sorted, then word-final symbols as they first appear, then the merges
    assert model.vocab == tuple("deilnorstw") + ("w</w>", "r</w>", "t</w>") + (
        "es",
        "est</w>",
        "lo",
        "ne",
    )
    assert segment(model, "low").tokens == (Span("lo", 0, 2), Span("w</w>", 2, 3))


def test_sow_marker_spans():
    model = train_bpe(from_text("ab ab ab"), merges=2, marker="sow")
    # (▁,a) 3 and (a,b) 3 tie; ▁-a comes first, then ▁a-b
    assert model.merges == ((SOW, "a"), (SOW + "a", "b"))
    enc = segment(model, "ab b")
    assert enc.tokens == (Span(SOW + "ab", 0, 2), Span(SOW, 3, 3), Span("b", 3, 4))


def test_encode_word_offset():
    model = train_bpe(load("toy:cat-bat"), merges=3)
    assert encode_word(model, "cat", offset=7).start == 7


# --- stopping -------------------------------------------------------------------------


def test_no_pair_left_stops_and_truncates():
    trace = trace_bpe(from_text("a b"), merges=5)
    assert trace.steps == ()
    assert trace.truncated is True
    assert "no pair is left" in trace.stop_reason
    assert "0 merges" in trace.stop_reason


def test_no_pair_left_after_some_merges():
    trace = trace_bpe(from_text("ab abc"), merges=5)
    # (a,b) 2 then (ab,c) 1; every word is one symbol after 2 merges
    assert [s.pair for s in trace.steps] == [("a", "b"), ("ab", "c")]
    assert trace.truncated is True
    assert "Stopped after 2 merges" in trace.stop_reason
    assert len(list(iter_bpe(from_text("ab abc"), merges=5))) == 2


def test_reaching_the_goal_is_not_truncated():
    trace = trace_bpe(load("toy:cat-bat"), merges=3)
    assert trace.truncated is False
    assert "3 merges" in trace.stop_reason
    assert trace.algorithm == "bpe"
    assert trace.param("marker") == "none"
    assert trace.param("merges") == 3
    assert trace.compact is False


def test_vocab_size_target():
    trace = trace_bpe(load("toy:cat-bat"), vocab_size=9)
    assert [s.pair for s in trace.steps] == [("a", "t"), ("a", "g"), ("c", "at")]
    assert trace.truncated is False
    assert "vocab size 9" in trace.stop_reason
    assert train_bpe(load("toy:cat-bat"), vocab_size=9).vocab[-1] == "cat"


def test_vocab_size_equal_to_alphabet_makes_no_merge():
    assert train_bpe(load("toy:cat-bat"), vocab_size=6).merges == ()


def test_vocab_size_unreachable_is_truncated():
    trace = trace_bpe(from_text("ab"), vocab_size=10)
    assert [s.pair for s in trace.steps] == [("a", "b")]
    assert trace.truncated is True


def test_vocab_size_below_alphabet_raises_with_both_numbers():
    # toy:low-lower with </w> starts with 11 symbols (slide 003's initial vocab)
    with pytest.raises(ValueError, match=r"vocab size 5 .*11") as err:
        train_bpe(load("toy:low-lower"), vocab_size=5, marker="eow")
    assert "11" in str(err.value) and "5" in str(err.value)


def test_merges_and_vocab_size_together_raise():
    with pytest.raises(ValueError, match="either a number of merges or a target vocabulary size"):
        train_bpe(load("toy:cat-bat"), merges=3, vocab_size=9)
    with pytest.raises(ValueError, match="either"):
        trace_bpe(load("toy:cat-bat"))


def test_negative_merges_raise():
    with pytest.raises(ValueError, match="0 or more"):
        train_bpe(load("toy:cat-bat"), merges=-1)


def test_a_trace_without_pair_tables_makes_the_same_merges_counts_and_ties():
    from subtok_core.bpe import trace_bpe
    from subtok_core.corpus import load

    wc = load("toy:low-lower")
    full = trace_bpe(wc, vocab_size=20, marker="eow", snapshot=False)
    bare = trace_bpe(wc, vocab_size=20, marker="eow", snapshot=False, table_rows=0)
    assert [s.pair_table for s in bare.steps] == [()] * len(full.steps)
    assert [s.pair_table[0][:2] for s in full.steps] == [s.pair for s in full.steps]
    keep = ("pair", "count", "new_symbol", "tied_with", "vocab_size", "corpus_symbols")
    assert [[getattr(s, k) for k in keep] for s in bare.steps] == [
        [getattr(s, k) for k in keep] for s in full.steps
    ]
