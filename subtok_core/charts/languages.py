"""The tokenization premium (Petrov et al. 2023) of each language, per tokenizer.

>>> import pandas as pd
>>> df = pd.DataFrame({"tokenizer": ["BPE", "BPE"], "language": ["English", "Hindi"],
...                    "tokens": [10, 31], "unknown": [0, 30], "characters": [40, 38],
...                    "premium": [1.0, 3.1]})
>>> spec = premium_chart(df).to_dict()
>>> [layer["mark"]["type"] for layer in spec["layer"]]
['bar', 'rule', 'text']
>>> [row["language"] for row in spec["datasets"][spec["layer"][2]["data"]["name"]]]
['Hindi']
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..languages import mostly_unknown
from ._altair import alt
from .compare import BAR_HEIGHT, _color, narrow, tip
from .lessons import _style
from .words import described

HOW_TO_READ = (
    "Each group of bars is one language, one bar per tokenizer: how many times as many "
    "tokens as the English text the same text needs (the line at 1 is English). Bars above "
    "the line mean the language pays more for the same meaning. A bar marked [UNK] is "
    "mostly unknown tokens: it counts text the tokenizer lost, not what the language costs."
)
UNKNOWN_MARK = "[UNK]"


# six names side by side on a projector; slanted on a phone, where they would overlap and
# Vega would drop every other one
def language_axis() -> alt.Axis:
    return alt.Axis(
        labelAngle=narrow(-40, 0), labelAlign=narrow("'right'", "'center'"), labelOverlap=False
    )


def premium_chart(df: pd.DataFrame, names: Sequence[str] | None = None) -> alt.LayerChart:
    """Grouped bars of languages.premium: x the language (in the table's order), one bar
    per tokenizer, y tokens relative to English; a rule at 1; above every bar whose tokens
    are mostly unknown (languages.mostly_unknown), the word [UNK], written upwards."""
    color, scale = _color(df, names)
    order = list(dict.fromkeys(df["language"]))
    bars = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            x=alt.X("language:N", sort=order, title=None, axis=language_axis()),
            xOffset=alt.XOffset("tokenizer:N", scale=alt.Scale(domain=scale.domain)),
            y=alt.Y("premium:Q", title="tokens relative to English"),
            color=color,
            tooltip=[tip("tokenizer:N"), tip("language:N"), tip("tokens:Q"),
                     tip("unknown:Q"), tip("characters:Q"), tip("premium:Q", format=".2f")],
        )
    )  # fmt: skip
    one = alt.Chart(pd.DataFrame({"one": [1.0]})).mark_rule(color="#444", strokeDash=[4, 3])
    lost = alt.Chart(mostly_unknown(df)).mark_text(
        angle=270, align="left", baseline="middle", dx=4, fontSize=narrow(9, 12)
    )  # a phone's bars are some 8 px wide: a smaller word, or they run into each other
    lost = lost.encode(
        x=alt.X("language:N", sort=order),
        xOffset=alt.XOffset("tokenizer:N", scale=alt.Scale(domain=scale.domain)),
        y="premium:Q",
        text=alt.value(UNKNOWN_MARK),
        color=alt.value("#222"),
    )
    layers = alt.layer(bars, one.encode(y="one:Q"), lost).properties(height=BAR_HEIGHT)
    title = "Tokens relative to English, per language"
    return _style(described(layers, title, describe(df)))


def describe(df: pd.DataFrame) -> str:
    """The chart in a sentence, for a screen reader: the dearest language of each
    tokenizer, and how many bars are marked [UNK].

    >>> df = pd.DataFrame({"tokenizer": ["BPE", "BPE"], "language": ["English", "Hindi"],
    ...                    "tokens": [10, 31], "unknown": [0, 30], "premium": [1.0, 3.1]})
    >>> describe(df)
    'Tokens relative to English. Dearest: BPE Hindi 3.10. 1 bar mostly [UNK].'
    """
    dearest = df.loc[df.groupby("tokenizer", sort=False)["premium"].idxmax()]
    said = "; ".join(f"{r.tokenizer} {r.language} {r.premium:.2f}" for r in dearest.itertuples())
    marked = len(mostly_unknown(df))
    return (
        f"Tokens relative to English. Dearest: {said}. "
        f"{marked} bar{'' if marked == 1 else 's'} mostly [UNK]."
    )
