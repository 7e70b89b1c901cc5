"""A /check exercise set to a class (the class session, subtok_core.rooms): the teacher
picks an exercise corpus and its settings, each student trains a BPE of their own on it
and sends the merges from /join, and the teacher sees how many lists are identical to
the reference and where and why the others leave it, never who sent which.

A student's merges are checked where they are sent, and the round keeps only the
outcome, as the student's answer: ``identical``, or the first merge that differs and its
cause (``merge 7: tie``). So the class's record (CSV, summary) holds one outcome per
student, and no merge list is stored.

>>> q = question("runs", "Runs of one letter.")
>>> q.kind, q.answers
('merges', ('identical',))
>>> outcome_of(False, 7, "tie"), parse_outcome("merge 7: tie"), parse_outcome("identical")
('merge 7: tie', (7, 'tie'), (None, 'identical'))
>>> [(r.outcome, r.students) for r in outcome_rows([("merge 7: tie", 2), ("identical", 3),
...                                                ("merge 3: overlap", 1)])]
[('identical', 3), ('merge 3: overlap', 1), ('merge 7: tie', 2)]
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..keys import fingerprint
from ..rooms.questions import Question

KIND = "merges"  # a round's question kind: the students send a merge list
IDENTICAL = "identical"
_DIFFERS = re.compile(r"merge (\d+): (\S+)")


def question(name: str, about: str) -> Question:
    """The round of exercise `name`: every student sends the merges their trainer learned
    on it; the outcome that 'predicts' it is a list identical to the reference's."""
    return Question(
        step=0,
        number=0,
        kind=KIND,
        prompt=f"Train your BPE on exercise:{name} and send the merges it learned.",
        candidates=(),
        answers=(IDENTICAL,),
        tied=(),
        explanation=about,
    )


def run_print(name: str, settings: dict) -> str:
    """The fingerprint of an exercise with its settings: the room's run while the teacher
    shows it (a round belongs to one exercise and its settings)."""
    return fingerprint("check-exercise", name, json.dumps(settings, sort_keys=True))


def outcome_of(identical: bool, merge: int | None = None, cause: str = "") -> str:
    """A verdict as the round keeps it (the student's 'answer')."""
    return IDENTICAL if identical else f"merge {int(merge)}: {cause}"


def parse_outcome(text: str) -> tuple[int | None, str]:
    """(first differing merge, cause) of a kept outcome; (None, 'identical') for an
    identical list, (None, the text) for anything else."""
    found = _DIFFERS.fullmatch(text.strip())
    if found:
        return int(found[1]), found[2]
    return None, text.strip()


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    outcome: str
    merge: int | None  # the first merge that differs (None: identical)
    cause: str
    students: int


def outcome_rows(tally) -> list[OutcomeRow]:
    """The round's tally (outcome, students) as rows: identical lists first, then by the
    merge where the lists leave the reference, earliest first."""
    rows = []
    for outcome, n in tally:
        merge, cause = parse_outcome(outcome)
        rows.append(OutcomeRow(outcome, merge, cause, int(n)))
    return sorted(rows, key=lambda r: (r.merge is not None, r.merge or 0, r.cause))


def cause_counts(rows: list[OutcomeRow]) -> dict[str, int]:
    """Students per cause ('identical' among them), the most frequent first."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.cause] = counts.get(row.cause, 0) + row.students
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def exercise_view(ex, settings: tuple) -> dict:
    """What phones show of exercise `ex` (an exercises.Exercise): its name, what it is
    about, the check's settings (bytelevel, marker, pattern, ties, special tokens)."""
    bytelevel, marker, pattern, ties, specials = settings
    return {
        "kind": "exercise",
        "exercise": ex.name,
        "about": ex.about,
        "settings": {"bytelevel": bool(bytelevel), "marker": marker, "pattern": pattern,
                     "ties": ties, "specials": list(specials)},
    }  # fmt: skip


def settings_of(view: dict) -> tuple:
    """The check's settings tuple (bytelevel, marker, pattern, ties, specials) of a view."""
    s = view["settings"]
    return (bool(s["bytelevel"]), s["marker"], s["pattern"], s["ties"], tuple(s["specials"]))


def settings_words(view: dict) -> str:
    """The settings in a sentence for the students.

    >>> settings_words({"settings": {"bytelevel": False, "marker": "none", "pattern": "gpt2",
    ...                              "ties": "auto", "specials": []}})
    'Settings: character-level BPE, marker none, any tie rule (the check finds yours).'
    """
    s = view["settings"]
    level = (
        f"byte-level BPE, pre-split pattern {s['pattern']}"
        if s["bytelevel"]
        else f"character-level BPE, marker {s['marker']}"
    )
    auto = s["ties"] == "auto"
    ties = "any tie rule (the check finds yours)" if auto else f"tie rule {s['ties']}"
    specials = f", special tokens {' '.join(s['specials'])}" if s["specials"] else ""
    return f"Settings: {level}, {ties}{specials}."
