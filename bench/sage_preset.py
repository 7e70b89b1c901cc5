"""Measure the phases of the SaGe page's paper preset once, for its time estimate.

The preset (Table 6 of the SaGe paper: V 16,000 from n = 1.25, k 100, M 1,500, m 10, l 4,
on all of ``sample:enwiki``) runs 40 prune steps: Word2Vec once (every l x m = 40 steps),
every piece scored at steps 1, 11, 21 and 31 (every m = 10), only the candidates at the
other 36; then each control (frequency, and random with 5 seeds) on the same schedule.
Running all of it takes many minutes, so each phase is timed once at full size, in CPU
seconds of this process (the run uses one core; other work on the machine adds to the
wall time, not to these):

- reading the sample (``corpus.load_lines`` + ``sage.sample_sentences``);
- ``sage.prepare``: BPE to 20,000 pieces and the sample cut with them;
- SaGe's step 1 (Word2Vec, every piece scored, eq. (1), the prune) and step 2 (only the
  candidates rescored), each split at the run's own phase messages;
- one step of the frequency control and of the random control.

``subtok_core.sage.timing`` multiplies these by the number of each kind of step the preset
runs. With ``--write`` the figures go to subtok_core/data/sage_preset.toml with the date,
the machine and the command. Not a test and not run by CI; run it again after the SaGe code changes.

Usage (from the repository root; about 3 to 5 minutes of one core)::

    PYTHONPATH=. python bench/sage_preset.py [--write]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing

from subtok_core import corpus, sage  # noqa: E402
from subtok_core.sage import timing  # noqa: E402


def clock():
    """CPU seconds of this process since the last call (the first call starts the clock):
    the machine may be busy with other work, and the run itself uses one core."""
    now = time.process_time()
    last, clock.last = getattr(clock, "last", now), now
    return now - last


def sage_steps(prepared, settings) -> dict[str, float]:
    """Steps 1 and 2 of SaGe, split where the run says what it computes next."""
    marks: list[tuple[str, float]] = []
    steps = sage.iter_sage(
        prepared, settings, None, lambda t: marks.append((t, time.process_time()))
    )
    start = time.process_time()
    next(steps)
    step1_end = time.process_time()
    next(steps)
    step2_end = time.process_time()
    (_, w2v_start), (_, score1_start), (_, score2_start) = marks[:3]
    return {
        "word2vec": score1_start - w2v_start,
        "full_step": step1_end - score1_start,  # every piece scored, eq. (1), the prune
        "candidate_step": step2_end - score2_start,
        "first_overhead": w2v_start - start,
    }


def control_step(prepared, settings, control: str) -> float:
    steps = sage.iter_sage(prepared, settings, control)
    clock()
    next(steps)
    return clock()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="write subtok_core/data/sage_preset.toml"
    )
    args = parser.parse_args()
    settings = sage.PAPER
    wall, load_before = time.perf_counter(), os.getloadavg()[0]
    clock()
    sentences = sage.sample_sentences(corpus.load_lines(timing.PRESET_SAMPLE))
    figures = {"load": clock()}
    prepared = sage.prepare(sentences, settings)
    figures["prepare"] = clock()
    figures |= sage_steps(prepared, settings)
    figures["frequency_step"] = control_step(prepared, settings, "frequency")
    figures["random_step"] = control_step(prepared, settings, "random")
    sizes = {
        "sentences": len(sentences),
        "tokens": len(prepared.flat),
        "pieces": len(prepared.pieces),
    }
    wall = time.perf_counter() - wall
    busy = f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    for name, seconds in figures.items():
        print(f"{name:>16}: {seconds:7.1f} s of CPU")
    print(f"all phases: {sum(figures.values()):.0f} s of CPU in {wall:.0f} s ({busy})")
    est = timing.estimate(figures)
    print(f"estimate: SaGe {est.sage:.0f} s, each control {est.control:.0f} s, "
          f"{est.controls} controls, all {est.total:.0f} s")  # fmt: skip
    if args.write:
        command = "PYTHONPATH=. python bench/sage_preset.py --write"
        machine = f"{platform.platform()}, {os.cpu_count()} cores, {busy}"
        timing.write(figures, sizes, command, machine, datetime.date.today().isoformat())
        print(f"wrote {timing.TIMING_FILE}")


if __name__ == "__main__":
    main()
