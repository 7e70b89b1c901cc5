"""Notes on the 004 blog post ("Subword Tokenization"): its count of `</w>` in the fox
example, and two slips of the Hugging Face course, whose hug/pug example 004 quotes: its
P(p, u, g) (Unigram) and its tie at 1/15 (WordPiece).

>>> eow_note().figures[0].value
10
>>> from fractions import Fraction
>>> hf_note().figures[0].value == Fraction(34, 25725)
True
"""

from __future__ import annotations

from fractions import Fraction

from ..bpe import trace_bpe
from ..corpus import load
from ..records import EOW
from ..unigram.seed import seed_rows
from ..wordpiece import trace_wordpiece
from .records import Figure, Note, approx

BLOG = "004_39df60022dd20ca2.txt"


def _eow_count(segmentations, counts) -> int:
    """How many `</w>` symbols stand on their own in the corpus."""
    return sum(count * symbols.count(EOW) for symbols, count in zip(segmentations, counts))


def eow_note() -> Note:
    trace = trace_bpe(load("toy:fox"), merges=3, marker="eow")
    start = trace.start
    before = _eow_count(start.segmentations, start.counts)
    merge = next(s for s in trace.steps if s.new_symbol == "ox" + EOW)  # 004's second merge
    after = _eow_count(merge.segmentations, start.counts)
    return Note(
        "004-eow",
        f"004 counts </w> 8 times in a text of {sum(start.counts)} words",
        BLOG,
        "BPE section, the symbol-frequency tables of 'The big brown fox ...' (the text "
        "conversion prints </w> as w; the letter w has its own entry, w:1)",
        (
            Figure("</w> before any merge", "w:8", str(before), before, 31, "|w:8|"),
            Figure(
                f"</w> after merge {merge.number}, (ox, </w>)",
                "w:8-3=5",
                f"{before} − {merge.count} = {after}",
                after,
                53,
            ),
        ),
        f"Each of the {sum(start.counts)} words ends in </w>, as the list of symbols just "
        f"above the table shows, so </w> occurs {before} times; the table's 8 is a miscount "
        "that the later table carries on.",
        "bpe",
        (("corpus", "toy:fox"), ("marker", "eow"), ("step", str(merge.number))),
    )


def hf_note() -> Note:
    wc = load("toy:hug-pug")
    f = dict(seed_rows(wc, "strict"))
    total = sum(f.values())
    pug = Fraction(f["p"] * f["u"] * f["g"], total**3)
    pu_g = Fraction(f["pu"] * f["g"], total**2)
    pug_count = dict(wc.items())["pug"]
    return Note(
        "hf-pug",
        "The Hugging Face course's P(p, u, g), which 004 quotes",
        BLOG,
        "Unigram section: the example is the Hugging Face course's (chapter 6.7, linked on "
        "line 84), whose text is not among the seeds",
        (
            Figure(
                "P(p, u, g), Hugging Face course",
                "5/210 × 36/210 × 20/210 = 0.000389",
                f"{f['p']}/{total} × {f['u']}/{total} × {f['g']}/{total} = {pug} ≈ "
                f"{approx(float(pug), '0.000389', 3)}",
                pug,
            ),
            Figure(
                "P(pu, g), Hugging Face course",
                "5/210 × 20/210 = 0.0022676",
                f"{f['pu']}/{total} × {f['g']}/{total} = {pu_g} ≈ "
                f"{approx(float(pu_g), '0.0022676')}",
                pu_g,
            ),
            Figure(
                "P(p, u, g) in 004",
                "0.001321672",
                f"{pug} ≈ {approx(float(pug), '0.001321672')}",
                pug,
                94,
            ),
        ),
        f"The course takes P(p) and P(pu) as {pug_count}/{total} ({pug_count} is the count "
        f"of the word pug), but p and pu occur {f['p']} times, in pug and pun; 004 prints "
        f"the right value.",
        "unigram",
        (("corpus", "toy:hug-pug"), ("seed", "strict"), ("base", "e"), ("step", "1")),
    )


def _score(row) -> str:
    """'10 / (15 × 15) = 2/45': a WordPiece score as the page writes it out."""
    fraction = row.score_fraction
    return f"{row.pair_count} / ({row.left_count} × {row.right_count}) = {fraction}"


def hf_wordpiece_note() -> Note:
    """The course's WordPiece example on hug/pug: after (##g, ##s) and (h, ##u) it says
    (hu, ##g) and (hu, ##gs) tie at 1/15; the third merge's pair table says otherwise."""
    trace = trace_wordpiece(load("toy:hug-pug"), merges=4)
    third, fourth = trace.steps[2], trace.steps[3]
    rows = {(r.left, r.right): r for r in third.pair_table}
    hug, hugs, ug = rows["hu", "##g"], rows["hu", "##gs"], rows["##u", "##g"]
    done = ", ".join(f"({a}, {b})" for a, b in (s.pair for s in trace.steps[:2]))
    formula = r"\frac{\text{freq}(i,j)}{\text{freq}(i) * \text{freq}(j)}"
    return Note(
        "hf-wordpiece-tie",
        "The Hugging Face course's WordPiece tie at 1/15",
        BLOG,
        "WordPiece section: the score it quotes; the course's WordPiece example (chapter "
        "6.6) runs on the hug/pug corpus of line 85, and its text is not among the seeds",
        (
            Figure(
                "the score of a pair (i, j), 004",
                "freq(i,j) / (freq(i) × freq(j))",
                "count(ab) / (count(a) × count(b))",
                None,
                67,
                formula,
            ),
            Figure(
                f"(hu, ##g) after {done}, Hugging Face course",
                "1/15",
                _score(hug),
                hug.score_fraction,
            ),
            Figure(
                f"(hu, ##gs) after {done}, Hugging Face course",
                "1/15",
                _score(hugs),
                hugs.score_fraction,
            ),
            Figure(
                "(##u, ##g), 'all the other pairs', Hugging Face course",
                "1/21",
                _score(ug),
                ug.score_fraction,
            ),
        ),  # fmt: skip
        f"After {done}, ##g stands in hug and pug ({hug.right_count} times) and hu in hug "
        f"and hugs ({hug.left_count} times), so (hu, ##g) scores {hug.score_fraction}, below "
        f"(hu, ##gs) at {hugs.score_fraction}, which merges alone (merge {third.number}). "
        f"(hu, ##g) reaches {fourth.score_fraction} only after that merge, when hu is left "
        f"in hug alone: {fourth.pair_count} / ({fourth.left_count} × {fourth.right_count}) "
        f"(merge {fourth.number}). The /wordpiece page says so at merge {third.number}.",
        "wordpiece",
        (("corpus", "toy:hug-pug"), ("step", str(third.number))),
    )
