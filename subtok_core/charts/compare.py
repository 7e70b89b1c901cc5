"""Comparison charts: one metric of metrics.py drawn for several tokenizers at once.

Every builder reads a long table with a ``tokenizer`` column (:func:`stack` builds it from
one metric table per tokenizer) and colors each tokenizer the same on every chart
(:func:`tokenizer_colors`); lines also get a dash per tokenizer, so the charts still read
in grey or for a colorblind student. ``names`` (every tokenizer of the page, in order)
keeps colors and legend order fixed when a chart shows only some of them. HOW_TO_READ
holds one sentence per chart for the page to print under it.

>>> import pandas as pd
>>> df = stack({"BPE": pd.DataFrame({"length": [1, 2], "tokens": [3, 1], "share": [0.75, 0.25]}),
...             "SaGe": pd.DataFrame({"length": [1, 2], "tokens": [1, 1], "share": [0.5, 0.5]})})
>>> df["tokenizer"].tolist()
['BPE', 'BPE', 'SaGe', 'SaGe']
>>> token_length_chart(df).to_dict()["encoding"]["color"]["scale"]
{'domain': ['BPE', 'SaGe'], 'range': ['#0072B2', '#882255']}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import palette
from ..measure.names import COLUMN_NAMES
from . import words
from ._altair import alt
from .lessons import FONT_SIZE, _style
from .words import described

# colour-blind-safe, each 3:1 on the page (subtok_core/palette.py); dashes tell lines apart too
KNOWN_COLORS = dict(zip(("BPE", "WordPiece", "Unigram", "SaGe"), palette.SERIES[:4], strict=True))
OTHER_COLORS = palette.SERIES[4:] + (palette.GREY,)
DASHES = ([1, 0], [8, 4], [2, 3], [8, 3, 2, 3], [12, 3], [4, 4], [1, 4], [12, 3, 2, 3, 2, 3])
BAR_HEIGHT, LINE_HEIGHT = 320, 340
NARROW = 560  # px: a chart this narrow (a phone, a half column) takes its phone layout


def narrow(phone: object, wide: object) -> alt.ExprRef:
    """A chart property that depends on the width of the chart's place on the page: the
    browser decides it as it draws (Vega's containerSize), so one spec fits a projector
    and a phone. Strings are given quoted: narrow("'right'", "'center'").

    >>> narrow(2, 3).to_dict()
    {'expr': 'containerSize()[0] < 560 ? 2 : 3'}
    """
    return alt.ExprRef(f"containerSize()[0] < {NARROW} ? {phone} : {wide}")


SHARE = ".1%"

HOW_TO_READ = {
    "token_length": "Each group of bars is one token length; "
    "bars further right mean longer tokens, and a taller bar means more of that "
    "tokenizer's vocabulary has that length.",
    "fertility": "Each group is a number of pieces per word: a tokenizer whose bars sit "
    "further left keeps more words whole or in few pieces.",
    "neighbours": "Each line ranks one tokenizer's tokens by how many different tokens "
    "they meet within the window; a lower line means tokens that occur in fewer, "
    "more consistent contexts.",
    "ratio": "Each line spreads one tokenizer's tokens over their neighbours-per-occurrence "
    "ratio: more weight on the left means tokens that keep meeting the same neighbours.",
    "frequency_profile": "Each line sorts one tokenizer's vocabulary from most to least used "
    "(log scale); where a line drops to the bottom its vocabulary is rarely or never used.",
    "frequency_diff": "Bars to the right are tokens the first tokenizer uses more often, bars "
    "to the left tokens the second one uses more; longer bars mean bigger differences.",
    "efficiency": "A longer bar means each token carries more characters, so the same text "
    "needs fewer tokens.",
}


def tokenizer_palette(names: Sequence[str]) -> dict[str, str]:
    """A color per tokenizer: BPE, WordPiece, Unigram, SaGe fixed; the others take purple,
    indigo, black, olive, grey, ... in the order given.

    >>> tokenizer_palette(["SaGe", "random-pruned", "BPE"])
    {'SaGe': '#882255', 'random-pruned': '#AA4499', 'BPE': '#0072B2'}
    """
    others = iter(OTHER_COLORS * (len(names) // len(OTHER_COLORS) + 1))
    return {n: KNOWN_COLORS.get(n) or next(others) for n in dict.fromkeys(names)}


def tokenizer_colors(names: Sequence[str], shown: Sequence[str] | None = None) -> alt.Scale:
    """The color scale of `shown` tokenizers (default: all), colored as in `names`."""
    palette = tokenizer_palette(list(names) + [s for s in shown or () if s not in names])
    domain = [n for n in palette if shown is None or n in shown]
    return alt.Scale(domain=domain, range=[palette[n] for n in domain])


def _dashes(scale: alt.Scale) -> alt.Scale:
    """A dash pattern per tokenizer, tied to its color so it is the same on every chart."""
    colors = list(KNOWN_COLORS.values()) + list(OTHER_COLORS)
    return alt.Scale(domain=scale.domain, range=[DASHES[colors.index(c) % 8] for c in scale.range])


def stack(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One long table from one metric table per tokenizer, with a first column `tokenizer`."""
    if not frames:
        raise ValueError("There is no tokenizer to compare: give at least one metric table.")
    parts = [f.assign(tokenizer=name) for name, f in frames.items()]
    long = pd.concat(parts, ignore_index=True)
    return long[["tokenizer", *[c for c in long.columns if c != "tokenizer"]]]


def summary_table(results: Mapping[str, object]) -> pd.DataFrame:
    """One row per tokenizer with the number fields of a metrics result (Efficiency,
    Fertility, FrequencyProfile); tables and names are left out.

    >>> from subtok_core.measure import Efficiency
    >>> summary_table({"BPE": Efficiency("x", 5, 2, 8, 1.6, 2.5)}).values.tolist()
    [['BPE', 5, 2, 8, 1.6, 2.5]]
    """
    rows = [
        {"tokenizer": name}
        | {f.name: getattr(r, f.name) for f in dataclasses.fields(r)
           if isinstance(getattr(r, f.name), int | float) and f.name != "name"}
        for name, r in results.items()
    ]  # fmt: skip
    return pd.DataFrame(rows)


def tip(shorthand: str, **options) -> alt.Tooltip:
    """A tooltip channel titled with the column's name a student reads (measure.names).

    >>> tip("word_initial_share:Q", format=".1%").to_dict()["title"]
    'share that starts a word'
    """
    field = shorthand.split(":")[0]
    return alt.Tooltip(shorthand, title=COLUMN_NAMES.get(field, field), **options)


def _color(df: pd.DataFrame, names: Sequence[str] | None, field: str = "tokenizer"):
    """The color channel of the tokenizers in `df`, and its scale (for dashes and order)."""
    shown = list(dict.fromkeys(df[field]))
    scale = tokenizer_colors(names or shown, shown)
    # below the chart, in rows of three; on a phone or in a half column, where three would
    # be wider than the chart and cut off, in rows of two in a smaller font (one row of
    # five names would take the chart's height): names are never cut
    columns = narrow(min(2, len(shown)), min(3, len(shown)))
    legend = alt.Legend(
        title=None, orient="bottom", columns=columns, labelLimit=240,
        labelFontSize=narrow(12, FONT_SIZE), symbolSize=narrow(70, 100),
    )  # fmt: skip
    return alt.Color(f"{field}:N", scale=scale, legend=legend), scale


def _grouped_bars(df, x, x_title, y, y_title, count, names, unit: str = "") -> alt.Chart:
    """Bars grouped by `x`, one bar per tokenizer side by side, y a share of the total."""
    color, scale = _color(df, names)
    chart = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            x=alt.X(f"{x}:O", title=x_title, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("tokenizer:N", scale=alt.Scale(domain=scale.domain)),
            y=alt.Y(f"{y}:Q", title=y_title, axis=alt.Axis(format="%")),
            color=color,
            tooltip=[
                tip("tokenizer:N"),
                tip(f"{x}:O"),
                tip(f"{count}:Q"),
                tip(f"{y}:Q", format=SHARE),
            ],
        )
    )
    title = f"{y_title.capitalize()} by {x_title}"
    said = words.most_common(df, x, y, unit or x_title)
    return _style(described(chart.properties(height=BAR_HEIGHT), title, said))


