"""The Compare lesson: one text through every tokenizer, trained here or pretrained (GPT-4's,
Mistral's, an uploaded tokenizer.json), the same sentences in six languages, and the
charts of the papers on a corpus."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable

import pandas as pd
import streamlit as st

from lessons import _cached as cached
from lessons import _compare_paper as paper
from lessons import _compare_views as views
from lessons import _inspect as inspect
from lessons._corpus import (
    UPLOAD,
    corpus_editor,
    corpus_select,
    is_sample,
    punct_on,
    read_upload,
    sample_print,
)
from lessons._keys import widget_key
from lessons._store import derived, fingerprint, trace_store
from lessons._url import choice_box, limit_help, number_box, url_text, url_warning
from subtok_core import compare, corpus, limits, parallel, registry
from subtok_core import measure as metrics
from subtok_core.charts import compare as viz_compare
from subtok_core.pretrained import Pretrained, hf
from subtok_core.tokenizer import tokenizer

SAME = "the training corpus"
WINDOW = 5  # neighbours within 5 tokens on each side, as the SaGe paper
SAGE_KEY = "sage_latest"  # set by the SaGe page: the last SaGe vocabulary it trained
PAGE = "compare"
UPLOADED = widget_key(PAGE, "hf")  # this session's tokenizer.json: kind, name, print, lease
UPLOAD_REFUSED = widget_key(PAGE, "hf_refused")  # (file_id, sentence) of a refused file


def known_kinds() -> tuple[str, ...]:
    """BPE, WordPiece, Unigram (and SaGe once the SaGe page has trained a vocabulary), the
    pretrained tokenizers, and the tokenizer.json this session uploaded."""
    sage = ("sage",) if SAGE_KEY in st.session_state else ()
    mine = (st.session_state[UPLOADED]["kind"],) if UPLOADED in st.session_state else ()
    return compare.KINDS + sage + compare.PRETRAINED + mine


def label(kind: str) -> str:
    if kind.startswith("hf:"):  # an upload, as hf.from_str labels it (known without it)
        return f"{kind.removeprefix('hf:')} (tokenizers)"
    return compare.LABELS[kind]


def kinds_from_url() -> list[str]:
    """?tok=bpe,unigram -> the tokenizers chosen (all three trained ones when the URL has
    none). Every name this session can use is kept; the others are left out with a
    warning, and the trained ones fill in when fewer than two are left."""
    text = url_text("tok", widget_key(PAGE, "tok"))
    if text is None:
        return list(compare.KINDS)
    kinds, why = compare.read_kinds(text, known_kinds())
    used = ",".join(kinds)
    if why or not text.strip():
        url_warning("tok", text, why or "empty", used)
        st.query_params["tok"] = used
    return list(kinds)


def store_kinds() -> None:
    st.query_params["tok"] = ",".join(st.session_state[widget_key(PAGE, "tok")])


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
        help="Trained here on the corpus below, or pretrained: GPT-4's cl100k_base, "
        "Mistral's SentencePiece v1/v3 and Tekken, read from files installed packages ship.",
    )
    return name, size, chosen


def upload_tokenizer() -> None:
    """A Hugging Face tokenizer.json of the teacher's, added to the choices of this session.

    Parsed once per server and kept in the server-wide store under the file's SHA-256,
    counted against its budget (hf.MEMORY_PER_BYTE times the file's size, as measured on a
    20 MB file); the session holds a lease on it, so it stays while a tab uses it and can
    be dropped once every such tab is gone. Runs before the tokenizer list is drawn, so
    the upload is in the list at once.
    """
    upload = st.file_uploader(
        "Add a Hugging Face tokenizer.json", type=["json"], key=widget_key(PAGE, "hf_file")
    )
    if upload is None:
        return
    mine = st.session_state.get(UPLOADED, {})
    if mine.get("file_id") == upload.file_id:
        return  # read already (on every rerun the uploader gives the same file back)
    refused = st.session_state.get(UPLOAD_REFUSED, ("", ""))
    if refused[0] == upload.file_id:
        st.error(refused[1])  # said again, not parsed again
        return
    data = upload.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    text = read_upload(upload)
    if text is None:
        return
    try:
        lease = trace_store().lease(
            ("tokenizer.json", digest),
            lambda report: hf.from_str(text, upload.name),
            size=hf.MEMORY_PER_BYTE * len(data),
        )
    except ValueError as err:
        st.session_state[UPLOAD_REFUSED] = upload.file_id, str(err)
        st.error(str(err))
        return
    if "lease" in mine:
        mine["lease"].release()
    tok = as_named(lease.value, upload.name)
    st.session_state[UPLOADED] = {
        "kind": tok.name, "name": upload.name, "print": digest, "lease": lease,
        "file_id": upload.file_id,
    }  # fmt: skip
    st.success(f"{tok.label} can now be chosen above: {tok.provenance}")


def as_named(tok: Pretrained, name: str) -> Pretrained:
    """The tokenizer kept for a file's content, under this session's name for the file
    (another session may have uploaded the same content under another name first)."""
    kept = tok.name.removeprefix("hf:")
    return dataclasses.replace(
        tok,
        name=f"hf:{name}",
        label=tok.label.replace(kept, name, 1),
        provenance=tok.provenance.rsplit("; from ", 1)[0] + f"; from {name}",
    )


def uploaded() -> Pretrained:
    """This session's uploaded tokenizer (kept for it in the server-wide store)."""
    mine = st.session_state[UPLOADED]
    return as_named(mine["lease"].value, mine["name"])


