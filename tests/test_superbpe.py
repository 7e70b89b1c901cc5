"""SuperBPE and BoundlessBPE held to the reference trainers' numbers.

The expected merges and token counts below were obtained by running the pure-Python
trainers of kensho-technologies/fastboundlessbpe (python/boundlessbpe/train.py, mirrored
commit HEAD of 2026-11; BpeTrainer, then SuperBpeTrainer and BoundlessBpeTrainer on its
model) with Pretokenizer() (simple mode: GPT4O_REGEX, merge pattern \\p{L}), tau=1.1 (no
Picky-BPE deletions), blowup=False, one JSON document per line, first-pass vocab_size =
243 + merges (its 243 valid UTF-8 bytes), SuperBpeTrainer's vocab_size = supermerges;
the token counts with its Tokenizer.encode_ordinary_chunks on each distinct line. No code
of it is here, and these tests do not run it.
"""

from __future__ import annotations

import json

import pytest

from subtok_core.bytebpe.symbols import to_bytes
from subtok_core.cli import main
from subtok_core.superbpe import model_from_trace, segment, trace_boundless, trace_superbpe
from subtok_core.superbpe.encode import encoder

WAY = "by the way, of the people, by the people, for the people."
HOME = "in the end of the day we go by the way home."
TOY = [WAY] * 20 + [HOME] * 10
CAT = ["the cat sat on the mat"] * 6 + ["the dog sat on the log"] * 4
CAT += ["a cat and a dog: good friends"] * 3

# the reference's first pass on TOY, 32 merges: (left|right, count)
TOY_ORDINARY = [
    (" |t", 110), (" t|h", 110), (" th|e", 110), (" |p", 60), (" p|e", 60), (" pe|o", 60),
    (" peo|p", 60), (" peop|l", 60), (" peopl|e", 60), ("b|y", 50), (" |w", 40), ("a|y", 40),
    (" |by", 30), (" |o", 30), (" o|f", 30), (" w|ay", 30), (" |f", 20), (" f|o", 20),
    (" fo|r", 20), (" |d", 10), (" |e", 10), (" |g", 10), (" |h", 10), (" d|ay", 10),
    (" e|n", 10), (" en|d", 10), (" g|o", 10), (" h|o", 10), (" ho|m", 10), (" hom|e", 10),
    (" w|e", 10), ("i|n", 10),
]  # fmt: skip
# SuperBpeTrainer, 8 supermerges on that model
TOY_SUPER = [
    (" the| people", 60), (" the| way", 30), (" by| the people", 20), (" for| the people", 20),
    (" of| the people", 20), ("by| the way", 20), (" by| the way", 10), (" by the way| home", 10),
]  # fmt: skip
# BoundlessBpeTrainer on the same model: the tokens in the order they joined the vocabulary
# (26 ordinary merges replayed, 6 supermerges, 32 in all)
TOY_BOUNDLESS = [
    " t", " th", " the", " p", " pe", " peo", " peop", " peopl", " people", " the people",
    "by", " w", "ay", " by", " o", " of", " way", " the way", " f", " fo", " for",
    " by the people", " for the people", " of the people", "by the way", " d", " e", " g",
    " h", " day", " en", " end",
]  # fmt: skip
# CAT, 20 merges, 6 supermerges
CAT_ORDINARY = [
    ("a|t", 25), ("h|e", 20), ("t|he", 20), ("o|g", 11), (" |o", 10), (" |s", 10),
    (" |the", 10), (" o|n", 10), (" s|at", 10), (" |c", 9), (" c|at", 9), (" |d", 7),
    (" d|og", 7), (" |a", 6), (" |m", 6), (" m|at", 6), ("n|d", 6), (" |l", 4), (" l|og", 4),
    (" |f", 3),
]  # fmt: skip
CAT_SUPER = [
    (" on| the", 10), (" sat| on the", 10), (" cat| sat on the", 6), (" cat sat on the| mat", 6),
    ("the| cat sat on the mat", 6), (" dog| sat on the", 4),
]  # fmt: skip
CAT_BOUNDLESS = [
    "at", "he", "the", "og", " o", " s", " the", " on", " sat", " on the", " sat on the",
    " c", " cat", " d", " dog", " a", " m", " mat", "nd", " cat sat on the",
]  # fmt: skip
# tokens per distinct line: first pass, SuperBPE, BoundlessBPE
TOY_TOKENS = {"word": [16, 13], "super": [8, 10], "boundless": [8, 18]}
CAT_TOKENS = {"word": [6, 6, 18], "super": [1, 3, 18], "boundless": [3, 6, 19]}


def text(symbol: str) -> str:
    return to_bytes(symbol).decode("utf-8")


def merges_of(trace, stage):
    return [(f"{text(a)}|{text(b)}", s.count) for s in trace.steps if s.stage == stage
            for a, b in [s.pair]]  # fmt: skip


def tokens_per_line(trace, lines, upto=None):
    cut = encoder(model_from_trace(trace, upto))
    return [len(cut.tokens(line)) for line in dict.fromkeys(lines)]


