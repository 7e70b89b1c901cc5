"""The Unigram LM lesson: E, M and prune steps, Viterbi, the lattice, removal losses."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from lessons import _cached as cached
from lessons import _export, _poll, _regularize
from lessons._corpus import corpus_label, corpus_select, corpus_setting, settings_caption
from lessons._export import downloads
from lessons._keys import widget_key
from lessons._present import end_of_step_view, page_head, settings_row
from lessons._steps import corpus_trace, lazy_expander, rerun_page, start_over, stepped
from lessons._store import fingerprint, run_key, trace_store
from lessons._tables import status_table
from lessons._url import choice_box, limit_help, number_box, url_choice, url_text, url_warning
from subtok_core import export, lattice, limits, notes, unigram
from subtok_core.charts import lessons as viz
from subtok_core.unigram.seed import SEED_TEXT, SEEDS
from subtok_core.unigram.textbook import LOG_BASES, rounded_loss

VARIANT_TEXT = {
    "textbook": "Textbook (course material 001, 004 and the Hugging Face course)",
    "em": "EM (Kudo 2018, as SentencePiece trains)",
}
KIND_TITLE = {  # the textbook variant has no M-step (EM's re-estimation): it prices removals
    "textbook": {
        "e": "E-step: probabilities and best segmentations",
        "m": "Pruning: the loss of removing each piece",
        "prune": "Prune: the pieces that cost least are removed",
    },
    "em": {
        "e": "E-step: expected counts over all segmentations",
        "m": "M-step: probabilities from expected counts",
        "prune": "Prune",
    },
}
KIND_LEGEND = {  # the loss curve's names of the steps, colored as in the chart module
    "textbook": {"e": "E-step", "m": "removal losses", "prune": "prune"},
    "em": {"e": "E-step", "m": "M-step", "prune": "prune"},
}
PAGE = "unigram"
SEED_SETTINGS = "Seed and pruning settings"  # the expander's title, which errors point to
SAMPLE_SIZE = 2000  # target vocab size on real samples when the student leaves 0
LIST_MAX_CHARS = 10  # every segmentation is listed only for words this short
VOCAB_ROWS = 1000  # a bigger vocabulary shows its most probable pieces
REMOVAL_ROWS = 200  # removal-loss rows shown around the cut


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


def vocab_frame(record, removed: set[str], variant: str) -> pd.DataFrame:
    freq = "expected count" if variant == "em" else "frequency"
    rows = [
        {
            "piece": r.piece,
            freq: r.freq,
            "probability": r.prob,
            "status": "pruned" if r.piece in removed else "",
        }
        for r in record.vocab
    ]
    return pd.DataFrame(rows, columns=["piece", freq, "probability", "status"])


def removal_frame(step, before: float) -> pd.DataFrame:
    """The removal table of an M or prune step; `before` is the loss the increases are from."""
    removed = set(step.removed)
    rows = [
        {
            "piece": piece,
            "loss without it": loss,
            "increase": max(loss - before, 0.0),
            "status": "pruned" if piece in removed else "",
        }
        for piece, loss in step.removal
    ]
    return pd.DataFrame(rows, columns=["piece", "loss without it", "increase", "status"])


def loss_curve(trace, i: int, variant: str) -> None:
    """The loss after every step, step i ringed (the chart is built once per run)."""
    title = "-log-likelihood (nats)" if variant == "em" else f"loss (log base {base_of(trace)})"
    st.subheader("The loss over the steps")
    losses = [s.loss for s in trace.steps]
    jumps = len(losses) > 1 and max(losses) > 10 * min(losses) > 0

    def build():
        rows = [
            {
                "step": s.number,
                "loss": s.loss,
                "kind": KIND_LEGEND[variant][s.kind],
                "round": s.round,
                "pieces": s.vocab_size,
            }
            for s in trace.steps
        ]
        kinds = viz.EM_KINDS if variant == "em" else viz.TEXTBOOK_KINDS
        return viz.loss_curve_chart(pd.DataFrame(rows), i, title, jumps, kinds)

    cached.chart(run_key(trace), ("unigram loss",), build, i)
    if jumps and variant == "em":
        st.caption(
            "Log scale: the loss jumps after some prunes. EM had given nearly every occurrence "
            "to a longer piece, so the characters' probabilities fell close to 0; once that "
            "piece is pruned the words must use them, until the next M-step re-estimates."
        )


def base_of(trace) -> str:
    return trace.param("log_base")


def segmentations_panel(record, trace, i: int) -> None:
    """Each word's best segmentation, its probability and its share of the loss."""
    scale = 1 / math.log(LOG_BASES[base_of(trace)])
    st.subheader("Best segmentation of each word" + (f" after step {i}" if i else ""))
    if record.segmentations is None:
        st.caption("On a real sample the steps keep no segmentations; see the lattice below.")
        return
    rows = [
        {
            "word": s.word,
            "count": s.count,
            "segmentation": " ".join(s.pieces),
            "P(segmentation)": math.exp(s.logprob),
            "count x -log P": -s.count * s.logprob * scale,
            "tied": s.ties,
        }
        for s in record.segmentations
    ]
    status_table(pd.DataFrame(rows), "auto", _float_format(), precision=6)
    if any(s.ties for s in record.segmentations):
        st.caption(
            "tied: other segmentations with exactly the same probability. The one whose last "
            "piece starts latest wins (ru n rather than r un), as the course material picks."
        )


