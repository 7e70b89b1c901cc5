"""The SaGe page's result view: BPE(V), SaGe(V) and the two controls, on the paper's charts
(the paper's Tables 1-2 and summary figures are on the paper tab: lessons/sage/paper.py)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.escape import plain
from lessons.ui.store import derived, fingerprint
from subtok_core import measure as metrics
from subtok_core import sage
from subtok_core.charts import compare as viz_compare
from subtok_core.measure import shapes as measured
from subtok_core.sage import verdict as sage_verdict

RANDOM_SEEDS = 5  # the random control runs with this many seeds
WINDOW = 5  # the paper's charts count neighbours within 5 tokens
NAMES = ["BPE", "SaGe", "frequency-pruned", "random-pruned"]
TOP = 200  # Fig. 3 ranks the top 200 tokens


def digest(vocab) -> str:
    return fingerprint(tuple(vocab))


@st.cache_resource(max_entries=24, show_spinner="Tokenizing the sample ...")
def tokenized(key: str, digest: str, name: str, _vocab, _lines) -> metrics.Tokenized:
    return metrics.tokenize_with(sage.SageModel(tuple(_vocab)), list(_lines), name)


def measures(key: str, digest: str, bpe_digest: str, vocab, t, bpe) -> sage_verdict.Measures:
    """The verdict's measures of `vocab` (`digest`) against BPE's (`bpe_digest`) on the
    sample `key`, kept in the server-wide store and on disk (lessons.ui.store.derived): `t()`
    encodes the sample only when they are not kept."""
    compute = lambda: sage_verdict.measure(vocab, t(), bpe, WINDOW)  # noqa: E731
    return derived(("sage measures", key, digest, bpe_digest), compute, sage_verdict.Measures)


def tables(key: str, digest: str, t, vocab) -> dict:
    """The tables of the paper's charts for `vocab` (`digest`) on the sample `key`, kept
    like the measures; `t()` encodes the sample only when they are not kept."""

    def compute() -> dict:
        encoded = t()
        return {
            "lengths": metrics.token_lengths(vocab),
            "fertility": metrics.fertility(encoded).table,
            "neighbours": metrics.distinct_neighbours(encoded, WINDOW).head(TOP),
            "ratio": metrics.neighbour_ratio(encoded, WINDOW).histogram,
            "efficiency": metrics.efficiency(encoded),
        }

    return derived(("sage tables", key, digest), compute, TABLES)


TABLES = {  # what tables() keeps, as a table read back from disk must be
    "lengths": measured.LENGTHS,
    "fertility": measured.FERTILITY,
    "neighbours": measured.NEIGHBOURS,
    "ratio": measured.HISTOGRAM,
    "efficiency": metrics.Efficiency,
}


def token_count(key: str, name: str, vocab, lines) -> int:
    """How many tokens `vocab` (named `name`) needs for the sample `key` (its `lines`),
    kept like the measures: the sample is encoded only when the count is not kept."""
    encode = lambda: len(tokenized(key, digest(vocab), name, vocab, lines))  # noqa: E731
    return derived(("sage token count", key, digest(vocab)), encode, int)


class Encoded:
    """The sample as each vocabulary encodes it, encoded on first use (tokenized): a page
    whose measures and tables are all kept encodes nothing."""

    def __init__(self, key: str, vocabs: dict, lines) -> None:
        self.key, self.vocabs, self.lines = key, vocabs, lines

    def of(self, name: str, vocab=None):
        """What encodes the sample with `vocab` (the vocabulary `name` by default)."""
        vocab = self.vocabs[name] if vocab is None else vocab
        return lambda: tokenized(self.key, digest(vocab), name, vocab, self.lines)


def results(trace, controls: dict, randoms: list, sentences, key: str) -> None:
    vocabs = {
        "BPE": sage.bpe_model(trace).vocab,
        "SaGe": sage.vocab_after(trace),
        "frequency-pruned": sage.vocab_after(controls["frequency"]),
        "random-pruned": sage.vocab_after(controls["random"]),
    }
    lines = tuple(" ".join(words) for words in sentences)
    toks = Encoded(key, vocabs, lines)
    verdicts(vocabs, toks, randoms, lines, key)
    overlaps(trace, vocabs)
    charts(vocabs, toks, key)


def _measure(key, vocab, t, bpe):
    return measures(key, digest(vocab), digest(bpe), vocab, t, bpe)


def verdicts(vocabs: dict, toks: Encoded, randoms: list, lines, key: str) -> None:
    bpe = vocabs["BPE"]
    got = {n: _measure(key, v, toks.of(n), bpe) for n, v in vocabs.items()}
    rand = []
    for trace in randoms:
        vocab = sage.vocab_after(trace)
        rand.append(_measure(key, vocab, toks.of("random-pruned", vocab), bpe))
    st.header("Which of the paper's trends does this sample reproduce?")
    for trend in sage_verdict.TRENDS:
        line = sage_verdict.verdict(trend, got["BPE"], got["SaGe"], got["frequency-pruned"], rand)
        st.markdown(f"- {line}")
    st.caption(
        "Each vocabulary is compared with BPE(V), the first V pieces BPE learned, all applied "
        "by greedy longest prefix. A trend that random pruning shows as often as SaGe comes "
        f"from pruning a bigger BPE vocabulary, not from context. Random pruning: {len(rand)} "
        "seeds; 'difference' is the measure minus BPE's (for word-initial shares: the pruned "
        "vocabulary's own tokens minus BPE's own)."
    )
    rows = pd.DataFrame([{"vocabulary": n, **vars_of(m)} for n, m in got.items()])
    st.dataframe(rows, hide_index=True, column_config=MEASURE_FORMATS)


NEIGHBOURS = (
    f"mean distinct neighbours, ranks {sage_verdict.TOP_RANKS[0] + 1}-{sage_verdict.TOP_RANKS[1]}"
)
PERCENT = st.column_config.NumberColumn(format="percent")
MEASURE_FORMATS = {  # shown rounded (the core keeps every digit)
    "mean token length": st.column_config.NumberColumn(format="%.2f"),
    "tokens to encode": st.column_config.NumberColumn(format="%,d"),
    NEIGHBOURS: st.column_config.NumberColumn(format="%.1f"),
    "mean neighbour / frequency": st.column_config.NumberColumn(format="%.3f"),
    "word-initial share of own tokens": PERCENT,
    "word-initial share of BPE's own": PERCENT,
}


def vars_of(m: sage_verdict.Measures) -> dict:
    return {
        "mean token length": m.mean_length,
        "tokens to encode": m.tokens,
        NEIGHBOURS: m.neighbours,
        "mean neighbour / frequency": m.ratio,
        "word-initial share of own tokens": m.own_initial,
        "word-initial share of BPE's own": m.bpe_initial,
    }


def last_losses(trace) -> dict[str, float]:
    """Each piece's ablation loss when SaGe last scored it."""
    seen: dict[str, float] = {}
    for step in trace.steps:
        seen.update(step.candidates)
    return seen


