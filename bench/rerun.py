"""What a warm rerun of each lesson page costs the server: the page's own CPU time.

Each page is opened on a deep link and its trace trained once, before timing. Then the
script is run again with nothing changed (what every widget touch elsewhere on the page,
a second student on the same link, or a browser reconnect costs), and the step is moved
forward one at a time (one click each). Two figures per run: the wall time of the run, and
the CPU time of the thread that ran the script (the work the page itself does: building
tables and charts, Arrow and JSON serialisation of what it sends), measured inside that
thread with time.thread_time. Prints p50 / p95 per page for both. The scripts are compiled
once, as a server does (AppTest alone would compile app.py and the page on every run).

    python bench/rerun.py                  # every view, 20 reruns and 20 clicks each
    python bench/rerun.py --only sage      # the views whose page name contains "sage"
    python bench/rerun.py --profile 12     # and the 12 costliest functions of the reruns

Targets (the one-server issue): a warm rerun under 100 ms of the page's CPU; the speed
issue's step click: p95 under 150 ms on toys, under 300 ms on a real-sample trace.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing
sys.path.insert(0, str(ROOT / "bench"))
# every run trained in this process, none read from the disk cache of another one
os.environ.setdefault("SUBTOK_CACHE_DIR", "off")

from steps import open_view  # noqa: E402  (also: the scripts compiled once, as a server does)

from lessons.ui.compat import on_script_thread  # noqa: E402

RERUN_TARGET = 100  # ms of CPU, p95
VIEWS = [  # page, deep link parameters, the step click's target (p95, ms)
    ("lessons/bpe/page.py", {"corpus": "toy:low-lower", "marker": "eow", "merges": "10"}, 150),
    ("lessons/wordpiece/page.py", {"corpus": "toy:sunflower", "merges": "10"}, 150),
    ("lessons/unigram/page.py", {"corpus": "toy:run-bug"}, 150),
    ("lessons/unigram/page.py", {"corpus": "toy:run-bug", "variant": "em"}, 150),
    ("lessons/bpe/page.py", {"corpus": "sample:lee", "merges": "2000"}, 300),
    ("lessons/wordpiece/page.py", {"corpus": "sample:lee", "merges": "500"}, 300),
    ("lessons/unigram/page.py", {"corpus": "sample:lee", "variant": "em", "size": "2000"}, 300),
    ("lessons/sage/page.py", {"corpus": "sample:lee"}, 300),
]

CPU: list[float] = []  # CPU seconds of each script run, appended by the script thread
PROFILE: list[cProfile.Profile | None] = [None]  # while set, script runs are profiled


def _measured_thread(run) -> None:
    """The script thread of AppTest, its CPU time measured (and profiled when asked)."""
    profile = PROFILE[0]
    start = time.thread_time()
    if profile is not None:
        profile.enable()
    try:
        run()
    finally:
        if profile is not None:
            profile.disable()
        CPU.append(time.thread_time() - start)


on_script_thread(_measured_thread)


def timed_run(at) -> tuple[float, float]:
    """One script run: (wall seconds, CPU seconds of the script thread)."""
    CPU.clear()
    start = time.perf_counter()
    at.run()
    wall = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"{at.exception[0].value}")
    return wall, sum(CPU)


def percentiles(values: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds (p95: the nearest rank)."""
    ranked = sorted(values)
    p95 = ranked[min(len(ranked) - 1, round(0.95 * (len(ranked) - 1)))]
    return statistics.median(ranked) * 1000, p95 * 1000


def clicks_through(at, clicks: int, start: int = 1) -> list[tuple[float, float]]:
    """Move the step slider forward one at a time from `start`; one timed run per move."""
    last = int(at.slider(key="step").max) if at.slider else 0
    return [
        (at.slider(key="step").set_value(i), timed_run(at))[1]
        for i in range(start, min(start + clicks, last + 1))
    ]


def profiled(runs, top: int) -> str:
    """The `top` functions by own time and by cumulative time over the runs `runs()` makes."""
    PROFILE[0] = cProfile.Profile()
    runs()
    profile, PROFILE[0] = PROFILE[0], None
    text = io.StringIO()
    stats = pstats.Stats(profile, stream=text)
    for order in ("tottime", "cumulative"):
        stats.sort_stats(order).print_stats(top)
    lines = text.getvalue().splitlines()
    return "\n".join(line for line in lines if line.strip() and "function calls" not in line)


def measure(page: str, query: dict, reruns: int, clicks: int, top: int, target: int) -> list[str]:
    """The rows printed for one view: reruns with no change, then step clicks (and, with
    `top`, the profile of as many more of each, run after the timed ones)."""
    at = open_view(page, query)  # trains once; everything below reuses the trace
    timed_run(at)  # the first warm rerun fills the page's own caches
    rows = [("rerun", [timed_run(at) for _ in range(reruns)], RERUN_TARGET)]
    click = clicks_through(at, clicks)
    rows += [("click", click, target)] if click else []
    out = []
    for what, runs, most in rows:
        wall, cpu = percentiles([r[0] for r in runs]), percentiles([r[1] for r in runs])
        verdict = "ok" if cpu[1] < most else f"over the {most} ms target"
        out.append(
            f"{what:<6} {len(runs):>3}  wall {wall[0]:>5.0f} {wall[1]:>5.0f}   "
            f"cpu {cpu[0]:>5.0f} {cpu[1]:>5.0f}  {verdict}"
        )
    if top:
        out.append("profile of the reruns:")
        out.append(profiled(lambda: [timed_run(at) for _ in range(reruns)], top))
        if click:
            at.slider(key="step").set_value(0)
            timed_run(at)
            out.append("profile of the clicks:")
            out.append(profiled(lambda: clicks_through(at, clicks), top))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=20)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--only", default="", help="only pages whose name contains this")
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    args = parser.parse_args()
    print("ms per script run, p50 p95; cpu = CPU time of the thread that ran the page")
    for page, query, target in VIEWS:
        if args.only not in page:
            continue
        view = "&".join(f"{k}={v}" for k, v in query.items())
        print(f"\n{Path(page).stem} ?{view}")
        for line in measure(page, query, args.reruns, args.clicks, args.profile, target):
            print("  " + line)


if __name__ == "__main__":
    main()
