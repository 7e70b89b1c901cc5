"""What a phone shows of the step the teacher's page is on, as plain JSON data the room
keeps (so a phone on any app server draws it without the corpus or the trace): the
corpus's first words as segmented after the step (BPE, WordPiece) or the vocabulary and
the words' best segmentations (Unigram). Nothing of the corpus when the teacher keeps its
words off the phones (`share` False): then only the step.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> view = step_view(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"), 3, True)
>>> view["title"], view["rows"][0], view["new"]
('The corpus after merge 3', ['low', 5, ['l', 'o', 'w', '</w>']], ['est</w>'])
>>> step_view(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"), 3, False)
{}
"""

from __future__ import annotations

from ..records import Trace
from ..registry import of_trace

ROWS = 30  # words of the corpus shown on a phone
PIECES = 60  # pieces of a Unigram vocabulary shown on a phone


def step_view(trace: Trace, i: int, share: bool) -> dict:
    """The phone's view of step i of `trace` ({} when the words are not shared)."""
    if not share:
        return {}
    total = len(trace.start.words)
    corpus_at = of_trace(trace).corpus_at
    if corpus_at is not None:
        rows = corpus_at(trace, i, limit=ROWS)
        return {
            "kind": "corpus",
            "title": f"The corpus after merge {i}" if i else "The corpus, before any merge",
            "rows": [[word, int(count), list(seg)] for word, count, seg in rows],
            "total": total,
            "new": [trace.steps[i - 1].new_symbol] if i else [],
        }
    record = trace.steps[i - 1] if i else trace.start
    vocab = sorted(record.vocab, key=lambda row: -row.prob)[:PIECES]
    segmentations = getattr(record, "segmentations", None) or ()
    return {
        "kind": "vocab",
        "title": f"The vocabulary after step {i}" if i else "The seed vocabulary",
        "vocab": [[row.piece, float(row.prob)] for row in vocab],
        "size": len(record.vocab),
        "rows": [[s.word, int(s.count), list(s.pieces)] for s in segmentations[:ROWS]],
        "total": len(segmentations),
    }
