"""Notes on the material (subtok_core.notes, /notes): each slip against the seed text and
against a hand computation.

The seeds are read at test time from ../shared/seeds (plain text converted from the PDFs
and slides): every figure's quote must stand on the line its note gives. The exact values
are recomputed here from the frequencies the material lists, as a student would by hand,
never from our own code.

001 run/bug/fun/sun, round 1: 13 strict substrings, total frequency 155; best splits
ru n, bu g, fu n, su n. Round 2, after `un` is removed: total 155 - 26 = 129; removing a
piece sends its word to another split (run -> r u n, fun -> f u n, sun -> s u n) or to an
equally probable one (bug -> b ug).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from apptools import open_page, seeds_dir

from subtok_core.notes import all_notes, note, removal_caption, rounding_caption
from subtok_core.notes.slides import run_bug

NOTES = all_notes()


def seed_lines(name: str) -> list[str]:
    path = seeds_dir() / name
    assert path.is_file(), f"the seed {path} is missing: the notes are checked against it"
    return path.read_text(encoding="utf-8").splitlines()


def figure(note_id: str, label_start: str):
    return next(f for f in note(note_id).figures if f.label.startswith(label_start))


def hand_loss(splits: dict[str, tuple[int, ...]], counts: dict[str, int], total: int) -> float:
    """sum of count x -log10 P(split), P(piece) = its frequency / total."""
    return sum(
        counts[w] * -sum(math.log10(f / total) for f in freqs) for w, freqs in splits.items()
    )


COUNTS = {"run": 3, "bug": 5, "fun": 13, "sun": 10}
# 001's frequencies: r 3, u 31, n 26, ru 3, un 26, b 5, g 5, bu 5, ug 5, f 13, fu 13, s 10, su 10
ROUND1 = {"run": (3, 26), "bug": (5, 5), "fun": (13, 26), "sun": (10, 26)}  # ru n, bu g, ...
LOSS1 = hand_loss(ROUND1, COUNTS, 155)
LOSS2 = hand_loss(ROUND1, COUNTS, 129)  # the same splits once un (26) is gone
WITHOUT = {  # round 2: the loss without each piece
    "ru": hand_loss({**ROUND1, "run": (3, 31, 26)}, COUNTS, 129),
    "bu": hand_loss({**ROUND1, "bug": (5, 5)}, COUNTS, 129),  # b ug
    "ug": hand_loss({**ROUND1, "bug": (5, 5)}, COUNTS, 129),  # bu g
    "fu": hand_loss({**ROUND1, "fun": (13, 31, 26)}, COUNTS, 129),
    "su": hand_loss({**ROUND1, "sun": (10, 31, 26)}, COUNTS, 129),
}


# --- every note against its seed ---------------------------------------------------------


@pytest.mark.parametrize("item", NOTES, ids=lambda n: n.id)
def test_every_quote_stands_on_the_line_the_note_gives(item):
    lines = seed_lines(item.seed)
    quoted = [f for f in item.figures if f.line]
    assert quoted, "each note points at the seed at least once"
    for fig in quoted:
        assert fig.quote in lines[fig.line - 1], (fig.label, fig.line, lines[fig.line - 1])
    assert item.link.startswith(f"/{item.page}?corpus=toy:")
    assert item.cause.endswith(".") and item.title and item.where


def test_the_notes_have_distinct_ids_and_the_issues_nine_entries():
    # eight from the first notes issue, the WordPiece tie of issue 25
    assert len({n.id for n in NOTES}) == len(NOTES) == 9


# --- 001: rounding ----------------------------------------------------------------------------


def test_001_losses_are_rounded_and_the_exact_ones_match_a_hand_computation():
    assert figure("001-rounding", "P(ru, n)").value == pytest.approx(3 * 26 / 155**2)
    assert figure("001-rounding", "loss, first").value == pytest.approx(LOSS1)
    assert figure("001-rounding", "loss, second").value == pytest.approx(LOSS2)
    assert figure("001-rounding", "loss, first").exact == f"{LOSS1:.3f}" == "66.109"
    # the slides' own numbers come back when the probabilities are rounded to 4 digits
    assert "66.102" in note("001-rounding").cause and "61.155" in note("001-rounding").cause


def test_001_second_removal_table_exact_and_the_rounding_that_gives_the_printed_one():
    item = note("001-removal-table")
    assert [f.quote.split("\t")[0] for f in item.figures] == ["ru", "bu", "ug", "fu", "su"]
    for fig in item.figures:
        piece = fig.quote.split("\t")[0]
        assert fig.value == pytest.approx(WITHOUT[piece]), piece
        assert f"{piece} {fig.printed}" in item.cause  # recomputed with the slides' rounding
    assert figure("001-removal-table", "loss without ru").exact == "63.0226"
    assert item.link.endswith("remove=un&step=5")  # round 2's M-step, after un


def test_001_hu_is_in_no_word_of_the_corpus():
    assert not any("hu" in word for word in COUNTS)
    assert figure("001-hu", "P(hu)").value == Fraction(0)
    assert figure("001-hu", "P(su)").value == Fraction(10, 155)


def test_001_bag_and_bags_after_the_three_merges_at_ag_cat():
    # b a g -> (a, t) does not apply -> (a, g) gives b ag -> (c, at) does not apply
    assert figure("001-bag-bags", "the word announced").value == ("b", "ag")
    assert figure("001-bag-bags", "the word tokenized").value == ("b", "ag", "s")  # line 207


# --- 000 and 002: the sign of Algorithm 2 -----------------------------------------------------


def test_000_argmin_of_a_log_likelihood_difference_removes_the_most_useful_piece():
    loss_t = {p: -(w - LOSS2) for p, w in WITHOUT.items()}  # L(V \ t) - L(V), L = -loss
    assert min(loss_t, key=loss_t.get) == "fu"  # 13 x log10(129/31), the largest drop
    assert figure("000-argmin", "pruned: argmin").value == "fu"
    assert f"{-13 * math.log10(129 / 31):.3f}" in figure("000-argmin", "pruned: argmin").exact
    assert figure("000-argmin", "pruned by the smallest").value in {"bu", "ug"}  # no loss
    assert figure("000-argmin", "L(V)").value == pytest.approx(-LOSS2)


def test_002_highest_likelihood_loss_removes_the_most_useful_piece():
    l_t = {p: 10**-LOSS2 - 10**-w for p, w in WITHOUT.items()}  # p(D) - p'(D)
    assert max(l_t, key=l_t.get) == "fu"
    assert figure("002-highest", "L_t").value == pytest.approx(l_t["fu"], rel=1e-9)
    assert figure("002-highest", "removed: the tokens").value == "fu"
    assert figure("002-highest", "removed by the lowest").value in {"bu", "ug"}


# --- 004 and the Hugging Face course ----------------------------------------------------------


def test_004_counts_eight_end_of_word_markers_where_its_own_list_has_ten():
    words = ["The", "big", "brown", "fox", "jumps", "over", "the", "box", "and", "ox"]
    listed = seed_lines("004_39df60022dd20ca2.txt")[26].count("</w>")  # line 27, the symbols
    assert listed == len(words) == 10 == figure("004-eow", "</w> before").value
    after = len(words) - sum(w.endswith("ox") for w in words)  # fox, box, ox merge ox</w>
    assert figure("004-eow", "</w> after").value == after == 7


def test_the_hugging_face_p_u_g_slip_is_5_over_210_and_004_prints_the_right_value():
    pug = Fraction(17, 210) * Fraction(36, 210) * Fraction(20, 210)  # 004 line 87: p 17
    assert pug == Fraction(34, 25725) == figure("hf-pug", "P(p, u, g), Hugging").value
    assert figure("hf-pug", "P(pu, g), Hugging").value == Fraction(17 * 20, 210**2)
    # the course's numbers are what 5/210 gives for P(p) and P(pu)
    assert f"{5 * 36 * 20 / 210**3:.6f}" == "0.000389"
    assert f"{5 * 20 / 210**2:.7f}" == "0.0022676"
    # 004 links the course's chapter and prints the exact value, to 9 digits
    lines = seed_lines("004_39df60022dd20ca2.txt")
    assert "huggingface.co/course/chapter6/7" in lines[83]
    assert f"{float(pug):.9f}" == figure("hf-pug", "P(p, u, g) in 004").printed


def test_the_hugging_face_wordpiece_tie_is_2_over_45_against_1_over_15():
    """By hand from 004's corpus (line 85): after (##g, ##s) and (h, ##u), hug is hu ##g,
    pug p ##u ##g, hugs hu ##gs; count(a b) / (count(a) x count(b)), 004 line 67."""
    line = seed_lines("004_39df60022dd20ca2.txt")[84]
    counts = {w: int(c) for w, c in re.findall(r'\("(\w+)", (\d+)\)', line)}
    assert counts == {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    hu = counts["hug"] + counts["hugs"]
    g = counts["hug"] + counts["pug"]  # ##g: the g of hugs went into ##gs
    gs = counts["hugs"]
    u = counts["pug"] + counts["pun"] + counts["bun"]
    assert figure("hf-wordpiece-tie", "(hu, ##g)").value == Fraction(counts["hug"], hu * g)
    assert figure("hf-wordpiece-tie", "(hu, ##g)").value == Fraction(2, 45)
    assert figure("hf-wordpiece-tie", "(hu, ##gs)").value == Fraction(gs, hu * gs)
    assert figure("hf-wordpiece-tie", "(hu, ##gs)").value == Fraction(1, 15)
    assert figure("hf-wordpiece-tie", "(##u, ##g)").value == Fraction(counts["pug"], u * g)
    # the course's 1/15 and 1/21, as the page prints them
    assert [f.printed for f in note("hf-wordpiece-tie").figures[1:]] == ["1/15", "1/15", "1/21"]
    assert note("hf-wordpiece-tie").link == "/wordpiece?corpus=toy:hug-pug&step=3"


def test_rounding_caption_names_001_only_on_its_own_corpus():
    assert rounding_caption("toy:run-bug", 66.102, 66.109).startswith("The 001 slides round")
    other = rounding_caption("toy:hug-pug", 169.9, 169.803)
    assert "as the 001 slides do on run/bug/fun/sun" in other and "169.803" in other


def rounded_loss(splits: dict[str, tuple[int, ...]], total: int) -> float:
    """hand_loss with each probability rounded to 4 digits first, as the 001 slides do."""
    return sum(
        COUNTS[w] * -sum(math.log10(round(f / total, 4)) for f in freqs)
        for w, freqs in splits.items()
    )


def test_the_removal_caption_gives_001s_printed_table_from_rounded_probabilities():
    rounded = {
        "ru": rounded_loss({**ROUND1, "run": (3, 31, 26)}, 129),
        "bu": rounded_loss(ROUND1, 129),
        "fu": rounded_loss({**ROUND1, "fun": (13, 31, 26)}, 129),
        "su": rounded_loss({**ROUND1, "sun": (10, 31, 26)}, 129),
    }
    lines = seed_lines("001_cd5e11af49399106.txt")
    for piece, printed, line in (("ru", "63.0126", 694), ("bu", "61.155", 695)):
        assert printed in lines[line - 1]  # the material's table
        assert f"{rounded[piece]:.{len(printed.split('.')[1])}f}" == printed
    m2 = next(s for s in run_bug().steps if s.round == 2 and s.kind == "m")
    caption = removal_caption("toy:run-bug", m2, "10")
    assert "001's second removal table" in caption and "each 0.010 below" in caption
    for piece, value in rounded.items():
        assert f"{piece} {value:.3f}" in caption
    # elsewhere the caption says where the slides round, and never claims 001 prints it
    other = removal_caption("toy:hug-pug", m2, "10")
    assert "on run/bug/fun/sun" in other and "second removal table" not in other


@pytest.mark.slow  # opens /unigram several times
def test_the_unigram_page_puts_the_rounded_table_under_the_exact_one():
    at = open_page("lessons/unigram/page.py", **dict(note("001-removal-table").query))
    captions = [c.value for c in at.caption]
    assert any("001's second removal table" in c and "ru 63.013" in c for c in captions)
    at = open_page(
        "lessons/unigram/page.py", corpus="toy:run-bug", seed="strict", base="10", step="2"
    )
    assert not any("second removal table" in c.value for c in at.caption)  # round 1


# --- the pages ------------------------------------------------------------------------------


def test_notes_page_renders_every_note():
    at = open_page("lessons/notes/page.py")
    text = " ".join(m.value for m in [*at.header, *at.markdown, *at.caption])  # titles: h2
    for item in NOTES:
        assert item.title in text and item.cause in text and item.link in text
        assert item.seed in text
    assert len(at.table) == len(NOTES)
    assert not at.warning


LINKS = {n.link: n for n in NOTES}  # several notes open the same view


@pytest.mark.parametrize("item", LINKS.values(), ids=lambda n: n.link)
def test_each_link_opens_its_lesson_at_the_step_with_no_parameter_corrected(item):
    query = dict(item.query)
    at = open_page(f"lessons/{item.page}/page.py", **query)
    corrected = [x.value for x in at.warning if x.value.startswith("The address gives")]
    assert not corrected  # every parameter of the link is one the page can use
    assert at.slider(key="step").value == int(query["step"])
    if item.page == "unigram":  # steps are E, removal losses, prune per round
        round_no, kind = divmod(int(query["step"]) - 1, 3)
        title = ("E-step", "Pruning: the loss of removing each piece", "Prune")[kind]
        said = [h.value for h in at.subheader] + [x.value for x in at.info]
        assert any(f"Round {round_no + 1} · {title}" in text for text in said)
