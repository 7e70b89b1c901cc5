"""Several tokenizers side by side: the ones trained here and real pretrained ones.

Every trained tokenizer learns from the same words to the same vocabulary size: BPE with
the ``▁`` word-start marker (as SentencePiece, so its pieces read like Unigram's),
WordPiece with ``##`` for word-internal pieces, Unigram by EM as SentencePiece trains it.
Pretrained tokenizers (GPT-4's cl100k_base, Mistral's, an uploaded tokenizer.json) join
them by name; they encode text with their own library and are measured the same way.

>>> from subtok_core.corpus import load
>>> wc = load("toy:cat-bat")
>>> models = {kind: train(kind, wc, 12) for kind in ("bpe", "wordpiece")}
>>> coded = {kind: encode(model, "cats bag") for kind, model in models.items()}
>>> [(s.text, s.start, s.end) for s in coded["bpe"].spans]
[('▁cat', 0, 3), ('s', 3, 4), ('▁b', 5, 6), ('ag', 6, 8)]
>>> [s.text for s in coded["wordpiece"].spans]
['cats', 'ba', '##g']
>>> sorted(unshared(coded)["wordpiece"])
[(0, 4), (5, 7), (7, 8)]
"""

from __future__ import annotations

from collections.abc import Mapping

from . import registry
from .corpus import WordCounts
from .entry import Algorithm
from .measure.tokenized import BYTES_SHOWN, Tokenized, tokenize_with
from .pretrained import LABELS as PRETRAINED_LABELS
from .records import Encoded, Progress
from .tokenizer import tokenizer, unknown_id  # noqa: F401  (compare.unknown_id)

KINDS = tuple(name for name, algo in registry.ALGORITHMS.items() if algo.for_compare)
# shown as their lesson page last trained them in the session (SaGe), not trained here
FROM_PAGE = tuple(name for name, algo in registry.ALGORITHMS.items() if algo.compare_from_page)
PRETRAINED = tuple(registry.PRETRAINED)
LABELS = {**registry.LABELS, **{name: PRETRAINED_LABELS[name] for name in PRETRAINED}}
MIN_KINDS, MAX_KINDS = 2, 6


def parse_kinds(text: str, known: tuple[str, ...] = KINDS + PRETRAINED) -> tuple[str, ...]:
    """'bpe,unigram' -> ('bpe', 'unigram'), refusing unknown names and the wrong count.

    >>> parse_kinds("unigram, bpe, CL100K_base")
    ('unigram', 'bpe', 'cl100k_base')
    """
    kinds = tuple(dict.fromkeys(k.strip().lower() for k in text.split(",") if k.strip()))
    unknown = [k for k in kinds if k not in known]
    if unknown:
        raise ValueError(f"Unknown tokenizer {unknown[0]!r}; choose from {', '.join(known)}.")
    if not MIN_KINDS <= len(kinds) <= MAX_KINDS:
        raise ValueError(
            f"Compare {MIN_KINDS} to {MAX_KINDS} tokenizers at a time, not {len(kinds)}."
        )
    return kinds


def read_kinds(
    text: str, known: tuple[str, ...] = KINDS + PRETRAINED
) -> tuple[tuple[str, ...], str]:
    """The tokenizers a link names that can be used, and a sentence on the rest ('' if
    the link is fine): unknown names are left out, every known one kept (the first
    MAX_KINDS), and the trained ones added up to MIN_KINDS (all of them if none is left).

    >>> read_kinds("bpe, CL100K_base")
    (('bpe', 'cl100k_base'), '')
    >>> read_kinds("bpe,nonsense")[0]
    ('bpe', 'wordpiece')
    >>> kinds, why = read_kinds("bpe,hf:mine.json,cl100k_base")
    >>> kinds, why.split(" this")[0]
    (('bpe', 'cl100k_base'), "'hf:mine.json' is not a tokenizer")
    """
    names = tuple(dict.fromkeys(k.strip().lower() for k in text.split(",") if k.strip()))
    kinds = [k for k in names if k in known]
    unknown = [k for k in names if k not in known]
    said = []
    if unknown:
        said.append(_unknown_sentence(unknown, known))
    if len(kinds) > MAX_KINDS:
        said.append(f"Compare {MAX_KINDS} at a time: the first {MAX_KINDS} are kept.")
        kinds = kinds[:MAX_KINDS]
    if not kinds:
        kinds = list(KINDS)
    for kind in KINDS:
        if len(kinds) >= MIN_KINDS:
            break
        if kind not in kinds:
            kinds.append(kind)
    return tuple(kinds), " ".join(said)


