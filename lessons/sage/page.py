"""The SaGe lesson: prune a BPE vocabulary by a skipgram context loss (the SaGe paper,
Yehezkel & Pinter, 2023; course material 000)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from lessons.sage import latest, views
from lessons.sage import paper as paper_views
from lessons.sage import results as outcome
from lessons.sage import runs as sage_runs
from lessons.ui import cached
from lessons.ui.address import choice_box, limit_help, number_box
from lessons.ui.corpus import chosen_anew, corpus_label, parsed_upload
from lessons.ui.keys import widget_key
from lessons.ui.present import page_head, settings_row
from lessons.ui.steps import start_over
from lessons.ui.store import fingerprint, run_key
from subtok_core import corpus, limits, sage
from subtok_core.sage import timing

PAGE = "sage"
SAMPLES = ["sample:lee", "sample:enwiki", "sample:crime", "upload"]
VOCAB_MAX = int(limits.limit("sage_vocab_size", "web"))
SEED_MAX = 2**31 - 1  # numpy and gensim take seeds below 2**32
PAPER_NAME = "In the SaGe paper's Algorithm 3 (Yehezkel & Pinter, 2023)"
SETTINGS = [  # key (= URL name), label, default, smallest, largest, help
    ("V", "final vocab size", 1000, 1, VOCAB_MAX,
     f"{PAPER_NAME}: V. The size SaGe prunes down to."),
    ("n", "overshoot factor", 1.2, 1.01, limits.limit("sage_n", "web"),
     f"{PAPER_NAME}: n. BPE first learns n × V pieces; SaGe prunes the extra ones."),
    ("k", "pieces pruned per step", 50, 1, VOCAB_MAX,
     f"{PAPER_NAME}: k. How many pieces each step removes."),
    ("M", "candidates kept", 400, 1, VOCAB_MAX,
     f"{PAPER_NAME}: M. After each full rescoring only the M pieces with the lowest "
     "ablation loss stay candidates; the steps until the next one prune among them."),
    ("m", "steps per full rescoring", 1, 1, VOCAB_MAX,
     f"{PAPER_NAME}: m. Every m steps every piece's ablation loss is recomputed; in "
     "between only the candidates' losses are."),
    ("l", "rescorings per Word2Vec", 2, 1, VOCAB_MAX,
     f"{PAPER_NAME}: l. Word2Vec is retrained every l × m steps, after every l full "
     "rescorings."),
    ("window", "context window", 5, 1, limits.limit("sage_window", "web"),
     "W in the SaGe paper's eq. (1): context tokens on each side of a token in the loss."),
    ("seed", "seed", 1, 0, SEED_MAX, "Word2Vec's seed (and the random control's)."),
]  # fmt: skip
LIMITED = {"V": "sage_vocab_size", "n": "sage_n", "window": "sage_window"}  # help: the limit
PAPER_SETTINGS = (
    f"final size {sage.PAPER.vocab_size:,} from overshoot {sage.PAPER.n} "
    f"({sage.PAPER.start_size:,} BPE pieces), {sage.PAPER.k} pruned per step, "
    f"{sage.PAPER.M:,} candidates, full rescoring every {sage.PAPER.m} steps, Word2Vec every "
    f"{sage.PAPER.l} rescorings, on all of sample:enwiki"
)
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


def sample_controls(row) -> tuple[Sequence[Sequence[str]], str, str] | None:
    """The sample (in the settings popover `row`; an upload's box on the page itself, where
    the student sees it): its sentences, their key and its name; None until there is a file."""
    c1, c2 = row.columns([3, 1])
    name = choice_box(c1, "sample", SAMPLES, "corpus", SAMPLES[0])
    if chosen_anew(name):  # step 5 of the last sample's run would mean nothing on this one
        start_over()
    top = limits.limit("sample_lines", "web")
    lines_help = limit_help("sample_lines")
    limit = int(number_box(c2, "first lines (0: all)", "lines", 0, top, 0, help=lines_help))
    if name == "upload":
        upload = st.file_uploader(
            "a UTF-8 text file, one paragraph or sentence per line",
            type=["txt"],
            key=widget_key(PAGE, "upload"),
        )
        if upload is None:
            st.info("Upload a text file to run SaGe on it.")
            return None
        try:  # read once per server for the file's content, not on every rerun
            lines = parsed_upload(upload, "all lines", lambda text: tuple(text.splitlines()))
        except ValueError as err:
            st.error(str(err))
            return None
        label = upload.name
        sentences, key = cached_sentences(lines, limit or None), fingerprint(lines, limit)
    else:
        c1.caption(corpus_label(name))
        label = name
        sentences, key = shipped_sample(name, limit)
    said = f"{label}: {len(sentences):,} sentences, {sum(map(len, sentences)):,} words"
    row.box.caption(
        f"{said} (lines split into sentences: SaGe's context never crosses a sentence end)."
    )
    row.note(said)
    return sentences, key, name


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
    return tuple(map(tuple, sentences)), fingerprint(lines, limit)


def settings_controls(row) -> sage.SageSettings:
    """Algorithm 3's settings in the settings popover `row`, and the paper's button."""
    # two rows of four, so that each label fits on one line
    cols = [c for _ in range(2) for c in row.columns(len(SETTINGS) // 2)]
    values = {}
    for col, (key, label, default, low, high, text) in zip(cols, SETTINGS, strict=True):
        kind = float if isinstance(default, float) else int
        step = 0.05 if kind is float else 1
        help_text = limit_help(LIMITED[key], text) if key in LIMITED else text
        values[key] = kind(number_box(col, label, key, low, high, default, step, help_text))
    left, right = row.columns([1, 3], vertical_alignment="center")
    note = timing.preset_note(timing.load_timing(), outcome.RANDOM_SEEDS)
    left.button(
        "Paper settings (Table 6)",
        on_click=use_paper,
        key=widget_key(PAGE, "paper"),
        help=f"{PAPER_SETTINGS}. {note}",
    )
    right.caption(f"Paper settings: {note}")
    row.note(f"V {values['V']:,}", f"n {values['n']}", f"k {values['k']}", f"M {values['M']}")
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


def run(sentences, key: str, s: sage.SageSettings):
    """SaGe's run from the store, or computed now with a status box and a Stop button;
    its controls start beside it in worker processes of their own, and control_runs waits
    for them. A second session asking for a run under way waits for it and sees its
    progress."""
    wanted = sage_runs.plan(sentences, key, s, outcome.RANDOM_SEEDS)
    sage_key = next(iter(wanted))
    found = sage_runs.follow(wanted, [sage_key], "SaGe", "run")
    return None if found is None else found[sage_key]


def control_runs(sentences, key: str, settings: sage.SageSettings):
    """The controls on SaGe's schedule: frequency, and random with RANDOM_SEEDS seeds from
    settings.seed on, computed at once (run started them); None after Stop."""
    wanted = sage_runs.plan(sentences, key, settings, outcome.RANDOM_SEEDS)
    keys = list(wanted)[1:]  # SaGe's own run is done
    found = sage_runs.follow(wanted, keys, "the controls", "controls")
    if found is None:
        return None
    frequency, *randoms = (found[k] for k in keys)
    return {"frequency": frequency, "random": randoms[0]}, randoms


def stopped_log(sentences, key: str, settings: sage.SageSettings, part: str) -> None:
    """After Stop: how many steps were finished and kept, their log, and "Run again". `part`
    says which runs were stopped: SaGe's own ("run") or its controls ("controls", SaGe's
    run being complete; the log kept is the frequency control's)."""
    wanted = list(sage_runs.plan(sentences, key, settings, outcome.RANDOM_SEEDS))
    steps, total = sage_runs.kept_steps(wanted[0 if part == "run" else 1])
    if steps:
        st.warning(
            f"Stopped during step {len(steps) + 1} of {total}: the {len(steps)} finished "
            f"{'step is' if len(steps) == 1 else 'steps are'} kept below."
        )
    else:
        st.warning("Stopped before the first step finished.")
    if part == "controls":
        st.caption(
            "SaGe's own run is complete (the other tabs); the controls (frequency pruning, "
            "and random pruning over several seeds) were stopped."
        )
    st.button(
        "Run again",
        icon=":material/replay:",
        key=widget_key(PAGE, f"run_again_{part}"),
        on_click=sage_runs.run_again,
        help="Runs again from the start with the same settings (a stopped run cannot be "
        "resumed where it stopped; the same settings give the same steps).",
    )
    if steps:
        views.step_table(steps)


