"""The morphology-alignment measure (subtok_core.measure.morphology) and its gold list.

Expected values are counted by hand (the cut positions are written out below) or come from
tiktoken, GPT-4's reference tokenizer; never from the module itself.
"""

from __future__ import annotations

import math

import pytest

from subtok_core import compare, corpus, registry
from subtok_core.corpus import DATA_DIR
from subtok_core.measure import morphology
from subtok_core.measure.morphology import alignment, parse_gold, verdict

PAPER_WORDS = [  # 002's Figure 1 and Appendix A
    "furiously", "tricycles", "completely", "preposterous", "suggestions", "hypothesized",
    "corrupted", "redistribution", "nanotechnology",
]  # fmt: skip

THREE = parse_gold("furiously\tfuri ous ly\ntricycles\ttri cycle s\ncompletely\tcomplete ly\n")
# gold boundaries by hand: furi|ous|ly -> 4, 7; tri|cycle|s -> 3, 8; complete|ly -> 8


def rows_of_file() -> list[tuple[str, list[str]]]:
    """The gold file read plainly, without the module: (word, morphs) per data line."""
    rows = []
    for line in (DATA_DIR / "morphology.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, morphs = line.split("\t")
            rows.append((word, morphs.split(" ")))
    return rows


# --- the gold list ---------------------------------------------------------------------------


def test_the_gold_file_has_at_least_300_distinct_words_each_spelled_by_its_morphs():
    rows = rows_of_file()
    assert len(rows) >= 300
    assert len({w for w, _ in rows}) == len(rows), "a word is listed twice"
    for word, morphs in rows:
        assert "".join(morphs) == word, (word, morphs)
        assert len(morphs) >= 2, f"{word} has no boundary to find"
        assert all(morphs), f"{word} has an empty morph (two spaces)"
        assert word.isalpha() and word.islower(), word


def test_the_gold_list_holds_the_papers_examples_and_explains_itself():
    words = {w for w, _ in rows_of_file()}
    assert set(PAPER_WORDS) <= words
    header = (DATA_DIR / "morphology.tsv").read_text(encoding="utf-8").split("\n\n")[0]
    assert "Written for subtok" in header and "Rules followed" in header


@pytest.mark.slow  # reads two real samples
def test_most_gold_words_occur_in_the_lee_or_wikipedia_sample():
    seen = set()
    for key in ("lee", "enwiki"):
        seen |= {w.lower() for line in corpus.sample_lines(key) for w in line.split()}
    words = [w for w, _ in rows_of_file()]
    missing = [w for w in words if w not in seen and w not in PAPER_WORDS]
    assert len(missing) <= len(words) // 20, missing


def test_the_module_reads_the_same_list():
    assert [(g.word, list(g.morphs)) for g in morphology.load_gold()] == rows_of_file()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("cats\tca s", "do not spell the word 'cats'"),
        ("cats cat s", "needs a word, a tab and its morphs"),
        ("cats\tcat s\ncats\tcat s", "listed twice"),
        ("# only a comment\n", "no word"),
    ],
)
def test_a_broken_gold_list_is_refused_with_a_sentence(text, says):
    with pytest.raises(ValueError, match=says):
        parse_gold(text)


# --- precision and recall by hand on three words ------------------------------------------


def test_the_papers_unigram_cuts_by_hand():
    # fur|ious|ly -> 3, 7 (7 right); tri|cycle|s -> 3, 8 (both right); complete|ly -> 8 (right)
    cut = {"furiously": ["▁fur", "ious", "ly"], "tricycles": ["▁tri", "cycle", "s"],
           "completely": ["▁Complete".lower(), "ly"]}  # fmt: skip
    a = alignment(cut.get, "sow", THREE)
    assert (a.right, a.cuts, a.boundaries) == (4, 5, 5)
    assert a.precision == pytest.approx(4 / 5) and a.recall == pytest.approx(4 / 5)


def test_the_papers_bpe_cuts_by_hand():
    # fur|iously -> 3; t|ric|y|cles -> 1, 4, 5; comple|t|ely -> 6, 7: no cut on a boundary
    cut = {"furiously": ["▁fur", "iously"], "tricycles": ["▁t", "ric", "y", "cles"],
           "completely": ["▁comple", "t", "ely"]}  # fmt: skip
    a = alignment(cut.get, "sow", THREE)
    assert (a.right, a.cuts, a.boundaries) == (0, 6, 5)
    assert (a.precision, a.recall, a.f1) == (0, 0, 0)
    assert a.rows["wrong"].tolist() == [1, 3, 2] and a.rows["missed"].tolist() == [2, 2, 1]


