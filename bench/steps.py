"""What one step click costs on the server: the script run after the step changes.

Each lesson page is opened on a deep link (its trace trained once, before timing), then
the step is moved forward one at a time; every move is one full script run, timed from the
widget change to the end of the run, as Streamlit's server does it (AppTest runs the same
script, without a browser or the network). Prints p50 / p95 / max per page.

    python bench/steps.py            # toys and real samples, 20 clicks each
    python bench/steps.py --clicks 50

Targets (the speed issue): p95 under 150 ms on toys, under 300 ms on a real-sample trace.
bench/rerun.py measures the same clicks as CPU time, and a rerun with nothing changed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing
# every run trained in this process, none read from the disk cache of another one
os.environ.setdefault("SUBTOK_CACHE_DIR", "off")

import pandas.io.formats.style  # noqa: E402, F401  (imported once by a server's first table)
from streamlit.testing.v1 import AppTest  # noqa: E402

from lessons.ui.compat import share_compiled_scripts  # noqa: E402

APP = str(ROOT / "app.py")
# AppTest compiles app.py and the page again on every run (a new ScriptCache per run); a
# server compiles them once. One cache for every run here, as on the server (without it
# each click costs some 50-70 ms more here, which no student waits for).
share_compiled_scripts()
VIEWS = [  # page, deep link parameters, target p95 in ms
    ("lessons/bpe/page.py", {"corpus": "toy:low-lower", "marker": "eow", "merges": "10"}, 150),
    ("lessons/wordpiece/page.py", {"corpus": "toy:sunflower", "merges": "10"}, 150),
    ("lessons/unigram/page.py", {"corpus": "toy:run-bug"}, 150),
    ("lessons/bytebpe/page.py", {"corpus": "toy:emoji-cjk", "merges": "10"}, 150),
    ("lessons/bpe/page.py", {"corpus": "sample:lee", "merges": "2000"}, 300),
    ("lessons/wordpiece/page.py", {"corpus": "sample:lee", "merges": "500"}, 300),
    ("lessons/unigram/page.py", {"corpus": "sample:lee", "variant": "em", "size": "2000"}, 300),
    ("lessons/bytebpe/page.py", {"corpus": "sample:lee", "merges": "500"}, 300),
    ("lessons/sage/page.py", {"corpus": "sample:lee"}, 300),  # its default run: 4 steps
]


def open_view(page: str, query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    if at.exception:
        raise SystemExit(f"{page} {query}: {at.exception[0].value}")
    return at


def click_times(at: AppTest, clicks: int) -> list[float]:
    """Seconds per step move (the slider's value set, then one script run)."""
    slider = at.slider(key="step")
    last = int(slider.max)  # AppTest gives a slider's bounds as floats
    times = []
    for i in range(1, min(clicks, last) + 1):
        at.slider(key="step").set_value(i)
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        if at.exception:
            raise SystemExit(f"step {i}: {at.exception[0].value}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    args = parser.parse_args()
    print(f"{'page':<20} {'view':<45} {'clicks':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for page, query, target in VIEWS:
        at = open_view(page, query)  # trains once; the clicks below reuse the trace
        times = sorted(click_times(at, args.clicks))
        p50 = statistics.median(times) * 1000
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] * 1000
        view = "&".join(f"{k}={v}" for k, v in query.items())
        verdict = "ok" if p95 < target else f"over the {target} ms target"
        print(
            f"{Path(page).stem:<20} {view:<45} {len(times):>6} {p50:>7.0f} {p95:>7.0f} "
            f"{times[-1] * 1000:>7.0f}  {verdict}"
        )


if __name__ == "__main__":
    main()
