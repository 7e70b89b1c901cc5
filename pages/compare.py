"""The Compare lesson: one text through every tokenizer, and the charts of the papers."""

from __future__ import annotations

import hashlib
import html

import pandas as pd
import streamlit as st

from pages import _widgets as w
from subtok_core import compare, corpus, limits
from subtok_core import measure as metrics
from subtok_core.charts import compare as viz_compare
from subtok_core.compare import LABELS

DEFAULT_TEXT = "Tokenizers disagree most about rare words such as unbelievably or tokenization."
SAME = "the training corpus"
WINDOW = 5  # neighbours within 5 tokens on each side, as the SaGe paper
SAGE_KEY = "sage_latest"  # set by the SaGe page: the last SaGe vocabulary it trained
PAGE = "compare"

SPAN_CSS = """
<style>
.toks {line-height: 2.6; font-size: 1.15rem;}
.tok {display: inline-block; padding: 0 .3em; margin: 0 .06em; border-radius: .3em;
      font-family: monospace; border: 2px solid transparent;}
.tok.odd {border: 2px dashed #222;}
.tok sub {font-size: .7em; color: #444; margin-left: .15em;}
.gap {display: inline-block; width: .9em;}
</style>
"""


def known_kinds() -> tuple[str, ...]:
    """BPE, WordPiece, Unigram; and SaGe once the SaGe page has trained a vocabulary."""
    return compare.KINDS + (("sage",) if SAGE_KEY in st.session_state else ())


def kinds_from_url() -> list[str]:
    """?tok=bpe,unigram -> the tokenizers chosen (all three when the URL has none, and, with
    a warning, when it names one this session cannot use or too few or too many)."""
    text = w.url_text("tok", w.widget_key(PAGE, "tok"))
    if text is None:
        return list(compare.KINDS)
    try:
        return list(compare.parse_kinds(text, known_kinds()))
    except ValueError as err:
        used = ",".join(compare.KINDS)
        w.url_warning("tok", text, "empty" if not text.strip() else str(err), used)
        st.query_params["tok"] = used
        return list(compare.KINDS)


def store_kinds() -> None:
    st.query_params["tok"] = ",".join(st.session_state[w.widget_key(PAGE, "tok")])


def controls():
    c1, c2, c3 = st.columns([3, 1, 3])
    name = w.corpus_select(c1, default="sample:lee")
    top = limits.limit("vocab_size", "web")
    size = int(
        w.number_box(c2, "vocab size", "size", 1, top, 2000, help=w.limit_help("vocab_size"))
    )
    if w.widget_key(PAGE, "tok") not in st.session_state:
        st.session_state[w.widget_key(PAGE, "tok")] = kinds_from_url()
    chosen = c3.multiselect(
        "tokenizers (2 to 4)",
        list(known_kinds()),
        format_func=LABELS.get,
        key=w.widget_key(PAGE, "tok"),
        on_change=store_kinds,
    )
    return name, size, chosen


def trained(kind: str, wc, corpus_print: str, size: int) -> tuple[object, str]:
    """A tokenizer's model and its fingerprint. SaGe's is the vocabulary the SaGe page last
    trained in this session, known by itself; the others are trained here, once per corpus
    and size, and known by those (`corpus_print` is the corpus's fingerprint)."""
    if kind == "sage":
        model = st.session_state[SAGE_KEY]["model"]
        return model, w.fingerprint(model)
    model_print = w.fingerprint("compare", kind, corpus_print, size)
    model = w.trace_store().trained(
        model_print,
        lambda report: compare.train(kind, wc, size, report),
        f"Training {LABELS[kind]}:",
    )
    return model, model_print


def color_of(token: str) -> str:
    """A light color fixed by the token's string, the same on every run and page."""
    digest = hashlib.md5(token.encode()).digest()
    return f"hsl({digest[0] * 360 // 256}, 70%, {80 + digest[1] % 10}%)"


