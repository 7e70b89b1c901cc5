"""Record types shared by every algorithm: Span, Trace, SegmentTrace, Encoded, and the
Tokenizer protocol that trained and pretrained tokenizers share (an algorithm's registry
entry, Algorithm, is in ``subtok_core.entry``).

Every record is a frozen dataclass of tuples, so traces pickle (``st.cache_data``) and
compare by value (two runs of a trainer give equal traces). Span, made once per token of
every encoded text, is a named tuple: three times cheaper to build than a dataclass.

>>> Span("at", 1, 3).text
'at'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
    - ``vocab_size``: the size |V| of its whole vocabulary (the efficiencies divide by log |V|);
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
    @property
    def vocab_size(self) -> int: ...
    def encode(self, text: str) -> Encoded: ...
    def word_segmenter(self) -> Callable[[str], list[str]]: ...
    def vocabulary(self, used: tuple[str, ...]) -> tuple[str, ...]: ...
