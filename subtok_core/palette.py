"""The colours every page and chart shares, chosen for students who don't see red against
green and for a washed-out projector (issue 31). tests/test_palette.py checks each pair's
WCAG contrast ratio, computed there by the standard's own formula.

- Chart series: Okabe & Ito's colour-blind-safe set ("Color Universal Design", 2008),
  the light orange, sky blue and yellow left out (under 3:1 against a white page), with
  Paul Tol's darker purple and wine instead. Each is at least 3:1 against the page.
- Token chips (Compare's tokens, byte-level BPE's chunks): Paul Tol's "light" scheme,
  made for cells with dark text on them; every fill has 4.5:1 with the chip's text and
  3:1 with the chip's outline, so two neighbouring chips are told apart by their outline,
  never by colour alone, and the same colour never touches itself (`fill_for`).

Colour never carries meaning alone: each status also has a word or a mark (see the CSS in
lessons/ui/chips.py and lessons/ui/a11y.py).

>>> fill_for("low", previous=None) in TOKEN_FILLS
True
>>> fill_for("low", previous=fill_for("low", previous=None)) != fill_for("low", previous=None)
True
"""

from __future__ import annotations

import hashlib

PAGE = "#ffffff"  # the light theme's page
TEXT = "#1a1a1a"  # text on every chip fill

# chart series (Okabe-Ito blue, vermillion, bluish green; Tol's wine, purple, indigo...)
BLUE, VERMILLION, GREEN, WINE = "#0072B2", "#D55E00", "#009E73", "#882255"
# the first four stay apart under protanopia, deuteranopia and tritanopia (tests/test_palette.py)
SERIES = (BLUE, VERMILLION, GREEN, WINE, "#AA4499", "#332288", "#000000", "#999933")
ORANGE = "#E69F00"  # Okabe-Ito orange: only as a bar's fill with a dark outline or label
GREY = "#5f6b78"  # "other", "wrong": 5.4:1 on the page

# token chips: Paul Tol's "light" scheme, dark text and a dark outline
TOKEN_FILLS = (
    "#77AADD",
    "#99DDFF",
    "#44BB99",
    "#BBCC33",
    "#EEDD88",
    "#EE8866",
    "#FFAABB",
    "#DDDDDD",
)
TOKEN_OUTLINE = "#444444"

# lesson chips (lessons/ui/chips.py): foreground, background
CHIP = ("#1a1a1a", "#f4f6f8")
CHIP_MARKER = ("#4f5a66", "#f4f6f8")  # </w>, ▁: quieter, still 4.5:1
CHIP_NEW = ("#1a1a1a", "#ffd6d6")  # the newest symbol (plus a double outline)
CHIP_NEW_OUTLINE = "#a4161a"
CHIP_MISS = ("#5f6b78", "#ffffff")  # a longest-match try that failed (plus dashed, struck)
CHIP_HIT = ("#1a1a1a", "#dff3e4")  # the try that matched (plus a solid outline and ✓)
CHIP_OUTLINE = "#6b7785"  # every chip's outline: 3:1 against the page
CAPTION = ("#5e5c5a", "#ffffff")  # Streamlit's captions, darkened (lessons/ui/a11y.py)
CAPTION_DARK = ("#b8b5b1", "#171614")  # the same in the dark theme
# the step slider's value above its thumb in the dark theme: Streamlit's red there is
# #cf4250, 3.9:1 on the dark page (axe flagged it on /picky?step=25)
SLIDER_VALUE_DARK = ("#ff6b78", "#171614")

# every pair a page puts text on: foreground, background (tests/test_palette.py)
TEXT_PAIRS = {
    "chip": CHIP,
    "chip marker": CHIP_MARKER,
    "chip new": CHIP_NEW,
    "chip miss": CHIP_MISS,
    "chip hit": CHIP_HIT,
    "caption": CAPTION,
    "caption on grey": (CAPTION[0], "#f0f2f6"),
    "caption, dark theme": CAPTION_DARK,
    "slider value, dark theme": SLIDER_VALUE_DARK,
    **{f"token {fill}": (TEXT, fill) for fill in TOKEN_FILLS},
}
# every pair of a line or mark against what it must stand out from (3:1)
MARK_PAIRS = {
    "chip outline": (CHIP_OUTLINE, PAGE),
    "new outline": (CHIP_NEW_OUTLINE, CHIP_NEW[1]),
    "token outline": (TOKEN_OUTLINE, PAGE),
    **{f"token outline on {fill}": (TOKEN_OUTLINE, fill) for fill in TOKEN_FILLS},
    **{f"series {color}": (color, PAGE) for color in SERIES + (GREY,)},
}


def fill_for(token: str, previous: str | None) -> str:
    """A chip fill fixed by the token's string (the same on every run and page), moved on
    to the next colour of TOKEN_FILLS when it would repeat the fill of the chip before."""
    digest = hashlib.md5(token.encode()).digest()
    fill = TOKEN_FILLS[digest[0] % len(TOKEN_FILLS)]
    if fill == previous:
        fill = TOKEN_FILLS[(TOKEN_FILLS.index(fill) + 1) % len(TOKEN_FILLS)]
    return fill
