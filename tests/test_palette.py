"""The shared colours pass WCAG 2.1 contrast: text 4.5:1 on its background (1.4.3), lines
and marks 3:1 against what they stand on (1.4.11). The ratio is computed here from the
standard's definition of relative luminance, not by the code under test."""

import pytest

from subtok_core import palette


def channel(value: int) -> float:
    """An sRGB channel (0-255) made linear, as WCAG 2.1 defines it."""
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color: str) -> float:
    r, g, b = (int(color.lstrip("#")[k : k + 2], 16) for k in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_formula_gives_the_standards_extremes_and_a_known_grey():
    assert ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert ratio("#777777", "#777777") == pytest.approx(1.0)
    # #767676 on white is the lightest grey that passes 4.5:1 (a value commonly quoted)
    assert ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    assert ratio("#777777", "#ffffff") < 4.5


@pytest.mark.parametrize("name", list(palette.TEXT_PAIRS))
def test_text_is_4_5_to_1_on_its_background(name):
    fg, bg = palette.TEXT_PAIRS[name]
    assert ratio(fg, bg) >= 4.5, f"{name}: {fg} on {bg} is {ratio(fg, bg):.2f}:1"


@pytest.mark.parametrize("name", list(palette.MARK_PAIRS))
def test_lines_and_marks_are_3_to_1_against_what_they_stand_on(name):
    fg, bg = palette.MARK_PAIRS[name]
    assert ratio(fg, bg) >= 3, f"{name}: {fg} against {bg} is {ratio(fg, bg):.2f}:1"


def test_two_neighbouring_token_chips_never_share_a_fill_and_their_outline_shows():
    text = ["the", "the", "the", "lowest", "newest", "widest", "low", "low", "lower"]
    fills, previous = [], None
    for token in text:
        previous = palette.fill_for(token, previous)
        fills.append(previous)
    assert all(a != b for a, b in zip(fills, fills[1:]))
    for left, right in zip(fills, fills[1:]):
        # the outline between two chips stands 3:1 against both fills
        assert ratio(palette.TOKEN_OUTLINE, left) >= 3 and ratio(palette.TOKEN_OUTLINE, right) >= 3


def test_the_default_palettes_are_the_named_colour_blind_safe_sets():
    okabe_ito = {"#0072B2", "#D55E00", "#009E73"}  # blue, vermillion, bluish green
    assert okabe_ito <= set(palette.SERIES[:3])
    tol_light = {"#77AADD", "#99DDFF", "#44BB99", "#BBCC33", "#EEDD88", "#EE8866", "#FFAABB"}
    assert tol_light <= set(palette.TOKEN_FILLS)
    # no red beside green among the first series: the pair colour-blind students confuse
    assert "#d62728" not in palette.SERIES and "#2ca02c" not in palette.SERIES


def test_the_lesson_chips_draw_the_tested_colours():
    """lessons/ui/chips.py writes its chip colours out in CSS: the same ones as here."""
    from lessons.ui import chips

    css = chips.CHIP_CSS.lower()
    for color in (
        palette.CHIP_OUTLINE, palette.CHIP[1], palette.CHIP_MARKER[0], palette.CHIP_NEW[1],
        palette.CHIP_NEW_OUTLINE, palette.CHIP_MISS[0], palette.CHIP_HIT[1],
    ):  # fmt: skip
        assert color.lower() in css, color
    assert "double" in css.split(".chip.new")[1].split("}")[0]  # its second cue


def test_compare_draws_its_tokens_with_the_tested_outline_and_fills():
    from lessons.compare import views

    assert palette.TOKEN_OUTLINE in views.SPAN_CSS
    assert views.color_of("low") in palette.TOKEN_FILLS
    # a byte piece and a disputed cut differ from a plain token by outline style, not colour
    css = views.SPAN_CSS
    assert "dashed" in css.split(".tok.odd")[1].split("}")[0]
    assert "double" in css.split(".tok.part")[1].split("}")[0]


# Machado, Oliveira & Fernandes (2009), severity 1.0: linear-RGB matrices simulating how a
# colour looks to a student with protanopia, deuteranopia or tritanopia
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}  # fmt: skip


def lab(color: str, matrix) -> tuple[float, float, float]:
    """CIELAB (D65) of `color` as seen through `matrix` (sRGB -> linear -> simulated)."""
    rgb = [channel(int(color.lstrip("#")[k : k + 2], 16)) for k in (0, 2, 4)]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def closest_pair(colors, matrix) -> float:
    """The smallest CIE76 colour difference between two of `colors`, as simulated."""
    seen = [lab(c, matrix) for c in colors]
    return min(
        sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5
        for k, a in enumerate(seen)
        for b in seen[k + 1 :]
    )


def test_the_simulation_tells_red_from_green_only_with_normal_vision():
    """The old tab10 red and green (#d62728, #2ca02c) stand far apart for normal vision and
    collapse for a deuteranope: the check below can fail."""
    normal = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert closest_pair(["#d62728", "#2ca02c"], normal) > 60
    assert closest_pair(["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"], CVD["protanopia"]) < 10


@pytest.mark.parametrize("deficiency", list(CVD))
def test_colours_shown_together_stay_apart_for_colour_blind_students(deficiency):
    """Compare's four trained tokenizers, and a step's merged / tied / other bars."""
    matrix = CVD[deficiency]
    assert closest_pair(palette.SERIES[:4], matrix) >= 15
    assert closest_pair([palette.VERMILLION, palette.ORANGE, palette.BLUE], matrix) >= 15
