"""DataFrame -> Altair chart builders. No Streamlit here: pages call st.altair_chart.

Charts are sized for a projector (large fonts) and tested through ``chart.to_dict()``.

>>> import pandas as pd
>>> df = pd.DataFrame({"step": [0, 1], "vocab_size": [6, 7], "corpus_symbols": [125, 105]})
>>> vocab_growth_chart(df, current=1).to_dict()["layer"][0]["mark"]["type"]
'line'
"""

from __future__ import annotations

import functools

import pandas as pd

from .. import palette
from . import words
from ._altair import alt
from .words import described

FONT_SIZE = 15
# colour-blind-safe (Okabe-Ito), each 3:1 on the page: subtok_core/palette.py
HIGHLIGHT = palette.VERMILLION
BASE = palette.BLUE
CURRENT = "current"  # the parameter holding the step a chart of a whole run marks


def set_current(spec: dict, current: int) -> dict:
    """Mark step `current` in `spec`, the Vega-Lite dict of a chart with a `current`
    parameter (vocab_growth_chart, loss_curve_chart), in place: a chart of a whole run is
    built once, and moving the step only sets the parameter.

    >>> df = pd.DataFrame({"step": [0, 1], "vocab_size": [6, 7], "corpus_symbols": [125, 105]})
    >>> spec = set_current(vocab_growth_chart(df, current=0).to_dict(), 1)
    >>> spec == vocab_growth_chart(df, current=1).to_dict(), spec["params"]
    (True, [{'name': 'current', 'value': 1}])
    """
    for param in spec.get("params", []):
        if param.get("name") == CURRENT:
            param["value"] = current
    return spec


def _tips(*shorthands: str) -> list[alt.Tooltip]:
    """Tooltip channels. Altair turns a plain "field:type" string into a channel through a
    lookup it rebuilds on every call (some 10 ms each); a channel object skips it, and the
    chart's spec is the same."""
    return [alt.Tooltip(shorthand) for shorthand in shorthands]


def _style(chart: alt.Chart | alt.LayerChart) -> alt.Chart | alt.LayerChart:
    return chart.configure_axis(labelFontSize=FONT_SIZE, titleFontSize=FONT_SIZE).configure_legend(
        labelFontSize=FONT_SIZE, titleFontSize=FONT_SIZE
    )


def vocab_growth_chart(df: pd.DataFrame, current: int) -> alt.LayerChart:
    """Symbols in the corpus (x) against vocabulary size (y), one point per merge step.

    `df` has columns step, vocab_size, corpus_symbols; the point of step `current` is
    drawn larger and red, so the student sees where the slider is on the curve. The step
    is the chart's parameter `current`: see set_current.
    """
    base = alt.Chart(df).encode(
        x=alt.X("corpus_symbols:Q", title="symbols in the corpus", scale=alt.Scale(zero=False)),
        y=alt.Y("vocab_size:Q", title="vocabulary size", scale=alt.Scale(zero=False)),
        tooltip=_tips("step:Q", "vocab_size:Q", "corpus_symbols:Q"),
    )
    line = base.mark_line(color=BASE, point=alt.OverlayMarkDef(color=BASE, size=30))
    step = alt.param(name=CURRENT, value=current)
    here = base.transform_filter(alt.datum.step == step).mark_point(
        color=HIGHLIGHT, size=260, filled=True, aria=False
    )  # aria=False: the ring is decoration (the step sentence says the step), and an
    # empty mark group with a role but no label is an axe violation (svg-img-alt)
    chart = alt.layer(line, here).add_params(step).properties(height=320)
    return _style(described(chart, "Vocabulary size against corpus length", words.growth(df)))


