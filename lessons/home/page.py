"""Home: what each lesson teaches, with a link to it."""

import pandas as pd
import streamlit as st

from lessons.ui.a11y import POLL_KEY
from lessons.ui.keys import widget_key
from subtok_core import wordlevel


def word_level_opening() -> None:
    """003's opening: a vocabulary of whole words with IDs, an unknown word, why subwords."""
    st.header("Why subwords? A vocabulary of whole words")
    st.write(
        "The 003 slides (*Sub-word Tokenization*) begin here: split a corpus into words at "
        "the spaces (punctuation on its own) and give each distinct word an ID, with one "
        "more ID, `<UNK>`, for every word the corpus does not have. Their corpus:"
    )
    st.markdown(f"> {wordlevel.CORPUS_003}")
    vocab = wordlevel.word_vocab(wordlevel.CORPUS_003)
    left, right = st.columns([1, 2])
    left.dataframe(pd.DataFrame(vocab.items(), columns=["word", "ID"]), hide_index=True)
    text = right.text_input(
        "A new sentence, written as IDs", "I love bananas and aples.",
        key=widget_key("home", "sentence"),
    )  # fmt: skip
    try:
        ids = wordlevel.word_ids(vocab, text)
    except ValueError as err:
        right.error(str(err))
        return
    right.dataframe(pd.DataFrame(ids, columns=["word", "ID"]), hide_index=True)
    lost = wordlevel.unknown(vocab, text)
    if not lost:
        right.write("Every word is in the vocabulary: try one the corpus lacks, e.g. *bananas*.")
        return
    spelled = [u for u in lost if not wordlevel.unseen_letters(wordlevel.CORPUS_003, u)]
    right.write(
        f"{', '.join(f'*{u}*' for u in lost)} {'is' if len(lost) == 1 else 'are'} not in the "
        f"corpus, so each becomes `{wordlevel.UNK}` (ID {vocab[wordlevel.UNK]}): whatever its "
        "letters say is lost, and every unknown word looks the same. 003 adds that a "
        "misspelled word still carries its morphology, yet becomes an unknown word."
        + (
            f" Yet {', '.join(f'*{u}*' for u in spelled)} uses only characters of the "
            "corpus: smaller pieces could still spell it."
            if spelled
            else ""
        )
    )
    st.write(
        "So sub-word units are favored (003): frequent words stay whole, and rare or unseen "
        "words are spelled from smaller pieces learned from the corpus, so a word needs "
        "`<UNK>` only for a character the corpus never had. The lessons below learn those "
        "pieces, starting with BPE."
    )
    st.page_link(
        "lessons/bpe/page.py", label="Learn the pieces with BPE", icon=":material/join_inner:"
    )


st.title("subtok: a lab for subword tokenization")
st.write(
    "Language models read text as *subwords*: pieces between single characters and whole "
    "words. This lab lets you watch the algorithms that choose those pieces work one step "
    "at a time on the small corpora of the course material, then on real text."
)

word_level_opening()

