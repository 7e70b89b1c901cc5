"""Compare a student's merges with the reference run and say where and why they part.

The tie rule is the one given, or (``auto``) the rule under which the reference follows
the student's list longest. At the first merge that differs, the pairs are counted as
they stand (both counts are shown), and the reference is trained again under each way a
student's trainer may go wrong (``hypotheses``), with our readable trainer (``variants``).
A cause is named only when re-training under it reproduces the student's merges through
the first difference and beyond, and the sentence says how far; otherwise the cause is
"unknown" and the sentence lists what was tried. Nothing is guessed.

Worked example (the issue's corpus "aaa aaa ab ab ab"): the reference counts (a, a)
twice in each "aaa", 4 in all, against (a, b) 3; without overlap (a, a) has 2.

>>> verdict = check(Setup(("aaa aaa ab ab ab",)), [("a", "b"), ("a", "a")])
>>> d = verdict.first_difference
>>> d.merge, d.yours, d.expected, d.cause, d.counts, d.matched
(1, ('a', 'b'), ('a', 'a'), 'overlap', {'yours': 3, 'expected': 4}, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .. import limits
from ..explain import pair_text, times
from . import hypotheses, recount, variants
from .recount import Pair
from .reference import reference_merges
from .rules import AUTO, HOMES, RULES, rule_name
from .setup import Setup, units

CAUSES = ("tie", "overlap", "frequencies", "once-per-word", "first-occurrence",
          "right-to-left", "normalised", "boundary", "stale-counts", "special-token",
          "pre-split", "marker", "unknown")  # fmt: skip


@dataclass(frozen=True)
class Difference:
    """The first merge (from 1) where the student's list leaves the reference's; `matched`
    is how many merges the named hypothesis reproduces from the first; `tried`, each
    hypothesis re-trained and how many it reproduced."""

    merge: int
    yours: Pair
    expected: Pair | None
    cause: str
    explanation: str
    counts: dict[str, int]
    tie_rule: str | None
    table: tuple[tuple[str, str, int], ...] = field(default=(), compare=False)
    matched: int = 0
    tried: tuple[tuple[str, str, int], ...] = field(default=(), compare=False)

    def as_json(self) -> dict:
        return {
            "merge": self.merge,
            "yours": list(self.yours),
            "expected": None if self.expected is None else list(self.expected),
            "cause": self.cause,
            "explanation": self.explanation,
            "counts": dict(self.counts),
            "tie_rule": self.tie_rule,
            "matched": self.matched,
            "tried": [{"cause": c, "how": h, "matched": n} for c, h, n in self.tried],
        }


@dataclass(frozen=True)
class Verdict:
    identical: bool
    merges: int
    first_difference: Difference | None
    ties: str
    rule_note: str = ""  # what --ties auto found, in words

    def as_json(self) -> dict:
        first = None if self.first_difference is None else self.first_difference.as_json()
        return {"identical": self.identical, "merges": self.merges, "tie_rule": self.ties,
                "first_difference": first}  # fmt: skip

    def summary(self) -> str:
        note = f" {self.rule_note}" if self.rule_note else ""
        if self.identical:
            return (
                f"identical: your {self.merges} merges are the reference's, in order "
                f"(tie rule '{self.ties}').{note}"
            )
        d = self.first_difference
        return f"Merge {d.merge} differs ({d.cause}).{note} {d.explanation}"


def check(
    setup: Setup,
    merges: list[Pair],
    progress: Callable[[str], None] | None = None,
    where: str = "cli",
) -> Verdict:
    """The verdict on a student's merges against the reference run on `setup` (its tie
    rule "auto": the rule that follows the list longest); a list longer than the merges
    limit of `where` ("web" or "cli") is refused before training."""
    if not merges:
        raise ValueError("The merges file holds no merge: give one merge per line, like 'a b'.")
    refuse_long(len(merges), where)
    say = progress or (lambda _text: None)
    say(f"Training the reference: {len(merges)} merges.")
    reach: dict[str, int] = {}
    runs: dict[str, list[Pair]] = {}
    order = RULES if setup.ties == AUTO else (setup.ties, *(r for r in RULES if r != setup.ties))
    for rule in order:
        if rule == "greatest":  # our readable trainer: it stops where the list leaves it
            reach[rule] = variants.follow(units(setup), merges, ties=rule,
                                          bytelevel=setup.bytelevel)  # fmt: skip
        else:
            runs[rule] = reference_merges(setup.with_ties(rule), len(merges))
            reach[rule] = agreed(merges, runs[rule])
        if setup.ties == rule and reach[rule] == len(merges):
            return Verdict(True, len(merges), None, rule)  # identical under the rule asked
        if rule == order[0] and setup.ties != AUTO:
            say("Training the reference under the other tie rules.")
    rule = max(RULES, key=lambda r: reach[r]) if setup.ties == AUTO else setup.ties
    note = _rule_note(rule, reach) if setup.ties == AUTO else ""
    setup, k = setup.with_ties(rule), reach[rule]
    if k == len(merges):
        return Verdict(True, k, None, rule, note)
    expected = runs.get(rule) or reference_merges(setup, k + 1)
    say(f"Re-training under each hypothesis, from the counts after merge {k}.")
    return Verdict(False, len(merges), diagnose(setup, merges, k, expected, reach), rule, note)


def _rule_note(rule: str, reach: dict[str, int]) -> str:
    """What --ties auto found: the rule that follows the list longest, and how far."""
    if reach[rule] == 0:
        return "No tie rule reproduces even your first merge; the rule 'first' is used."
    also = [r for r in RULES if r != rule and reach[r] == reach[rule]]
    text = f"Your ties follow {rule_name(rule)}: your first {reach[rule]} merges match"
    if also:
        return text + f" (as under {', '.join(also)}: no tie decided between them)."
    return text + "."


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


def enough(n: int, k: int, total: int) -> bool:
    """Whether a re-training that reproduces n merges explains a difference at merge k + 1:
    through it and beyond (or to the end of a list that ends there)."""
    return n >= min(total, k + 2)


def diagnose(setup, merges, k: int, expected: list[Pair], reach: dict[str, int]) -> Difference:
    """The cause of the difference at merge k + 1: the hypothesis whose re-training
    reproduces the most of the student's merges, if it explains the difference."""
    yours = merges[k]
    table = recount.replayed(units(setup), merges[:k]).table()
    rows = tuple(sorted(((*p, c) for p, c in table.items()), key=lambda r: -r[2]))
    theirs = expected[k] if k < len(expected) else None
    counts = {"yours": table.get(yours, 0), "expected": table.get(theirs, 0) if theirs else 0}
    head = _head(k + 1, yours, theirs, counts)
    others = [r for r in reach if r != setup.ties]
    tried = [("tie", f"breaks ties by {rule_name(r)}", reach[r]) for r in others]
    rules = {how: r for r, (_c, how, _n) in zip(others, tried)}
    for h in hypotheses.tried(setup, merges):
        options = dict(h.options, ties=setup.ties, bytelevel=setup.bytelevel)
        tried.append((h.cause, h.how, variants.follow(h.units(), merges, **options)))
    best = max(tried, key=lambda t: t[2])  # the first of equals: the order tried
    rule = rules.get(best[1]) if best[0] == "tie" else setup.ties
    make = lambda cause, text, n=0: Difference(k + 1, yours, theirs, cause, text, counts,  # noqa: E731
                                               rule, rows, n, tuple(tried))  # fmt: skip
    if theirs is None:
        return make("unknown", head + " The reference has no pair left to merge.")
    cause, how, n = best
    if not enough(n, k, len(merges)):
        return make("unknown", f"{head} {_unexplained(k, tried)}")
    why = _overlap_text(setup, merges[:k], theirs) if cause == "overlap" else ""
    if cause != "tie":
        h = next(h for h in hypotheses.tried(setup, merges) if h.how == how)
        options = dict(h.options, ties=setup.ties, bytelevel=setup.bytelevel)
        why += _its_counts(variants.counts_after(h.units(), merges[:k], **options), yours, theirs)
    text = (
        f"{head}{why} A trainer that {how} makes your merges: under this hypothesis your "
        f"first {n} merges match (the reference's own way, {k}). So {hypotheses.BECAUSE[cause]}"
    )
    if cause == "tie":
        text += f" Ties there go to {HOMES[rule]}: try --ties {rule}."
    also = [how for c, how, m in tried if m == n and how != best[1]]
    if also:
        text += f" As far, so does a trainer that {'; one that '.join(also)}."
    return make(cause, text, n)


def _its_counts(table, yours: Pair, theirs: Pair) -> str:
    return (
        f" Counted that way, {pair_text(yours)} has {table.get(yours, 0)} and "
        f"{pair_text(theirs)} has {table.get(theirs, 0)}."
    )


def _unexplained(k: int, tried) -> str:
    shown = "; ".join(f"a trainer that {how}: {n}" for _c, how, n in tried)
    return (
        f"No hypothesis tried reproduces your merges past merge {k + 1}, so the cause is "
        f"not named. Re-trained, with how many of your merges each reproduces: {shown}."
    )


def _head(number: int, yours: Pair, theirs: Pair | None, counts: dict[str, int]) -> str:
    mine = f"Your merge {number} is {pair_text(yours)}, which {_occurs(counts['yours'])}"
    if theirs is None:
        return mine + "."
    return f"{mine}; the reference merges {pair_text(theirs)}, which {_occurs(counts['expected'])}."


def _overlap_text(setup: Setup, done: list[Pair], pair: Pair) -> str:
    """Where the reference's pair overlaps itself, e.g. " Each 'aaa' holds (a, a) twice,
    overlapping, and one merge takes only one of them." ("" if nowhere)."""
    ref = recount.replayed(units(setup), done)
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