def pair_count_chart(df: pd.DataFrame, top: int = 15, value: str = "count") -> alt.Chart:
    """Horizontal bars of the best pairs; the merged pair red, tied pairs orange.

    `df` has columns pair (label), status ("merged", "tied" or "") and the `value` to draw
    (a count for BPE, a score for WordPiece; a "fraction" column, if any, is in the tooltip).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"pair": ["(a, t)", "(b, a)"], "count": [20, 17],
    ...                    "status": ["merged", ""]})
    >>> spec = pair_count_chart(df).to_dict()
    >>> spec["encoding"]["x"]["field"], spec["encoding"]["color"]["scale"]["domain"]
    ('count', ['merged', 'tied', 'other'])
    """
    shown = df.head(top).assign(status=lambda d: d["status"].replace("", "other"))
    color = alt.Color(
        "status:N",
        scale=alt.Scale(
            domain=["merged", "tied", "other"], range=[HIGHLIGHT, palette.ORANGE, BASE]
        ),
        legend=alt.Legend(title=None, orient="bottom"),
    )
    tooltip = _tips("pair:N", f"{value}:Q", "status:N")
    if "fraction" in shown.columns:
        tooltip.insert(1, alt.Tooltip("fraction:N"))
    chart = (
        alt.Chart(shown)
        .mark_bar()
        .encode(
            y=alt.Y("pair:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False)),
            x=alt.X(f"{value}:Q", title=value),
            color=color,
            tooltip=tooltip,
        )
        .properties(height=alt.Step(30))
    )
    said = words.best_bars(shown, "pair", value)
    return _style(described(chart, f"The {len(shown)} pairs with the highest {value}", said))


KIND_COLORS = {"E": BASE, "M": palette.GREEN, "prune": HIGHLIGHT}
# Unigram's steps as the loss curve names them: EM re-estimates P in its M-step; the
# textbook variant has no M-step, it prices each removal and then prunes
EM_KINDS = {"E-step": BASE, "M-step": palette.GREEN, "prune": HIGHLIGHT}
TEXTBOOK_KINDS = {"E-step": BASE, "removal losses": palette.GREEN, "prune": HIGHLIGHT}
SAGE_KINDS = {  # what SaGe recomputed before a prune step
    "embeddings retrained": HIGHLIGHT,
    "all losses recomputed": palette.GREEN,
    "candidates only": BASE,
}


def loss_curve_chart(
    df: pd.DataFrame,
    current: int,
    title: str = "corpus loss",
    log_scale: bool = False,
    colors: dict[str, str] = KIND_COLORS,
    height: int = 300,
) -> alt.LayerChart:
    """The corpus loss after every step (x: step), points colored by the step's kind
    (E, M, prune; or SAGE_KINDS with `colors`) and the current step ringed (the chart's
    parameter `current`, see set_current); `log_scale` for losses that jump by orders of
    magnitude (EM right after a prune). `height`: the whole chart's, in px.

    The y scale starts near the lowest loss, not at 0, on round numbers with at least
    three labels: a SaGe loss moves by a few hundred in 41,000, which a scale from 0 (or
    one label) draws flat. The legend is one row, or one column when the chart is too
    narrow for the row (a phone): a row wider than the chart is cut at its right edge.

    >>> df = pd.DataFrame({"step": [1, 2, 3], "loss": [66.1, 66.1, 61.2],
    ...                    "kind": ["E", "M", "prune"]})
    >>> spec = loss_curve_chart(df, current=2).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'point', 'point']
    """
    base = alt.Chart(df).encode(
        x=alt.X("step:Q", title="step", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y(
            "loss:Q",
            title=title,
            scale=alt.Scale(type="log") if log_scale else alt.Scale(zero=False, nice=True),
            axis=alt.Axis(tickCount=4) if not log_scale else alt.Undefined,
        ),
        tooltip=[alt.Tooltip(c) for c in df.columns],
    )
    line = base.mark_line(color=palette.GREY)
    kinds = alt.Scale(domain=list(colors), range=list(colors.values()))
    legend = alt.Legend(
        title=None,
        orient="bottom",
        offset=8,
        columns=alt.ExprRef(f"width < {legend_row_width(colors)} ? 1 : {len(colors)}"),
    )
    points = base.mark_point(filled=True, size=90).encode(
        color=alt.Color("kind:N", scale=kinds, legend=legend)
    )
    step = alt.param(name=CURRENT, value=current)
    here = base.transform_filter(alt.datum.step == step).mark_point(
        color="black", size=420, strokeWidth=2, aria=False
    )  # decoration, as in vocab_growth_chart
    chart = alt.layer(line, points, here).add_params(step).properties(height=height)
    return _style(described(chart, f"The {title} after each step", words.loss(df, title)))


def legend_row_width(colors: dict[str, str]) -> int:
    """A generous width, in px, of a legend row naming every one of `colors` at FONT_SIZE
    (a symbol, its gap and about 0.6 em a letter each): a narrower chart gets a column.

    >>> legend_row_width({"E": "", "M": "", "prune": ""})  # (40 + 9) + (40 + 9) + (40 + 45)
    183
    """
    return sum(40 + round(0.6 * FONT_SIZE * len(name)) for name in colors)


BEST_PATH, OTHER_PIECES = "on the best path", "other pieces"


def lattice_chart(
    df: pd.DataFrame, show_posterior: bool = False, log_label: str = "log P"
) -> alt.LayerChart:
    """A word's lattice: one bar per edge from its start to its end position (rows grouped
    by start), labelled with the piece and its log-probability; edges on the best (Viterbi)
    path red, the others blue, as the legend says. With `show_posterior`, an edge's opacity
    is its posterior (expected uses per occurrence). `log_label` names the logarithm of the
    logp column in the tooltip and the legend ("log10 P" when it is in base 10).

    `df` has columns start, end, piece, logp, posterior, best (bool), row.

    >>> df = pd.DataFrame({"start": [0, 0, 1], "end": [1, 2, 2], "piece": ["r", "ru", "u"],
    ...                    "logp": [-3.9, -3.9, -1.6], "posterior": [0.2, 0.8, 0.2],
    ...                    "best": [False, True, False], "row": [0, 1, 2]})
    >>> spec = lattice_chart(df, show_posterior=True, log_label="ln P").to_dict()
    >>> spec["layer"][0]["encoding"]["opacity"]["field"]
    'posterior'
    >>> spec["layer"][0]["encoding"]["color"]["scale"]["domain"]
    ['on the best path', 'other pieces']
    """
    chart = _lattice_layout(int(df["end"].max()) if len(df) else 1, show_posterior, log_label)
    chart = chart.copy(deep=False)  # the layout is shared: only the copy gets the data
    chart.data = df
    chart.title = "The lattice: every piece that fits the word"
    chart.description = words.lattice(df)
    return chart


@functools.lru_cache(maxsize=64)
def _lattice_layout(top: int, show_posterior: bool, log_label: str) -> alt.LayerChart:
    """The lattice chart of a word `top` characters long, without its data: built once,
    as a page draws the same word at every step (building it costs more than drawing)."""
    path = alt.Scale(domain=[BEST_PATH, OTHER_PIECES], range=[HIGHLIGHT, BASE])
    base = alt.Chart().encode(
        x=alt.X(
            "start:Q",
            title="position in the word",
            scale=alt.Scale(domain=[0, top]),
            axis=alt.Axis(tickMinStep=1),
        ),  # fmt: skip
        x2=alt.X2("end:Q"),
        y=alt.Y("row:O", axis=None),
        tooltip=[
            *_tips("piece:N", "start:Q", "end:Q"),
            alt.Tooltip("logp:Q", format=".4f", title=log_label),
            *([alt.Tooltip("posterior:Q", format=".4f")] if show_posterior else []),
            alt.Tooltip("path:N", title="edge"),
        ],  # fmt: skip
    )
    base = base.transform_calculate(path=f"datum.best ? '{BEST_PATH}' : '{OTHER_PIECES}'")
    legend = alt.Legend(
        title=f"each bar: the piece and its {log_label}", orient="bottom", titleLimit=600
    )
    bars = base.mark_bar(height=22, cornerRadius=4).encode(
        color=alt.Color("path:N", scale=path, legend=legend),
        opacity=alt.Opacity(
            "posterior:Q", scale=alt.Scale(domain=[0, 1], range=[0.25, 1]), legend=None
        )  # fmt: skip
        if show_posterior
        else alt.OpacityValue(0.6),
    )
    text = base.mark_text(color="#111", fontSize=FONT_SIZE, fontWeight="bold").encode(
        x=alt.X("mid:Q"), text=alt.Text("label:N")
    )
    text = text.transform_calculate(
        mid="(datum.start + datum.end) / 2",
        label="datum.piece + ' ' + format(datum.logp, '.2f')",
    )
    return _style(alt.layer(bars, text).properties(height=alt.Step(28)))


def removal_chart(df: pd.DataFrame, top: int = 20) -> alt.LayerChart:
    """How much the loss would rise without each piece (smallest first); pruned pieces red.
    Each bar ends in a dot and its value, so a piece whose removal costs nothing (+0.000,
    no bar at all) is still drawn and read, and the axis keeps a width when every value is
    0 (toy:low-lower's first round).

    `df` has columns piece, increase, status ("pruned" or "").

    >>> df = pd.DataFrame({"piece": ["bu", "ru"], "increase": [0.0, 1.86],
    ...                    "status": ["pruned", ""]})
    >>> removal_chart(df).to_dict()["layer"][0]["encoding"]["x"]["field"]
    'increase'
    """
    shown = df.head(top).assign(status=lambda d: d["status"].replace("", "kept"))
    color = alt.Color(
        "status:N",
        scale=alt.Scale(domain=["pruned", "kept"], range=[HIGHLIGHT, BASE]),
        legend=alt.Legend(title=None, orient="bottom"),
    )
    widest = float(shown["increase"].max()) if len(shown) else 0.0
    x = alt.X(
        "increase:Q",
        title="loss increase if removed",
        scale=alt.Scale(domain=[0, widest * 1.15 if widest > 0 else 1.0]),
    )
    base = alt.Chart(shown).encode(
        y=alt.Y("piece:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False)),
        x=x,
        tooltip=[
            alt.Tooltip("piece:N"),
            alt.Tooltip("increase:Q", format=".4f"),
            alt.Tooltip("status:N"),
        ],
    )
    bars = base.mark_bar().encode(color=color)
    dots = base.mark_point(filled=True, size=60).encode(color=color, shape=_status_shape())
    values = base.mark_text(align="left", dx=8, fontSize=FONT_SIZE).encode(
        text=alt.Text("increase:Q", format="+.3f")
    )
    pruned = shown[shown["status"] == "pruned"]
    said = ", ".join(f"{r.piece} +{r.increase:.3f}" for r in pruned.itertuples())
    description = (
        f"Loss increase if removed, for {len(shown)} pieces"
        + (f"; pruned: {said}" if said else "")
        + f"; the largest increase shown: +{widest:.3f}."
    )
    layers = alt.layer(bars, dots, values).properties(height=alt.Step(30))
    title = "How much the loss would rise without each piece"
    return _style(described(layers, title, description))


def _status_shape() -> alt.Shape:
    """Pruned pieces a diamond, kept ones a circle: the status read without its colour."""
    return alt.Shape(
        "status:N",
        scale=alt.Scale(domain=["pruned", "kept"], range=["diamond", "circle"]),
        legend=alt.Legend(title=None, orient="bottom"),  # merged with the colour's legend
    )
