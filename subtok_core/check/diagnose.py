"""Compare a student's merges with the reference run and say where and why they part.

At the first merge that differs, the corpus is taken as it stands after the merges both
agree on and its pairs are counted again: the reference's way, then under each way a
student's trainer may count instead (``HYPOTHESES``). The cause is the first way under
which the student's pair has the highest count and the reference's pair does not; a tie
in the reference's own count is a tie. Nothing is guessed: where no way explains the
pair, the cause is "unknown" and both counts are given.

Worked example (the issue's corpus "aaa aaa ab ab ab"): the reference counts (a, a)
twice in each "aaa", 4 in all, against (a, b) 3; without overlap (a, a) has 2.

>>> verdict = check(Setup(("aaa aaa ab ab ab",)), [("a", "b"), ("a", "ab")])
>>> d = verdict.first_difference
>>> d.merge, d.yours, d.expected, d.cause, d.counts
(1, ('a', 'b'), ('a', 'a'), 'overlap', {'yours': 3, 'expected': 4})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from .. import limits
from ..explain import TIE_REASONS, pair_text, times
from ..merging import TIE_RULES
from . import recount
from .recount import Pair, Table
from .reference import reference_merges
from .setup import Setup, units, whole_lines

CAUSES = ("tie", "overlap", "boundary", "stale-counts", "special-token", "pre-split",
          "marker", "unknown")  # fmt: skip


@dataclass(frozen=True)
class Difference:
    """The first merge (from 1) where the student's list leaves the reference's."""

    merge: int
    yours: Pair
    expected: Pair | None
    cause: str
    explanation: str
    counts: dict[str, int]
    tie_rule: str | None
    table: tuple[tuple[str, str, int], ...] = field(default=(), compare=False)

    def as_json(self) -> dict:
        return {
            "merge": self.merge,
            "yours": list(self.yours),
            "expected": None if self.expected is None else list(self.expected),
            "cause": self.cause,
            "explanation": self.explanation,
            "counts": dict(self.counts),
            "tie_rule": self.tie_rule,
        }


@dataclass(frozen=True)
class Verdict:
    identical: bool
    merges: int
    first_difference: Difference | None
    ties: str

    def as_json(self) -> dict:
        first = None if self.first_difference is None else self.first_difference.as_json()
        return {"identical": self.identical, "merges": self.merges, "first_difference": first}

    def summary(self) -> str:
        if self.identical:
            return (
                f"identical: your {self.merges} merges are the reference's, in order "
                f"(tie rule '{self.ties}')."
            )
        d = self.first_difference
        return f"Merge {d.merge} differs ({d.cause}). {d.explanation}"


def check(
    setup: Setup,
    merges: list[Pair],
    progress: Callable[[str], None] | None = None,
    where: str = "cli",
) -> Verdict:
    """The verdict on a student's merges against the reference run on `setup`; a list
    longer than the merges limit of `where` ("web" or "cli") is refused before training."""
    if not merges:
        raise ValueError("The merges file holds no merge: give one merge per line, like 'a b'.")
    refuse_long(len(merges), where)
    say = progress or (lambda _text: None)
    say(f"Training the reference: {len(merges)} merges, tie rule '{setup.ties}'.")
    expected = reference_merges(setup, len(merges))
    k = agreed(merges, expected)
    if k == len(merges):
        return Verdict(True, k, None, setup.ties)
    say("Looking for a tie rule under which more of your merges agree.")
    rule = better_rule(setup, merges, k, expected)
    say(f"Counting the pairs again as they stand after merge {k}.")
    return Verdict(False, len(merges), diagnose(setup, merges, k, expected, rule), setup.ties)


def refuse_long(n: int, where: str) -> None:
    """A sentence for a list of more merges than `where` trains (the reference is trained
    for as many merges, up to three times over)."""
    top = int(limits.limit("merges", where))
    if n > top:
        other = " or use the command line (subtok check merges)" if where == "web" else ""
        raise ValueError(
            f"Your list has {n:,} merges; at most {top:,} are checked here "
            f"({limits.LIMITS['merges'].why}): check its first {top:,}{other}."
        )


def agreed(merges: list[Pair], expected: list[Pair]) -> int:
    """How many merges, from the first, are the same in both lists."""
    k = 0
    while k < len(merges) and k < len(expected) and merges[k] == expected[k]:
        k += 1
    return k


def better_rule(setup: Setup, merges: list[Pair], k: int, expected: list[Pair]) -> str | None:
    """The tie rule under which the most of the student's merges agree from the first,
    if that is more than under the run's own rule."""
    best, best_k = None, k
    for rule in TIE_RULES:
        if rule == setup.ties:
            continue
        n = agreed(merges, reference_merges(setup.with_ties(rule), len(merges)))
        if n > best_k:
            best, best_k = rule, n
    return best


