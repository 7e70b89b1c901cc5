"""The Compare lesson: one text through every tokenizer, trained here or pretrained (GPT-4's,
Mistral's, an uploaded tokenizer.json), the same sentences in six languages, and the
charts of the papers on a corpus.

The page in order; its parts by job: lessons/compare/models.py (which tokenizers, and
their models), views.py (typed text), languages.py (six languages), measures.py (the
measures on a corpus, their charts, one tokenizer against another), paper.py
(Bostrom & Durrett's views); SaGe's vocabulary comes from lessons/sage/latest.py."""

from __future__ import annotations

import streamlit as st

from lessons.compare import languages, paper, views
from lessons.compare.measures import SAME, charts, measure_lines
from lessons.compare.models import (
    PAGE,
    kinds_from_url,
    known_kinds,
    label,
    store_kinds,
    trained,
    upload_tokenizer,
)
from lessons.sage.latest import latest as sage_latest
from lessons.ui import inspector as inspect
from lessons.ui.address import choice_box, limit_help, number_box
from lessons.ui.corpus import (
    UPLOAD,
    corpus_editor,
    corpus_select,
    is_sample,
    sample_print,
)
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint
from subtok_core import compare, corpus, limits
from subtok_core.tokenizer import tokenizer


def controls():
    c1, c2, c3 = st.columns([3, 1, 3])
    name = corpus_select(c1, default="sample:lee").name
    top = limits.limit("vocab_size", "web")
    size = int(number_box(c2, "vocab size", "size", 1, top, 2000, help=limit_help("vocab_size")))
    if widget_key(PAGE, "tok") not in st.session_state:
        st.session_state[widget_key(PAGE, "tok")] = kinds_from_url()
    chosen = c3.multiselect(
        f"tokenizers ({compare.MIN_KINDS} to {compare.MAX_KINDS})",
        list(known_kinds()),
        format_func=label,
        key=widget_key(PAGE, "tok"),
        on_change=store_kinds,
        max_selections=compare.MAX_KINDS,  # "Select all" then takes the first six
        wrap=True,  # every chosen one in sight (a single row scrolled to show two of six)
        help="Trained here on the corpus below, or pretrained: GPT-4's cl100k_base, "
        "Mistral's SentencePiece v1/v3 and Tekken, read from files installed packages ship.",
    )
    left_out_note(c3, chosen)
    return name, size, chosen


def left_out_note(col, chosen: list[str]) -> None:
    """Under a full box, the tokenizers not compared and why: "Select all" stops at
    MAX_KINDS, taking them in the list's order, and says nothing itself."""
    rest = [label(k) for k in known_kinds() if k not in chosen]
    if len(chosen) < compare.MAX_KINDS or not rest:
        return
    named = ", ".join(rest[:-1]) + f" and {rest[-1]}" if len(rest) > 1 else rest[0]
    col.caption(
        f"Compared {compare.MAX_KINDS} at a time, so {named} {'are' if len(rest) > 1 else 'is'}"
        f" left out (each one more is trained and drawn on every chart); remove one above to "
        f"choose {'another' if len(rest) > 1 else 'it'}."
    )


def marker_note(name: str, size: int, kinds, split_punct: bool) -> None:
    """How this page trains a tokenizer unlike the command line's default, and the command
    that trains the same, for each chosen one whose registry entry says so
    (``compare_note``: BPE's marker; `subtok train bpe` marks no word boundary unless
    asked, so the same corpus and size would cut differently there)."""
    for kind in kinds:
        algo = compare.entry(kind)
        if algo is None or algo.compare_note is None:
            continue
        said, after = algo.compare_note
        if is_sample(name) or corpus.is_toy(name):
            command = compare.cli_command(kind, name, size, split_punct)
            said += f"; the same {algo.label} on the command line: `{command}`"
        st.caption(said + after)