def _float_format() -> dict:
    return {
        c: st.column_config.NumberColumn(format="%.6g")
        for c in ("P(segmentation)", "probability", "expected count")
    }


def rounding_note(trace, record) -> None:
    """Where the 001 slides round, say what exact arithmetic gives instead (both computed)."""
    if trace.param("variant") != "textbook" or record.segmentations is None:
        return
    slides = rounded_loss(record, base_of(trace))
    if slides is not None and abs(slides - record.loss) >= 5e-4:  # 001 computes run/bug only
        st.caption(notes.rounding_caption(st.session_state.get("corpus", ""), slides, record.loss))


def all_segmentations_panel(record, word: str) -> None:
    logp = {r.piece: math.log(r.prob) for r in record.vocab if r.prob > 0}
    if len(word) > LIST_MAX_CHARS:
        st.caption(f"Words longer than {LIST_MAX_CHARS} characters have too many to list.")
        return
    segs = lattice.all_segmentations(word, logp, limit=200)
    rows = sorted(
        (
            {"segmentation": " ".join(s), "P": math.exp(lattice.segmentation_logp(s, logp))}
            for s in segs
        ),
        key=lambda r: -r["P"],
    )
    st.write(f"**Every segmentation of {word}** ({len(rows)}), most probable first:")
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        column_config={"P": st.column_config.NumberColumn(format="%.8f")},
    )


def lattice_panel(trace, i: int, record, variant: str) -> None:
    st.subheader("The lattice of a word")
    words = list(trace.start.words)
    word = st.text_input("word", words[0], key=widget_key(PAGE, "word"))
    cached.drawn(
        run_key(trace),
        ("unigram lattice", i, word),
        lambda: lattice_view(trace, i, record, variant, word.strip() or words[0]),
    )


