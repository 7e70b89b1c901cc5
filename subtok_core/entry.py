"""An algorithm's registry entry: ``Algorithm`` and its typed parts (``Export``,
``Vocabulary``, ``Sampling``).

Every algorithm package (``subtok_core.bpe`` ...) builds its entry in its ``__init__``,
each field named and given its function there (``segment=encode.segment``), so a reader
and go-to-definition see what every verb is; ``subtok_core.registry`` collects them by
name.

>>> from subtok_core.registry import get
>>> bpe = get("bpe")
>>> bpe.vocabulary.unit, bpe.sampling.nbest is None, bpe.export().check.__module__
('character', True, 'subtok_core.hf_export.bpe')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

from .records import Progress, SegmentTrace, Trace


class Export(NamedTuple):
    """An algorithm's tokenizer.json exporter, the functions of ``subtok_core.hf_export``:
    ``check(model)`` raises ValueError with the reason to refuse; ``build(model)`` is the
    tokenizers Tokenizer; ``notes(model)`` the sentences on what may still differ.

    An entry holds a function that returns one (``Algorithm.export``), written in the
    algorithm's package as a direct import inside a function: go-to-definition follows it,
    and neither the tokenizers library nor the exporter (which imports the models) is
    loaded before a model is exported.
    """

    check: Callable[[Any], None]
    build: Callable[[Any], Any]
    notes: Callable[[Any], list[str]] | None = None


def _utf8(piece: str) -> bytes:
    return piece.encode("utf-8")


class Vocabulary(NamedTuple):
    """What the vocabulary table and card (``subtok_core.vocab``) read of a trained model:

    - ``pieces(model)``: its tokens in id order;
    - ``piece_alone(model)``: a function k -> the ids of token k cut on its own;
    - ``unit``: what a token is made of, "character" or "byte";
    - ``data(piece)``: a token's bytes (UTF-8, or byte-level BPE's GPT-2 letters undone);
    - ``rank_of(model)``: (bytes, bytes) -> the number of the merge that joins them, for a
      card's merge tree over bytes (None: no such tree);
    - ``scores(model)``: each token's score in id order (Unigram's log probabilities);
    - ``replay(model, piece)``: the symbols a token starts from and the merges to replay on
      them, for a card's merge tree (BPE);
    - ``merges``: False when it is trained without merges, so no tree can show a token.
    """

    pieces: Callable[[Any], tuple[str, ...]]
    piece_alone: Callable[[Any], Callable[[int], tuple[int, ...]]]
    unit: str = "character"
    data: Callable[[str], bytes] = _utf8
    rank_of: Callable[[Any], Callable[[bytes, bytes], int | None]] | None = None
    scores: Callable[[Any], tuple[float, ...]] | None = None
    replay: Callable[[Any, str], tuple[list[str], Any]] | None = None
    merges: bool = True


class Sampling(NamedTuple):
    """How ``subtok encode`` cuts a text differently on each call (subword regularization,
    ``subtok_core.regularize_cli``); None where the algorithm has no such way:

    - ``dropout(model, text, p, samples, seed)``: BPE-dropout samples, each a list of pieces;
    - ``nbest(model, word, n)``: a word's n most probable segmentations (``.pieces``,
      ``.logp``, ``.probability``);
    - ``alpha(model, text, alpha, samples, seed)``: samples drawn with P(x)^alpha.
    """

    dropout: Callable[[Any, str, float, int, int], list] | None = None
    nbest: Callable[[Any, str, int], list] | None = None
    alpha: Callable[[Any, str, float, int, int], list] | None = None


@dataclass(frozen=True, slots=True)
class Algorithm:
    """One tokenizer family, as the CLI, export, Compare, the vocabulary card and the
    measures see it.

    Every algorithm package builds one of these in its ``__init__`` and ``registry``
    collects them. A model names the algorithm that made it (``model.algorithm``), and so
    does a trace; a caller asks the registry for the entry of that name and then asks the
    entry, never the name: no module outside ``registry.py`` and the algorithm's own
    packages compares with an algorithm's name or keys a table by it
    (tests/test_registry_dispatch.py scans for it).

    Every field is a value, a function or (``cli``) a module, none a string naming one:
    go-to-definition follows each to its code. What must not load early (the tokenizers
    library behind ``export``) is a function of the algorithm's package with a direct
    import inside it, run on the first call; the package itself is imported only when the
    registry is first asked for it, so one entry never loads another algorithm.

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
      SaGe, which Compare takes from the SaGe page's run, and byte-level BPE).
    - ``demo``: a toy corpus and parameters that make a short run (the registry tests).
    - ``cli``: the module behind ``subtok train NAME``: ``HELP``, ``FULL_HELP`` (what
      ``--json --full`` adds), ``add(parser)`` (its options), ``source(args)`` (what it
      trains on), ``params(args)`` (the trainer's parameters), ``table(trace)``.

    What other parts of the lab need of it, here rather than in tables of their own:

    - ``compare_options``: the ``subtok train`` options that train it as ``for_compare``
      does (None: Compare does not train it);
    - ``compare_from_page``: True when Compare shows the vocabulary its lesson page last
      trained in the session rather than one of its own (SaGe);
    - ``compare_note``: what Compare says of how it trains it, as the sentence before and
      after the command that trains the same on the command line (BPE's marker);
    - ``compare_long_why``: why it may need far more tokens than the others on a text,
      which Compare says when it does (WordPiece);
    - ``paper_002``: the method of the 002 paper (Bostrom & Durrett) it stands beside on
      Compare, as the paper names it ("BPE", "unigram LM"; None: none);
    - ``export()``: its tokenizer.json exporter (``Export``), imported on the call (None:
      not yet);
    - ``poll``: the question a class poll asks about a step, "merge" or "prune"
      (``rooms.QUESTIONS``; None: no poll on it);
    - ``corpus_at(trace, i, limit)``: the corpus's first words segmented after step i,
      what a poll shows on phones (None: the poll shows the vocabulary);
    - ``vocabulary``: what the vocabulary table and card read of a model (``Vocabulary``;
      None: no health table);
    - ``sampling``: its ways of cutting a text differently on each call (``Sampling``).
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
    compare_from_page: bool = False
    compare_note: tuple[str, str] | None = None
    compare_long_why: str | None = None
    paper_002: str | None = None
    export: Callable[[], Export] | None = None
    poll: str | None = None
    corpus_at: Callable[..., Any] | None = None
    vocabulary: Vocabulary | None = None
    sampling: Sampling = Sampling()
