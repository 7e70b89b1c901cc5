"""The SaGe lesson: prune a BPE vocabulary by a skipgram context loss (SaGe paper, 000)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace

import streamlit as st

from pages import _cached as cached
from pages import _sage_results as outcome
from pages import _sage_views as views
from pages import _widgets as w
from subtok_core import corpus, limits, sage

SAMPLES = ["sample:lee", "sample:enwiki", "sample:crime", "upload"]
VOCAB_MAX = int(limits.limit("sage_vocab_size", "web"))
SEED_MAX = 2**31 - 1  # numpy and gensim take seeds below 2**32
SETTINGS = [  # key (= URL name), label, default, smallest, largest, help
    ("V", "final vocab size V", 1000, 1, VOCAB_MAX, "The size SaGe prunes down to."),
    (
        "n",
        "overshoot n",
        1.2,
        1.01,
        limits.limit("sage_n", "web"),
        "BPE first learns n x V pieces; SaGe prunes the extra ones.",
    ),
    ("k", "k: pruned per step", 50, 1, VOCAB_MAX, "How many pieces each step removes."),
    (
        "M",
        "M: candidate set",
        400,
        1,
        VOCAB_MAX,
        "After a full recomputation only the M lowest are kept.",
    ),
    (
        "m",
        "m: full recompute every",
        1,
        1,
        VOCAB_MAX,
        "Every m steps every piece's loss is recomputed.",
    ),
    ("l", "l: embeddings every l x m", 2, 1, VOCAB_MAX, "Word2Vec is retrained every l x m steps."),
    (
        "window",
        "window W",
        5,
        1,
        limits.limit("sage_window", "web"),
        "Context tokens on each side in the loss, eq. (1).",
    ),
    ("seed", "seed", 1, 0, SEED_MAX, "Word2Vec's seed (and the random control's)."),
]
LIMITED = {"V": "sage_vocab_size", "n": "sage_n", "window": "sage_window"}  # help: the limit
PAPER_VALUES = {
    "V": sage.PAPER.vocab_size,
    "n": sage.PAPER.n,
    "k": sage.PAPER.k,
    "M": sage.PAPER.M,
    "m": sage.PAPER.m,
    "l": sage.PAPER.l,
}


def use_paper() -> None:
    st.session_state.update(PAPER_VALUES)
    st.session_state["corpus"] = "sample:enwiki"
    st.session_state["lines"] = 0


def sample_controls() -> tuple[Sequence[Sequence[str]], str] | None:
    c1, c2 = st.columns([3, 1])
    name = w.choice_box(c1, "sample", SAMPLES, "corpus", SAMPLES[0])
    top = limits.limit("sample_lines", "web")
    lines_help = w.limit_help("sample_lines")
    limit = int(w.number_box(c2, "first lines (0: all)", "lines", 0, top, 0, help=lines_help))
    if name == "upload":
        upload = st.file_uploader(
            "a UTF-8 text file, one paragraph or sentence per line", type=["txt"], key="sage_upload"
        )
        if upload is None:
            st.info("Upload a text file to run SaGe on it.")
            return None
        text = w.read_upload(upload)
        if text is None:
            return None
        lines = tuple(text.splitlines())
        label = upload.name
        sentences, key = cached_sentences(lines, limit or None), w.fingerprint(lines, limit)
    else:
        c1.caption(w.corpus_label(name))
        label = name
        sentences, key = shipped_sample(name, limit)
    st.caption(
        f"{label}: {len(sentences):,} sentences, {sum(map(len, sentences)):,} words "
        "(lines split into sentences: SaGe's context never crosses a sentence end)."
    )
    return sentences, key


@st.cache_data(max_entries=8, show_spinner=False)
def cached_sentences(lines: tuple[str, ...], limit: int | None) -> list[list[str]]:
    return sage.sample_sentences(list(lines), limit)


@st.cache_resource(max_entries=8, show_spinner=False)
def shipped_sample(name: str, limit: int) -> tuple[tuple[tuple[str, ...], ...], str]:
    """A shipped sample's sentences (`limit` lines, 0: all) and its key, made once for the
    server: every session shares them, as tuples that no one can change. (Hashing its
    lines and copying its sentences out of st.cache_data cost some 20 ms a run on Lee.)"""
    lines = tuple(corpus.load_lines(name))
    sentences = sage.sample_sentences(list(lines), limit or None)
    return tuple(map(tuple, sentences)), w.fingerprint(lines, limit)


def settings_controls() -> sage.SageSettings:
    cols = st.columns(len(SETTINGS))
    values = {}
    for col, (key, label, default, low, high, text) in zip(cols, SETTINGS, strict=True):
        kind = float if isinstance(default, float) else int
        step = 0.05 if kind is float else 1
        help_text = w.limit_help(LIMITED[key], text) if key in LIMITED else text
        values[key] = kind(w.number_box(col, label, key, low, high, default, step, help_text))
    st.button(
        "Paper settings (Table 6)",
        on_click=use_paper,
        key="sage_paper",
        help="V 16,000 from n = 1.25, k 100, M 1,500, m 10, l 4 on all of enwiki: "
        "a run of a few minutes.",
    )
    return sage.SageSettings(
        vocab_size=values["V"],
        n=values["n"],
        k=values["k"],
        M=values["M"],
        m=values["m"],
        l=values["l"],
        window=values["window"],
        seed=values["seed"],
    )


def run(sentences, key: str, s: sage.SageSettings, control: str | None = None, slot: int = 0):
    """A finished run from the store, or a run now with a status box and a Stop button
    (its key names the control, the seed and the run's `slot` among the page's runs). A
    second session asking for a run under way waits for it and sees its progress."""
    store = w.trace_store()
    full_key = ("sage", key, tuple(asdict(s).items()), control)
    done = store.cached(full_key)
    if done is not None:
        return done
    label = "SaGe" if control is None else f"{control} pruning (seed {s.seed})"
    stop = st.empty()
    if stop.button(
        "Stop",
        key=f"sage_stop_{control or 'sage'}_{s.seed}_{slot}",
        help="Stops the run; the log so far stays on the page.",
    ):
        return None
    partial = st.session_state.setdefault("sage_partial", {})
    partial[full_key] = []
    with st.status(f"Running {label} ...", expanded=True) as status:
        bar, phase = st.progress(0.0), st.empty()

        def show(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=f"step {done} of {total}")

        def train(report):
            def on_step(step, total):
                partial[full_key].append(step)
                report(step.number, total)

            return sage.trace_sage(sentences, s, control, on_step, phase.write)

        try:
            trace = store.get(full_key, train, show)
        except ValueError:  # the page shows the message; the box must not spin on
            stop.empty()
            status.update(label=f"{label} could not run", state="error", expanded=False)
            raise
        status.update(label=f"{label}: {len(trace.steps)} steps", state="complete", expanded=False)
    stop.empty()
    partial.pop(full_key, None)
    return trace


def control_runs(sentences, key: str, settings: sage.SageSettings):
    """The controls on SaGe's schedule: frequency, then random with RANDOM_SEEDS seeds from
    settings.seed on (each seed run once); None as soon as one of them is stopped."""
    controls = {}
    for control in sage.CONTROLS:
        controls[control] = run(sentences, key, settings, control)
        if controls[control] is None:
            return None
    randoms = [controls["random"]]
    for slot in range(1, outcome.RANDOM_SEEDS):
        seeded = replace(settings, seed=settings.seed + slot)
        randoms.append(run(sentences, key, seeded, "random", slot))
        if randoms[-1] is None:
            return None
    return controls, randoms


def stopped_log() -> None:
    """After Stop: the steps finished so far, the run itself is not kept."""
    for steps in st.session_state.get("sage_partial", {}).values():
        if steps:
            st.warning(f"Stopped after {len(steps)} steps. Change a setting to run again.")
            views.step_table(steps)
            return
    st.warning("Stopped before the first step finished.")


w.ensure_navigation()
st.title("SaGe: context-aware vocabulary pruning")
st.write(
    "SaGe (Yehezkel & Pinter, paper 000) starts from a BPE vocabulary n times too big and "
    "prunes, step by step, the pieces whose removal raises a skipgram context loss (eq. 1) "
    "least: every token should predict the tokens around it. Here it runs on a small real "
    "sample; the paper ran on 750,000 lines of Wikipedia."
)
chosen = sample_controls()
if chosen is None:
    st.stop()
sentences, sample_key = chosen
settings = settings_controls()
try:
    sage.check_settings(settings)
    trace = run(sentences, sample_key, settings)
except ValueError as err:
    st.error(str(err))
    st.stop()
if trace is None:
    stopped_log()
    st.stop()
st.session_state["sage_latest"] = {  # the Compare page can add it to its tokenizers
    "model": sage.model_from_trace(trace),
    "sample": st.session_state.get("corpus", "sample"),
    "size": settings.vocab_size,
}
log_tab, token_tab, result_tab = st.tabs(["Step log", "One token up close", "BPE vs SaGe"])
with log_tab:
    step = views.step_log(trace)
with token_tab:
    # the run's key in the store names the trace and its sample
    views.drill_down(trace, sentences, w.run_key(trace) or w.fingerprint(sample_key, trace), step)
with result_tab:
    try:
        ran = control_runs(sentences, sample_key, settings)
    except ValueError as err:
        st.error(str(err))
        st.stop()
    if ran is None:
        stopped_log()
        st.stop()
    # drawn once per run: the controls and the sample follow from the run's settings (the
    # spinner shows only when it takes a while: when the measures are computed)
    with st.spinner("Tokenizing the sample with each vocabulary ..."):
        cached.drawn(
            w.run_key(trace),
            ("sage results",),
            lambda: outcome.results(trace, *ran, sentences, sample_key),
        )
