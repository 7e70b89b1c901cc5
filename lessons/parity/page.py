"""The parity-aware BPE lesson (Foroutan, Meister et al. 2025): step through merges that
each serve the language longest on a parallel dev set, beside ordinary BPE."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from lessons.parity import views
from lessons.ui.address import choice_box, url_text
from lessons.ui.corpus import Corpus, chosen_anew
from lessons.ui.export import downloads
from lessons.ui.merge_lesson import MergeLesson, merge_lesson, merges_input
from lessons.ui.store import fingerprint, trace_store
from subtok_core import parity
from subtok_core.corpus import toy_names

PAGE = views.PAGE
TIES = (parity.TIE_RULE,)  # the reference's rule, the only one here
TIES_HELP = (
    "greater pair: among pairs of equal count in the served language, the greater one "
    "(compared as strings, first symbol first), as the authors' trainer and CS336 break "
    "ties. Between languages of equal dev length, the one listed first is served."
)
# the toy: two languages, each with a parallel dev set
DEFAULTS = (("en", "toy:low-lower", "low newest widest"), ("xx", "toy:hug-pug", "hug pun bun"))
DEV_HELP = "The language's dev set: a sentence or more, its words counted at whitespace."


def text_box(col, label: str, key: str, default: str, help: str | None = None) -> str:
    """A text box bound to the URL as ?`key`=...; an empty value falls back to `default`
    with a sentence."""
    if url_text(key) is None and key not in st.session_state:
        st.session_state[key] = default
    value = col.text_input(label, key=key, help=help, bind="query-params").strip()
    if not value:
        st.warning(f"The {label} is empty; the page uses {default!r}.")
        return default
    return value


def trained(source, dev, merges: int, global_merges: int, corpus_print: str):
    """The run for these choices, trained once then kept for every session."""
    return trace_store().trained(
        fingerprint(PAGE, corpus_print, tuple(dev), merges, global_merges),
        lambda report: parity.trace_parity(source, dev, merges, global_merges, progress=report),
        "Merging:",
    )


@dataclass
class Parity(MergeLesson):
    """The settings of /parity and what the page shows with them."""

    page, algo = PAGE, parity
    title = "Parity-aware BPE"
    intro = (
        "Parity-aware BPE (Foroutan, Meister et al., 2025) trains one vocabulary for several "
        "languages so that none is left with far longer tokenizations. Before each merge it "
        "encodes a parallel dev set in every language with the merges so far; the language "
        "whose dev set is longest is served: its own most frequent pair is merged, in every "
        "language. Ordinary BPE counts pairs over all languages together, so the language "
        "with the most text wins most merges."
    )

    corpus: Corpus
    languages: tuple[tuple[str, str, str], ...]  # (name, corpus, dev text) per language
    merges: int
    ties: str
    example: str = "lowest hugs"

    @classmethod
    def choose(cls, row) -> Parity:
        """Two languages (a name, a corpus, a dev text each), the merges and the tie rule."""
        toys = list(toy_names())
        chosen = []
        for n, (lang, name, dev) in enumerate(DEFAULTS, start=1):
            c1, c2, c3 = row.columns([1, 2, 3])
            lang = text_box(c1, f"language {n}", f"lang{n}", lang)
            name = choice_box(c2, f"corpus of language {n}", toys, f"corpus{n}", name)
            dev = text_box(c3, f"dev set of language {n}", f"dev{n}", dev, DEV_HELP)
            chosen.append((lang, name, dev))
        c1, c2 = row.columns(2)
        merges = merges_input(c1, 8)
        ties = choice_box(c2, "tie rule", TIES, "ties", TIES[0], help=TIES_HELP)
        spec = " ".join(f"{lang}={name}" for lang, name, _ in chosen)
        row.note(spec, f"{merges} merges", f"ties: {ties}")
        return cls(Corpus(spec, chosen_anew(spec, "parity_spec")), tuple(chosen), merges, ties)

    def train(self, row):
        dev = tuple((lang, text) for lang, _, text in self.languages)
        try:
            source = parity.load(self.corpus.name)
            run = trained(source, dev, self.merges, 0, self.corpus.name)
            self.plain = trained(source, dev, self.merges, self.merges, self.corpus.name)
        except ValueError as err:
            st.error(str(err))
            st.stop()
        return run

    def explain(self, trace, i: int, step) -> str:
        return parity.explain(trace, i)

    def pairs(self, trace, i: int, step) -> None:
        views.pair_panel(trace, i, step)

    def corpus_view(self, trace, i: int, new: set[str]) -> None:
        views.dev_panel(trace, self.plain, i)

    def judge(self, guess, nxt):
        return parity.judge_guess(guess, nxt)

    def encode(self, trace, i: int) -> None:
        views.encode_panel(self.model(trace, i), self.example)

    def downloads(self, trace) -> None:
        downloads(trace, PAGE)
        corpora = " ".join(f"{lang}={name}" for lang, name, _ in self.languages)
        devs = " ".join(f'{lang}="{text}"' for lang, _, text in self.languages)
        st.caption("The same run on the command line:")
        st.code(
            f"subtok train parity --corpus {corpora} --dev {devs} --merges {self.merges} --json",
            language="bash",
            wrap_lines=True,  # no region to scroll: every word of the command shows
        )


merge_lesson(Parity)
