"""The Compare page's views of Bostrom & Durrett (002): their example cuts beside the chosen
tokenizers', their Table 2 beside this run's tokens per word, and a morphology-alignment
measure that tests their claim that unigram LM cuts follow morphology better than BPE's."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.keys import widget_key
from lessons.ui.store import derived, fingerprint
from subtok_core import compare
from subtok_core.charts import morphology as viz_morphology
from subtok_core.charts import words as viz_words
from subtok_core.charts.morphology import MEASURES
from subtok_core.measure import morphology
from subtok_core.measure import shapes as measured
from subtok_core.measure.tokenized import bare, segmenter_of
from subtok_core.notes import bostrom
from subtok_core.shapes import many, such_that

PAPER = ("BPE", "unigram LM")  # 002's two methods as it names them (Algorithm.paper_002)

PAGE = "compare"
SEED = f"`{bostrom.BOSTROM}`"


def example_cuts(kind: str, model_print: str, model) -> tuple[tuple[str, ...], ...]:
    """Each 002 example as `model` (fingerprint `model_print`) cuts it: its tokens, kept in
    the server-wide store and on disk (lessons.ui.store.derived). Read only."""

    def compute() -> tuple[tuple[str, ...], ...]:
        encoded = (compare.encode(model, ex.original) for ex in bostrom.EXAMPLES)
        return tuple(tuple(s.text for s in e.spans) for e in encoded)

    return derived(("compare example cuts", kind, model_print), compute, CUTS)


# a cut of each of 002's examples: its tokens
CUTS = such_that(
    many(many(str)),
    lambda cuts: len(cuts) == len(bostrom.EXAMPLES),
    f"holds another number of cuts than the {len(bostrom.EXAMPLES)} examples",
)


def scored(kind: str, model_print: str, model) -> morphology.Alignment:
    """morphology.model_alignment of `model`, once per model (fingerprint `model_print`),
    kept in the server-wide store and on disk (lessons.ui.store.derived). Read only."""

    def compute() -> morphology.Alignment:
        with st.spinner("Scoring the cuts against the gold list ..."):
            return morphology.model_alignment(model)

    return derived(("compare morphology", kind, model_print), compute, measured.ALIGNMENT)


def _chars(tokens, style: str) -> tuple[str, ...]:
    """Tokens as the characters they cover: markers, spaces and lone markers removed."""
    pieces = (bare(t, style).strip() for t in tokens)
    return tuple(p for p in pieces if p)


def examples_view(models: dict, prints: dict, labels: dict) -> None:
    """(a) Figure 1 and Appendix A: the paper's two cuts and each chosen tokenizer's."""
    st.markdown("### Their examples (Figure 1, Appendix A)")
    cuts = {k: example_cuts(k, prints[k], m) for k, m in models.items()}
    styles = {k: segmenter_of(m)[1] for k, m in models.items()}
    rows, same = [], {k: [0, 0] for k in models}
    for n, ex in enumerate(bostrom.EXAMPLES):
        row = {"text": ex.original, "002 BPE": " ".join(ex.bpe)}
        paper = (bostrom.bare_pieces(ex.bpe), bostrom.bare_pieces(ex.unigram))
        for kind in _paper_order(models):  # each of ours beside the paper's of its kind
            method = _stands_for(kind)
            if method == PAPER[1] or (method != PAPER[0] and "002 unigram LM" not in row):
                row["002 unigram LM"] = " ".join(ex.unigram)
            row[labels[kind]] = " ".join(cuts[kind][n])
            mine = _chars(cuts[kind][n], styles[kind])
            same[kind][0] += mine == paper[0]
            same[kind][1] += mine == paper[1]
        row["where"] = f"{ex.where}, line {ex.lines[0]}"  # last: the cuts come first
        rows.append(row)
    text = st.column_config.TextColumn(width="medium", pinned=True)  # stays while scrolling
    st.dataframe(pd.DataFrame(rows), hide_index=True, column_config={"text": text})
    total = len(bostrom.EXAMPLES)
    st.caption(
        f"002 ({SEED}) marks a word start with _, this page with ▁ (WordPiece marks a "
        "continuation with ##). The same cuts as 002's (markers aside): "
        + "; ".join(
            f"{labels[k]} {b} of {total} as their BPE, {u} as their unigram LM"
            for k, (b, u) in same.items()
        )
        + "."
    )
    for word, method, first, other in bostrom.two_cuts():
        st.caption(
            f"002 prints *{word}* cut two ways by its {method}: {' '.join(first)} and "
            f"{' '.join(other)}. A tokenizer cuts each word on its own, the same way every "
            "time, so one of the two is a slip of the figure or of its conversion to text."
        )


def _paper_order(models: dict) -> list[str]:
    """BPE first (beside 002's BPE), then Unigram (beside 002's unigram LM), then the rest.

    >>> _paper_order({"cl100k_base": 0, "unigram": 0, "wordpiece": 0, "bpe": 0})
    ['bpe', 'unigram', 'cl100k_base', 'wordpiece']
    """
    first = [k for method in PAPER for k in models if _stands_for(k) == method]
    return first + [k for k in models if k not in first]


def _stands_for(kind: str) -> str | None:
    """The 002 method the tokenizer `kind` stands beside, from its registry entry ("BPE",
    "unigram LM"); None for the others."""
    algo = compare.entry(kind)
    return algo.paper_002 if algo else None


def _of_paper(kinds) -> dict[str, str]:
    """002's method -> the one of `kinds` that stands for it (each method at most once)."""
    return {method: k for k in kinds if (method := _stands_for(k))}


