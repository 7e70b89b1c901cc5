"""What Bostrom & Durrett (002, "Byte Pair Encoding is Suboptimal for Language Model
Pretraining") print that the Compare page sets beside the user's run: the example cuts of
Figure 1 and Appendix A, Table 2 (tokens per word), and the setup they were measured on.

Each value is typed exactly as the seed text prints it, with its line in the seed file, and
tests/test_papers.py finds it there. Everything else is computed from these.

>>> EXAMPLES[0].original, EXAMPLES[0].bpe, EXAMPLES[0].unigram
('furiously', ('_fur', 'iously'), ('_fur', 'ious', 'ly'))
>>> [(p.label, p.value) for p in TABLE2]
[('tokens per word type', 4.721), ('tokens per word', 1.343)]
>>> round(SECTION4_BPE_PER_WORD, 3), round(SECTION4_UNIGRAM_PER_WORD, 3)
(1.204, 1.192)
"""

from __future__ import annotations

from dataclasses import dataclass

from .papers import BOSTROM

MARK = "_"  # 002's start-of-word marker (Figure 1's caption): ▁ in SentencePiece and here


@dataclass(frozen=True, slots=True)
class PaperCut:
    """One example of 002: the text, and its BPE and unigram LM tokens as printed (with
    the marker _), and the seed lines of the three (original, BPE, unigram LM)."""

    original: str
    bpe: tuple[str, ...]
    unigram: tuple[str, ...]
    where: str
    lines: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Printed:
    """A number as 002 prints it (``printed``, found on ``line``), and its value."""

    label: str
    printed: str
    value: float
    line: int


def _cut(text: str) -> tuple[str, ...]:
    return tuple(text.split(" "))


FIGURE1, APPENDIX_A = "Figure 1", "Appendix A"
EXAMPLES = (
    PaperCut("furiously", _cut("_fur iously"), _cut("_fur ious ly"), FIGURE1, (93, 94, 95)),
    PaperCut("tricycles", _cut("_t ric y cles"), _cut("_tri cycle s"), FIGURE1, (93, 94, 95)),
    PaperCut(
        "Completely preposterous suggestions",
        _cut("_Comple t ely _prep ost erous _suggest ions"),
        _cut("_Complete ly _pre post er ous _suggestion s"),
        FIGURE1,
        (96, 97, 98),
    ),
    PaperCut("suggestions", _cut("_sugg estions"), _cut("_sugg estions"), FIGURE1, (96, 97, 98)),
    PaperCut(
        "The quick brown fox jumps over a lazy dog.",
        _cut("_The _quick _brown _f ox _jum ps _over _a _l az y _dog ."),
        _cut("_The _quick _brown _fox _jump s _over _a _la zy _dog ."),
        APPENDIX_A,
        (211, 212, 213),
    ),
    PaperCut(
        "hypothesized",
        _cut("_hypot hes ized"),
        _cut("_hypo the s ized"),
        APPENDIX_A,
        (214, 215, 216),
    ),
    PaperCut("corrupted", _cut("_cor rupted"), _cut("_corrupt ed"), APPENDIX_A, (217, 218, 219)),
    PaperCut(
        "Between 1848 and 1852,",
        _cut("_Between _184 8 _and _185 2,"),
        _cut("_Between _1848 _and _1852 ,"),
        APPENDIX_A,
        (220, 221, 222),
    ),
    PaperCut(
        "redistribution",
        _cut("_red ist ribution"),
        _cut("_re dis tribu tion"),
        APPENDIX_A,
        (223, 224, 225),
    ),
    PaperCut(
        "nanotechnology",
        _cut("_n an ote chn ology"),
        _cut("_nano technology"),
        APPENDIX_A,
        (226, 227, 228),
    ),
)

# Table 2 (lines 112-117): the flattened table heads two columns, "BPE" and "Unigram LM",
# but keeps one number per row, in the first (BPE) column; the unigram LM values are lost.
TABLE2 = (
    Printed("tokens per word type", "4.721", 4.721, 114),
    Printed("tokens per word", "1.343", 1.343, 115),
)
TABLE2_CAPTION = Printed("across all of English Wikipedia", "across all of English Wikipedia",
                         0.0, 117)  # fmt: skip

# Section 4 (line 149): the pretraining corpus and both tokenizations of it, and Appendix B
WORDS = Printed("words of English Wikipedia", "2.5B words", 2.5e9, 149)
BPE_TOKENS = Printed("BPE tokens", "3.01B BPE tokens", 3.01e9, 149)
UNIGRAM_TOKENS = Printed("unigram LM tokens", "2.98B unigram LM tokens", 2.98e9, 149)
VOCAB = Printed("vocabulary size", "20,000 tokens", 20_000, 149)
VOCAB_APPENDIX = Printed("vocabulary size", "Vocabulary size\t20000", 20_000, 266)
PRINTED = (*TABLE2, TABLE2_CAPTION, WORDS, BPE_TOKENS, UNIGRAM_TOKENS, VOCAB, VOCAB_APPENDIX)

# tokens per running word from section 4's counts (not the definition Table 2 uses: these
# differ from its 1.343, and the paper does not say how it counted words there)
SECTION4_BPE_PER_WORD = BPE_TOKENS.value / WORDS.value
SECTION4_UNIGRAM_PER_WORD = UNIGRAM_TOKENS.value / WORDS.value


def bare_pieces(cut: tuple[str, ...]) -> tuple[str, ...]:
    """The characters of each printed piece, 002's marker removed (a lone _ is dropped).

    >>> bare_pieces(("_Between", "_184", "8"))
    ('Between', '184', '8')
    """
    return tuple(p.removeprefix(MARK) for p in cut if p != MARK)


def words_of(cut: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """A printed cut split into its words (a piece starting with _ starts a word): each
    word with its pieces.

    >>> words_of(("_Complete", "ly", "_pre", "post"))
    [('Completely', ('_Complete', 'ly')), ('prepost', ('_pre', 'post'))]
    """
    words: list[list[str]] = []
    for piece in cut:
        if piece.startswith(MARK) or not words:
            words.append([])
        words[-1].append(piece)
    return [("".join(bare_pieces(tuple(w))), tuple(w)) for w in words]


def two_cuts() -> list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    """The words 002 prints cut two different ways by the same method: (word, method, the
    first cut, the other). A tokenizer cuts a word on its own, the same way every time.

    >>> [(w, m) for w, m, *_ in two_cuts()]
    [('suggestions', 'BPE'), ('suggestions', 'unigram LM')]
    """
    found = []
    for method, named in (("bpe", "BPE"), ("unigram", "unigram LM")):  # the paper's two
        first: dict[str, tuple[str, ...]] = {}
        for example in EXAMPLES:
            for word, pieces in words_of(getattr(example, method)):
                if word in first and first[word] != pieces:
                    found.append((word, named, first[word], pieces))
                first.setdefault(word, pieces)
    return found


__all__ = ["BOSTROM", "EXAMPLES", "PRINTED", "TABLE2", "PaperCut", "Printed", "two_cuts"]