def lattice_view(trace, i: int, record, variant: str, word: str) -> None:
    """The lattice of `word` under the model of step i: chart, sentence, table."""
    try:
        model = unigram.model_from_trace(trace, i)
    except ValueError:  # compact steps keep only the top rows: show the final model
        model = unigram.model_from_trace(trace)
        st.caption(
            "This step keeps only its most probable pieces: the lattice uses the final model."
        )
    try:
        lat = unigram.encode_word(model, word)
    except ValueError as err:
        st.error(str(err))
        return
    base = base_of(trace)
    log = f"log P (base {base})"  # the loss's base: the lattice speaks the same logarithm
    scale = 1 / math.log(LOG_BASES[base])
    frame = lattice_frame(lat, scale)
    cached.altair(viz.lattice_chart(frame, variant == "em", log))
    best = " ".join(lat.pieces)
    st.write(
        f"Positions 0 to {len(lat.word)} are the nodes; each bar is a piece of the vocabulary "
        f"with its {log}, as the loss above. The best path (red, Viterbi): **{best}**, "
        f"{log} = {lat.best_logp * scale:.4f}; all segmentations together: "
        f"{log} = {lat.total_logp * scale:.4f}."
    )
    table = frame.rename(columns={"logp": log, "best": viz.BEST_PATH})
    columns = ["piece", "start", "end", log, viz.BEST_PATH]
    columns += ["posterior"] if variant == "em" else []
    four = st.column_config.NumberColumn(format="%.4f")
    st.dataframe(table[columns], hide_index=True, column_config={log: four, "posterior": four})
    if variant == "em":
        st.caption(
            "posterior: the expected number of times the piece is used in one occurrence "
            "of the word, summed over every segmentation weighted by its probability."
        )
    if model.marker == "none":
        all_segmentations_panel(record, lat.word)


def lattice_frame(lat, scale: float = 1.0) -> pd.DataFrame:
    """The edges of a lattice; `scale` turns natural-log probabilities into the page's base."""
    on_path = set(lat.best)
    rows = [
        {
            "piece": e.piece,
            "start": e.start,
            "end": e.end,
            "logp": e.logp * scale,
            "posterior": e.posterior,
            "best": k in on_path,
            "row": k,
        }
        for k, e in enumerate(lat.edges)
    ]
    return pd.DataFrame(rows)


STEP = "step"  # the step slider's key (lessons/_steps.py), bound to ?step=


def prune_now(choices: tuple[str, ...], prune_step: int) -> None:
    """Keep the student's removal and go on to the prune step that makes it, so that the
    click shows its effect at once: the piece marked pruned, the loss it costs."""
    set_choices(choices)
    st.session_state[STEP] = prune_step
    rerun_page()  # the button sits in the step view; the trace is made outside it


def prune_automatically() -> None:
    """Forget the student's removals (a button's callback); the page trains again."""
    set_choices(())
    rerun_page()


def pick_panel(trace, step) -> None:
    """At the removal-loss step of the textbook variant, the student can choose the piece
    this round prunes instead; "Prune it now" moves on to the prune step, which removes it."""
    if trace.param("variant") != "textbook" or step.kind != "m":
        return
    pieces = [piece for piece, _ in step.removal]
    pick = st.selectbox(
        "Prune another piece this round",
        pieces,
        index=None,
        key=widget_key(PAGE, f"pick_{step.round}"),
        placeholder="pick a piece",
    )
    if pick is not None:
        mine = (list(student_choices()) + [""] * step.round)[: step.round]
        mine[step.round - 1] = pick
        st.button(
            "Prune it now",
            key=widget_key(PAGE, f"remove_{step.round}"),
            on_click=prune_now,
            args=(tuple(mine), step.number + 1),
            help=f"Step {step.number + 1} prunes it; step {step.number + 2} re-estimates "
            "the probabilities without it.",
        )
    if student_choices():
        st.button(
            "Back to automatic pruning",
            key=widget_key(PAGE, "auto"),
            on_click=prune_automatically,
        )


def step_view(trace, i: int, step, variant: str) -> None:
    """Step i's vocabulary, removal losses and segmentations (each drawn once per run and
    step), and the student's own pick at a removal-loss step."""
    run = run_key(trace)
    left, right = st.columns([2, 3])
    with left:
        cached.drawn(run, ("unigram vocab", i), lambda: vocab_panel(trace, step, variant))
    with right:
        if step is not None and step.removal:
            cached.drawn(run, ("unigram removal", i), lambda: removal_panel(trace, step))
            pick_panel(trace, step)
        if step is None:
            st.subheader("The words")
            st.write(
                "The seed has no probabilities yet: the first E-step gives them, and "
                "with them each word's best segmentation."
            )
        else:
            cached.drawn(run, ("unigram words", i), lambda: words_panel(trace, i, step))