def hypotheses(
    setup: Setup, done: list[Pair], ref: recount.Replay
) -> Iterator[tuple[str, str, Table]]:
    """(cause, how it counts, its table), in the order they are tried."""
    yield "overlap", "Counted without overlap", recount.without_overlap(ref.segs, ref.count)
    where = "chunk" if setup.bytelevel else "word"
    table = recount.replayed(whole_lines(setup), done).table()
    yield "boundary", f"Counted across {where} boundaries", table
    if not setup.bytelevel:
        table = recount.replayed(whole_lines(setup, " "), done).table()
        yield "boundary", "Counted over the text with its spaces", table
    yield "stale-counts", "With counts not lowered after each merge", ref.stale
    yield "stale-counts", "With the first counts kept, not updated", ref.never_updated()
    if setup.specials:
        table = recount.replayed(units(setup, specials=False), done).table()
        yield "special-token", "With the special tokens read as ordinary text", table
    if setup.bytelevel and len(setup.lines) > 1:  # a trainer that reads the file whole
        table = recount.replayed(units(replace(setup, lines=("".join(setup.lines),))), done)
        yield (
            "pre-split",
            "With the pattern run over the whole text, not line by line",
            table.table(),
        )
    if setup.bytelevel:
        for pattern in setup.other_patterns():
            table = recount.replayed(units(setup, pattern=pattern), done).table()
            yield "pre-split", f"With the text cut by the pattern '{pattern}'", table
    else:
        punct = not setup.split_punct
        table = recount.replayed(units(setup, split_punct=punct), done).table()
        how = "split off" if punct else "left in the words"
        yield "pre-split", f"With punctuation {how}", table
        for marker in setup.other_markers():
            table = recount.replayed(units(setup, marker=marker), done).table()
            yield "marker", f"With the marker '{marker}'", table


def chosen_under(table: Table, yours: Pair, expected: Pair | None) -> bool:
    """Whether `yours` has the highest count of `table` and `expected` has less."""
    top = max(table.values(), default=0)
    mine = table.get(yours, 0)
    return mine > 0 and mine == top and (expected is None or table.get(expected, 0) < top)


def diagnose(setup, merges, k: int, expected: list[Pair], rule: str | None) -> Difference:
    """The cause of the difference at merge k + 1, from the counts as they stand."""
    done, yours = merges[:k], merges[k]
    ref = recount.replayed(units(setup), done)
    table = ref.table()
    rows = tuple(sorted(((*p, c) for p, c in table.items()), key=lambda r: -r[2]))
    theirs = expected[k] if k < len(expected) else None
    counts = {"yours": table.get(yours, 0), "expected": table.get(theirs, 0) if theirs else 0}
    head = _head(k + 1, yours, theirs, counts)
    make = lambda cause, text: Difference(k + 1, yours, theirs, cause, text, counts, rule, rows)  # noqa: E731
    if theirs is None:
        return make("unknown", head + " The reference has no pair left to merge.")
    if counts["yours"] == counts["expected"] == max(table.values()):
        return make("tie", _tie_text(k + 1, yours, theirs, counts["yours"], setup.ties, rule))
    for cause, how, hypothesis in hypotheses(setup, done, ref):
        if chosen_under(hypothesis, yours, theirs):
            why = _overlap_text(ref, theirs) if cause == "overlap" else ""
            return make(cause, f"{head}{why} {_because(cause, how, yours, theirs, hypothesis)}")
    return make("unknown", head + " None of the usual causes gives your pair the highest count.")


def _head(number: int, yours: Pair, theirs: Pair | None, counts: dict[str, int]) -> str:
    mine = f"Your merge {number} is {pair_text(yours)}, which {_occurs(counts['yours'])}"
    if theirs is None:
        return mine + "."
    return f"{mine}; the reference merges {pair_text(theirs)}, which {_occurs(counts['expected'])}."


def _overlap_text(ref: recount.Replay, pair: Pair) -> str:
    """Where the reference's pair overlaps itself, e.g. " Each 'aaa' holds (a, a) twice,
    overlapping, and one merge takes only one of them." ("" if nowhere)."""
    found = recount.overlapping(ref.segs, pair)
    if found is None:
        return ""
    text, every, taken = found
    return (
        f" Each '{text}' holds {pair_text(pair)} {times(every)}, overlapping, and the "
        f"reference counts every one, though one merge takes only {taken} of them."
    )


def _occurs(count: int) -> str:
    return f"occurs {times(count)}" if count else "does not occur in the corpus as it stands"


def _tie_text(number: int, yours: Pair, theirs: Pair, count: int, ties: str, rule) -> str:
    text = (
        f"Your merge {number} is {pair_text(yours)} and the reference merges "
        f"{pair_text(theirs)}: both occur {times(count)}, the most of any pair, and "
        f"{TIE_REASONS[ties]}."
    )
    if rule:
        text += f" Your trainer breaks ties another way: try the tie rule '{rule}'."
    return text


BECAUSE = {
    "overlap": "your trainer counts a run of one symbol without overlap.",
    "boundary": "your trainer counts pairs across the boundaries of the pre-split.",
    "stale-counts": "your trainer does not update its counts correctly after a merge.",
    "special-token": "your trainer does not treat the special tokens as boundaries.",
    "pre-split": "your trainer cuts the text another way before counting.",
    "marker": "your trainer marks word boundaries another way.",
}


def _because(cause: str, how: str, yours: Pair, theirs: Pair, table: Table) -> str:
    return (
        f"{how}, {pair_text(yours)} has {table.get(yours, 0)}, the most of any pair, and "
        f"{pair_text(theirs)} has {table.get(theirs, 0)}: {BECAUSE[cause]}"
    )
