"""A SaGe run as a page follows it from afar: everything it shows, through one callback.

A worker process (subtok_core.parallel) sends home one kind of message, the values of a
``report(...)`` call. ``trace_reported`` runs Algorithm 3 (or a control) and turns its
three hooks into such calls, ``report(done, total, text, step)``:

- ``text``: the phase under way (training BPE, Word2Vec, scoring the pieces), and
  ``done`` of ``total``: how far it is (merges, epochs, pieces scored; 0 of 0 when the
  phase has no count);
- ``step``: a prune step just finished (else None), for the log a stopped run leaves on the
  page; without its embeddings, which only the finished trace needs.

>>> from subtok_core.sage import SageSettings
>>> sentences = [["the", "cat"], ["the", "hat"], ["a", "cat", "sat"]] * 3
>>> s = SageSettings(vocab_size=14, initial_size=17, k=1, M=3, m=1, l=2, dim=4, seed=1)
>>> heard = []
>>> trace = trace_reported(sentences, s, None, lambda *values: heard.append(values))
>>> [(done, total, step.number) for done, total, text, step in heard if step]
[(1, 3, 1), (2, 3, 2), (3, 3, 3)]
>>> heard[0]
(0, 0, 'training BPE to 17 pieces', None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..records import Trace
from .records import SageSettings, SageStep
from .train import trace_sage


def trace_reported(
    sentences: Sequence[Sequence[str]],
    s: SageSettings,
    control: str | None,
    report: Callable[..., None],
) -> Trace:
    """trace_sage(sentences, s, control), telling `report` all it does (see above)."""
    phase = [""]  # the phase under way, repeated with its progress

    def on_phase(text: str) -> None:
        phase[0] = text
        report(0, 0, text, None)

    def on_progress(done: int, total: int) -> None:
        report(done, total, phase[0], None)

    def on_step(step: SageStep, total: int) -> None:
        done = f"{step.number} of {total} prune steps done"
        report(step.number, total, done, replace(step, embeddings=None))

    return trace_sage(sentences, s, control, on_step, on_phase, on_progress)