def pretrained_note(models: dict) -> None:
    """Where each pretrained tokenizer comes from, and how the measures read it."""
    real = {k: m for k, m in models.items() if not tokenizer(m).trained}
    if not real:
        return
    st.caption(
        "  \n".join(f"**{m.label}**: {m.provenance}" for m in real.values())
        + "  \nPretrained tokenizers were trained on other text and ignore the corpus and "
        "size above; their token-length and frequency charts count the tokens they used "
        "on the measured corpus, not all of their vocabulary."
    )


def untimed_note(others: list[str]) -> None:
    """Name the chosen tokenizers that take no training time on an upload: each comes
    trained (pretrained, an uploaded tokenizer.json, the SaGe page's vocabulary)."""
    if not others:
        return
    names = [label(k) for k in others]
    named = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    st.caption(
        f"{named} {'come' if len(names) > 1 else 'comes'} trained (pretrained, or on the "
        "SaGe page): no training on this upload, so no time is estimated for "
        f"{'them' if len(names) > 1 else 'it'}."
    )


st.title("Compare tokenizers")
st.write(
    "The same corpus, the same vocabulary size, different algorithms, and beside them the "
    "tokenizers of real models (GPT-4's, Mistral's): see how each cuts a text, what the "
    "same sentences cost in other languages, and measure the differences the SaGe paper "
    "(000) and Bostrom & Durrett (002) chart: token lengths, tokens per word, distinct "
    "neighbours, frequencies."
)
top = st.container()  # the controls, drawn after the upload so that it is in the list at once
with st.expander("Add your own tokenizer.json"):
    upload_tokenizer()
with top:
    name, size, chosen = controls()
try:
    kinds = compare.parse_kinds(",".join(chosen), known_kinds())
except ValueError as err:
    st.error(plain(str(err)))
    st.stop()
trains = [k for k in kinds if k in compare.KINDS]  # trained on the corpus: timed on an upload
with st.expander("The training corpus", expanded=name == UPLOAD):
    edited = corpus_editor(name, PAGE, ",".join(trains) or None, size)
    if edited is not None and name == UPLOAD:
        untimed_note([k for k in kinds if k not in trains])
if edited is None:
    st.stop()
wc, split_punct = edited.words, edited.split_punct
if any(kind in compare.FROM_PAGE for kind in kinds):  # SaGe, from its page
    latest = sage_latest()
    st.info(
        f"SaGe is the vocabulary last trained on the SaGe page ({latest['sample']}, "
        f"V = {latest['size']:,}), applied by greedy longest prefix; the others are trained "
        "here on the corpus and size above."
    )
else:
    st.caption("Train a vocabulary on the SaGe page and it can join this comparison.")
marker_note(name, size, kinds, split_punct)
# hashed once per run, a real sample's once per server
corpus_print = sample_print(name, split_punct) if is_sample(name) else fingerprint(wc)
try:
    found = trained(kinds, wc, corpus_print, size)
except ValueError as err:
    st.error(plain(str(err)))
    st.stop()
models = {kind: model for kind, (model, _) in found.items()}
prints = {kind: model_print for kind, (_, model_print) in found.items()}
labels = {kind: label(kind) for kind in models}
# every tokenizer this session can show, in a fixed order: each keeps its color on every chart
names = list(dict.fromkeys(label(k) for k in (*compare.KINDS, "sage", *known_kinds())))
pretrained_note(models)
views.side_by_side(models, labels, inspect.card_corpus(name, size, corpus_print))
views.export_panel(models, prints, labels)
st.divider()
languages.languages_view(models, prints, labels, names)
st.divider()
st.header("Measured on a corpus")
measure = choice_box(
    st,
    "measure on",
    [SAME, "sample:enwiki", "sample:lee", "sample:crime"],
    "measure",
    SAME,
    help="Out of domain (SaGe §4.1): train on one sample, measure on another.",
)
per = None
try:
    per = charts(models, prints, measure_lines(name, measure, wc), names)
except ValueError as err:
    st.error(plain(str(err)))
st.divider()
paper.bostrom_view(models, prints, labels, names, per, name, size)