def _unknown_sentence(unknown: list[str], known: tuple[str, ...]) -> str:
    """Why the page cannot use the tokenizers `unknown` a link names, in one sentence."""
    quoted = ", ".join(repr(k) for k in unknown)
    said = f"{quoted} {'is not a tokenizer' if len(unknown) == 1 else 'are no tokenizers'}"
    if any(k.startswith(("hf:", "upload:")) for k in unknown):
        why = "an uploaded tokenizer.json stays with the browser session that uploaded it; "
        return f"{said} this page has: {why}upload it again."
    later = [registry.LABELS[k] for k in unknown if k in FROM_PAGE]
    if later:
        return (
            f"{said} this page has yet: {later[0]} joins once the {later[0]} page has trained one."
        )
    return f"{said} this page has (choose from {', '.join(known)})."


def train(kind: str, wc: WordCounts, vocab_size: int, progress: Progress = None):
    """One tokenizer's model, trained on `wc` to `vocab_size` pieces as Compare trains it."""
    if kind not in KINDS:
        raise ValueError(f"Unknown tokenizer {kind!r}; choose from {', '.join(KINDS)}.")
    algo = registry.get(kind)
    return algo.model_at(algo.for_compare(wc, vocab_size, progress))


def entry(kind: str) -> Algorithm | None:
    """The registry entry of the tokenizer `kind`, if it is an algorithm of ours (None for
    a pretrained or uploaded tokenizer): what a page asks of it rather than its name.

    >>> entry("unigram").paper_002, entry("cl100k_base")
    ('unigram LM', None)
    """
    return registry.ALGORITHMS.get(kind)


def cli_command(kind: str, corpus_name: str, vocab_size: int, split_punct: bool = False) -> str:
    """The command line that trains the tokenizer `kind` as Compare trains it (its marker
    and method written out: `subtok train bpe` marks nothing unless asked).

    >>> cli_command("bpe", "toy:low-lower", 14)
    'subtok train bpe --corpus toy:low-lower --vocab-size 14 --marker sow'
    """
    if kind not in KINDS:
        raise ValueError(f"Unknown tokenizer {kind!r}; choose from {', '.join(KINDS)}.")
    written = registry.get(kind).compare_options
    options = f" {written}" if written else ""
    options += " --split-punct" if split_punct else ""
    return f"subtok train {kind} --corpus {corpus_name} --vocab-size {vocab_size}{options}"


def encode_corpus(model, lines, name: str, report: Progress = None) -> Tokenized:
    """A whole corpus (its `lines`) encoded by a trained model, for the measures: what
    Compare sends to a worker process (subtok_core.parallel calls it with `report`), so
    that the corpus is encoded by every tokenizer at once."""
    return tokenize_with(model, list(lines), name)


def encode(model, text: str) -> Encoded:
    """`text` encoded by any trained model or pretrained tokenizer, with token ids."""
    return tokenizer(model).encode(text)


def byte_pieces(encoded: Encoded, text: str) -> set[int]:
    """The positions of the tokens that hold only part of a character (a byte-level
    tokenizer cut the character's UTF-8 bytes apart, or a SentencePiece model fell back to
    bytes): they are shown as hex bytes, which the text itself does not contain there.

    >>> from subtok_core.records import Span
    >>> spans = (Span("ok", 0, 2), Span(" <F0 9F>", 2, 4), Span("<98 80>", 3, 4))
    >>> coded = Encoded(spans, (1, 2, 3))
    >>> sorted(byte_pieces(coded, "ok 😀"))
    [1, 2]
    """
    shown = ((i, span, text[span.start : span.end]) for i, span in enumerate(encoded.spans))
    return {
        i
        for i, span, covered in shown
        if any(m.group() not in covered for m in BYTES_SHOWN.finditer(span.text))
    }


def vocabulary(model, t: Tokenized) -> tuple[str, ...]:
    """The vocabulary the vocabulary measures read: a trained model's whole vocabulary; of
    a pretrained tokenizer (100,000 entries made on other text) the pieces it used on the
    corpus `t`, since most of the rest never occurs there."""
    return tokenizer(model).vocabulary(t.pieces)


def unshared(encoded: Mapping[str, Encoded]) -> dict[str, set[tuple[int, int]]]:
    """Per tokenizer, the character spans (start, end) of its tokens that not every
    tokenizer has: where they cut the text differently. Markers covering no character
    are left out."""
    cuts = {
        kind: {(s.start, s.end) for s in enc.spans if s.end > s.start}
        for kind, enc in encoded.items()
    }
    common = set.intersection(*cuts.values()) if cuts else set()
    return {kind: spans - common for kind, spans in cuts.items()}
