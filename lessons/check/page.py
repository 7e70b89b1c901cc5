"""Check your own BPE: upload or paste the merges your trainer learned, and see the first
merge where they leave the reference run, as a step of the lesson, with its cause."""

from __future__ import annotations

import streamlit as st

from lessons.check import classwork, views
from lessons.ui.address import choice_box
from lessons.ui.corpus import DEFAULT_TEXT, TEXT, corpus_label
from lessons.ui.escape import as_text
from lessons.ui.keys import widget_key
from lessons.ui.present import page_head
from lessons.ui.upload import read_upload
from subtok_core import bpe, bytebpe, corpus
from subtok_core.check import FORMATS
from subtok_core.check.rules import AUTO, HOMES, RULES

PAGE = "check"
# The address keeps the choices under names of this page's own (data, level, mark, split,
# rule): a parameter a page binds is dropped from the address when another page opens, so
# sharing corpus, marker or ties with /bpe would drop them from the link into /bpe.
LEVELS = ("characters", "bytes")
MARKER_HELP = (
    "none: plain characters. eow: a </w> after each word. suffix: </w> glued to the last "
    "character. sow: a ▁ before each word."
)

page_head(
    "Check your own BPE",
    "Wrote BPE yourself? Give its merges, in the order learned, and the corpus and settings "
    "you trained on. The page trains the same corpus with this lab's trainer and shows the "
    "first merge where your list differs, with the pair counts at that step and the cause. "
    "A cause is named only when training again under it (another tie rule, overlapping "
    "pairs, word frequencies ignored, pairs counted once per word, only the first "
    "occurrence merged, right-to-left merging, a lowercased corpus, another pre-split, "
    "special tokens, marker...) reproduces your merges past the difference. Uploaded files "
    "are read as data only; no code is run.",
)

exercise_names = [corpus.exercises.EXERCISE + n for n in corpus.exercise_names()]
samples = [i.name for i in corpus.list_corpora() if i.name.startswith("sample:")]
options = [*exercise_names, *corpus.toy_names(), *samples, TEXT]


def exercise_settings() -> None:
    """The corpus box's callback: a newly chosen exercise starts from its own level,
    marker and pattern. The boxes' defaults (below) give them on the page's first run;
    after it a box keyed by its parameter keeps its value whatever its default says (a
    key is a widget's identity in Streamlit), so the choice sets their values, as a
    callback may, before the run that draws them."""
    chosen = st.session_state["data"]
    if corpus.is_exercise(chosen):
        ex = views.exercises.load(chosen)
        st.session_state["level"] = LEVELS[ex.bytelevel]
        st.session_state["mark"] = ex.setting("marker", "none")
        st.session_state["split"] = ex.setting("pattern", "gpt2")


def show_verdict(verdict, failed, name: str, settings: tuple) -> None:
    """The check's outcome: the sentence of an error, "identical", or the first merge
    where the list leaves the reference, with its cause, counts and evidence (`settings`:
    the page's, bytelevel first)."""
    bytelevel = settings[0]
    if failed is not None:
        st.error(as_text(str(failed)))  # it quotes the student's line: text
    if verdict is not None and verdict.identical:
        st.success(as_text(verdict.summary()))
    elif verdict is not None:
        d = verdict.first_difference
        st.header(f"Merge {d.merge}: your list leaves the reference")
        if verdict.rule_note:
            st.markdown(as_text(verdict.rule_note))
        # the explanation names the student's symbols: as text, never markdown or KaTeX
        st.info(f"**Cause: {as_text(d.cause)}.** {as_text(d.explanation)}")
        agreed = (
            f"after the {d.merge - 1} merges you agree on"
            if d.merge > 1
            else "the corpus as it starts"
        )
        letters = " (symbols in GPT-2's byte letters: Ġ is a space, Ċ a line break)"
        st.caption(
            f"The pair counts of the reference before merge {d.merge}, {agreed}; "
            "'◀ yours' marks your merge, '◀ reference' the reference's"
            + (letters if bytelevel else "")
            + "."
        )
        frame = views.pair_frame(d)
        # every row in view (no scrolling inside the table): your pair may be the last one
        height = 35 * (len(frame) + 1) + 3
        st.dataframe(views.styled(frame), hide_index=True, width="stretch", height=height)
        views.evidence(d)
        if name == TEXT:
            st.caption(
                "To step through it in the lesson, choose 'your own text' there and paste it."
            )
        else:
            views.lesson_link(name, settings, d, verdict.ties)