def table2_view(per: dict | None, labels: dict) -> None:
    """(b) Table 2 beside this run's tokens per word type and per word (the page's
    fertility measure, passed in as `per`: label -> the page's tables)."""
    st.markdown("### Their Table 2: tokens per word")
    if not per:
        st.info("The measures above could not be computed, so there is nothing to set beside.")
        return
    t2 = {p.label: p for p in bostrom.TABLE2}
    rows = []
    for label, field in (("tokens per word type", "tokens_per_type"),
                         ("tokens per word", "tokens_per_word")):  # fmt: skip
        row = {"measure": label, "002 BPE": t2[label].printed, "002 unigram LM": "not in the text"}
        row.update({name: f"{getattr(t['fertility'], field):.3f}" for name, t in per.items()})
        rows.append(row)
    rows.append(
        {"measure": "tokens per word, from §4's counts",
         "002 BPE": f"{bostrom.SECTION4_BPE_PER_WORD:.3f}",
         "002 unigram LM": f"{bostrom.SECTION4_UNIGRAM_PER_WORD:.3f}",
         **{name: "" for name in per}}
    )  # fmt: skip
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.caption(
        f"002 measured Table 2 {bostrom.TABLE2_CAPTION.label} ({bostrom.WORDS.printed}, line "
        f"{bostrom.WORDS.line}) with vocabularies of {bostrom.VOCAB.printed} (line "
        f"{bostrom.VOCAB.line}; Appendix B, line {bostrom.VOCAB_APPENDIX.line}); this run "
        "uses the corpus and size above, measured on the corpus chosen under *measure on*. "
        f"The text of Table 2 (lines {bostrom.TABLE2[0].line}-{bostrom.TABLE2[1].line}) "
        "keeps one number per row, in the BPE column: the unigram LM values are lost. "
        f"Section 4 counts {bostrom.BPE_TOKENS.printed} and {bostrom.UNIGRAM_TOKENS.printed} "
        f"for {bostrom.WORDS.printed}: the last row divides them (they do not give Table 2's "
        f"{t2['tokens per word'].printed}, and 002 does not say how it counted words there)."
    )
    fewer = _fewer(per, labels)
    if fewer:
        st.write(fewer)