def token_length_chart(df: pd.DataFrame, names: Sequence[str] | None = None) -> alt.Chart:
    """Share of the vocabulary by token length (SaGe Fig. 1): stack of token_lengths."""
    return _grouped_bars(
        df, "length", "token length (characters)", "share", "share of the vocabulary",
        "tokens", names, "characters",
    )  # fmt: skip


def fertility_chart(
    df: pd.DataFrame, by: str = "words", names: Sequence[str] | None = None
) -> alt.Chart:
    """Share of words by pieces per word (SaGe Fig. 2): stack of fertility(t).table;
    `by` "words" counts running words, "word_types" each distinct word once."""
    if by not in ("words", "word_types"):
        raise ValueError(f"Count by 'words' or 'word_types'; got {by!r}.")
    share, title = ("words_share", "running words") if by == "words" else ("types_share", "words")
    return _grouped_bars(
        df, "subwords", "pieces per word", share, f"share of {title}", by, names, "pieces"
    )  # fmt: skip


def _lines(lines, points, x, y, tooltip, names, step=False, hover_x=None, words_=None):
    """A line per tokenizer (color and dash), with invisible points carrying the tooltips."""
    color, scale = _color(points, names)
    dash = alt.StrokeDash("tokenizer:N", scale=_dashes(scale), legend=None)
    line = alt.Chart(lines).mark_line(strokeWidth=3, interpolate="step-after" if step else "linear")
    line = line.encode(x=x, y=y, color=color, strokeDash=dash)
    hover = alt.Chart(points).mark_point(size=150, filled=True, opacity=0, aria=False)
    hover = hover.encode(x=hover_x or x, y=y, tooltip=tooltip)
    chart = alt.layer(line, hover).properties(height=LINE_HEIGHT)
    return _style(described(chart, *words_) if words_ else chart)


