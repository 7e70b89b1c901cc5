"""The pieces of /bytebpe: the corpus as lines of text, the pre-split, and each step
(pair table, chunks, vocabulary), with bytes written in the display the student chose."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.chips import show_chips
from lessons.ui.corpus import TEXT, UPLOAD
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.merge_lesson import pair_counts_panel
from lessons.ui.shipped import shipped_lines
from lessons.ui.store import fingerprint, run_key
from lessons.ui.upload import parsed_upload
from subtok_core import bytebpe, corpus

PAGE = "bytebpe"
DEFAULT_TEXT = "the cat sat on the mat 😀 the 東京 cat paid 1234567 yen 😀😀"
PRESPLIT_CHUNKS = 120  # chunks shown in the pre-split view (the first lines' chunks)
CORPUS_CHUNKS = 40  # chunks shown after a step
PART_COLORS = (
    "#dbeafe",
    "#dcfce7",
    "#fef9c3",
    "#fde2e4",
    "#ede9fe",
    "#cffafe",
    "#ffedd5",
    "#e5e7eb",
)
CSS = (
    "<style>.bb .chip {white-space: pre;} .bb sub {font-size: .6em; color: #4f5a66;}"
    + " .bb .word {display: inline-block; white-space: normal; margin-right: .8em;}"
    + "".join(f" .bb .p{k} {{background: {c};}}" for k, c in enumerate(PART_COLORS))
    + "</style>"
)
DISPLAY_LABELS = {"hex": "text + <hex>", "gpt2": "GPT-2 letters"}


def shown(token: str | bytes, style: str) -> str:
    """A symbol (GPT-2 letters) or bytes as the student reads them in this display; in
    "hex" a space is written ␣, so that a chip or a cell holding one does not look empty
    (0x20 is never part of a longer UTF-8 character, so cutting there splits none)."""
    if style != "hex":
        return bytebpe.show(token, style)
    data = bytebpe.to_bytes(token) if isinstance(token, str) else bytes(token)
    return "␣".join(bytebpe.show(part, "hex") for part in data.split(b" "))


def quoted(token: str | bytes, style: str) -> str:
    """As `shown`, quoted in "hex" (where a whole character may be a token)."""
    return f"'{shown(token, style)}'" if style == "hex" else shown(token, style)


def pair_label(pair, style: str) -> str:
    return f"{quoted(pair[0], style)} + {quoted(pair[1], style)}"


# --- the corpus: lines of running text (the pattern needs the spaces) -------------------


def non_empty_lines(text: str) -> tuple[str, ...]:
    return tuple(line for line in text.splitlines() if line.strip())


def corpus_lines(name: str, row) -> tuple[tuple[str, ...], str] | None:
    """The corpus panel: the lines to train on and their fingerprint; None after an
    st.error or an st.info when there is nothing to train on yet. In the settings popover
    of `row`, as on the other lessons (the steps come first); on the page, open, where the
    student has to type or upload (hidden at the projector: its key holds "_edit_")."""
    if name in (TEXT, UPLOAD):
        panel = st.container(key=widget_key(PAGE, "edit_corpus")).expander(
            "The corpus", expanded=True
        )
    else:
        row.box.markdown("**The corpus**")
        panel = row.box.container()
    with panel:
        try:
            if name == TEXT:
                text = st.text_area("Your text", DEFAULT_TEXT, key=widget_key(PAGE, "text"))
                lines = tuple(line for line in text.splitlines() if line.strip())
            elif name == UPLOAD:
                upload = st.file_uploader(
                    "A UTF-8 .txt file (20 MB at most)", key=widget_key(PAGE, "upload")
                )
                if upload is None:
                    st.info("Upload a file to train on it.")
                    return None
                lines = parsed_upload(upload, "lines", non_empty_lines)
            else:
                lines, key = shipped_lines(name)
                info = next(i for i in corpus.list_corpora() if i.name == name)
                many = f"{len(lines):,} lines; the first ones" if len(lines) > 1 else "Its text"
                st.caption(f"Source: {info.source}. {many}:")
                st.code(
                    "\n".join(
                        line[:300].rstrip("\n") for line in lines[:8]
                    ),  # a file keeps its breaks
                    language=None,
                    wrap_lines=True,
                )
        except ValueError as err:
            st.error(plain(str(err)))
            return None
    if not lines:
        st.error("The text is empty: type or upload some words first.")
        return None
    if name in (TEXT, UPLOAD):
        key = fingerprint(lines)
    return lines, key


# --- the pre-split -------------------------------------------------------------------------


def presplit_panel(lines, pattern: str, style: str) -> None:
    """The chunks of the first lines as chips, each marked with the part that matched it,
    and the pattern part by part with what each part matches."""
    st.caption(
        f"{bytebpe.TITLES[pattern]} cuts the text into chunks before any merge; merges never "
        "cross a chunk. Each chunk is marked with the number of the part of the pattern "
        "that matched it (the parts are tried left to right at every position); ␣ is a space."
    )
    found = []
    for line in lines:
        found += bytebpe.chunks(line, pattern)
        if len(found) >= PRESPLIT_CHUNKS:
            break
    parts = bytebpe.PARTS[pattern]
    show_chips(
        "".join(
            f'<span class="chip p{c.part % len(PART_COLORS)}" '
            f'title="part {c.part + 1}: {html.escape(parts[c.part][1])}">'
            f"{as_text(shown(c.text.encode(), style))}<sub>{c.part + 1}</sub></span>"
            for c in found[:PRESPLIT_CHUNKS]
        ),
        css=CSS,
        kind="bb",
    )
    counts = [sum(1 for c in found[:PRESPLIT_CHUNKS] if c.part == k) for k in range(len(parts))]
    table = pd.DataFrame(
        {
            "part": range(1, len(parts) + 1),
            "regular expression": [regex for regex, _ in parts],
            "matches": [meaning for _, meaning in parts],
            "chunks above": counts,
        }
    )
    st.dataframe(table, hide_index=True, width="stretch")
    st.caption(
        "GPT-2 keeps the space before a word with the word, so ' the' and 'the' are "
        "different chunks and become different tokens; cl100k_base cuts numbers into groups "
        "of at most three digits ('12345' is '123' + '45'). Switch the pattern to compare."
    )


# --- one step: the pair table, the chunks, the vocabulary -----------------------------------


def pair_panel(trace, i: int, step, style: str) -> None:
    """The pair counts before merge i (the most frequent ones), merged and tied pairs marked."""
    pair_counts_panel(trace, i, step, lambda pair: pair_label(pair, style))


def chunks_and_vocab(trace, i: int, new: set[str], style: str) -> None:
    """The chunks after step i as chips (the newest symbol red) and the vocabulary: the
    256 bytes, then the symbols learned so far."""

    def draw() -> None:
        st.subheader("Chunks" + (f" after merge {i}" if i else ""))
        rows = bytebpe.corpus_at(trace, i, CORPUS_CHUNKS)
        show_chips(
            "".join(
                f'<div class="word">{symbol_chips(symbols, new, style)} '
                f'<small aria-hidden="true">× {n}</small>'
                f'<span class="sr-only">, {n} times</span></div>'
                for _chunk, n, symbols in rows
            ),
            css=CSS,
            kind="bb",
        )
        total = len(trace.start.words)
        if total > len(rows):
            st.caption(f"The first {len(rows)} of {total:,} distinct chunks.")
        vocab = bytebpe.model_from_trace(trace, i).vocab
        learned = vocab[256:]
        st.subheader(f"Vocabulary: 256 bytes + {len(learned):,} learned = {len(vocab):,}")
        shown_learned = learned[-240:]
        show_chips(
            symbol_chips(shown_learned, new, style) or "<small>nothing learned yet</small>",
            css=CSS,
            kind="bb",
        )
        if len(learned) > len(shown_learned):
            st.caption(f"The newest {len(shown_learned)} learned symbols are shown.")

    cached.drawn(run_key(trace), ("bytebpe chunks", i, style, tuple(sorted(new))), draw)
    with st.expander("The 256 byte values every byte-level vocabulary starts with"):
        show_chips(symbol_chips(bytebpe.BASE_SYMBOLS, (), style), css=CSS, kind="bb")
        st.caption(
            "In id order (the order of their GPT-2 letters, as Hugging Face numbers them). "
            "In the hex display a byte that is no whole character is written <hex>."
        )


def symbol_chips(symbols, new, style: str) -> str:
    """Symbols (GPT-2 letters) as chips in the display; those in `new` red with a double
    outline, and "new symbol" for a screen reader."""
    said = '<span class="sr-only"> (new symbol)</span>'
    return "".join(
        f'<span class="chip{" new" if s in new else ""}">{as_text(shown(s, style))}</span>'
        + (said if s in new else "")
        for s in symbols
    )