def vocab_panel(trace, step, variant: str) -> None:
    record = step or trace.start
    removed = set(step.removed) if step else set()
    st.subheader(f"Vocabulary ({record.vocab_size if step else len(record.vocab):,} pieces)")
    table = vocab_frame(record, removed, variant)
    if len(table) > VOCAB_ROWS:
        table = table.sort_values("probability", ascending=False, kind="stable")
        table = table.head(VOCAB_ROWS)
    status_table(table, min(460, 38 + 35 * len(table)), _float_format(), precision=6)
    size = record.vocab_size if step else len(record.vocab)
    if len(table) < size:
        st.caption(f"The {len(table):,} most probable of {size:,} pieces.")


def words_panel(trace, i: int, step) -> None:
    segmentations_panel(step, trace, i)
    rounding_note(trace, step)


def removal_panel(trace, step) -> None:
    st.subheader("Loss without each piece")
    before = step.loss if step.kind == "m" else trace.steps[step.number - 2].loss
    frame = removal_frame(step, before)
    if len(frame) > REMOVAL_ROWS:  # the last pruned pieces and the first kept ones
        cut = max(len(step.removed) - REMOVAL_ROWS // 2, 0)
        st.caption(
            f"Rows {cut + 1:,} to {cut + REMOVAL_ROWS:,} of {len(frame):,}, around the "
            "line between pruned and kept."
        )
        frame = frame.iloc[cut : cut + REMOVAL_ROWS]
    three = st.column_config.NumberColumn(format="%.3f")
    config = {"loss without it": three, "increase": three}
    status_table(frame, min(360, 38 + 35 * len(frame)), config, precision=3)
    if trace.param("variant") == "textbook":
        rounded = notes.removal_caption(st.session_state.get("corpus", ""), step, base_of(trace))
        if rounded:
            st.caption(rounded)
    cached.altair(viz.removal_chart(frame))  # drawn at +0.000 too: a dot and its value
    if not frame["increase"].max() > 0:
        st.caption(
            "Every removal leaves the loss as it is: each word has another segmentation "
            "that is just as probable."
        )


page_head(
    "Unigram language model",
    "Unigram works top-down: it starts from a big vocabulary and prunes the pieces whose "
    "loss the corpus likelihood would miss least (Kudo, 2018; worked examples from 001 and "
    "004 of the course material).",
)
chosen, variant, params, row = controls()
if chosen.changed:  # a new corpus starts before its seed vocabulary
    start_over()
wc, _, trace = corpus_trace(
    chosen.name,
    PAGE,
    lambda wc, corpus_print: trained_with_choices(wc, corpus_print, params),
    algorithm="unigram" if variant == "em" else None,  # the estimate's figures are EM's
    size=params.get("vocab_size") or SAMPLE_SIZE,
    row=row,
)


def whole_step(i: int, step) -> None:
    """Everything that shows step i (rerun alone when the step changes: stepped)."""
    if step is None:
        st.info(f"{trace.start.seed} Move the slider to run the first E-step.")
    else:
        st.info(f"**Round {step.round} · {KIND_TITLE[variant][step.kind]}**  \n{step.note}")
    step_view(trace, i, step, variant)

    class_poll = _poll.class_poll(
        PAGE, trace, i, chosen.name, "everyone predicts the next pruned piece"
    )

    end_of_step_view(class_poll)
    loss_curve(trace, i, variant)
    lattice_panel(trace, i, step or trace.start, variant)
    with lazy_expander("n-best and sampling", PAGE, "nbest") as box:
        if box.open:
            model = _regularize.unigram_model(trace, i)
            _regularize.nbest_panel(model, PAGE, trace.start.words[0])


stepped(trace, whole_step, PAGE, "step (0 = the seed vocabulary)")
downloads(trace, PAGE, ("steps (CSV)", export.steps_csv), full=True)
_export.hf_download(
    lambda: _regularize.unigram_model(trace, len(trace.steps)),  # the last step's model
    PAGE,
    "hf",
    _export.run_ident(trace),
)
