"""How long the SaGe page's paper preset takes, from its phases timed once on this machine.

``bench/sage_preset.py --write`` times each phase of the preset at full size once (reading
the sample, BPE and cutting the sample, Word2Vec, a step that scores every piece, a step
that rescores only the candidates, one step of each control) and writes them to
``subtok_core/data/sage_preset.toml``. The estimate multiplies them by how many of each the preset's
schedule runs (Algorithm 3: Word2Vec every l x m steps, every piece scored every m steps):

>>> schedule(sage_records.PAPER)
Schedule(steps=40, full=4, candidates=36, retrains=1)
>>> seconds = {"load": 30, "prepare": 60, "word2vec": 40, "full_step": 20,
...            "candidate_step": 2, "first_overhead": 0, "frequency_step": 1, "random_step": 1}
>>> e = estimate(seconds)
>>> e.sage, e.control, e.controls, e.total
(282.0, 100.0, 6, 882.0)
>>> describe(282), describe(882)
('about 5 min', 'about 15 min')
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass

from ..corpus import DATA_DIR
from . import records as sage_records
from .records import SageSettings
from .train import steps_needed

TIMING_FILE = DATA_DIR / "sage_preset.toml"
PRESET_SAMPLE = "sample:enwiki"
PHASES = ("load", "prepare", "word2vec", "full_step", "candidate_step", "first_overhead",
          "frequency_step", "random_step")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Schedule:
    steps: int
    full: int  # steps that score every piece (i = 0 mod m)
    candidates: int  # steps that rescore only the candidate set
    retrains: int  # steps that retrain Word2Vec first (i = 0 mod l x m)


def schedule(s: SageSettings) -> Schedule:
    """How many steps of each kind a run with settings `s` makes."""
    n = steps_needed(s)
    full = -(-n // s.m)  # i = 0, m, 2m, ... below n
    return Schedule(n, full, n - full, -(-n // (s.l * s.m)))


@dataclass(frozen=True, slots=True)
class Estimate:
    sage: float  # seconds from pressing the button to SaGe's step log
    control: float  # seconds for one control run (BPE again, then its steps)
    controls: int  # how many control runs follow (frequency + the random seeds)

    @property
    def total(self) -> float:
        return self.sage + self.controls * self.control


def estimate(seconds: dict, s: SageSettings = sage_records.PAPER, randoms: int = 5) -> Estimate:
    """The preset's time from its phases' `seconds` (as bench/sage_preset.py measures them)."""
    missing = [p for p in PHASES if p not in seconds]
    if missing:
        raise ValueError(f"The timing figures lack {', '.join(missing)}; measure them again.")
    plan = schedule(s)
    sage = (
        seconds["load"] + seconds["prepare"] + seconds["first_overhead"]
        + plan.retrains * seconds["word2vec"]
        + plan.full * seconds["full_step"] + plan.candidates * seconds["candidate_step"]
    )  # fmt: skip
    step = (seconds["frequency_step"] + randoms * seconds["random_step"]) / (1 + randoms)
    control = seconds["prepare"] + plan.steps * step
    return Estimate(float(sage), float(control), 1 + randoms)


def load_timing(path=TIMING_FILE) -> dict | None:
    """The measured figures (``seconds``, ``sizes``, ``measured``), or None before they are."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return None


def describe(seconds: float) -> str:
    """A duration as a person says it: half minutes below 3 minutes, then whole minutes,
    then 5-minute steps from 20 minutes on.

    >>> [describe(s) for s in (12, 80, 100, 240, 708, 1300)]
    ['about 10 s', 'about 1.5 min', 'about 1.5 min', 'about 4 min', 'about 12 min', 'about 20 min']
    """
    if seconds < 60:
        return f"about {max(5, round(seconds / 5) * 5)} s"
    minutes = seconds / 60
    if minutes < 3:
        return f"about {round(minutes * 2) / 2:g} min"
    return f"about {round(minutes) if minutes < 20 else 5 * round(minutes / 5)} min"


def preset_note(measured: dict | None, randoms: int = 5) -> str:
    """What the page says about the preset before it starts (`measured`: load_timing()).

    >>> preset_note(None)[:50]
    'its time has not been measured on this machine yet'
    >>> seconds = {p: 1.0 for p in PHASES} | {"prepare": 60.0, "full_step": 30.0}
    >>> preset_note({"seconds": seconds, "measured": {"date": "2025-01-01"}})
    'on this machine about 4 min to the step log, and 6 control runs of about 1.5 min each, \
beside SaGe when the server has cores to spare (about 14 min one after another). Each phase \
was timed once on 2025-01-01 (CPU time) and multiplied by the steps of each kind; a busy \
server takes longer.'
    """
    if measured is None:
        return (
            "its time has not been measured on this machine yet "
            "(python bench/sage_preset.py --write)."
        )
    e = estimate(measured["seconds"], randoms=randoms)
    return (
        f"on this machine {describe(e.sage)} to the step log, and {e.controls} control runs of "
        f"{describe(e.control)} each, beside SaGe when the server has cores to spare "
        f"({describe(e.total)} one after another). Each phase was timed once on "
        f"{measured['measured']['date']} (CPU time) and multiplied by the steps of each kind; "
        "a busy server takes longer."
    )


def write(seconds: dict, sizes: dict, command: str, machine: str, date: str, path=TIMING_FILE):
    """Write the figures bench/sage_preset.py measured (numbers and plain strings only)."""
    lines = [
        "# The SaGe page's paper preset, each phase timed once at full size (CPU seconds).",
        "# Written by bench/sage_preset.py; subtok_core/sage/timing.py reads it.",
        "[measured]",
        f'date = "{date}"',
        f'machine = "{machine}"',
        f'command = "{command}"',
        "[sizes]",
        *(f"{k} = {int(v)}" for k, v in sizes.items()),
        "[seconds]",
        *(f"{k} = {v:.2f}" for k, v in seconds.items() if math.isfinite(v)),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