c1, c2, c3, c4 = st.columns([3, 1.2, 1.2, 1])
name = choice_box(c1, "corpus", options, "data", "exercise:runs", on_change=exercise_settings)
ex = views.exercises.load(name) if corpus.is_exercise(name) else None
if ex is not None:
    c1.caption(f"For the cause **{ex.cause}**. {ex.about}")
else:
    c1.caption(corpus_label(name))
default_level = LEVELS[bool(ex and ex.bytelevel)]
level = choice_box(c2, "BPE on", LEVELS, "level", default_level)
bytelevel = level == "bytes"
if bytelevel:
    pattern = choice_box(c3, "pre-split pattern", bytebpe.PATTERNS, "split",
                           (ex and ex.setting("pattern")) or "gpt2")  # fmt: skip
    marker = "none"
else:
    marker = choice_box(c3, "marker", bpe.MARKERS, "mark",
                          (ex and ex.setting("marker")) or "none", help=MARKER_HELP)  # fmt: skip
    pattern = "gpt2"
TIES_HELP = "auto: the rule under which the reference follows your list longest. " + " ".join(
    f"{rule}: {home}." for rule, home in HOMES.items()
)
ties = choice_box(c4, "tie rule", (AUTO, *RULES), "rule", AUTO, help=TIES_HELP)
specials: tuple[str, ...] = ()
if bytelevel:
    given = " ".join(v for k, v in (ex.settings if ex else ()) if k == "special")
    typed = st.text_input("special tokens (separated by spaces; none is fine)", given,
                          key=widget_key(PAGE, f"special_{name}"))  # fmt: skip
    specials = tuple(typed.split())

own = ""
if name == TEXT:
    own = st.text_area("The text you trained on", DEFAULT_TEXT, key=widget_key(PAGE, "own"))

settings = (bytelevel, marker, pattern, ties, specials)
classwork.teacher_side(name, ex, settings)  # a teacher's class: set it as an exercise

st.header("Your merges")
left, right = st.columns(2)
upload = left.file_uploader("Upload a merges file", key=widget_key(PAGE, "upload"))
pasted = right.text_area(
    "or paste them, one merge per line ('a b')", key=widget_key(PAGE, "paste"), height=100
)


# the verdict first under the merges, then the status of the check, then the formats:
# at 1280x720 a paste's headline and cause are in the first screen (under the caption and
# the status box they started below it)
result = st.container()

text = None
if upload is not None:
    text = read_upload(upload)
elif pasted.strip():
    text = pasted

if text:
    failed = None
    with st.status("Checking your merges...") as status:  # each phase's sentence its label
        try:
            verdict = views.verdict(
                name, text, settings, own, lambda said: status.update(label=said)
            )
        except ValueError as err:
            verdict, failed = None, err
            status.update(label="Your merges could not be checked.", state="error")
        else:
            status.update(label="Checked against the reference run.", state="complete")
    with result:
        show_verdict(verdict, failed, name, settings)
else:
    st.info("Upload or paste your merges to check them.")
st.caption(f"Accepted: {FORMATS}.")

st.header("Exercise corpora")
st.write(
    "Each corpus below is written to bring out one cause. Train your BPE on it, check your "
    "merges here or with `subtok check merges FILE --corpus exercise:NAME`, or compare with "
    "the answer keys: this lab's merges under each tie rule, in the zip."
)
views.exercise_list()