def neighbours_chart(
    df: pd.DataFrame, top: int = 200, names: Sequence[str] | None = None
) -> alt.LayerChart:
    """Distinct neighbours by rank, the `top` ranks of each tokenizer (SaGe Fig. 3):
    stack of distinct_neighbours (rank, token, neighbours, frequency)."""
    shown = df[df["rank"] <= top]
    x = alt.X("rank:Q", title=f"rank (top {top} tokens by neighbours)")
    y = alt.Y("neighbours:Q", title="distinct neighbours")
    tooltip = [tip(f) for f in ("tokenizer:N", "rank:Q", "token:N", "neighbours:Q", "frequency:Q")]
    said = ("Distinct neighbours by rank", words.neighbours(shown))
    return _lines(shown, shown, x, y, tooltip, names, words_=said)


def ratio_chart(df: pd.DataFrame, names: Sequence[str] | None = None) -> alt.LayerChart:
    """Share of tokens by neighbours/frequency ratio, a step line per tokenizer (SaGe Fig. 4):
    stack of neighbour_ratio(t).histogram (bin_start, bin_end, tokens, share)."""
    points = df.assign(bin_mid=(df["bin_start"] + df["bin_end"]) / 2)
    last = df.loc[df.groupby("tokenizer", sort=False)["bin_end"].idxmax()]
    steps = pd.concat([df, last.assign(bin_start=last["bin_end"])], ignore_index=True)
    title = "distinct neighbours ÷ frequency"
    x = alt.X("bin_start:Q", title=title)
    y = alt.Y("share:Q", title="share of tokens", axis=alt.Axis(format="%"))
    tooltip = [tip("tokenizer:N"), tip("bin_start:Q"), tip("bin_end:Q"), tip("tokens:Q"),
               tip("share:Q", format=SHARE)]  # fmt: skip
    said = ("Share of tokens by neighbours per occurrence", words.ratio(df))
    hover_x = alt.X("bin_mid:Q", title=title)
    return _lines(steps, points, x, y, tooltip, names, step=True, hover_x=hover_x, words_=said)


def _thin(group: pd.DataFrame, max_points: int) -> pd.DataFrame:
    """At most about `max_points` ranks, evenly spread, keeping the first unused rank."""
    if len(group) <= max_points:
        return group
    keep = np.linspace(0, len(group) - 1, max_points).round().astype(int)
    unused = np.flatnonzero(group["frequency"].to_numpy() == 0)[:1]
    edge = np.concatenate([unused, np.maximum(unused - 1, 0)])
    return group.iloc[np.union1d(keep, edge)]


