"""WordPiece on the worked examples of the course material, number for number.

001 = ../shared/seeds/001_cd5e11af49399106.txt (slides "Tokenization Strategies", sunflower)
004 = ../shared/seeds/004_39df60022dd20ca2.txt (blog post "Subword Tokenization"; its hug/pug
corpus is the Hugging Face course's, chapter 6.6)

Every expected score below is counted by hand from the corpus, written as
pair count / (left count x right count).
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from subtok_core.corpus import from_pairs, from_text, load
from subtok_core.records import Span
from subtok_core.wordpiece import (
    HF_COURSE_NOTE,
    SPECIAL_TOKENS,
    WordPieceModel,
    corpus_at,
    encode_word,
    initial_symbols,
    iter_wordpiece,
    model_from_trace,
    segment,
    trace_wordpiece,
    train_wordpiece,
)
from subtok_core.wordpiece.explain import (
    explain_wordpiece_start,
    explain_wordpiece_step,
    explain_wordpiece_word,
)

# "Vocabulary: ##d, ##e, ##f, ##g, ##i, ##l, ##n, ##o, ##r, ##s, ##u, ##w, f, s"
SLIDE_ALPHABET = ("##d", "##e", "##f", "##g", "##i", "##l", "##n", "##o", "##r", "##s", "##u")
SLIDE_ALPHABET += ("##w", "f", "s")
SLIDE_VOCAB = (*SLIDE_ALPHABET, "su", "##er", "##ed")


def scores(rows) -> dict[tuple[str, str], Fraction]:
    """A scored pair table as {pair: exact score}; fails on a pair listed twice."""
    out = {(r.left, r.right): r.score_fraction for r in rows}
    assert len(out) == len(rows), "a pair is listed twice"
    return out


def row_of(rows, pair):
    return next(r for r in rows if (r.left, r.right) == pair)


def segs(*rows: str) -> tuple[tuple[str, ...], ...]:
    """Write a corpus as the slides do, one word per string, symbols separated by ', '."""
    return tuple(tuple(row.split(", ")) for row in rows)


# --- 001: sunflower -------------------------------------------------------------------


@pytest.fixture(scope="module")
def sunflower():
    return trace_wordpiece(load("toy:sunflower"), merges=3)


def test_001_initial_split_and_vocabulary(sunflower):
    assert initial_symbols("token") == ["t", "##o", "##k", "##e", "##n"]
    assert sunflower.start.vocab == SLIDE_ALPHABET == sunflower.start.alphabet
    assert sunflower.start.segmentations == segs(
        "s, ##u, ##n, ##f, ##l, ##o, ##w, ##e, ##r",
        "s, ##u, ##n",
        "f, ##l, ##o, ##w, ##e, ##r",
        "f, ##l, ##o, ##w",
        "f, ##l, ##o, ##w, ##e, ##r, ##s",
        "f, ##l, ##o, ##w, ##i, ##n, ##g",
        "f, ##l, ##o, ##w, ##s",
        "f, ##l, ##o, ##w, ##e, ##d",
    )


def test_001_first_step_scores(sunflower):
    step = sunflower.steps[0]
    table = scores(step.pair_table)
    # slide: s ##u 0.33, ##u ##n 0.2, ##n ##f 0.2, ##f ##l 0.11, ##l ##o 0.11,
    # ##e ##r 0.25, ##e ##d 0.25
    assert table[("s", "##u")] == Fraction(3, 3 * 3) == Fraction(1, 3)
    assert table[("##u", "##n")] == Fraction(3, 3 * 5)
    assert table[("##n", "##f")] == Fraction(1, 5 * 1)
    assert table[("##f", "##l")] == Fraction(1, 1 * 9)
    assert table[("##l", "##o")] == Fraction(9, 9 * 9)
    assert table[("##e", "##r")] == Fraction(3, 4 * 3) == Fraction(1, 4)
    assert table[("##e", "##d")] == Fraction(1, 4 * 1) == Fraction(1, 4)
    assert step.pair == ("s", "##u") and step.new_symbol == "su"
    assert step.score_fraction == Fraction(1, 3) and step.score == pytest.approx(1 / 3)
    assert (step.pair_count, step.left_count, step.right_count) == (3, 3, 3)
    assert step.tied_with == ()
    assert max(table.values()) == Fraction(1, 3)
    assert table == scores(sunflower.start.pair_table)


def test_001_every_row_keeps_counts_float_and_fraction(sunflower):
    row = row_of(sunflower.steps[0].pair_table, ("##f", "##l"))
    assert (row.pair_count, row.left_count, row.right_count) == (1, 1, 9)
    assert row.score_fraction == Fraction(1, 9) and row.score == 1 / 9
    for row in sunflower.steps[0].pair_table:
        assert row.score_fraction == Fraction(row.pair_count, row.left_count * row.right_count)
        assert row.score == float(row.score_fraction)


def test_001_second_step_breaks_the_tie_by_first_appearance(sunflower):
    step = sunflower.steps[1]
    table = scores(step.pair_table)
    assert table[("su", "##n")] == Fraction(3, 3 * 5)  # slide: 0.2
    assert table[("##n", "##f")] == Fraction(1, 5)  # slide: 0.2
    assert table[("##f", "##l")] == Fraction(1, 9)  # slide: 0.11
    # "The best score is shared by ##e, ##r and ##e, ##d ... we select ##e, ##r"
    assert step.pair == ("##e", "##r") and step.new_symbol == "##er"
    assert step.score_fraction == Fraction(1, 4)
    assert step.tied_with == (("##e", "##d"),)
    assert sunflower.steps[0].segmentations[1] == ("su", "##n")
    assert step.segmentations[0] == ("su", "##n", "##f", "##l", "##o", "##w", "##er")
    assert step.segmentations[4] == ("f", "##l", "##o", "##w", "##er", "##s")


def test_001_third_step_merges_ed(sunflower):
    step = sunflower.steps[2]
    table = scores(step.pair_table)
    # "Next ##e, ##d has the highest score": ##e is left only in flowed
    assert step.pair == ("##e", "##d") and step.new_symbol == "##ed"
    assert step.score_fraction == Fraction(1, 1 * 1) == table[("##e", "##d")]
    assert (step.pair_count, step.left_count, step.right_count) == (1, 1, 1)
    assert table[("su", "##n")] == Fraction(1, 5) and table[("##f", "##l")] == Fraction(1, 9)
    assert model_from_trace(sunflower).vocab == SLIDE_VOCAB
    assert [s.vocab_size for s in sunflower.steps] == [15, 16, 17]


def test_001_most_frequent_pair_is_what_bpe_would_merge(sunflower):
    # ##l ##o and ##o ##w both occur 9 times (every flow- word and sunflower); ##l ##o first
    step = sunflower.steps[0]
    assert (step.bpe_pair, step.bpe_count) == (("##l", "##o"), 9)
    assert row_of(step.pair_table, ("##o", "##w")).pair_count == 9


@pytest.mark.parametrize("vocab", [SLIDE_VOCAB, "trained"])
def test_001_fused_is_split_by_longest_match(sunflower, vocab):
    model = model_from_trace(sunflower) if vocab == "trained" else WordPieceModel(vocab, ())
    trace = encode_word(model, "fused")
    assert trace.pieces == ("f", "##u", "##s", "##ed") and not trace.unknown
    tried = [(a.piece, a.found) for a in trace.attempts]
    assert tried == [
        ("fused", False),
        ("fuse", False),
        ("fus", False),
        ("fu", False),
        ("f", True),
        ("##used", False),
        ("##use", False),
        ("##us", False),
        ("##u", True),
        ("##sed", False),
        ("##se", False),
        ("##s", True),
        ("##ed", True),
    ]
    assert [(a.start, a.end) for a in trace.attempts if a.found] == [(0, 1), (1, 2), (2, 3), (3, 5)]


def test_001_funny_becomes_unk(sunflower):
    # "f", "##u" and "##n" are present but "##y" is absent: funny is replaced by [UNK]
    model = model_from_trace(sunflower)
    trace = encode_word(model, "funny")
    assert trace.unknown and trace.pieces == ("[UNK]",)
    assert [a.piece for a in trace.attempts if a.found] == ["f", "##u", "##n", "##n"]
    assert (trace.attempts[-1].piece, trace.attempts[-1].found) == ("##y", False)
    assert "'##y' is not in the vocabulary" in trace.note and "[UNK]" in trace.note
    enc = segment(model, "fused funny")
    assert enc.pieces == ["f", "##u", "##s", "##ed", "[UNK]"]
    assert enc.tokens[-1] == Span("[UNK]", 6, 11)


def test_001_spans_cover_word_characters_not_markers(sunflower):
    enc = segment(model_from_trace(sunflower), "  sun fused")
    assert enc.tokens == (
        Span("su", 2, 4),
        Span("##n", 4, 5),
        Span("f", 6, 7),
        Span("##u", 7, 8),
        Span("##s", 8, 9),
        Span("##ed", 9, 11),
    )
    assert [w.start for w in enc.words] == [2, 6]


def test_001_explanations(sunflower):
    first = explain_wordpiece_step(sunflower.steps[0], "first")
    assert first.startswith("Merge 1: (s, ##u) scores 1/3 = 3 / (3 x 3)")
    assert "BPE would merge (##l, ##o) instead" in first and "only 1/9" in first
    second = explain_wordpiece_step(sunflower.steps[1], "first")
    assert "ties with (##e, ##d) at 1/4" in second and "appears first" in second
    assert "'##er' joins the vocabulary (16 symbols)" in second
    assert "1/1 = 1 / (1 x 1)" in explain_wordpiece_step(sunflower.steps[2], "first")
    start = explain_wordpiece_start(sunflower.start, "##")
    assert "8 distinct words" in start and "14 symbols" in start
    enc = segment(model_from_trace(sunflower), "funny")
    assert explain_wordpiece_word(enc.words[0]).startswith("funny: '##y' is not in")


# --- 004 / Hugging Face course: hug, pug, pun, bun, hugs ------------------------------


@pytest.fixture(scope="module")
def hug_pug():
    return trace_wordpiece(load("toy:hug-pug"), merges=4)


def test_hug_first_merge_is_gs(hug_pug):
    # h 15, p 17, b 4, ##u 36, ##g 20, ##n 16, ##s 5: every pair with ##u scores 1/36
    step = hug_pug.steps[0]
    assert scores(step.pair_table) == {
        ("h", "##u"): Fraction(15, 15 * 36),
        ("##u", "##g"): Fraction(20, 36 * 20),
        ("p", "##u"): Fraction(17, 17 * 36),
        ("##u", "##n"): Fraction(16, 36 * 16),
        ("b", "##u"): Fraction(4, 4 * 36),
        ("##g", "##s"): Fraction(5, 20 * 5),
    }
    assert step.pair == ("##g", "##s") and step.score_fraction == Fraction(1, 20)
    assert step.new_symbol == "##gs"


def test_hug_second_merge_is_a_six_way_tie(hug_pug):
    step = hug_pug.steps[1]
    assert step.pair == ("h", "##u") and step.score_fraction == Fraction(1, 36)
    assert set(step.tied_with) == {
        ("##u", "##g"),
        ("p", "##u"),
        ("##u", "##n"),
        ("b", "##u"),
        ("##u", "##gs"),
    }
    assert len(step.tied_with) == 5
    assert set(scores(step.pair_table).values()) == {Fraction(1, 36)}


def test_hug_third_merge_is_hugs_not_hug(hug_pug):
    step = hug_pug.steps[2]
    table = scores(step.pair_table)
    assert step.pair == ("hu", "##gs") and step.new_symbol == "hugs"
    assert step.score_fraction == Fraction(5, 15 * 5) == Fraction(1, 15)
    assert step.tied_with == ()
    # the course says (hu, ##g) ties at 1/15: it scores 10 / (15 x 15) = 2/45
    hug = row_of(step.pair_table, ("hu", "##g"))
    assert (hug.pair_count, hug.left_count, hug.right_count) == (10, 15, 15)
    assert hug.score_fraction == Fraction(2, 45)
    # and not every other pair scores 1/21: (##u, ##g) is 5 / (21 x 15)
    assert table[("##u", "##g")] == Fraction(1, 63)
    assert table[("p", "##u")] == table[("##u", "##n")] == table[("b", "##u")] == Fraction(1, 21)


def test_hug_fourth_merge_is_hug(hug_pug):
    step = hug_pug.steps[3]
    assert step.pair == ("hu", "##g") and step.new_symbol == "hug"
    assert step.score_fraction == Fraction(10, 10 * 15) == Fraction(1, 15)
    assert (step.pair_count, step.left_count, step.right_count) == (10, 10, 15)
    assert step.segmentations == segs("hug", "p, ##u, ##g", "p, ##u, ##n", "b, ##u, ##n", "hugs")


def test_hug_course_note_names_the_exact_values():
    assert "2/45" in HF_COURSE_NOTE and "1/15" in HF_COURSE_NOTE
    assert "10 / (15 x 15)" in HF_COURSE_NOTE and "1/63" in HF_COURSE_NOTE


# --- tie rules ------------------------------------------------------------------------


@pytest.mark.parametrize("ties", ["lex", "tokenizers"])
def test_other_tie_rules(ties):
    # sunflower, step 2: (##e, ##d) < (##e, ##r) as strings, and by ids (##d is id 0, ##r 8)
    sun = trace_wordpiece(load("toy:sunflower"), merges=2, ties=ties)
    assert sun.steps[1].pair == ("##e", "##d") and sun.steps[1].tied_with == (("##e", "##r"),)
    # hug-pug, step 2: (##u, ##g) is smallest as strings, and by ids (##u 3, ##g 0)
    hug = trace_wordpiece(load("toy:hug-pug"), merges=2, ties=ties)
    assert hug.steps[1].pair == ("##u", "##g") and len(hug.steps[1].tied_with) == 5


def test_tokenizers_ties_order_merged_symbols_by_creation():
    # abc 2, zyc 2, a 1: z 2, ##y 2, a 3, ##b 2, ##c 4. (z, ##y) = 2 / (2 x 2) = 1/2 wins, then
    # (a, ##b) = 2 / (3 x 2) = 1/3 against (zy, ##c) = (##b, ##c) = 2 / (2 x 4) = 1/4; then
    # (ab, ##c) and (zy, ##c) tie at 2 / (2 x 4) = 1/4. zy was made before ab, so its id is
    # smaller, while ab comes first in the corpus and in the alphabet.
    wc = from_pairs([("abc", 2), ("zyc", 2), ("a", 1)])
    made = [("z", "##y"), ("a", "##b")]
    scores_made = [(1, 2), (1, 3), (1, 4)]
    by_ids = trace_wordpiece(wc, merges=3, ties="tokenizers")
    assert [s.pair for s in by_ids.steps] == [*made, ("zy", "##c")]
    assert [s.score_fraction for s in by_ids.steps] == [Fraction(n, d) for n, d in scores_made]
    for ties in ("first", "lex"):
        trace = trace_wordpiece(wc, merges=3, ties=ties)
        assert [s.pair for s in trace.steps] == [*made, ("ab", "##c")]
        assert trace.steps[2].tied_with == (("zy", "##c"),)


# --- training parameters --------------------------------------------------------------


def test_vocab_size_target_and_special_tokens():
    wc = load("toy:sunflower")
    assert train_wordpiece(wc, vocab_size=17).vocab == SLIDE_VOCAB
    model = train_wordpiece(wc, vocab_size=22, special_tokens=True)
    assert model.vocab == (*SPECIAL_TOKENS, *SLIDE_VOCAB)
    assert SPECIAL_TOKENS == ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
    trace = trace_wordpiece(wc, merges=1, special_tokens=True)
    assert trace.start.vocab[:5] == SPECIAL_TOKENS and trace.steps[0].vocab_size == 20


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"vocab_size": 10}, "vocab size 10 is smaller than the 14 symbols"),
        ({"vocab_size": 17, "special_tokens": True}, "smaller than the 19 symbols"),
        ({"merges": -1}, "0 or more"),
        ({}, "either a number of merges or"),
        ({"merges": 1, "ties": "random"}, "Unknown tie rule"),
        ({"merges": 1, "prefix": "# #"}, "cannot contain spaces"),
    ],
)
def test_errors_are_sentences(kwargs, words):
    with pytest.raises(ValueError, match=words) as caught:
        trace_wordpiece(load("toy:sunflower"), **kwargs)
    assert str(caught.value).endswith(".")


def test_stops_early_when_no_pair_is_left():
    trace = trace_wordpiece(from_text("ab ab c"), merges=5)
    assert [s.new_symbol for s in trace.steps] == ["ab"]
    assert trace.truncated and "no pair is left" in trace.stop_reason
    sized = trace_wordpiece(from_text("ab ab c"), vocab_size=10)
    assert sized.truncated and len(model_from_trace(sized).vocab) == 4


def test_another_prefix():
    trace = trace_wordpiece(load("toy:sunflower"), merges=2, prefix="@@")
    assert trace.start.alphabet[0] == "@@d"
    assert [s.new_symbol for s in trace.steps] == ["su", "@@er"]
    model = model_from_trace(trace)
    assert segment(model, "sun").pieces == ["su", "@@n"]


def test_long_words_become_unk_without_trying():
    model = WordPieceModel(("a", "##a"), ())
    trace = encode_word(model, "a" * 101)
    assert trace.unknown and trace.attempts == () and "100 characters" in trace.note
    assert encode_word(model, "a" * 100).pieces == ("a",) + ("##a",) * 99


def test_segment_refuses_empty_text():
    with pytest.raises(ValueError, match="Type a word"):
        segment(WordPieceModel(("a",), ("a",)), "   ")


# --- traces ---------------------------------------------------------------------------


def test_compact_trace_keeps_the_top_of_the_table():
    full = trace_wordpiece(load("toy:sunflower"), merges=3, snapshot=True)
    compact = trace_wordpiece(load("toy:sunflower"), merges=3, snapshot=False)
    assert compact.compact and not full.compact
    for a, b in zip(full.steps, compact.steps, strict=True):
        assert b.segmentations is None and b.pair_table == a.pair_table[:20]
        assert (a.pair, a.score_fraction, a.tied_with, a.bpe_pair) == (
            b.pair,
            b.score_fraction,
            b.tied_with,
            b.bpe_pair,
        )
    assert corpus_at(compact, 2) == corpus_at(full, 2)
    assert corpus_at(full, 0)[0] == ("sunflower", 1, full.start.segmentations[0])
    assert corpus_at(compact, 3, limit=2)[0][2] == ("su", "##n", "##f", "##l", "##o", "##w", "##er")


def test_iterator_progress_and_pickling():
    wc = load("toy:hug-pug")
    calls = []
    trace = trace_wordpiece(wc, merges=4, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(4, 4)]
    assert tuple(iter_wordpiece(wc, merges=4)) == trace.steps
    assert trace.algorithm == "wordpiece" and trace.param("prefix") == "##"
    assert pickle.loads(pickle.dumps(trace)) == trace
