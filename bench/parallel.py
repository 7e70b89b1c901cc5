"""Benchmark: the pages whose independent trainings go to worker processes, cold, with and
without the pool (subtok_core.parallel).

Two first renders, each in a fresh Python process (empty caches, no disk cache, a new
pool), once with ``SUBTOK_WORKERS=0`` (every training in the page's own process, one
after the other, as before the pool) and once with the default (one worker per core):

- ``compare``: ``/compare?corpus=sample:enwiki&size=8000&tok=bpe,wordpiece,unigram``
  (three tokenizers trained, then the corpus encoded and measured);
- ``sage``: ``/sage`` with its defaults (Lee, V 1,000 from 1,200, k 50, M 400), the step log
  and the controls (frequency and five random seeds) to the last chart.

Prints the wall time of each, the system's load average before and after (other work on
the machine slows both), and the ratio. Not a test and not run by CI.

Usage (from the repository root; each render takes a minute or more)::

    PYTHONPATH=. python bench/parallel.py [--page compare|sage|both] [--order pool-first]
        [--nice 0]

The pool can only be faster when a second core is free: with other work on the machine
(check ``uptime``), both renders share what is left. The workers run at a lower priority
than the server (subtok_core.parallel.NICE); ``--nice 0`` puts them level with the other
processes, for a comparison on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = {
    "compare": (
        "lessons/compare/page.py",
        {"corpus": "sample:enwiki", "size": "8000", "tok": "bpe,wordpiece,unigram"},
    ),
    "sage": ("lessons/sage/page.py", {}),
}


def render(page: str, nice: int | None) -> dict:
    """In this (fresh) process: the seconds of the page's first render (the child side);
    `nice`: the workers' priority, if not subtok_core.parallel's."""
    from streamlit.testing.v1 import AppTest

    from subtok_core import parallel

    if nice is not None:
        parallel.NICE = nice

    path, query = PAGES[page]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=3600)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    start = time.perf_counter()
    at.switch_page(path).run()
    seconds = time.perf_counter() - start
    problems = [str(e.value) for e in at.exception] + [e.value for e in at.error]
    return {"seconds": seconds, "problems": problems}


def measure(page: str, workers: str | None, nice: int | None) -> dict:
    """One cold render in a child process; `workers` None: the default pool."""
    env = {**os.environ, "SUBTOK_CACHE_DIR": "off", "PYTHONPATH": str(ROOT)}
    env.pop("SUBTOK_WORKERS", None)
    if workers is not None:
        env["SUBTOK_WORKERS"] = workers
    before = os.getloadavg()[0]
    more = ["--nice", str(nice)] if nice is not None else []
    done = subprocess.run(
        [sys.executable, __file__, "--child", page, *more],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return {**result, "load": (before, os.getloadavg()[0])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", choices=["compare", "sage", "both"], default="both")
    parser.add_argument("--order", choices=["pool-last", "pool-first"], default="pool-last")
    parser.add_argument(
        "--nice", type=int, help="the workers' priority (default: subtok_core.parallel.NICE; "
        "0 when other work shares the machine and the comparison should be even)",
    )  # fmt: skip
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(render(args.child, args.nice)))
        return
    print(f"{os.cpu_count()} cores; load average now {os.getloadavg()[0]:.1f}")
    pages = ["compare", "sage"] if args.page == "both" else [args.page]
    runs = [("0", "in the page's process"), (None, "pool (one worker per core)")]
    if args.order == "pool-first":
        runs.reverse()
    for page in pages:
        path, query = PAGES[page]
        print(f"\n{page}: {path} {query or '(defaults)'}, cold, SUBTOK_CACHE_DIR=off")
        seconds = {}
        for workers, what in runs:
            r = measure(page, workers, args.nice)
            seconds[workers] = r["seconds"]
            load = f"load {r['load'][0]:.1f} -> {r['load'][1]:.1f}"
            print(f"  {what:<28} {r['seconds']:7.1f} s  ({load})  {r['problems'] or ''}")
        print(f"  ratio: {seconds['0'] / seconds[None]:.2f} x faster with the pool")


if __name__ == "__main__":
    main()