def frequency_profile_chart(
    df: pd.DataFrame, log: bool = True, names: Sequence[str] | None = None, max_points: int = 300
) -> alt.LayerChart:
    """Corpus frequency of every vocabulary entry by rank (Bostrom & Durrett Fig. 2b):
    stack of frequency_profile(t, vocab).table. On the log scale, unused entries
    (frequency 0) are drawn at 0.5, labelled "0 (unused)"; the tooltip has the true value.
    Long vocabularies are thinned to `max_points` ranks each (evenly, keeping the first
    unused entry): 300 a line is a point every pixel or two of a half-page chart, and the
    chart 50 KB rather than 130 KB (three tokenizers, V = 8,000) for every student's
    browser to load."""
    said = ("Uses of each vocabulary entry, most used first", words.profile(df))
    parts = [_thin(g, max_points) for _, g in df.groupby("tokenizer", sort=False)]
    df = pd.concat(parts, ignore_index=True)
    df = df.assign(drawn=df["frequency"].clip(lower=0.5) if log else df["frequency"])
    axis = alt.Axis()
    if log:
        top = max(1, int(np.ceil(np.log10(max(df["frequency"].max(), 1)))))
        axis = alt.Axis(values=[0.5, *(10.0**k for k in range(top + 1))],
                        labelExpr="datum.value < 1 ? '0 (unused)' : datum.label")  # fmt: skip
    scale = alt.Scale(type="log") if log else alt.Scale()
    x = alt.X("rank:Q", title="rank in the vocabulary (most used first)")
    y = alt.Y("drawn:Q", title="uses in the corpus", scale=scale, axis=axis)
    tooltip = [tip(f) for f in ("tokenizer:N", "rank:Q", "token:N", "frequency:Q")]
    return _lines(df, df, x, y, tooltip, names, words_=said)


def frequency_diff_chart(df: pd.DataFrame, names: Sequence[str] | None = None) -> alt.LayerChart:
    """Diverging bars of the tokens used most differently by two tokenizations (SaGe Table 3,
    B&D Table 1): metrics.frequency_diff output (token, freq_a, freq_b, difference,
    more_in), right for the first tokenizer, left for the second, colored by more_in."""
    first = df.loc[df["difference"] > 0, "more_in"].head(1).tolist() or ["A"]
    second = df.loc[df["difference"] < 0, "more_in"].head(1).tolist() or ["B"]
    x = alt.X("difference:Q", title=f"← more in {second[0]}   |   more in {first[0]} →")
    tooltip = ["token:N", alt.Tooltip("freq_a:Q", title=f"uses in {first[0]}"),
               alt.Tooltip("freq_b:Q", title=f"uses in {second[0]}"),
               tip("difference:Q")]  # fmt: skip
    bars = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            y=alt.Y("token:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
            x=x,
            color=_color(df, names, field="more_in")[0],
            tooltip=tooltip,
        )
    )
    zero = alt.Chart(pd.DataFrame({"zero": [0]})).mark_rule(color="#444").encode(x="zero:Q")
    chart = alt.layer(bars, zero).properties(height=alt.Step(26))
    title = "The tokens used most differently by the two tokenizers"
    return _style(described(chart, title, words.difference(df)))


EFFICIENCY_TITLES = {
    "chars_per_token": ("characters per token", ".2f"),
    "tokens": ("tokens for the whole corpus", ","),
    "tokens_per_word": ("tokens per word", ".2f"),
}


def efficiency_chart(
    df: pd.DataFrame, value: str = "chars_per_token", names: Sequence[str] | None = None
) -> alt.LayerChart:
    """One bar per tokenizer, labelled with its value: summary_table of efficiency(t)
    results (tokenizer, tokens, words, characters, chars_per_token, tokens_per_word)."""
    if value not in EFFICIENCY_TITLES:
        raise ValueError(f"Draw one of {', '.join(EFFICIENCY_TITLES)}; got {value!r}.")
    title, fmt = EFFICIENCY_TITLES[value]
    color, scale = _color(df, names)
    room = float(df[value].max()) * 1.25 if len(df) else 1.0  # the last value's label fits
    base = alt.Chart(df).encode(
        y=alt.Y("tokenizer:N", sort=scale.domain, title=None, axis=alt.Axis(labelLimit=240)),
        x=alt.X(f"{value}:Q", title=title, scale=alt.Scale(domain=[0, room], nice=False)),
        tooltip=["tokenizer:N", *(alt.Tooltip(f"{c}:Q", title=t, format=f)
                                  for c, (t, f) in EFFICIENCY_TITLES.items())],
    )  # fmt: skip
    # the names stand on the axis: no legend, which on a phone is wider than the chart
    bars = base.mark_bar().encode(color=color.legend(None))
    text = base.mark_text(align="left", dx=6, fontSize=FONT_SIZE).encode(
        text=alt.Text(f"{value}:Q", format=fmt)
    )
    chart = alt.layer(bars, text).properties(height=alt.Step(44))
    said = words.per_tokenizer(df, value, title, fmt)
    return _style(described(chart, title.capitalize() + ", per tokenizer", said))
