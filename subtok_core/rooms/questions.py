"""The question a class poll asks at step i of a trace, and the answer the trace gives.

BPE and WordPiece: which pair merges next (the pair of step i + 1). Unigram: which piece
is pruned next (the pieces of the first prune step after step i). The reveal says why in
the algorithm's own sentence (its explain verb, through the registry).

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> q = next_merge(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"), 3)
>>> q.answers, q.tied, q.canonical("l o"), q.verdict("(o, w)")
(('(l, o)',), ('(o, w)',), '(l, o)', 'tied')
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass

from ..explain import pair_text
from ..records import SOW, Trace
from ..registry import ALGORITHMS, of_trace


@dataclass(frozen=True, slots=True)
class Question:
    """What the class is asked at step `step` (0: before the first step) and the answer:
    the right answers (several when a prune step removes several pieces), the candidates
    tied with them, and the algorithm's sentence on the step that answers it."""

    step: int
    number: int  # the step record that answers it (1 = the first step)
    kind: str  # "pair" or "piece"
    prompt: str
    candidates: tuple[str, ...]
    answers: tuple[str, ...]
    tied: tuple[str, ...]
    explanation: str

    def canonical(self, text: str) -> str:
        """A typed answer in the form the candidates are written, when it reads as one:
        'e s', 'e,s' and 'es' (when only one pair joins to es) all become '(e, s)'; a piece
        typed with _ for the word-start mark ▁ gets the mark."""
        text = " ".join(str(text).split())
        if text in self.candidates:
            return text
        if self.kind == "piece":
            marked = SOW + (text[1:] if text.startswith("_") else text)
            return marked if marked in self.candidates else text
        parts = text.strip("()[] ").replace(",", " ").split()
        if len(parts) == 2:
            return pair_text((parts[0], parts[1]))
        joined = [c for c in self.candidates if c[1:-1].replace(", ", "") == text]
        return joined[0] if len(joined) == 1 else text

    def to_json(self) -> str:
        """The question as a round keeps it in the database."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Question:
        """A question kept by a round, back (lists to tuples)."""
        data = json.loads(text)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def verdict(self, answer: str) -> str:
        """'right', 'tied' (tied with the answer, lost on the tie rule) or 'wrong'."""
        answer = self.canonical(answer)
        if answer in self.answers:
            return "right"
        return "tied" if answer in self.tied else "wrong"


def next_merge(trace: Trace, i: int) -> Question | None:
    """BPE and WordPiece: the pair merged after step i (None after the last merge)."""
    if not 0 <= i < len(trace.steps):
        return None
    step = trace.steps[i]
    # the pair table the merge chose from; its rows start with the two symbols
    candidates = sorted({pair_text((row[0], row[1])) for row in step.pair_table})
    chosen = pair_text(step.pair)
    return Question(
        step=i,
        number=i + 1,
        kind="pair",
        prompt=f"Which pair is merged next (merge {i + 1})?",
        candidates=tuple(sorted({*candidates, chosen})),
        answers=(chosen,),
        tied=tuple(pair_text(pair) for pair in step.tied_with),
        explanation=of_trace(trace).explain(trace, i + 1),
    )


def next_prune(trace: Trace, i: int) -> Question | None:
    """Unigram: the piece(s) pruned by the first prune step after step i (None when no
    step prunes any more). Tied: pieces kept whose loss without them equals that of the
    last piece pruned."""
    later = [n for n in range(i, len(trace.steps)) if trace.steps[n].removed]
    if not later:
        return None
    n = later[0]
    step = trace.steps[n]
    removed = set(step.removed)
    losses = dict(step.removal)
    cut = max(losses.get(piece, float("-inf")) for piece in removed)
    tied = [
        piece
        for piece, loss in step.removal
        if piece not in removed and abs(loss - cut) <= 1e-9 * max(1.0, abs(cut))
    ]
    why = of_trace(trace).explain(trace, n + 1)
    if n > 0 and trace.steps[n - 1].kind == "m" and trace.steps[n - 1].removal:
        why = f"{of_trace(trace).explain(trace, n)} {why}"  # the M-step gives the losses
    many = len(step.removed) > 1
    return Question(
        step=i,
        number=n + 1,
        kind="piece",
        prompt=(
            f"Which piece is pruned next (step {n + 1}"
            + (f", {len(step.removed)} pieces go: name one of them)?" if many else ")?")
        ),
        candidates=tuple(sorted({piece for piece, _ in step.removal} | removed)),
        answers=tuple(step.removed),
        tied=tuple(tied),
        explanation=why,
    )


def next_merge_or_removal(trace: Trace, i: int) -> Question | None:
    """Picky BPE: before a merge, which pair merges next (next_merge); right after a merge
    whose part is removed (the next step a split), which part is removed. Every part
    removed after that merge is an answer."""
    if not 0 <= i < len(trace.steps):
        return None
    step = trace.steps[i]
    if step.kind == "merge":
        return next_merge(trace, i)
    merge = trace.steps[step.after - 1]
    removed = []
    for later in trace.steps[i:]:
        if later.kind == "merge" or later.after != step.after:
            break
        removed.append(later.symbol)
    parts = tuple(dict.fromkeys(merge.parts))
    return Question(
        step=i,
        number=i + 1,
        kind="piece",
        prompt=f"Merge {merge.number} made {merge.symbol}: which of its parts is removed?",
        candidates=tuple(sorted(parts)),
        answers=tuple(removed),
        tied=(),
        explanation=of_trace(trace).explain(trace, i + 1),
    )


# the kind of question (an algorithm's registry entry says which it asks) -> its question
QUESTIONS: dict[str, Callable[[Trace, int], Question | None]] = {
    "merge": next_merge,
    "prune": next_prune,
    "merge or removal": next_merge_or_removal,
}


def question_for(algorithm: str) -> Callable[[Trace, int], Question | None]:
    """The question a poll asks about a trace of `algorithm` (its registry entry's poll)."""
    poll = ALGORITHMS[algorithm].poll if algorithm in ALGORITHMS else None
    if poll is None:
        asked = [algo.label for algo in ALGORITHMS.values() if algo.poll]
        raise ValueError(
            f"A class poll asks about {', '.join(asked[:-1])} or {asked[-1]} steps, "
            f"not about {algorithm}."
        )
    return QUESTIONS[poll]