def test_precision_and_recall_differ_by_hand_with_wordpiece_markers():
    # furi|ously -> 4 (right); tri|cycles -> 3 (right); com|plete|ly -> 3 (wrong), 8 (right)
    cut = {"furiously": ["furi", "##ously"], "tricycles": ["tri", "##cycles"],
           "completely": ["com", "##plete", "##ly"]}  # fmt: skip
    a = alignment(cut.get, "wordpiece", THREE)
    assert a.precision == pytest.approx(3 / 4)
    assert a.recall == pytest.approx(3 / 5)
    assert a.f1 == pytest.approx(2 * (3 / 4) * (3 / 5) / (3 / 4 + 3 / 5))
    assert a.rows["cut"].tolist() == ["furi|ously", "tri|cycles", "com|plete|ly"]


def test_a_lone_marker_is_no_cut_and_a_word_with_unknown_letters_is_left_out():
    cut = {"furiously": ["▁", "furi", "ously"], "tricycles": ["▁", "[UNK]", "ricycles"],
           "completely": ["▁completely"]}  # fmt: skip
    a = alignment(cut.get, "sow", THREE)
    assert a.skipped == ("tricycles",)
    # furi|ously: 1 right of 1 cut, 2 boundaries; completely: no cut, 1 boundary
    assert (a.right, a.cuts, a.boundaries, a.words) == (1, 1, 3, 2)


def test_no_cut_at_all_leaves_precision_undefined():
    a = alignment(lambda w: [w], "none", THREE)
    assert math.isnan(a.precision) and a.recall == 0 and a.f1 == 0


# --- real tokenizers ------------------------------------------------------------------------


def test_cl100k_cuts_are_those_of_tiktoken(tiktoken_cl100k):
    """Each gold word after a space, as tiktoken cuts it; precision and recall counted here."""
    gold = morphology.load_gold()
    right = cuts = 0
    for item in gold:
        ids = tiktoken_cl100k.encode_ordinary(" " + item.word)
        text = [p.decode() for p in tiktoken_cl100k.decode_tokens_bytes(ids)]
        text[0] = text[0].removeprefix(" ")
        mine = {sum(map(len, text[:k])) for k in range(1, len(text)) if text[k - 1]}
        bounds = {len("".join(item.morphs[:k])) for k in range(1, len(item.morphs))}
        right, cuts = right + len(mine & bounds), cuts + len(mine)
    a = morphology.model_alignment(registry.pretrained("cl100k_base"))
    assert (a.right, a.cuts, a.skipped) == (right, cuts, ())
    assert a.boundaries == sum(len(g.morphs) - 1 for g in gold)


def test_a_trained_model_is_scored_on_the_cuts_its_segmenter_makes():
    model = compare.train("bpe", corpus.load("toy:low-lower"), 14)
    a = morphology.model_alignment(model, parse_gold("lowest\tlow est\nnewer\tnew er"))
    segment = registry.of_model(model).word_segmenter(model)
    assert a.rows["cut"].tolist() == [
        "|".join(p.removeprefix("▁") for p in segment(w) if p != "▁") for w in ("lowest", "newer")
    ]


# --- the sentence on the claim ------------------------------------------------------------------


def test_the_verdict_follows_the_numbers():
    gold = parse_gold("cats\tcat s\ndogs\tdog s")
    good = alignment({"cats": ["cat", "s"], "dogs": ["dog", "s"]}.get, "none", gold)
    poor = alignment({"cats": ["ca", "ts"], "dogs": ["dog", "s"]}.get, "none", gold)
    unknown = alignment(lambda w: ["[UNK]"], "none", gold)
    better = verdict(poor, good, "x")
    assert "better than BPE's" in better and "as Bostrom" in better
    against = verdict(good, poor, "x")
    assert "does not beat BPE" in against
    assert "F1 0.500 for Unigram against 1.000 for BPE" in against
    assert "tie" in verdict(good, good, "x")
    assert "cannot be tested" in verdict(unknown, good, "x")
    assert verdict(None, good, "x") == "Choose both BPE and Unigram above to test the claim."