def trained(kinds, wc, corpus_print: str, size: int) -> dict[str, tuple[object, str]]:
    """Each tokenizer's model and its fingerprint, in the order of `kinds`. SaGe's is the
    vocabulary the SaGe page last trained in this session, known by itself; a pretrained
    one is read once per server and known by its name (an uploaded one by its file's
    digest); the others are trained here, once per corpus and size, and known by those
    (`corpus_print`: the corpus's fingerprint): all at once, each in a worker process of
    its own (subtok_core.parallel) with its own progress bar.
    """
    found, wanted = {}, {}
    for kind in kinds:
        if kind == "sage":
            model = st.session_state[SAGE_KEY]["model"]
            found[kind] = model, fingerprint(model)
        elif kind in compare.PRETRAINED:
            found[kind] = registry.pretrained(kind), kind
        elif UPLOADED in st.session_state and kind == st.session_state[UPLOADED]["kind"]:
            found[kind] = uploaded(), "hf:" + st.session_state[UPLOADED]["print"][:16]
        else:  # trained below, all at once
            key = fingerprint("compare", kind, corpus_print, size)
            found[kind] = None, key
            wanted[key] = training(kind, wc, size), f"Training {label(kind)}:"
    models = trace_store().trained_all(wanted)
    return {kind: (models.get(key, model), key) for kind, (model, key) in found.items()}


def training(kind: str, wc, size: int):
    """How the store trains one tokenizer: compare.train in a worker process."""
    return lambda report: parallel.run(compare.train, kind, wc, size, report=report)


def measure_lines(name: str, measure: str, wc) -> tuple[tuple[str, ...], str]:
    """The running text the charts are measured on (lines keep word order), and its
    fingerprint: a shipped sample's or a toy's is its name, hashed once."""
    source = name if measure == SAME else measure
    if corpus.is_toy(source) or source.startswith("sample:"):
        return shipped_lines(source)
    lines = tuple(" ".join([word] * count) for word, count in wc.items())
    return lines, fingerprint(lines)


@st.cache_resource(max_entries=16, show_spinner=False)
def shipped_lines(source: str) -> tuple[tuple[str, ...], str]:
    """The lines of a toy or a real sample and their fingerprint, read and hashed once per
    server (hashing a real sample's lines on every run cost some 10 ms) and shared as they
    are (a tuple: nobody can change it; a cache_data copy cost as much as the hash)."""
    lines = tuple(corpus.load_lines(source))
    return lines, fingerprint(lines)


