"""The Compare page's measures from recent papers (subtok_core/measure/information.py):
Rényi and Shannon efficiency, fertility, characters and bytes per token and single-token
words for every chosen tokenizer on the measured corpus; and, beside the languages'
premium, the fairness across languages as a Gini coefficient per line and per character.
Each table is derived once per model and corpus (lessons.ui.store.derived)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.compare.models import PAGE, label
from lessons.ui.keys import widget_key
from lessons.ui.store import derived
from subtok_core import languages
from subtok_core.measure.information import ALPHA, Measures, measure
from subtok_core.shapes import keys_of
from subtok_core.tokenizer import tokenizer

COLUMNS = {  # subtok metrics --json's keys -> the table's headers
    "vocab_size": "|V|",
    "renyi_efficiency": "Rényi eff.",
    "shannon_efficiency": "Shannon eff.",
    "fertility": "tokens/word",
    "chars_per_token": "chars/token",
    "bytes_per_token": "bytes/token",
    "single_token_words": "one-token words",
}
# formatted by the grid, not a pandas Styler: importing it and compiling its templates cost
# a restarted server's first Compare some 0.2 s (as the premium table, languages.py);
# "percent" shows the step's digits less two: 0.123 as 12.3 %
PAPERS_FORMAT = {
    **dict.fromkeys(COLUMNS.values(), st.column_config.NumberColumn(format="%.3f")),
    "|V|": st.column_config.NumberColumn(format="%,d"),
    "one-token words": st.column_config.NumberColumn(format="percent", step=0.001),
}
GINI = {
    "gini_per_line": "Gini of tokens per line",
    "gini_per_character": "Gini of tokens per character",
}


def papers_view(models: dict, keys: dict, toks) -> None:
    """The measures papers report, one row per tokenizer (`toks[kind]`: the corpus as it
    encodes it; `keys`: the fingerprints of each model and the corpus)."""
    st.markdown("### Measures from recent papers")
    alpha = st.number_input(
        "Rényi order α",
        min_value=0.0,
        max_value=20.0,
        value=ALPHA,
        step=0.5,
        key=widget_key(PAGE, "alpha"),
        help="Zouhar et al. (2023) chose α = 2.5; α = 1 is Shannon's entropy.",
    )
    rows = []
    for kind, model in models.items():
        size = tokenizer(model).vocab_size
        found = derived(
            ("compare papers", kind, keys[kind], float(alpha)),
            lambda kind=kind, size=size: measure(toks[kind], size, float(alpha)).as_json(),
            keys_of(Measures),
        )
        rows.append({"tokenizer": label(kind), **{COLUMNS[k]: found[k] for k in COLUMNS}})
    table = pd.DataFrame(rows, columns=["tokenizer", *COLUMNS.values()])
    st.dataframe(table, hide_index=True, column_config=PAPERS_FORMAT)
    st.caption(
        f"Rényi (α = {alpha:g}) and Shannon efficiency (Zouhar et al. 2023): the entropy of "
        "how often each token is used on this corpus, divided by log |V|, the vocabulary's "
        "size; near 1 the tokenizer uses its vocabulary evenly, low values mean a few tokens "
        "do most of the work and many are rarely used. Tokens per word is the fertility; "
        "characters and bytes per token count the words' characters (no spaces); one-token "
        "words is the share of running words kept whole. `subtok metrics` prints the same "
        "numbers."
    )


def fairness_view(table: pd.DataFrame) -> None:
    """The Gini coefficient over the six languages of each tokenizer's cost, per line and
    per character (`table`: languages.premium's), and which is fairest by each."""
    fair = languages.fairness(table)
    st.markdown("**Fairness across the six languages** (Gini coefficient, 0: all pay the same)")
    st.dataframe(
        fair.rename(columns=GINI),
        hide_index=True,
        column_config=dict.fromkeys(GINI.values(), st.column_config.NumberColumn(format="%.3f")),
    )
    lost = list(dict.fromkeys(languages.mostly_unknown(table)["tokenizer"]))
    st.caption(languages.fairness_sentence(fair, left_out=lost))
