"""The Unigram page's seed of the EM variant, step by step, as SentencePiece makes it: the
characters, the substrings, the candidates (followed by two different characters), their
scores (frequency x length) and how many are kept (subtok_core.unigram.em_seed)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.store import run_key
from subtok_core.unigram.em_coverage import (
    DEFAULT_COVERAGE,
    SENTENCEPIECE_COVERAGE,
    rare_characters,
)
from subtok_core.unigram.em_seed import MAX_PIECE_LEN, SEED_SIZE, SeedSteps, seed_steps

SEED_ROWS = 100  # the best substrings by score shown, candidates or not


def seed_panel(wc, trace) -> None:
    """The seed of an EM run, computed again from its corpus and settings (drawn once per
    run)."""
    if trace.param("variant") != "em":
        return
    given = trace.param("seed_size"), trace.param("max_piece_len")  # 0 is a size too
    seed_size = SEED_SIZE if given[0] is None else given[0]
    max_len = MAX_PIECE_LEN if given[1] is None else given[1]
    cached.drawn(
        run_key(trace),
        ("unigram seed",),
        lambda: seed_view(
            seed_steps(wc, "sow", seed_size, max_len, SEED_ROWS), seed_size, max_len,
            len(rare_characters(wc, "sow", SENTENCEPIECE_COVERAGE)),
        ),
    )  # fmt: skip


def seed_view(steps: SeedSteps, seed_size: int, max_len: int, rare: int) -> None:
    """`rare`: how many characters sentencepiece's default coverage would leave out."""
    st.subheader("How the seed is made")
    st.markdown(
        f"1. Every character is a piece: **{steps.chars:,}** characters, ▁ included "
        f"(character coverage {DEFAULT_COVERAGE:g}: every character of the corpus. "
        f"SentencePiece's default, {SENTENCEPIECE_COVERAGE:g}, keeps the most frequent "
        f"characters that cover {SENTENCEPIECE_COVERAGE:.2%} of the text and reads the "
        f"others as unknown: on this corpus it would leave out **{rare:,}**).\n"
        f"2. The words (each with ▁ in front) have **{steps.substrings:,}** different "
        f"substrings of 2 to {max_len} characters (a piece never mixes scripts, and ▁ only "
        f"starts one); **{steps.seen_twice:,}** of them occur at least twice in the text.\n"
        "3. A substring is a **candidate** when two different characters follow it somewhere "
        "(after a word's last character come the next word's ▁ or the end of a line; as in "
        "SentencePiece, two characters whose UTF-8 codes start with the same byte, such as "
        "é and ü, count as one). One "
        "always followed by the same character is no candidate: the longer substring is "
        f"just as frequent. **{steps.candidates:,}** candidates.\n"
        "4. Each candidate's **score** is its frequency x its length (the characters it "
        f"covers); the {seed_size:,} best are kept (the seed size): **{steps.kept:,}**.\n"
        "5. The first probabilities are the scores over their total (a character's score is "
        f"its frequency): **{steps.chars + steps.kept:,}** pieces in the seed."
    )
    st.dataframe(seed_frame(steps), hide_index=True)
    st.caption(
        f"The {len(steps.rows):,} substrings with the best scores, candidates or not "
        "(equal scores: first seen first)."
    )


def seed_frame(steps: SeedSteps) -> pd.DataFrame:
    rows = [
        {
            "substring": r.piece,
            "frequency": r.freq,
            "length": len(r.piece),
            "score": r.score,
            "followed by": ", ".join(r.followers),
            "candidate": "yes" if r.candidate else "no: one follower",
            "in the seed": "yes" if r.kept else "no",
        }
        for r in steps.rows
    ]
    columns = ["substring", "frequency", "length", "score", "followed by", "candidate"]
    return pd.DataFrame(rows, columns=[*columns, "in the seed"])
