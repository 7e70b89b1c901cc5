"""Record types shared by every algorithm: Span, Trace, SegmentTrace.

Every record is a frozen dataclass of tuples, so traces pickle (``st.cache_data``) and
compare by value (two runs of a trainer give equal traces).

>>> Span("at", 1, 3).text
'at'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Span:
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
