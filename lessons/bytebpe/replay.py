"""The encode replay of /bytebpe (the trained model, or cl100k_base's or Tekken's ranks, rank
by rank) and BPE-dropout on bytes."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.bytebpe.views import CSS, PAGE, pair_label, quoted, shown, symbol_chips
from lessons.ui.chips import show_chips
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint, run_key
from subtok_core import bytebpe

DEFAULT_TEXT = "hello 😀 world 12345"
VOCABS = {
    "trained": "the tokenizer trained here (up to this step)",
    "cl100k_base": "GPT-4's cl100k_base",
    "tekken": "Mistral's Tekken",
}
DROPOUT_MAX_CHARS = 60  # a few words: every sample is shown
SIDE_BY_SIDE = 12
SEED_MAX = 2**31 - 1


@st.cache_resource(max_entries=16, show_spinner=False)
def _trained_encoder(run: str, i: int, _trace) -> bytebpe.Encoder:
    return bytebpe.for_model(bytebpe.model_from_trace(_trace, i))


def encoder_for(vocab: str, trace, i: int) -> bytebpe.Encoder:
    """The encoder, built once: the trained model's per run and step (lessons.ui.cached's key),
    a pretrained tokenizer's once per server (bytebpe.for_tokenizer)."""
    if vocab != "trained":
        return bytebpe.for_tokenizer(vocab)
    run = run_key(trace)
    if run is None:
        return bytebpe.for_model(bytebpe.model_from_trace(trace, i))
    return _trained_encoder(run, i, trace)


def replay_panel(trace, i: int, style: str) -> None:
    """Type a text: its chunks, one chunk's merges rank by rank, and every token with its id."""
    st.subheader("Encode a text, merge by merge")
    left, right = st.columns([3, 2])
    text = left.text_input("text to encode", DEFAULT_TEXT, key=widget_key(PAGE, "encode"))
    vocab = right.radio(
        "vocabulary", list(VOCABS), format_func=VOCABS.get, key=widget_key(PAGE, "vocab")
    )
    try:
        with st.spinner("Loading the ranks ..."):
            encoder = encoder_for(vocab, trace, i)
        replays = bytebpe.replay_text(encoder, text, where="web")
    except ValueError as err:
        st.error(plain(str(err)))
        return
    if not replays:
        st.info("Type a text to encode.")
        return
    st.caption(
        "The text is cut by the "
        + ("model's pattern" if vocab == "trained" else f"{VOCABS[vocab]}'s pattern")
        + "; each chunk starts as its bytes, and the pair of the lowest rank is merged "
        "(the leftmost of equals) until no pair has a rank"
        + (" (a trained model's rank: the number of its merge)." if vocab == "trained" else ".")
    )
    chips = (f'<span class="chip">{as_text(shown(r.data, style))}</span>' for r in replays)
    show_chips("".join(chips), css=CSS, kind="bb")
    most = max(range(len(replays)), key=lambda k: len(replays[k].merges))
    pick = st.selectbox(
        "chunk to replay",
        range(len(replays)),
        index=most,
        format_func=lambda k: f"{k + 1}: {quoted(replays[k].data, style)}",
        key=widget_key(PAGE, f"chunk_{fingerprint(text, vocab)[:10]}"),
    )
    chunk_table(replays[pick], encoder.rank_word, style)
    tokens_table(replays, style)


def chunk_table(replay, rank_word: str, style: str) -> None:
    """One chunk: its single bytes, then each merge with its rank and the parts after it."""
    rows = [
        {
            "step": k,
            "pair": "" if merge is None else pair_label((merge.left, merge.right), style),
            rank_word: None if merge is None else merge.rank,
            "parts after": "  ".join(f"[{shown(p, style)}]" for p in parts),
        }
        for k, (merge, parts) in enumerate(replay.rows())
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if replay.whole:
        st.caption(
            "This chunk is itself a token of the vocabulary, so tiktoken takes it whole; "
            "the merges above reach the same token."
        )


def tokens_table(replays, style: str) -> None:
    """Every token of the text with its id and bytes: a character cut apart shows as the
    hex of its bytes in each of its tokens."""
    rows = [
        {"token": shown(t, style), "id": n, "bytes": " ".join(f"{b:02X}" for b in t)}
        for r in replays
        for t, n in zip(r.tokens, r.ids, strict=True)
    ]
    ids = [row["id"] for row in rows]
    st.write(f"**{len(rows)} tokens**, ids: {', '.join(map(str, ids))}")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def dropout_panel(model, style: str) -> None:
    """BPE-dropout on each chunk's bytes with the model's merges: several samples side by side."""
    st.caption(
        "At every merge step each possible merge of a chunk is skipped with probability p; "
        "of those left, the one learned first is made. p = 0 is the plain encoding, p = 1 "
        "leaves every chunk as its single bytes (Provilkov et al., 2020)."
    )
    c1, c2, c3, c4 = st.columns([3, 2, 1, 1])
    text = c1.text_input(
        "text", "the cat 😀", max_chars=DROPOUT_MAX_CHARS, key=widget_key(PAGE, "drop_text")
    )
    p = c2.slider("dropout probability p", 0.0, 1.0, 0.1, 0.05, key=widget_key(PAGE, "drop_p"))
    n = c3.number_input("samples", 1, SIDE_BY_SIDE, 5, key=widget_key(PAGE, "drop_n"))
    seed = c4.number_input("random seed", 0, SEED_MAX, 0, key=widget_key(PAGE, "drop_seed"))
    try:
        drawn = bytebpe.dropout_samples(model, text[:DROPOUT_MAX_CHARS], p, int(n), int(seed))
        plain = tuple(bytebpe.segment(model, text[:DROPOUT_MAX_CHARS]).pieces)
    except ValueError as err:
        st.error(plain(str(err)))
        return
    rows = [_row("plain", plain, (), style)]
    rows += [_row(f"sample {k}", pieces, plain, style) for k, pieces in enumerate(drawn, 1)]
    show_chips("".join(rows), css=CSS, kind="bb")
    st.caption("Red: a piece the plain encoding does not use for this text.")


def _row(label: str, pieces, plain, style: str) -> str:
    odd = set(pieces) - set(plain) if plain else set()
    return (
        f"<div>{as_text(label)} <small>({len(pieces)} tokens)</small>: "
        f"{symbol_chips(pieces, odd, style)}</div>"
    )