def _fewer(per: dict, labels: dict) -> str:
    """Whether Unigram needs fewer tokens per word than BPE here, as in 002's §4 counts."""
    of = _of_paper(labels)
    names = [labels.get(of[method]) if method in of else None for method in PAPER]
    if not all(n in per for n in names):
        return ""
    b, u = (per[n]["fertility"].tokens_per_word for n in names)
    paper = "fewer" if bostrom.UNIGRAM_TOKENS.value < bostrom.BPE_TOKENS.value else "more"
    digits = 3
    while round(u, digits) == round(b, digits) and digits < 6:  # show where they part
        digits += 1
    sign = (round(u, digits) > round(b, digits)) - (round(u, digits) < round(b, digits))
    here = {-1: "fewer", 0: "as many", 1: "more"}[sign]
    return (
        f"002's unigram LM needs {paper} tokens for the same text than its BPE "
        f"({bostrom.UNIGRAM_TOKENS.printed} against {bostrom.BPE_TOKENS.printed}); here "
        f"Unigram needs {here} tokens per word: {u:.{digits}f} against BPE's {b:.{digits}f}."
    )


def morphology_view(models: dict, prints: dict, labels: dict, names: list, where: str) -> None:
    """(c) Precision, recall and F1 of each tokenizer's cuts on the gold list, a chart, and
    the sentence on 002's claim."""
    st.markdown("### Do the cuts follow morphology?")
    gold = morphology.load_gold()
    st.write(
        "002 (section 3) finds that unigram LM pieces *align with morphology* better than "
        f"BPE's. Test it: {len(gold)} English words with their morpheme boundaries "
        "(`subtok_core/data/morphology.tsv`, written for this lab: its header says how), each "
        "cut by every tokenizer above. A cut on a boundary is right. **Precision**: right cuts / "
        "all cuts; **recall**: right cuts / all boundaries; **F1**: their harmonic mean, "
        "each micro-averaged (the cuts and boundaries of all words pooled)."
    )
    results = {labels[k]: scored(k, prints[k], m) for k, m in models.items()}
    # everything below but the download is drawn once per set of models and sent again
    run = fingerprint(*(prints[k] for k in models), *labels.values(), *names, where)

    def summary() -> None:
        table = morphology.summary(results)
        if viz_morphology.drawable(table):
            chart = lambda: viz_morphology.alignment_chart(table, names=names)  # noqa: E731
            cached.figure(run, ("morphology",), chart)  # its spec kept on disk too
            st.caption(viz_morphology.HOW_TO_READ)
        else:  # no bar to draw (and no empty chart for a screen reader to stumble on)
            st.write(f"No chart: {viz_words.alignment(table)}")
        three = st.column_config.NumberColumn(format="%.3f")  # no Styler (languages.py)
        st.dataframe(table, column_config=dict.fromkeys(MEASURES, three), hide_index=True)
        if table[list(MEASURES)].isna().to_numpy().any():
            st.caption("An empty cell is undefined: that tokenizer made no cut to score.")
        of = _of_paper(models)
        pick = [results[labels[of[method]]] if method in of else None for method in PAPER]
        st.info(morphology.verdict(*pick, where))

    cached.drawn(run, ("morphology",), summary)
    with st.expander("Every gold word and its cuts"):
        words = lambda: gold_cuts(gold, results)  # noqa: E731
        cached.drawn(
            run,
            ("morphology words",),
            lambda: st.dataframe(words().fillna("(unknown letters)"), hide_index=True),
        )
        st.download_button(
            "Gold words and cuts (CSV)",
            lambda: words().to_csv(index=False),  # written when clicked
            "morphology.csv",
            "text/csv",
            key=widget_key(PAGE, "morphology_csv"),
            on_click="ignore",
        )


def gold_cuts(gold, results: dict) -> pd.DataFrame:
    """Each gold word, its morphemes, and how each tokenizer cut it (None: it could not)."""
    wide = pd.DataFrame({"word": [g.word for g in gold],
                         "gold": ["|".join(g.morphs) for g in gold]})  # fmt: skip
    for name, a in results.items():
        wide = wide.merge(a.rows[["word", "cut"]].rename(columns={"cut": name}), "left")
    return wide


def bostrom_view(models, prints, labels, names, per, corpus_name: str, size: int) -> None:
    """The three views, under one heading."""
    st.header("Bostrom & Durrett (002): BPE against unigram LM")
    examples_view(models, prints, labels)
    table2_view(per, labels)
    shown = {"text:your own": "your own text", "upload:a .txt file": "the uploaded text"}
    where = f"{shown.get(corpus_name, corpus_name)} with {size:,} pieces"
    morphology_view(models, prints, labels, names, where)
