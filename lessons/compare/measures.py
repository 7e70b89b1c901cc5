"""The Compare page's measures on a corpus: the corpus as each tokenizer encodes it, the
measures of the SaGe paper (000) and of Bostrom & Durrett (002) with their charts, and the
first tokenizer against another. Every table is derived once from the runs and kept in the
server-wide store and on disk (lessons.ui.store.derived): a restarted server reads them."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from lessons.compare import information
from lessons.compare.models import PAGE, label
from lessons.ui import cached
from lessons.ui.keys import widget_key
from lessons.ui.shipped import shipped_lines, shipped_print
from lessons.ui.store import derived, fingerprint, trace_store
from subtok_core import compare, corpus, parallel
from subtok_core import measure as metrics
from subtok_core.charts import compare as viz_compare
from subtok_core.measure import shapes as measured
from subtok_core.measure.shapes import frame
from subtok_core.tokenizer import tokenizer

SAME = "the training corpus"
WINDOW = 5  # neighbours within 5 tokens on each side, as the SaGe paper


def measure_lines(name: str, measure: str, wc) -> tuple[Callable[[], tuple[str, ...]], str]:
    """The running text the charts are measured on (lines keep word order), as a function
    that reads it (only a table not kept needs it), and its fingerprint: a shipped
    sample's or a toy's hashed once (a sample's kept on disk)."""
    source = name if measure == SAME else measure
    if corpus.is_toy(source) or source.startswith("sample:"):
        return (lambda: shipped_lines(source)[0]), shipped_print(source)
    lines = tuple(" ".join([word] * count) for word, count in wc.items())
    return (lambda: lines), fingerprint(lines)


class Encodings:
    """The corpus as each model encodes it (tokenized), got on first use: a page whose
    tables are all kept (lessons.ui.store.derived) neither reads nor encodes the corpus (on a
    real sample, reading the encodings back from disk was about 1 s of a restart)."""

    def __init__(self, models: dict, keys: dict, lines: Callable[[], tuple[str, ...]]) -> None:
        self.models, self.keys, self.lines = models, keys, lines
        self._found: dict[str, metrics.Tokenized] | None = None

    def __getitem__(self, kind: str) -> metrics.Tokenized:
        if self._found is None:
            self._found = tokenized(self.models, self.keys, self.lines())
        return self._found[kind]


def tokenized(models: dict, keys: dict, lines) -> dict[str, metrics.Tokenized]:
    """The corpus `lines` encoded by each model (`keys`: the fingerprint of each model and
    the lines, see charts), all at once. Kept in the server-wide store like a trained run
    (single flight, the byte budget, a copy on disk for the next server): on a real sample
    it takes as long as training. A model trained here is sent to a worker process, so
    the encodings use every core; a pretrained tokenizer encodes here (its library is
    quick, and it does not travel by pickle)."""

    def job(kind: str, model):
        if not tokenizer(model).trained:
            return lambda report: metrics.tokenize_with(model, list(lines), kind)
        return lambda report: parallel.run(compare.encode_corpus, model, lines, kind, report=report)

    wanted = {
        ("tokenized", k, keys[k]): (job(k, m), f"Encoding the corpus with {label(k)}:")
        for k, m in models.items()
    }
    found = trace_store().trained_all(wanted)
    return {k: found["tokenized", k, keys[k]] for k in models}


def tables(kind: str, key: str, model, toks: Encodings) -> dict:
    """Every metric of one tokenizer on one corpus, computed once per model and corpus
    (`key`: of both) and kept in the server-wide store and on disk: from the corpus
    as `model` encodes it (toks[kind], read only when the metrics are not kept) and the
    vocabulary the measures read (compare.vocabulary: a pretrained tokenizer's pieces used
    on the corpus). Shared by every session as it is, so nothing may change it."""

    def compute() -> dict:
        t = toks[kind]
        pieces = compare.vocabulary(model, t)
        return {
            "lengths": metrics.token_lengths(pieces),
            "fertility": metrics.fertility(t),
            "efficiency": metrics.efficiency(t),
            "neighbours": metrics.distinct_neighbours(t, WINDOW),
            "ratio": metrics.neighbour_ratio(t, WINDOW),
            "profile": metrics.frequency_profile(t, pieces),
        }

    return derived(("compare measures", kind, key), compute, MEASURES)


MEASURES = {  # what tables() keeps, as a table read back from disk must be
    "lengths": measured.LENGTHS,
    "fertility": measured.FERTILITY_RECORD,
    "efficiency": metrics.Efficiency,
    "neighbours": measured.NEIGHBOURS,
    "ratio": measured.RATIO_RECORD,
    "profile": measured.PROFILE_RECORD,
}


def chart(
    title: str,
    key: str,
    build,
    table: pd.DataFrame,
    read: str | None = None,
    run: str | None = None,
) -> None:
    """A chart (`build()` makes it: built once per `run`, the fingerprint of everything it
    shows), the sentence that says how to read it, and its table as CSV (written only
    when the button is clicked). With thirty students on one server, building every chart
    and CSV again on each run cost half a second of the server's time (bench/load_ws.py)."""
    st.markdown(f"### {title}")
    cached.figure(run, ("compare", key, title), build)
    st.caption(viz_compare.HOW_TO_READ[read or key])
    st.download_button(
        f"{title} (CSV)",
        lambda: table.to_csv(index=False),
        f"{key}.csv",
        "text/csv",
        key=widget_key(PAGE, f"csv_{key}"),
        on_click="ignore",
    )


def charts(models: dict, prints: dict, measured: tuple, names: list[str]) -> dict:
    """The measures of each model (`prints`: their fingerprints) on `lines`, cached by the
    fingerprint of both: SaGe's numbers follow the vocabulary this session trained."""
    lines, lines_print = measured  # measure_lines: the lines (read when used), their print
    keys = {k: fingerprint(prints[k], lines_print) for k in models}
    toks = Encodings(models, keys, lines)
    per = {label(k): tables(k, keys[k], m, toks) for k, m in models.items()}
    run = fingerprint(*sorted(keys.items()), *names)  # the models, the lines, the colors
    shown = chart_tables(run, per)
    st.header("Encoding efficiency")
    st.dataframe(shown["summary"], hide_index=True)
    st.caption(
        "Bostrom & Durrett (Table 2) report tokens per word and per word type; fewer "
        "tokens for the same text means each token carries more."
    )
    many_tokens_note(per)
    information.papers_view(models, keys, toks)
    spent = shown["efficiency"]
    chart(
        "Characters per token",
        "efficiency",
        lambda: viz_compare.efficiency_chart(spent, names=names),
        spent,
        run=run,
    )
    left, right = st.columns(2)
    for number, (title, key, read, builder) in enumerate(CHARTS):
        table = shown[key]
        with left if number % 2 == 0 else right:
            build = lambda builder=builder, table=table: builder(table, names=names)  # noqa: E731
            chart(title, key, build, table, read, run)
    pair_panel(models, toks, keys, names)
    return per  # label -> its measures, for the 002 view below


def chart_tables(key: str, per: dict) -> dict[str, pd.DataFrame]:
    """The tables the section draws from the measures `per` (label -> tables(...);
    `key`: theirs, and the names' order): the summary, and one per chart. Built
    once and kept like the measures (the store, the disk), shared by every session, read
    only."""
    return derived(("compare charts", key), lambda: _chart_tables(per), _chart_shapes(per))


def _chart_shapes(per: dict) -> dict:
    """What chart_tables keeps: the summary (its last column names the rare count's bound
    of each tokenizer), the efficiency and each chart's table, stacked."""
    rare = {f"entries used < {t['profile'].rare_below} times": int for t in per.values()}
    summary = {"tokenizer": str, "tokens": int, "characters per token": float,
               "tokens per word": float, "tokens per word type": float}  # fmt: skip
    of_chart = {"lengths": measured.LENGTHS, "fertility": measured.FERTILITY,
                "neighbours": measured.NEIGHBOURS, "ratio": measured.HISTOGRAM,
                "profile": measured.PROFILE}  # fmt: skip
    return {
        "summary": frame({**summary, **rare}),
        "efficiency": frame(
            tokenizer=str,
            tokens=int,
            words=int,
            characters=int,
            chars_per_token=float,
            tokens_per_word=float,
        ),  # fmt: skip
        **{key: measured.stacked(of_chart[key]) for _title, key, _read, _builder in CHARTS},
    }


def _chart_tables(_per: dict) -> dict[str, pd.DataFrame]:
    """chart_tables, computed."""
    summary = pd.DataFrame(
        [
            {
                "tokenizer": name,
                "tokens": t["efficiency"].tokens,
                "characters per token": t["efficiency"].chars_per_token,
                "tokens per word": t["fertility"].tokens_per_word,
                "tokens per word type": t["fertility"].tokens_per_type,
                f"entries used < {t['profile'].rare_below} times": t["profile"].rare,
            }
            for name, t in _per.items()
        ]
    )
    return {
        "summary": summary,
        "efficiency": viz_compare.summary_table({n: t["efficiency"] for n, t in _per.items()}),
        **{
            key: viz_compare.stack({n: _table(t[key]) for n, t in _per.items()})
            for _title, key, _read, _builder in CHARTS
        },
    }


def many_tokens_note(per: dict) -> None:
    """Say why a tokenizer may need far more tokens per word than the others, when it does
    and its registry entry says why (``compare_long_why``: WordPiece); computed, not
    assumed."""
    for algo in filter(None, map(compare.entry, compare.KINDS)):
        if algo.compare_long_why is None or algo.label not in per or len(per) < 2:
            continue
        mine = per[algo.label]["fertility"].tokens_per_word
        others = {n: t["fertility"].tokens_per_word for n, t in per.items() if n != algo.label}
        best = min(others, key=others.get)
        if mine > 1.5 * others[best]:
            st.info(
                f"{algo.label} needs {mine:.2f} tokens per word here, {best} "
                f"{others[best]:.2f}. " + algo.compare_long_why
            )


CHARTS = [  # title, metric, HOW_TO_READ key, builder
    ("Token length", "lengths", "token_length", viz_compare.token_length_chart),
    ("Subwords per word", "fertility", "fertility", viz_compare.fertility_chart),
    ("Distinct neighbours by rank", "neighbours", "neighbours", viz_compare.neighbours_chart),
    ("Neighbour / frequency ratio", "ratio", "ratio", viz_compare.ratio_chart),
    ("Frequency by rank", "profile", "frequency_profile", viz_compare.frequency_profile_chart),
]


def _table(value) -> pd.DataFrame:
    """The chartable table of a metric result (a DataFrame, or a record holding one)."""
    if isinstance(value, pd.DataFrame):
        return value
    if hasattr(value, "histogram"):
        return value.histogram
    return value.table


def compared(key: str, models: tuple, toks: Callable, names: tuple[str, str]):
    """The overlap of two vocabularies (`models`, as encoded in `toks()`) and the
    frequency differences of their tokens, kept per `key` of both (their models
    and measured lines) and their `names` in the store and on disk: every session of a
    class asks for the same. Read only (a copy is the caller's to change)."""

    def compute():
        encoded = toks()
        vocab_a, vocab_b = (compare.vocabulary(m, t) for m, t in zip(models, encoded, strict=True))
        both = metrics.overlap(vocab_a, vocab_b, names=names)
        return metrics.readable(both.table), metrics.frequency_diff(*encoded)

    shape = (measured.readable(measured.OVERLAP), measured.DIFF)
    return derived(("compare pair", key, *names), compute, shape)


def pair_panel(models: dict, toks: Encodings, keys: dict, names: list[str]) -> None:
    """The first tokenizer against another one: vocabulary overlap, frequency shifts,
    each tokenizer in its colour of every other chart (`names`)."""
    first, *others = models
    a = label(first)
    other = st.selectbox(f"{a} against", others, format_func=label, key=widget_key(PAGE, "against"))
    b = label(other)
    st.header(f"{a} against {b}")
    pair = (first, other)
    run = fingerprint(keys[first], keys[other], *names)  # the models, the colours
    encoded = lambda: tuple(toks[k] for k in pair)  # noqa: E731  (read only if not kept)
    both, diff = compared(run, tuple(models[k] for k in pair), encoded, (a, b))
    share = metrics.COLUMN_NAMES["word_initial_share"]
    st.dataframe(
        both,
        hide_index=True,
        column_config={share: st.column_config.NumberColumn(format="percent")},
    )
    used = [label(k) for k in (first, other) if not tokenizer(models[k]).trained]
    st.caption(
        "The share of word-initial tokens in each part: the SaGe paper finds 83 % "
        "among SaGe-only tokens against 22 % among BPE-only ones."
        + (
            f" Of {' and '.join(used)} only the tokens used on this corpus are counted."
            if used
            else ""
        )
    )
    diff = diff.assign(more_in=diff["more_in"].map({first: a, other: b}))  # kind -> label
    title = f"Tokens whose frequency differs most ({a} vs {b})"
    build = lambda: viz_compare.frequency_diff_chart(diff, names=names)  # noqa: E731
    chart(title, "diff", build, diff, "frequency_diff", run)
