"""The Unigram page's settings: corpus, variant, size, log base, the seed and pruning
settings, the student's own removals (?remove=), and the training they ask for."""

from __future__ import annotations

import streamlit as st

from lessons.ui.address import choice_box, limit_help, number_box, url_choice, url_text, url_warning
from lessons.ui.corpus import corpus_label, corpus_select, corpus_setting, settings_caption
from lessons.ui.keys import widget_key
from lessons.ui.present import settings_row
from lessons.ui.store import fingerprint, trace_store
from subtok_core import limits, unigram
from subtok_core.unigram.seed import SEED_TEXT, SEEDS
from subtok_core.unigram.textbook import LOG_BASES

PAGE = "unigram"
VARIANT_TEXT = {
    "textbook": "Textbook (course material 001, 004 and the Hugging Face course)",
    "em": "EM (Kudo 2018, as SentencePiece trains)",
}
SEED_SETTINGS = "Seed and pruning settings"  # the expander's title, which errors point to
SAMPLE_SIZE = 2000  # target vocab size on real samples when the student leaves 0


def student_choices() -> tuple[str, ...]:
    """The student's removal per round ('' = automatic), kept in the session and in the URL
    as ?remove=un,,bu so that a link reproduces them."""
    mine = widget_key(PAGE, "choices")
    if mine not in st.session_state:
        text = url_text("remove", mine)
        if text is not None and not text.strip():
            url_warning("remove", text, "empty", instead="this page prunes automatically")
            del st.query_params["remove"]
        st.session_state[mine] = tuple(text.split(",")) if text and text.strip() else ()
    return st.session_state[mine]


def set_choices(choices: tuple[str, ...]) -> None:
    st.session_state[widget_key(PAGE, "choices")] = choices
    if choices:
        st.query_params["remove"] = ",".join(choices)
    elif "remove" in st.query_params:
        del st.query_params["remove"]


def controls():
    """Every choice of the page; returns (the corpus chosen, variant, params for
    trace_unigram, the settings row)."""
    box = settings_row(PAGE)
    c1, c2, c3, c4 = box.columns([2, 1.5, 2.3, 1])
    chosen = corpus_select(c1, default="toy:run-bug")
    name = chosen.name
    variant = choice_box(
        c2,
        "variant",
        unigram.VARIANTS,
        "variant",
        unigram.VARIANTS[0],
        help=" · ".join(f"{k}: {v}" for k, v in VARIANT_TEXT.items()),
    )
    size_help = f"0: prune down to the characters (on a real sample: {SAMPLE_SIZE})."
    top = limits.limit("vocab_size", "web")
    sample = name.startswith("sample:")
    size = int(
        number_box(
            c3,
            "target vocab size" if sample else "target vocab size (0: characters only)",
            "size",
            0,
            top,
            corpus_setting(chosen, "size", SAMPLE_SIZE if sample else 0),
            help=limit_help("vocab_size", size_help),
        )
    )
    base = choice_box(
        c4,
        "log base",
        list(LOG_BASES),
        "base",
        corpus_setting(chosen, "base", "10"),  # 001's base 10, the course's e on hug-pug
        help="The 001 slides use log base 10; the Hugging Face course (whose hug/pug "
        "example 004 quotes) the natural log (e).",
        disabled=variant == "em",
    )
    if variant == "textbook":  # checked here: the expander below may be closed
        url_choice("seed", SEEDS, SEEDS[0], state_key=widget_key(PAGE, "seed"))
    # open where the textbook seed must be chosen: a real sample has too many substrings
    seeding = variant == "textbook" and sample
    with box.expander(f"{SEED_SETTINGS} · variant: {VARIANT_TEXT[variant]}", expanded=seeding):
        params = settings(variant)
    params.update(variant=variant, log_base=base if variant == "textbook" else "e")
    if variant == "textbook":
        settings_caption(c3, name, base=base)  # beside the corpus caption, not under it
    params["vocab_size"] = size or None
    if size == 0 and name.startswith("sample:"):
        params["vocab_size"] = SAMPLE_SIZE
    target = f"to {size:,} pieces" if size else "down to the characters"
    base_said = f"log base {base}" if variant == "textbook" else ""
    box.note(corpus_label(name), variant, target, base_said)
    return chosen, variant, params, box


def settings(variant: str) -> dict:
    s1, s2, s3 = st.columns(3)
    if variant == "em":
        return {
            "seed_size": int(
                s1.number_input(
                    "seed size",
                    10,
                    int(limits.limit("seed_size", "web")),
                    100_000,
                    key=widget_key(PAGE, "em_seed_size"),
                    help=limit_help("seed_size"),
                )
            ),
            "shrinking_factor": s2.slider(
                "shrinking factor", 0.5, 0.95, 0.75, key=widget_key(PAGE, "shrink")
            ),
            "em_iterations": int(
                s3.number_input("EM iterations per round", 1, 10, 2, key=widget_key(PAGE, "em"))
            ),
        }
    seed = seed_select(s1)
    longest = int(
        s2.number_input("longest seed piece (0 = no limit)", 0, 50, 0, key=widget_key(PAGE, "len"))
    )
    out = {
        "seed": seed,
        "max_piece_len": longest or None,
        "prune_percent": s3.slider("prune % per round", 1, 50, 10, key=widget_key(PAGE, "pct")),
        "choices": student_choices(),
    }
    if seed == "frequent":
        out["seed_size"] = int(
            s1.number_input("seed size", 1, 100_000, 5000, key=widget_key(PAGE, "seed_size"))
        )
    return out


def seed_select(col) -> str:
    """The seed vocabulary, kept in the URL as ?seed=NAME (a value that names none: the
    first, with a warning).

    Not a widget bound to the URL: the SaGe page binds ?seed= to its random seed, a number,
    and a bound parameter follows the student to the other page and into its widget."""
    if widget_key(PAGE, "seed") not in st.session_state:  # checked by controls()
        st.session_state[widget_key(PAGE, "seed")] = SEEDS[0]
    return col.selectbox(
        "seed vocabulary",
        SEEDS,
        key=widget_key(PAGE, "seed"),
        on_change=store_seed,
        help=" · ".join(f"{k}: {v}" for k, v in SEED_TEXT.items()),
    )


def store_seed() -> None:
    seed = st.session_state[widget_key(PAGE, "seed")]
    if seed != SEEDS[0]:
        st.query_params["seed"] = seed
    elif "seed" in st.query_params:
        del st.query_params["seed"]


def trained(wc, corpus_print: str, params: dict):
    key = fingerprint("unigram", corpus_print, tuple(sorted(params.items())))
    try:
        return trace_store().trained(
            key, lambda report: unigram.trace_unigram(wc, progress=report, **params), "Training:"
        )
    except ValueError as err:  # the seed settings it asks for are in the settings row
        if params["variant"] == "textbook" and "seed" in str(err):
            raise ValueError(
                f'{err} The seed settings are under Settings, in "{SEED_SETTINGS}", above.'
            ) from None
        raise


def trained_with_choices(wc, corpus_print: str, params: dict):
    """The run with the student's removals (?remove=...); when one cannot be made on this
    corpus (a link to another corpus, a piece no round has), a warning and the run with
    automatic pruning instead."""
    try:
        return trained(wc, corpus_print, params)
    except ValueError as err:
        if not params.get("choices"):
            raise
        # raises itself when the corpus or another setting is what cannot be used
        automatic = trained(wc, corpus_print, {**params, "choices": ()})
        given = ",".join(params["choices"])
        url_warning("remove", given, str(err), instead="this page prunes automatically")
        set_choices(())
        return automatic