class Encodings:
    """The corpus as each model encodes it (tokenized), got on first use: a page whose
    tables are all kept (lessons._store.derived) neither reads nor encodes the corpus (on a
    real sample, reading the encodings back from disk was about 1 s of a restart)."""

    def __init__(self, models: dict, keys: dict, lines) -> None:
        self.models, self.keys, self.lines = models, keys, lines
        self._found: dict[str, metrics.Tokenized] | None = None

    def __getitem__(self, kind: str) -> metrics.Tokenized:
        if self._found is None:
            self._found = tokenized(self.models, self.keys, self.lines)
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

    return derived(("compare measures", kind, key), compute)


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
    st.markdown(f"#### {title}")
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
    lines, lines_print = measured  # measure_lines: the lines and their fingerprint
    keys = {k: fingerprint(prints[k], lines_print) for k in models}
    toks = Encodings(models, keys, lines)
    per = {label(k): tables(k, keys[k], m, toks) for k, m in models.items()}
    run = fingerprint(*sorted(keys.items()), *names)  # the models, the lines, the colors
    shown = chart_tables(run, per)
    st.subheader("Encoding efficiency")
    st.dataframe(shown["summary"], hide_index=True)
    st.caption(
        "Bostrom & Durrett (Table 2) report tokens per word and per word type; fewer "
        "tokens for the same text means each token carries more."
    )
    wordpiece_note(per)
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
    return derived(("compare charts", key), lambda: _chart_tables(per))


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


def wordpiece_note(per: dict) -> None:
    """Say why WordPiece may need far more tokens than the others (computed, not assumed)."""
    if "WordPiece" not in per or len(per) < 2:
        return
    mine = per["WordPiece"]["fertility"].tokens_per_word
    others = {n: t["fertility"].tokens_per_word for n, t in per.items() if n != "WordPiece"}
    best = min(others, key=others.get)
    if mine > 1.5 * others[best]:
        st.info(
            f"WordPiece needs {mine:.2f} tokens per word here, {best} {others[best]:.2f}. "
            + views.WORDPIECE_WHY
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

    return derived(("compare pair", key, *names), compute)


def pair_panel(models: dict, toks: Encodings, keys: dict, names: list[str]) -> None:
    """The first tokenizer against another one: vocabulary overlap, frequency shifts,
    each tokenizer in its colour of every other chart (`names`)."""
    first, *others = models
    a = label(first)
    other = st.selectbox(f"{a} against", others, format_func=label, key=widget_key(PAGE, "against"))
    b = label(other)
    st.subheader(f"{a} against {b}")
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


def marker_note(name: str, size: int, kinds) -> None:
    """Which marker this page's BPE uses, and the command that trains the same BPE: the
    command line's BPE marks no word boundary unless asked, so the same corpus and size
    would cut differently there."""
    if "bpe" not in kinds:
        return
    said = "BPE here marks the start of each word with ▁ (as SentencePiece and Unigram do)"
    if is_sample(name) or corpus.is_toy(name):
        command = compare.cli_command("bpe", name, size, punct_on(name, PAGE))
        said += f"; the same BPE on the command line: `{command}`"
    st.caption(said + ". `subtok train bpe` marks no word boundary unless asked (`--marker`).")


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
    st.error(str(err))
    st.stop()
trains = [k for k in kinds if k in compare.KINDS]  # trained on the corpus: timed on an upload
with st.expander("The training corpus", expanded=name == UPLOAD):
    wc = corpus_editor(name, PAGE, ",".join(trains) or None, size)
    if wc is not None and name == UPLOAD:
        untimed_note([k for k in kinds if k not in trains])
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
marker_note(name, size, kinds)
# hashed once per run, a real sample's once per server
corpus_print = sample_print(name, punct_on(name, PAGE)) if is_sample(name) else fingerprint(wc)
try:
    found = trained(kinds, wc, corpus_print, size)
except ValueError as err:
    st.error(str(err))
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
views.languages_view(models, prints, labels, names)
st.divider()
st.subheader("Measured on a corpus")
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
    st.error(str(err))
st.divider()
paper.bostrom_view(models, prints, labels, names, per, name, size)
