"""The Unigram LM lesson: E, M and prune steps, Viterbi, the lattice, removal losses.

The page; its parts by job, each in lessons/unigram/: controls.py (settings, the student's
removals, the training), seed.py (EM's seed, step by step), views.py (the tables and charts
of a step), lattice.py (a word's lattice)."""

from __future__ import annotations

import streamlit as st

from lessons.poll import panel
from lessons.ui import cached, regularize
from lessons.ui.export import downloads, hf_download, run_ident
from lessons.ui.keys import widget_key
from lessons.ui.present import end_of_step_view, page_head
from lessons.ui.steps import corpus_trace, lazy_expander, rerun_page, start_over, stepped
from lessons.ui.store import run_key
from lessons.unigram.controls import (
    SAMPLE_SIZE,
    controls,
    set_choices,
    student_choices,
    trained_with_choices,
)
from lessons.unigram.lattice import lattice_panel
from lessons.unigram.seed import seed_panel
from lessons.unigram.views import loss_curve, removal_panel, vocab_panel, words_panel
from subtok_core import export

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
PAGE = "unigram"
STEP = "step"  # the step slider's key (lessons/ui/steps.py), bound to ?step=


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


def step_view(trace, i: int, step, variant: str, corpus: str) -> None:
    """Step i's vocabulary, removal losses and segmentations (each drawn once per run and
    step), and the student's own pick at a removal-loss step (`corpus`: its name)."""
    run = run_key(trace)
    left, right = st.columns([2, 3])
    with left:
        cached.drawn(run, ("unigram vocab", i), lambda: vocab_panel(trace, step, variant))
    with right:
        if step is not None and step.removal:
            cached.drawn(run, ("unigram removal", i), lambda: removal_panel(trace, step, corpus))
            pick_panel(trace, step)
        if step is None:
            st.subheader("The words")
            st.write(
                "The seed has no probabilities yet: the first E-step gives them, and "
                "with them each word's best segmentation."
            )
        else:
            cached.drawn(run, ("unigram words", i), lambda: words_panel(trace, i, step, corpus))


page_head(
    "Unigram language model",
    "Unigram works top-down: it starts from a big vocabulary and prunes the pieces whose "
    "loss the corpus likelihood would miss least (Kudo, 2018; worked examples from 001 and "
    "004 of the course material).",
)
chosen, variant, params, row = controls()
if chosen.changed:  # a new corpus starts before its seed vocabulary
    start_over()
wc, _, trace, _ = corpus_trace(
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
    step_view(trace, i, step, variant, chosen.name)
    if step is None:
        seed_panel(wc, trace)  # EM's seed step by step (the textbook's seed is its vocab)

    class_poll = panel.class_poll(
        PAGE, trace, i, chosen.name, "everyone predicts the next pruned piece"
    )

    end_of_step_view(class_poll)
    loss_curve(trace, i, variant)
    lattice_panel(trace, i, step or trace.start, variant)
    with lazy_expander("n-best and sampling", PAGE, "nbest") as box:
        if box.open:
            model = regularize.unigram_model(trace, i)
            regularize.nbest_panel(model, PAGE, trace.start.words[0])


stepped(trace, whole_step, PAGE, "step (0 = the seed vocabulary)", poll=True)
downloads(trace, PAGE, ("steps (CSV)", export.steps_csv), full=True)
hf_download(
    lambda: regularize.unigram_model(trace, len(trace.steps)),  # the last step's model
    PAGE,
    "hf",
    run_ident(trace),
)
