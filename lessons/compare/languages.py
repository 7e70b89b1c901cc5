"""The Compare page's languages view: the same sentences in six languages through every
chosen tokenizer, and the tokenization premium each pays over English."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.compare import information
from lessons.ui import cached
from lessons.ui.store import derived, fingerprint
from subtok_core import compare, languages
from subtok_core.charts import languages as viz_languages
from subtok_core.measure.shapes import frame


def premium_table(kinds: tuple[str, ...], prints: tuple[str, ...], models: dict, labels: dict):
    """languages.premium for the chosen tokenizers, kept by their fingerprints and labels
    in the server-wide store and on disk (lessons.ui.store.derived). Read only."""

    def compute():
        encoders = {labels[k]: (lambda text, m=models[k]: compare.encode(m, text)) for k in kinds}
        return languages.premium(encoders)

    names = tuple(labels[k] for k in kinds)
    return derived(("compare languages", *kinds, *prints, *names), compute, PREMIUM)


# languages.premium's table
PREMIUM = frame(tokenizer=str, language=str, tokens=int, unknown=int, characters=int, premium=float)


def languages_view(models: dict, prints: dict, labels: dict, names: list[str]) -> None:
    """The same three sentences in six languages: tokens per language relative to English."""
    st.header("The same sentences in other languages")
    st.write(
        "Three everyday sentences, written for this page in English, Russian, German, "
        "Chinese, Arabic and Hindi with the same meaning. Petrov et al. (2023, *Language "
        "Model Tokenizers Introduce Unfairness Between Languages*) call the tokens a text "
        "needs in a language divided by the tokens of the same text in English its "
        "**tokenization premium**: a premium of 3 costs three times the context, time and "
        "price for the same content."
    )
    with st.expander("The sentences"):
        st.dataframe(
            pd.DataFrame(
                [
                    {"language": lang.name, **dict(enumerate(lang.sentences, 1))}
                    for lang in languages.LANGUAGES.values()
                ]  # fmt: skip
            ).rename(columns=lambda c: f"sentence {c}" if isinstance(c, int) else c),
            hide_index=True,
        )
        st.caption("Meaning: " + " ".join(languages.MEANING))
    kinds = tuple(models)
    table = premium_table(kinds, tuple(prints[k] for k in kinds), models, labels)
    run = fingerprint(*(prints[k] for k in kinds), *names)  # the models, the colors
    cached.figure(run, ("premium",), lambda: viz_languages.premium_chart(table, names=names))
    st.caption(viz_languages.HOW_TO_READ)
    wide = table.pivot(index="language", columns="tokenizer", values="premium")
    wide = wide.loc[list(languages.NAMES.values()), [labels[k] for k in kinds]]
    # formatted by the grid, not a pandas Styler: importing it and compiling its templates
    # cost a restarted server's first Compare some 0.3 s
    two = st.column_config.NumberColumn(format="%.2f")
    st.dataframe(wide, column_config=dict.fromkeys(wide.columns, two))
    premium_unknown_note(table)
    information.fairness_view(table)


def premium_unknown_note(table: pd.DataFrame) -> None:
    """Name every tokenizer and language the chart marks [UNK] (mostly unknown tokens),
    or else the one with the most unknown tokens, and why a premium there means little."""
    unknown = table[table["unknown"] > 0]
    if unknown.empty:
        return
    marked = languages.mostly_unknown(table)
    why = (
        "a tokenizer trained here has only the characters of its training corpus, so a "
        "script it never saw costs a token per character (or per word) and keeps nothing "
        "of the text. The real tokenizers fall back to bytes instead and never lose a "
        "character."
    )
    if marked.empty:
        worst = unknown.loc[unknown["unknown"].idxmax()]
        st.info(
            f"{worst['tokenizer']} writes {worst['unknown']} of its {worst['tokens']} tokens "
            f"for {worst['language']} as an unknown token: {why}"
        )
        return
    said = "; ".join(
        f"{name} on "
        + ", ".join(f"{r.language} ({r.unknown} of {r.tokens} tokens)" for r in rows.itertuples())
        for name, rows in marked.groupby("tokenizer", sort=False)
    )
    st.info(
        f"Marked [UNK] on the chart, where most tokens are unknown tokens: {said}. Their "
        f"premium counts lost text, not what the language costs: {why}"
    )