LESSONS = [
    (
        "lessons/bpe/page.py",
        "Byte-pair encoding (BPE)",
        ":material/join_inner:",
        "Start from characters and merge the most frequent pair of adjacent symbols, again "
        "and again. See the pair counts, the chosen pair, the corpus and the vocabulary after "
        "each merge; predict the next merge; replay the merges to encode a new word.",
    ),
    (
        "lessons/bytebpe/page.py",
        "Byte-level BPE",
        ":material/memory:",
        "BPE as GPT models run it: a regular expression cuts the text into chunks, then "
        "BPE merges their UTF-8 bytes, step by step. Encode by replaying the merges rank "
        "by rank, with your own merges or GPT-4's cl100k_base.",
    ),
    (
        "lessons/picky/page.py",
        "Picky BPE",
        ":material/filter_alt:",
        "BPE that removes what it no longer needs (Chizhov et al., 2024): after each merge, "
        "a part mostly used up by it (IoS above τ) is removed and falls back to its pieces. "
        "Predict the next merge, or which part goes.",
    ),
    (
        "lessons/superbpe/page.py",
        "SuperBPE",
        ":material/link:",
        "Tokens that cross spaces: byte-level BPE up to a transition point, then supermerges "
        'that join neighbouring words, so " of the people" becomes one token.',
    ),
    (
        "lessons/boundless/page.py",
        "BoundlessBPE",
        ":material/merge:",
        "Ordinary merges and supermerges across spaces compete for one budget: at each step "
        "the best supermerge wins when it occurs more often than the next ordinary merge.",
    ),
    (
        "lessons/wordpiece/page.py",
        "WordPiece",
        ":material/percent:",
        "BPE's sibling: merge the pair with the highest score count(ab) / (count(a) × "
        "count(b)), shown as exact fractions, and see where it disagrees with BPE. Encode by "
        "longest match first, and see why a whole word becomes [UNK].",
    ),
    (
        "lessons/unigram/page.py",
        "Unigram LM",
        ":material/content_cut:",
        "Work top-down: seed a big vocabulary, give every piece a probability, segment each "
        "word with Viterbi, and prune the pieces whose removal costs the corpus least. The "
        "course material's textbook variant with exact numbers, and real EM with expected "
        "counts and the word lattice.",
    ),
    (
        "lessons/sage/page.py",
        "SaGe",
        ":material/hub:",
        "Context-aware pruning (SaGe paper): start from a BPE vocabulary that is too big and "
        "remove, step by step, the pieces whose removal hurts a skipgram context loss least. "
        "Watch the loss and the candidates step by step, see one sentence cut with and "
        "without a piece, and compare BPE, SaGe and two control prunings (by frequency, at "
        "random) on the paper's charts, with a verdict on which trends this sample shows.",
    ),
    (
        "lessons/parity/page.py",
        "Parity-aware BPE",
        ":material/balance:",
        "BPE for several languages at once (Foroutan, Meister et al., 2025): before each "
        "merge, encode a parallel dev set in every language and serve the longest, its own "
        "most frequent pair merged. Watch the dev lengths per language step by step, beside "
        "ordinary BPE on the same corpora.",
    ),
    (
        "lessons/compare/page.py",
        "Compare",
        ":material/compare:",
        "Train BPE, WordPiece and Unigram on the same corpus to the same size, type any text "
        "and see where they cut it differently, then compare them on the charts of the SaGe "
        "and Bostrom & Durrett papers: token lengths, tokens per word, distinct neighbours, "
        "frequency profiles, the tokens each uses more. Train on one sample, measure on "
        "another.",
    ),
    (
        "lessons/check/page.py",
        "Check your own BPE",
        ":material/fact_check:",
        "Wrote BPE yourself? Upload its merges and see the first merge where they leave this "
        "lab's trainer, the pair counts at that step, and why: a tie, overlapping pairs, "
        "pairs across boundaries, counts not updated, special tokens, the pre-split or the "
        "marker. Exercise corpora for each cause, with answer keys.",
    ),
    (
        "lessons/vocab/page.py",
        "Inside a vocabulary",
        ":material/dictionary:",
        "Open any token of GPT-4's, Mistral's or your own vocabulary: its bytes, the merges "
        "that build it, and whether any text can produce it. Sort whole vocabularies into "
        "special, partial, unreachable and unused tokens, and see a chat as its tokens.",
    ),
    (
        "lessons/notes/page.py",
        "Notes on the material",
        ":material/rule:",
        "The slips of the course material, each beside the number this app computes: a "
        "rounding, a miscount, a sign turned around, a tie that is no tie. Every note says "
        "why the two differ and opens the lesson at the spot.",
    ),
]

st.header("Lessons")
for path, label, icon, text in LESSONS:
    with st.container(border=True):
        st.page_link(path, label=label, icon=icon)
        st.write(text)

st.header("Teach a class")
st.write(
    "A class can follow the lesson on their phones and predict each step: on BPE, "
    f"WordPiece or Unigram, press **Class poll** beside the step controls (key {POLL_KEY}) and "
    "open a poll; the students scan its QR code, or open *Join a poll* and type its room "
    "code, and their phones show your step and its question, anonymously."
)
st.page_link("lessons/poll/page.py", label="Join a poll (students)", icon=":material/how_to_vote:")

st.header("Share a view")
st.write(
    "Every lesson keeps its choices in the address bar: copy the URL to reopen exactly the "
    "same step, e.g. `/bpe?corpus=toy:low-lower&marker=eow&step=3`."
)