page_head(
    "SaGe: context-aware vocabulary pruning",
    "SaGe (Yehezkel & Pinter, 2023: the SaGe paper) starts from a BPE vocabulary n times "
    "too big and prunes, step by step, the pieces whose removal raises a skipgram context "
    "loss (eq. 1) least: every token should predict the tokens around it. Here it runs on a "
    "small real sample; the paper ran on 750,000 lines of Wikipedia.",
)
row = settings_row("sage")
chosen = sample_controls(row)
if chosen is None:
    st.stop()
sentences, sample_key, sample_name = chosen
settings = settings_controls(row)
try:
    sage.check_settings(settings)
    trace = run(sentences, sample_key, settings)
except ValueError as err:
    st.error(str(err))
    st.stop()
if trace is None:
    stopped_log(sentences, sample_key, settings, "run")
    st.stop()
latest.remember(sage.model_from_trace(trace), sample_name, settings.vocab_size)  # for Compare
log_tab, token_tab, paper_tab, result_tab = st.tabs(
    ["Step log", "One token up close", "Paper vs this run", "BPE vs SaGe"]
)
run_id = run_key(trace) or fingerprint(sample_key, trace)  # names the trace and sample
with log_tab:
    step = views.step_log(trace)
with token_tab:
    views.drill_down(trace, sentences, run_id, step)
with paper_tab:  # before the controls run: it needs SaGe's run only
    paper_views.paper_tab(sample_key, run_id, trace, sentences)
with result_tab:
    try:
        ran = control_runs(sentences, sample_key, settings)
    except ValueError as err:
        st.error(str(err))
        st.stop()
    if ran is None:
        stopped_log(sentences, sample_key, settings, "controls")
        st.stop()
    # drawn once per run: the controls and the sample follow from the run's settings (the
    # spinner shows only when it takes a while: when the measures are computed)
    with st.spinner("Tokenizing the sample with each vocabulary ..."):
        cached.drawn(
            run_key(trace),
            ("sage results",),
            lambda: outcome.results(trace, *ran, sentences, sample_key),
        )