def spans_html(text: str, encoded, odd: set, show_ids: bool) -> str:
    """Tokens as colored chips; a gap where the text has a space; tokens whose cut not
    every tokenizer shares are outlined."""
    parts, last = [], 0
    for span, token_id in zip(encoded.spans, encoded.ids, strict=True):
        if span.start > last and text[last : span.start].isspace():
            parts.append('<span class="gap"></span>')
        last = max(last, span.end)
        cls = "tok odd" if (span.start, span.end) in odd else "tok"
        sub = f"<sub>{token_id}</sub>" if show_ids else ""
        parts.append(
            f'<span class="{cls}" style="background:{color_of(span.text)}">'
            f"{html.escape(span.text)}{sub}</span>"
        )
    return f'<div class="toks">{"".join(parts)}</div>'


def side_by_side(models: dict) -> None:
    st.subheader("One text, every tokenizer")
    text = st.text_area("Type any text", DEFAULT_TEXT, key=w.widget_key(PAGE, "encode"))
    show_ids = st.checkbox("show token ids", key=w.widget_key(PAGE, "ids"))
    try:
        encoded = {kind: compare.encode(model, text) for kind, model in models.items()}
    except ValueError as err:
        st.error(str(err))
        return
    odd = compare.unshared(encoded)
    for kind, enc in encoded.items():
        st.markdown(
            f"**{LABELS[kind]}**: {len(enc.spans)} tokens"
            + SPAN_CSS
            + spans_html(text, enc, odd[kind], show_ids),
            unsafe_allow_html=True,
        )
    st.caption(
        "Each token string has its own color on every line; a dashed outline marks a token "
        "whose cut not every tokenizer makes; a gap is a space of the text. ▁ starts a word "
        "(BPE and Unigram), ## continues one (WordPiece)."
    )


def measure_lines(name: str, measure: str, wc) -> tuple[str, ...]:
    """The running text the charts are measured on (lines keep word order)."""
    source = name if measure == SAME else measure
    if corpus.is_toy(source) or source.startswith("sample:"):
        return tuple(corpus.load_lines(source))
    return tuple(" ".join([word] * count) for word, count in wc.items())


@st.cache_resource(max_entries=12, show_spinner="Encoding the corpus ...")
def tokenized(kind: str, fingerprint: str, _model, _lines) -> metrics.Tokenized:
    """The corpus `_lines` encoded by `_model`; `fingerprint` is theirs (see charts)."""
    return metrics.tokenize_with(_model, list(_lines), LABELS[kind])


@st.cache_data(max_entries=24, show_spinner=False)
def tables(kind: str, fingerprint: str, _t, _vocab) -> dict:
    """Every metric of one tokenizer on one corpus, computed once per model and corpus:
    `_t` and `_vocab` are tokenized(kind, fingerprint, model, ...) and model.vocab."""
    return {
        "lengths": metrics.token_lengths(_vocab),
        "fertility": metrics.fertility(_t),
        "efficiency": metrics.efficiency(_t),
        "neighbours": metrics.distinct_neighbours(_t, WINDOW),
        "ratio": metrics.neighbour_ratio(_t, WINDOW),
        "profile": metrics.frequency_profile(_t, _vocab),
    }


def chart(title: str, key: str, built, table: pd.DataFrame, read: str | None = None) -> None:
    """A chart, the sentence that says how to read it, and its table as CSV."""
    st.markdown(f"#### {title}")
    st.altair_chart(built, width="stretch")
    st.caption(viz_compare.HOW_TO_READ[read or key])
    st.download_button(
        f"{title} (CSV)",
        table.to_csv(index=False),
        f"{key}.csv",
        "text/csv",
        key=w.widget_key(PAGE, f"csv_{key}"),
        on_click="ignore",
    )


def charts(models: dict, prints: dict, lines: tuple[str, ...]) -> None:
    """The measures of each model (`prints`: their fingerprints) on `lines`, cached by the
    fingerprint of both: SaGe's numbers follow the vocabulary this session trained."""
    lines_print = w.fingerprint(lines)  # hashed once per run
    keys = {k: w.fingerprint(prints[k], lines_print) for k in models}
    toks = {k: tokenized(k, keys[k], m, lines) for k, m in models.items()}
    per = {LABELS[k]: tables(k, keys[k], toks[k], tuple(m.vocab)) for k, m in models.items()}
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
            for name, t in per.items()
        ]
    )
    st.subheader("Encoding efficiency")
    st.dataframe(summary, hide_index=True)
    st.caption(
        "Bostrom & Durrett (Table 2) report tokens per word and per word type; fewer "
        "tokens for the same text means each token carries more."
    )
    wordpiece_note(per)
    names = [LABELS[k] for k in (*compare.KINDS, "sage")]  # fixed colors, whatever is shown
    spent = viz_compare.summary_table({n: t["efficiency"] for n, t in per.items()})
    chart(
        "Characters per token",
        "efficiency",
        viz_compare.efficiency_chart(spent, names=names),
        spent,
    )
    left, right = st.columns(2)
    for number, (title, key, read, builder) in enumerate(CHARTS):
        table = viz_compare.stack({n: _table(t[key]) for n, t in per.items()})
        with left if number % 2 == 0 else right:
            chart(title, key, builder(table, names=names), table, read)
    pair_panels(models, toks)