OVERLAP_NAMES = {
    "part": "vocabulary part",
    "word_initial": "word-initial",
    "word_initial_share": "word-initial share",
    "examples": "examples",
}


def overlaps(trace, vocabs: dict) -> None:
    st.header("Tokens only in one vocabulary")
    both = metrics.overlap(vocabs["SaGe"], vocabs["BPE"], names=("SaGe", "BPE"))
    st.dataframe(
        both.table.rename(columns=OVERLAP_NAMES),
        hide_index=True,
        column_config={"word-initial share": PERCENT},
    )
    st.caption(
        "The paper: 83 % of the tokens only SaGe has are word-initial, against 22 % of "
        "those only BPE has (the tab 'Paper vs this run' sets its figures beside this run's)."
    )
    losses = last_losses(trace)
    for control in ("frequency-pruned", "random-pruned"):
        control_vocab = set(vocabs[control])  # a set once, not one per piece
        kept = [p for p in vocabs["SaGe"] if p not in control_vocab]
        shown = ", ".join(
            f"{plain(p)} ({losses[p]:,.1f})" if p in losses else plain(p) for p in kept[:12]
        )
        st.markdown(
            f"**SaGe kept {len(kept)} tokens that {control.split('-')[0]} pruning "
            f"removed**{': ' + shown if kept else '.'}"
        )
    st.caption(
        "In brackets: the piece's ablation loss when SaGe last scored it (a piece "
        "never among the candidates has none)."
    )


CHARTS = [  # title, table, HOW_TO_READ key, builder
    ("Token length (Fig. 1)", "lengths", "token_length", viz_compare.token_length_chart),
    ("Subwords per word (Fig. 2)", "fertility", "fertility", viz_compare.fertility_chart),
    (
        f"Distinct neighbours, top {TOP} (Fig. 3)",
        "neighbours",
        "neighbours",
        viz_compare.neighbours_chart,
    ),
    ("Neighbour / frequency ratio (Fig. 4)", "ratio", "ratio", viz_compare.ratio_chart),
]


def charts(vocabs: dict, toks: Encoded, key: str) -> None:
    """The paper's charts of the four vocabularies on the sample `key`, each chart's spec
    built once and kept (lessons.ui.cached.figure): a restarted server builds none."""
    digests = {n: digest(v) for n, v in vocabs.items()}
    per = {n: tables(key, digests[n], toks.of(n), v) for n, v in vocabs.items()}
    run = fingerprint(key, *digests.values(), *NAMES)  # the sample, the vocabularies, colours
    st.header("The paper's charts, four vocabularies of the same size")
    spent = lambda: viz_compare.summary_table({n: t["efficiency"] for n, t in per.items()})  # noqa: E731
    cached.figure(
        run, ("sage", "efficiency"), lambda: viz_compare.efficiency_chart(spent(), names=NAMES)
    )
    st.caption(viz_compare.HOW_TO_READ["efficiency"])
    left, right = st.columns(2)
    for number, (title, table_key, read, builder) in enumerate(CHARTS):

        def build(builder=builder, table_key=table_key):
            table = viz_compare.stack({n: t[table_key] for n, t in per.items()})
            return builder(table, names=NAMES)

        with left if number % 2 == 0 else right:
            st.markdown(f"### {title}")
            cached.figure(run, ("sage", table_key), build)
            st.caption(viz_compare.HOW_TO_READ[read])
    diff = derived(
        ("sage diff", key, digests["SaGe"], digests["BPE"]),
        lambda: metrics.frequency_diff(toks.of("SaGe")(), toks.of("BPE")()),
        measured.DIFF,
    )
    st.markdown("### Tokens whose frequency differs most (Table 3)")
    cached.figure(run, ("sage", "diff"), lambda: viz_compare.frequency_diff_chart(diff))
    st.caption(viz_compare.HOW_TO_READ["frequency_diff"])
