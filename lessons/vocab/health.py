"""The /vocab page's health view: every token of each vocabulary in one category (the
counts side by side, examples, every token of a category), each a link to its card."""

from __future__ import annotations

from typing import Protocol

import pandas as pd
import streamlit as st

from lessons.ui.escape import as_text, inline_code, plain
from lessons.ui.inspector import visible
from lessons.ui.keys import widget_key
from lessons.vocab import data
from subtok_core.vocab.health import CATEGORIES, SENTENCES

PAGE = "vocab"
BROWSE_ROWS = 2000  # tokens listed at most when browsing one category


class Tokenizers(Protocol):
    """The page's tokenizers (page.py's Mine): those trained here, this session's upload,
    and the link to a token's card."""

    def get(self) -> dict: ...

    def uploaded(self) -> dict[str, data.Sorted]: ...

    def link(self, tok: str, token_id: int) -> str: ...


def code(piece: str) -> str:
    """A token as inline code in markdown, whitespace drawn, any backticks inside kept."""
    return inline_code(visible(piece))


def counts_frame(reports: dict[str, data.Sorted]) -> pd.DataFrame:
    rows = []
    for name, report in reports.items():
        counts = report.counts()
        unused = "—" if counts["unused"] is None else f"{counts['unused']:,}"
        rows.append({"tokenizer": data.label(name), "tokens": report.size,
                     **{c: counts[c] for c in CATEGORIES}, "unused": unused})  # fmt: skip
    return pd.DataFrame(rows)


def health_sentence(reports: dict[str, data.Sorted]) -> str:
    """The share of tokens that are not plain reachable text, per tokenizer, in words."""
    said = []
    for name, report in reports.items():
        counts = report.counts()
        other = report.size - counts["ok"]
        said.append(f"{as_text(data.label(name))} {other:,} of {report.size:,} "
                    f"({other / max(report.size, 1):.1%})")  # fmt: skip
    return "Tokens that are special, partial or unreachable: " + "; ".join(said) + "."


def examples(reports: dict[str, data.Sorted], mine: Tokenizers) -> None:
    """A few tokens of each category and tokenizer, each a link to its card."""
    for category in (*CATEGORIES, "unused"):
        lines = []
        for name, report in reports.items():
            first = report.examples(category)
            if not first:
                continue
            links = " ".join(
                f"[{code(piece[:24])}]({mine.link(name, token_id)})" for token_id, piece in first
            )
            lines.append(f"- {as_text(data.label(name))}: {links}")
        if lines:
            st.markdown(f"**{category}**: {SENTENCES[category]}\n" + "\n".join(lines))


def browse(reports: dict[str, data.Sorted], mine: Tokenizers) -> None:
    """Every token of one category of one tokenizer, each with a link to its card (the
    tokenizer's table of tokens is built for the one chosen, not before)."""
    c1, c2 = st.columns(2)
    name = c1.selectbox("tokenizer", list(reports), format_func=data.label,
                        key=widget_key(PAGE, "browse_tok"))  # fmt: skip
    report = reports[name]
    counts = report.counts()
    found = [c for c in (*CATEGORIES, "unused") if counts[c]]
    category = c2.selectbox("category", found, key=widget_key(PAGE, "browse_cat"))
    listed = report.listed(category, BROWSE_ROWS)
    rows = [{"id": token_id, "token": visible(piece),
             "bytes (hex)": (raw or b"").hex(" ").upper(),
             "card": mine.link(name, token_id)} for token_id, piece, raw in listed]  # fmt: skip
    st.dataframe(
        pd.DataFrame(rows), hide_index=True,
        column_config={"card": st.column_config.LinkColumn("card", display_text="open")},
    )  # fmt: skip
    st.caption(f"{as_text(data.label(name))}: {counts[category]:,} {category} tokens, the first "
               f"{len(listed):,} by id.")  # fmt: skip


def health_section(mine: Tokenizers) -> None:
    st.header("Vocabulary health")
    st.write(
        "Every token falls in exactly one category, found by asking the tokenizer itself "
        "(as Land & Bartolo, 2024, *Fishing for Magikarp*, sort a vocabulary):"
    )
    st.markdown("\n".join(f"- **{c}**: {SENTENCES[c]}" for c in CATEGORIES))
    st.caption("A token holding a byte that never occurs in UTF-8 (C0, C1, F5-FF, such as "
               "Mistral's `<0xF7>`) is no part of any character: its card says so, but it is "
               "counted as partial, not in a column of its own, since no text spells it "
               "either.")  # fmt: skip
    st.markdown(
        f"For the tokenizers trained here one more count, **unused**: {SENTENCES['unused']} "
        "It counts tokens of the categories above again."
    )
    reports = {name: data.pretrained_health(name) for name in data.SIDE_BY_SIDE}
    try:
        for kind, (model, model_print, wc) in mine.get().items():
            reports[kind] = data.trained_health(model, model_print, wc)
    except ValueError as err:
        st.error(plain(str(err)))
    reports.update(mine.uploaded())  # a tokenizer.json added above, if any
    numbers = {
        c: st.column_config.NumberColumn(format="localized") for c in ("tokens", *CATEGORIES)
    }
    st.dataframe(counts_frame(reports), hide_index=True, column_config=numbers)
    st.caption(health_sentence(reports) + " The pretrained ones have no unused count (—): "
               "their training corpora are not published.")  # fmt: skip
    with st.expander("Examples of each category", expanded=True):
        examples(reports, mine)
    st.markdown("### Browse a category")
    browse(reports, mine)
