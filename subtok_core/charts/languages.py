"""The tokenization premium (Petrov et al. 2023) of each language, per tokenizer.

>>> import pandas as pd
>>> df = pd.DataFrame({"tokenizer": ["BPE", "BPE"], "language": ["English", "Hindi"],
...                    "tokens": [10, 31], "unknown": [0, 30], "characters": [40, 38],
...                    "premium": [1.0, 3.1]})
>>> spec = premium_chart(df).to_dict()
>>> [layer["mark"]["type"] for layer in spec["layer"]]
['bar', 'rule']
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from . import words
from .compare import BAR_HEIGHT, _color, tip
from .lessons import _style
from .words import described

HOW_TO_READ = (
    "Each group of bars is one language, one bar per tokenizer: how many times as many "
    "tokens as the English text the same text needs (the line at 1 is English). Bars above "
    "the line mean the language pays more for the same meaning."
)


def premium_chart(df: pd.DataFrame, names: Sequence[str] | None = None) -> alt.LayerChart:
    """Grouped bars of languages.premium: x the language (in the table's order), one bar
    per tokenizer, y tokens relative to English; a rule at 1."""
    color, scale = _color(df, names)
    order = list(dict.fromkeys(df["language"]))
    bars = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            x=alt.X("language:N", sort=order, title=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("tokenizer:N", scale=alt.Scale(domain=scale.domain)),
            y=alt.Y("premium:Q", title="tokens relative to English"),
            color=color,
            tooltip=[tip("tokenizer:N"), tip("language:N"), tip("tokens:Q"),
                     tip("unknown:Q"), tip("characters:Q"), tip("premium:Q", format=".2f")],
        )
    )  # fmt: skip
    one = alt.Chart(pd.DataFrame({"one": [1.0]})).mark_rule(color="#444", strokeDash=[4, 3])
    chart = alt.layer(bars, one.encode(y="one:Q")).properties(height=BAR_HEIGHT)
    title = "Tokens relative to English, per language"
    return _style(described(chart, title, words.premium(df)))
