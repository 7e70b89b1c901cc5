"""The SaGe page's settings, in its settings row: the sample (a shipped one or an upload,
its first lines) and Algorithm 3's numbers, with the paper's button; the sample's sentences
made once per server."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from lessons.sage import results as outcome
from lessons.ui.address import choice_box, limit_help, number_box
from lessons.ui.corpus import chosen_anew, corpus_label
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from lessons.ui.steps import start_over
from lessons.ui.store import fingerprint
from lessons.ui.upload import parsed_upload
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
            st.error(plain(str(err)))
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
