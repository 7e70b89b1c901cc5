"""Byte-level BPE training: BPE's trainer on the UTF-8 bytes of the pre-split chunks.

The text is cut into chunks by a pattern (``patterns``), the chunks are counted in the
order they first appear, and each chunk starts as its bytes: the 256 byte values are the
base vocabulary, whether the corpus uses them or not. From there it is BPE exactly: the
same incremental trainer, step records and tie rules (``bpe/train.py``), with every byte
written as its GPT-2 letter so that symbols are strings.

Worked example (hand count): the text "aaab aab" cut by GPT-2's pattern gives the chunks
"aaab" and " aab". Pairs: (a,a) 2 + 1 = 3, (a,b) 1 + 1 = 2, (Ġ,a) 1; so "aa" first. Then
"aa a b" and "Ġ aa b" have (aa,a) 1, (a,b) 1, (Ġ,aa) 1, (aa,b) 1: a four-way tie at
count 1, which ``first`` breaks by the first pair in the corpus, (aa, a).

>>> trace = trace_bytebpe(["aaab aab"], merges=2)
>>> [(step.pair, step.count) for step in trace.steps]
[(('a', 'a'), 3), (('aa', 'a'), 1)]
>>> corpus_at(trace, 2)
[('aaab', 1, ('aaa', 'b')), (' aab', 1, ('Ġ', 'aa', 'b'))]

Ties: ``first`` (default) takes the pair seen first, chunks in first-appearance order and
bytes left to right; ``lex`` the smallest pair comparing the bytes (b"\\x00" first, then
b"\\x01"..., so " t" comes before "th"); ``tokenizers`` the pair of the smallest ids, as
Hugging Face's BpeTrainer with the ByteLevel alphabet does: the 256 bytes numbered in the
code-point order of their GPT-2 letters (``symbols.BASE_SYMBOLS``: "!" is 0 and the space,
Ġ, comes after ÿ), then merged symbols in the order they are made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..bpe.encode import word_segmenter as bpe_segmenter
from ..bpe.records import BpeModel
from ..bpe.train import BpeState, run_merges
from ..corpus import WordCounts, file_lines, is_exercise, is_toy, load_lines
from ..corpus.files import read_file
from ..merging import collect_steps, merge_goal, snapshot_mode, stop_reason
from ..records import Trace
from .patterns import check_pattern, compiled
from .records import ByteBpeModel
from .symbols import BASE_SYMBOLS, to_bytes, to_letters

SNAPSHOT_MAX_CHUNKS = 400  # corpora with more distinct chunks get compact steps

Source = str | Sequence[str] | WordCounts  # a text, its lines, or a word-count table


@dataclass(frozen=True, slots=True)
class Chunked:
    """Chunks already cut by `pattern` and counted (a big file read by corpus.stream):
    training starts from these counts, as it would from the lines they were cut from."""

    chunks: WordCounts
    pattern: str


def load(name: str, *, allow_paths: bool = False) -> tuple[str, ...]:
    """A corpus name -> its lines of text (the pattern splits them when training). A file
    (the command line) keeps its line breaks, each line ending with its own: they are
    bytes to learn, as they are for Hugging Face's trainer given the same file."""
    if allow_paths and not (is_toy(name) or is_exercise(name) or name.startswith("sample:")):
        return file_lines(read_file(name, allow_paths))
    return tuple(load_lines(name, allow_paths=allow_paths))


def chunk_counts(source: Source, pattern: str) -> WordCounts:
    """The chunks of a text (or of each line, or of each word of a table) cut by the
    pattern, counted in the order they first appear.

    >>> chunk_counts(["the cat", "the hat"], "gpt2").items()
    [('the', 2), (' cat', 1), (' hat', 1)]
    """
    check_pattern(pattern)
    find = compiled(pattern).findall
    if isinstance(source, str):
        source = [source]
    rows = source.items() if isinstance(source, WordCounts) else ((line, 1) for line in source)
    counts: dict[str, int] = {}
    for line, n in rows:
        for chunk in find(line):
            counts[chunk] = counts.get(chunk, 0) + n
    if not counts:
        raise ValueError("The corpus is empty: the pattern found no chunk in it.")
    return WordCounts(tuple(counts), tuple(counts.values()), getattr(source, "name", ""))