@pytest.mark.parametrize(
    "lines, merges, supers, ordinary, supermerges, counts",
    [(TOY, 32, 8, TOY_ORDINARY, TOY_SUPER, TOY_TOKENS),
     (CAT, 20, 6, CAT_ORDINARY, CAT_SUPER, CAT_TOKENS)],
)  # fmt: skip
def test_superbpe_makes_the_reference_merges(lines, merges, supers, ordinary, supermerges, counts):
    trace = trace_superbpe(lines, merges=merges, supermerges=supers)
    assert merges_of(trace, "ordinary") == ordinary
    assert merges_of(trace, "super") == supermerges
    assert [s.stage for s in trace.steps] == ["ordinary"] * merges + ["super"] * supers
    assert tokens_per_line(trace, lines, merges) == counts["word"]
    assert tokens_per_line(trace, lines) == counts["super"]


@pytest.mark.parametrize(
    "lines, merges, order, counts",
    [(TOY, 32, TOY_BOUNDLESS, TOY_TOKENS), (CAT, 20, CAT_BOUNDLESS, CAT_TOKENS)],
)
def test_boundless_makes_the_reference_vocabulary_in_its_order(lines, merges, order, counts):
    trace = trace_boundless(lines, merges=merges)
    assert [text(s.new_symbol) for s in trace.steps] == order
    assert tokens_per_line(trace, lines) == counts["boundless"]


def test_the_issue_numbers_16_then_8():
    """Issue 37: the first sentence takes 16 tokens with 32 ordinary merges, 8 with either."""
    superbpe = trace_superbpe(TOY, merges=32, supermerges=8)
    boundless = trace_boundless(TOY, merges=32)
    assert len(segment(model_from_trace(superbpe, 32), WAY).pieces) == 16
    assert len(segment(model_from_trace(superbpe), WAY).pieces) == 8
    assert len(segment(model_from_trace(boundless), WAY).pieces) == 8


def test_a_supermerge_says_its_stage_its_words_and_what_it_beat():
    boundless = trace_boundless(TOY, merges=32)
    step = boundless.steps[9]  # " the" + " people", 60, beats (b, y) at 50
    assert (step.stage, step.count, step.words) == ("super", 60, 2)
    assert (tuple(map(text, step.rival[0])), step.rival[1]) == (("b", "y"), 50)
    ordinary = boundless.steps[5]  # ( pe, o) 60: ties with the supermerge? no: not yet made
    assert ordinary.stage == "ordinary"


def test_ties_go_to_the_smallest_pair_or_the_first_seen():
    """Hand count on CAT: (a, t) 25 first; then (t, h) and (h, e) both 20 (every "the"):
    the smallest pair is (h, e), the first seen (t, h), in "the" of the first line."""
    smallest = trace_superbpe(CAT, merges=3, supermerges=0, ties="smallest")
    first = trace_superbpe(CAT, merges=3, supermerges=0, ties="first")
    assert [text(s.new_symbol) for s in smallest.steps] == ["at", "he", "the"]
    assert [text(s.new_symbol) for s in first.steps] == ["at", "th", "the"]
    assert [tuple(map(text, p)) for p in smallest.steps[1].tied_with] == [("t", "h")]


def test_the_papers_cap_of_4_words():
    """Hand count on CAT with 20 merges: the reference's first three supermerges join 2, 3
    and 4 words; the next two (5 and 6 words) are over the cap. Left: (the, dog), (dog, sat
    on the), (sat on the, log) 4 times each, the smallest " dog" first, which makes
    "dog sat on the log" 5 words; then (" a", " dog") and ("a", " cat") 3 times each."""
    trace = trace_superbpe(CAT, merges=20, supermerges=6, max_words=4)
    assert merges_of(trace, "super") == [
        (" on| the", 10), (" sat| on the", 10), (" cat| sat on the", 6),
        (" dog| sat on the", 4), (" a| dog", 3), ("a| cat", 3),
    ]  # fmt: skip
    assert [s.words for s in trace.steps[20:]] == [2, 3, 4, 4, 2, 2]


@pytest.mark.parametrize(
    "call, words",
    [(lambda: trace_superbpe("", merges=3, supermerges=1), "empty"),
     (lambda: trace_superbpe(TOY, merges=3, supermerges=1, pattern="x"), "pattern"),
     (lambda: trace_boundless(TOY, merges=3, pattern="none"), "choose one of o200k, gpt2"),
     (lambda: trace_superbpe(TOY, merges=3, supermerges=1, ties="x"), "tie rule"),
     (lambda: trace_superbpe(TOY, merges=-1, supermerges=1), "0 or more"),
     (lambda: trace_superbpe(TOY, merges=3, supermerges=-2), "supermerges"),
     (lambda: trace_superbpe(TOY, merges=3, supermerges=2, max_words=1), "from 2 up"),
     (lambda: trace_boundless(["x " * 20_000], merges=3), "at most")],
)  # fmt: skip
def test_bad_input_gets_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_cli_json_lists_the_merges_in_order_and_the_vocabulary(capsys):
    main(["train", "boundless", "--corpus", "toy:by-the-way", "--merges", "32", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert [text(s) for s in data["vocab"][256:]] == TOY_BOUNDLESS
    assert [m[2] for m in data["merges"]].count("super") == 6
    main(["train", "superbpe", "--corpus", "toy:cat-mat", "--merges", "20", "--supermerges", "6"])
    out = capsys.readouterr().out
    assert "super" in out and "Made the 26 merges asked for." in out
