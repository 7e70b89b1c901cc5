"""Record types shared by every algorithm: Span, Trace, SegmentTrace, Encoded, Algorithm,
and the Tokenizer protocol that trained and pretrained tokenizers share.

Every record is a frozen dataclass of tuples, so traces pickle (``st.cache_data``) and
compare by value (two runs of a trainer give equal traces). Span, made once per token of
every encoded text, is a named tuple: three times cheaper to build than a dataclass.

>>> Span("at", 1, 3).text
'at'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple, Protocol

# Markers and the unknown token, spelled the same by every algorithm.
SOW = "\u2581"  # ▁, SentencePiece's word-start symbol
EOW = "</w>"  # end of word, as the 003 slides and the 004 blog
UNK = "[UNK]"


class Span(NamedTuple):
    """One token of an encoded text: its string and the characters [start, end) it covers.

    Markers such as ``</w>`` or ``▁`` cover no character, so a lone marker has start == end.
    """

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Trace:
    """A whole training run: the state before the first step, then one record per step.

    ``truncated`` is True when training stopped before the requested size, and
    ``stop_reason`` says why in a sentence; ``compact`` is True when steps keep only the
    step itself (real samples) rather than a full snapshot of the corpus.
    """

    algorithm: str
    params: tuple[tuple[str, Any], ...]
    start: Any
    steps: tuple[Any, ...]
    truncated: bool
    stop_reason: str
    compact: bool

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


@dataclass(frozen=True, slots=True)
class SegmentTrace:
    """An encoded text: its tokens as spans, and per word the trace of how they were found."""

    text: str
    tokens: tuple[Span, ...]
    words: tuple[Any, ...]

    @property
    def pieces(self) -> list[str]:
        return [span.text for span in self.tokens]


@dataclass(frozen=True, slots=True)
class Encoded:
    """A text encoded by one tokenizer: its tokens as spans and their vocabulary ids
    ([UNK] outside a trained vocabulary: the id after its last piece, compare.unknown_id).
    """

    spans: tuple[Span, ...]
    ids: tuple[int, ...]


Progress = Callable[[int, int], None] | None


class Tokenizer(Protocol):
    """What Compare, the measures and the CLI ask of any tokenizer, trained here or
    pretrained: ``subtok_core.tokenizer.tokenizer(model)`` gives one for either.

    - ``name`` and ``label``: what the registry and the pages call it;
    - ``provenance``: one line on where it comes from;
    - ``trained``: True for a model trained here on the corpus (its whole vocabulary is
      its own, it exports to a tokenizer.json, it travels to a worker process by pickle);
      False for a pretrained one read from a vocabulary file;
    - ``style``: its word-boundary marker style (``subtok_core.markers.STYLES``);
    - ``encode(text)``: the tokens as spans with character offsets, and their ids;
    - ``word_segmenter()``: word -> pieces, the fast path for the measures;
    - ``vocabulary(used)``: the pieces the vocabulary measures read, given the pieces it
      used on a corpus (a pretrained tokenizer's 100,000 entries were made on other text).
    """

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def provenance(self) -> str: ...
    @property
    def trained(self) -> bool: ...
    @property
    def style(self) -> str: ...
    def encode(self, text: str) -> Encoded: ...
    def word_segmenter(self) -> Callable[[str], list[str]]: ...
    def vocabulary(self, used: tuple[str, ...]) -> tuple[str, ...]: ...


class Export(NamedTuple):
    """Where ``subtok_core.hf_export`` finds an algorithm's exporter: functions of its
    modules named "module.function" (names, not functions, so the registry does not load
    the tokenizers library, and the exporters, which import the models, form no cycle).
    ``check(model)`` raises ValueError with the reason to refuse; ``build(model)`` is the
    tokenizers Tokenizer; ``notes(model)`` the sentences on what may still differ.
    """

    check: str
    build: str
    notes: str | None = None


@dataclass(frozen=True, slots=True)
class Algorithm:
    """One tokenizer family, as the CLI, export, Compare and the measures see it.

    Every algorithm package builds one of these in its ``__init__`` and ``registry``
    collects them; nothing else dispatches on an algorithm's name. A model names the
    algorithm that made it (``model.algorithm``), and so does a trace.

    The verbs, by what they take:

    - ``load(name, **options)``: a corpus name -> what the trainer learns from (word
      counts; sentences for SaGe).
    - ``steps(source, **params)``: the algorithm itself, one step record at a time.
    - ``trace(source, progress=None, **params)``: the whole run as a Trace.
    - ``model_at(trace, i=None)``: the model after step i (the last step by default).
    - ``segment(model, text)``: tokens as spans plus, per word, how they were found.
    - ``word_segmenter(model)``: word -> pieces, the fast path for the measures.
    - ``to_dict(model)`` / ``from_dict(data, name)``: a model as plain data and back.
    - ``step_to_dict(step, full)`` / ``start_to_dict(trace)``: a trace as plain data.
    - ``steps_csv(trace)``: one CSV row per step.
    - ``explain(trace, i)``: a sentence on step i (0: the state before the first step).
    - ``word_lines(encoded, model)``: lines saying how each word's pieces were found.
    - ``for_compare(source, vocab_size, progress)``: the trace Compare shows, every
      algorithm trained the same way on the same word counts to the same size (None for
      SaGe, which Compare takes from the SaGe page's run).
    - ``demo``: a toy corpus and parameters that make a short run (the registry tests).
    - ``cli``: the module behind ``subtok train NAME``: ``HELP``, ``FULL_HELP`` (what
      ``--json --full`` adds), ``add(parser)`` (its options), ``source(args)`` (what it
      trains on), ``params(args)`` (the trainer's parameters), ``table(trace)``.

    What other parts of the lab need of it, here rather than in tables of their own:

    - ``compare_options``: the ``subtok train`` options that train it as ``for_compare``
      does (None: Compare does not train it);
    - ``export``: how ``subtok_core.hf_export`` writes it as a tokenizer.json (None: not
      yet);
    - ``poll``: the question a class poll asks about a step, "merge" or "prune"
      (``rooms.QUESTIONS``; None: no poll on it);
    - ``corpus_at(trace, i, limit)``: the corpus's first words segmented after step i,
      what a poll shows on phones (None: the poll shows the vocabulary);
    - ``piece_alone(model)``: a function k -> the ids of token k cut on its own, what
      vocabulary health reads (taken from the encode module; None: no health table).
    """

    name: str
    label: str
    load: Callable[..., Any]
    steps: Callable[..., Iterator[Any]]
    trace: Callable[..., Trace]
    model_at: Callable[..., Any]
    segment: Callable[[Any, str], SegmentTrace]
    word_segmenter: Callable[[Any], Callable[[str], list[str]]]
    to_dict: Callable[[Any], dict[str, Any]]
    from_dict: Callable[[Any, str], Any]
    step_to_dict: Callable[[Any, bool], dict[str, Any]]
    start_to_dict: Callable[[Trace], dict[str, Any]]
    steps_csv: Callable[[Trace], str]
    explain: Callable[[Trace, int], str]
    word_lines: Callable[[SegmentTrace, Any], list[str]]
    for_compare: Callable[[Any, int, Progress], Trace] | None
    demo: tuple[str, tuple[tuple[str, Any], ...]]
    cli: ModuleType
    compare_options: str | None = None
    export: Export | None = None
    poll: str | None = None
    corpus_at: Callable[..., Any] | None = None
    piece_alone: Callable[[Any], Callable[[int], tuple[int, ...]]] | None = None


def algorithm(
    name: str, label: str, *, train: dict[str, Callable], modules: tuple[ModuleType, ...], **rest
) -> Algorithm:
    """An Algorithm from its package: `train` gives load, steps, trace and model_at;
    `modules` are its encode, io and cli modules, read by their usual names (segment,
    word_segmenter, word_lines, piece_alone if it has one; model_to_dict, model_from_dict,
    step_to_dict, start_to_dict, steps_csv); `rest` is explain, for_compare, demo and the optional
    compare_options, export, poll and corpus_at."""
    encode, io, cli = modules
    return Algorithm(
        name=name, label=label, **train, segment=encode.segment,
        word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
        piece_alone=getattr(encode, "piece_alone", None),
        to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
        start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli, **rest,
    )  # fmt: skip