def wordpiece_note(per: dict) -> None:
    """Say why WordPiece may need far more tokens than the others (computed, not assumed)."""
    if "WordPiece" not in per or len(per) < 2:
        return
    mine = per["WordPiece"]["fertility"].tokens_per_word
    others = {n: t["fertility"].tokens_per_word for n, t in per.items() if n != "WordPiece"}
    best = min(others, key=others.get)
    if mine > 1.5 * others[best]:
        st.info(
            f"WordPiece needs {mine:.2f} tokens per word here, {best} {others[best]:.2f}. Its "
            "score count(ab) / (count(a) × count(b)) favours pairs of rare symbols, so its "
            "early merges build rare strings and frequent words stay in pieces until the "
            "vocabulary is much larger."
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


def pair_panels(models: dict, toks: dict) -> None:
    """The first tokenizer against each other one: vocabulary overlap, frequency shifts."""
    kinds = list(models)
    first = kinds[0]
    for other in kinds[1:]:
        a, b = LABELS[first], LABELS[other]
        st.subheader(f"{a} against {b}")
        both = metrics.overlap(tuple(models[first].vocab), tuple(models[other].vocab), names=(a, b))
        st.dataframe(both.table, hide_index=True)
        st.caption(
            "The share of word-initial tokens in each part: the SaGe paper finds 83 % "
            "among SaGe-only tokens against 22 % among BPE-only ones."
        )
        diff = metrics.frequency_diff(toks[first], toks[other])
        title = f"Tokens whose frequency differs most ({a} vs {b})"
        chart(
            title, f"diff_{other}", viz_compare.frequency_diff_chart(diff), diff, "frequency_diff"
        )


w.ensure_navigation()
st.title("Compare tokenizers")
st.write(
    "The same corpus, the same vocabulary size, different algorithms: see how each cuts a "
    "text, and measure the differences the SaGe paper (000) and Bostrom & Durrett (002) "
    "chart: token lengths, tokens per word, distinct neighbours, frequencies."
)
name, size, chosen = controls()
try:
    kinds = compare.parse_kinds(",".join(chosen), known_kinds())
except ValueError as err:
    st.error(str(err))
    st.stop()
with st.expander("The training corpus", expanded=False):
    wc = w.corpus_editor(name, PAGE)
if wc is None:
    st.stop()
if "sage" in kinds:
    latest = st.session_state[SAGE_KEY]
    st.info(
        f"SaGe is the vocabulary last trained on the SaGe page ({latest['sample']}, "
        f"V = {latest['size']:,}), applied by greedy longest prefix; the others are trained "
        "here on the corpus and size above."
    )
else:
    st.caption("Train a vocabulary on the SaGe page and it can join this comparison.")
corpus_print = w.fingerprint(wc)  # hashed once per run
try:
    found = {kind: trained(kind, wc, corpus_print, size) for kind in kinds}
except ValueError as err:
    st.error(str(err))
    st.stop()
models = {kind: model for kind, (model, _) in found.items()}
prints = {kind: model_print for kind, (_, model_print) in found.items()}
side_by_side(models)
st.divider()
st.subheader("Measured on a corpus")
measure = w.choice_box(
    st,
    "measure on",
    [SAME, "sample:enwiki", "sample:lee", "sample:crime"],
    "measure",
    SAME,
    help="Out of domain (SaGe §4.1): train on one sample, measure on another.",
)
try:
    charts(models, prints, measure_lines(name, measure, wc))
except ValueError as err:
    st.error(str(err))