def _state(chunks: WordCounts, ties: str, snapshot: bool) -> BpeState:
    """BPE's training state with the 256 bytes as its alphabet: rule ``lex`` compares the
    bytes, not their GPT-2 letters, and "[UNK]" is five bytes like any others."""
    segs = [list(to_letters(chunk.encode("utf-8"))) for chunk in chunks.words]
    return BpeState.from_symbols(
        chunks, segs, list(BASE_SYMBOLS), ties, snapshot, symbol_key=to_bytes, refuse_unknown=False
    )


def _start(source: Source | Chunked, pattern: str, ties: str, snapshot):
    if isinstance(source, Chunked) and source.pattern != pattern:
        raise ValueError(f"These chunks were cut by {source.pattern!r}, not {pattern!r}.")
    chunks = source.chunks if isinstance(source, Chunked) else chunk_counts(source, pattern)
    return chunks, _state(chunks, ties, snapshot_mode(chunks, snapshot, SNAPSHOT_MAX_CHUNKS))


def iter_bytebpe(
    source: Source | Chunked,
    merges: int | None = None,
    vocab_size: int | None = None,
    pattern: str = "gpt2",
    ties: str = "first",
    snapshot: bool | None = None,
) -> Iterator:
    """Yield one BpeStep per merge (symbols in GPT-2 letters) until the number of merges
    or the vocab size (256 bytes included) is reached, or no pair is left."""
    _, state = _start(source, pattern, ties, snapshot)
    goal = merge_goal(len(state.vocab), merges, vocab_size, " (the 256 byte values)")
    yield from run_merges(state, goal, merges is not None)


def trace_bytebpe(
    source: Source | Chunked,
    merges: int | None = None,
    vocab_size: int | None = None,
    pattern: str = "gpt2",
    ties: str = "first",
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Trace:
    """Run the merges to the end; keep the start (the chunks, their counts and bytes),
    every step and why it stopped. How its bytes are written (hex or GPT-2 letters) is the
    reader's choice, not a training parameter (see io.py)."""
    chunks, state = _start(source, pattern, ties, snapshot)
    start = state.start(chunks)
    goal = merge_goal(len(start.vocab), merges, vocab_size, " (the 256 byte values)")
    steps = collect_steps(run_merges(state, goal, merges is not None), goal, progress)
    made = len(steps) if merges is not None else len(state.vocab) - len(start.vocab)
    truncated, reason = stop_reason(made, goal, merges, vocab_size, len(steps))
    params = (("pattern", pattern), ("ties", ties), ("merges", merges),
              ("vocab_size", vocab_size))  # fmt: skip
    return Trace("bytebpe", params, start, tuple(steps), truncated, reason, not state.snapshot)


def model_from_trace(trace: Trace, upto: int | None = None) -> ByteBpeModel:
    """The model after the first `upto` merges of a trace (all of them by default)."""
    steps = trace.steps[:upto] if upto is not None else trace.steps
    vocab = list(trace.start.vocab)
    vocab += [step.new_symbol for step in steps if step.new_in_vocab]
    merges = tuple(step.pair for step in steps)
    return ByteBpeModel(merges, tuple(vocab), trace.param("pattern"))


def train_bytebpe(
    source: Source | Chunked, merges=None, vocab_size=None, pattern="gpt2", ties="first"
):
    """Train to the end and keep the model."""
    return model_from_trace(
        trace_bytebpe(source, merges, vocab_size, pattern, ties, snapshot=False)
    )


def corpus_at(trace: Trace, upto: int, limit: int = 40) -> list[tuple[str, int, tuple]]:
    """(chunk, count, symbols in GPT-2 letters) after `upto` merges, for the first `limit`
    chunks: read from the step (toys) or rebuilt by replaying the first `upto` merges in
    the order they were learned, as training applied them (real samples)."""
    start = trace.start
    chunks = list(zip(start.words, start.counts))[:limit]
    if start.segmentations is not None:
        segs = start.segmentations if upto == 0 else trace.steps[upto - 1].segmentations
        return [(w, c, s) for (w, c), s in zip(chunks, segs)]
    model = model_from_trace(trace, upto)
    cut = bpe_segmenter(BpeModel(model.merges, model.vocab, BASE_SYMBOLS, "none"))
    return [(chunk, n, tuple(cut(to_letters(chunk.encode("utf-8"))))) for chunk, n in chunks]
