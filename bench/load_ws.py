"""Load test on the server alone: N sessions speaking Streamlit's websocket protocol.

bench/load.py drives real browsers, and on this 2-core machine the browsers took most of
the CPU (some 245 of 285 CPU-seconds for 30 sessions). Here each session is what a tab
is to the server, without the drawing: one websocket to ``/_stcore/stream`` (subprotocol
``streamlit``, as the frontend's WebsocketConnection sends), protobuf ``BackMsg`` up and
``ForwardMsg`` down (streamlit.proto). A session

* connects and asks for a run of the deep link, as a browser's first request does: a
  ``rerun_script`` with the address's query string and the page's name ("bpe"); once the
  server has named the page (the ``navigation`` message), by its script hash;
* waits for ``script_finished`` (a run ended early for a rerun, as ``st.rerun`` on the
  first request of a fresh server makes, does not count): the time to first render;
* then changes the step `--steps` times, each one run timed to its ``script_finished``:
  by default a click on the next-step button (its trigger; the button is found by its
  key, ``<page>_step_next``, in the id of its delta), as load.py clicks it; with
  ``--via slider``, the step slider set to the next value (a drag). Not through the
  address: a page reads ``?step=`` on a session's first run only, then the session's
  value. Like the browser, the session sends the query string the server last gave
  (``page_info_changed``), and checks that the slider's value in the run's deltas is the
  step asked for (the protocol: bench/_tab.py). By default a session steps again as
  soon as its step has come back (the harshest case: every student clicking at once, all
  the time); ``--think T`` waits a random 0 to 2T seconds first, a student reading.

Errors: an exception element, an ``st.error``, a compile error, a page not found, a
closed socket, a timeout (``--timeout``, 120 s per run), a step not shown. Besides:
server RSS before, at the peak of each round (sampled every 0.2 s) and 3 s after its
sessions closed; the server's CPU seconds (and per script run); the trainings in the
server's log (logger subtok_core.store). Round 1 starts cold (SUBTOK_CACHE_DIR=off, the
class polls in a temporary database), every later round is warm (same server).

``--st KEY=VALUE`` passes an option to ``streamlit run``, to compare a setting without
editing .streamlit/config.toml (the last example runs Streamlit's defaults, which the
config turns off); ``--py-spy FILE`` records the server with py-spy (``pip install
py-spy``, not a project dependency) during the last round and prints where its time
under the GIL went (bench/_pyspy.py). Not a test, not run by CI.

    python bench/load_ws.py --sessions 30
    python bench/load_ws.py --sessions 30 --think 3
    python bench/load_ws.py --sessions 10 --rounds 3 --py-spy /tmp/warm.txt
    python bench/load_ws.py --sessions 10 \\
        --st runner.postScriptGC=true --st server.fileWatcherType=auto
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import time
from dataclasses import dataclass, field
from urllib.parse import urlparse

import websockets
from _pyspy import recording, summary
from _server import (
    Round,
    issue_targets,
    measured_round,
    print_targets,
    serve,
    spread,
)
from _tab import SUBPROTOCOLS, Tab, step_states


@dataclass
class Session:
    first_render: float | None = None  # seconds, connect to the first run's script_finished
    steps: list[float] = field(default_factory=list)  # seconds, each step's run
    errors: list[str] = field(default_factory=list)
    runs: int = 0  # script runs the server made for it


async def one_session(base: str, url: str, args) -> Session:
    s, parts = Session(), urlparse(url)
    start = time.perf_counter()
    try:
        # no pings of our own: a browser sends none, and a server too busy to answer one
        # within 20 s must not lose a session a browser would have kept
        async with websockets.connect(
            base, subprotocols=SUBPROTOCOLS, max_size=None, ping_interval=None
        ) as ws:
            tab = Tab(ws, parts.path, parts.query, args.timeout)
            try:
                s.errors += await tab.run()
                s.first_render = None if s.errors else time.perf_counter() - start
                step = tab.step_shown()
                if s.errors or step is None or tab.next_button() is None:
                    return s  # a page without steps (/compare)
                for _ in range(args.steps):
                    if step >= tab.step_slider().max:
                        break  # the last step: nothing further to click
                    step += 1
                    await asyncio.sleep(random.uniform(0, 2 * args.think))  # reading the page
                    begun = time.perf_counter()
                    states, fragment = step_states(tab, args.via, step)
                    s.errors += await tab.run(*states, fragment_id=fragment)
                    if tab.step_shown() != step:
                        s.errors.append(f"asked for step {step}, the page shows {tab.step_shown()}")
                    if s.errors:
                        return s
                    s.steps.append(time.perf_counter() - begun)
            finally:
                s.runs = tab.runs
    except (OSError, TimeoutError, websockets.WebSocketException) as err:
        said = str(err) or f"no end of the run within {args.timeout:g} s"
        s.errors.append(f"{type(err).__name__}: {said[:200]}")
    return s


def report(n: int, r: Round, args) -> None:
    firsts = [s.first_render for s in r.sessions if s.first_render is not None]
    steps = [t for s in r.sessions for t in s.steps]
    runs = sum(s.runs for s in r.sessions)
    print(f"\nround {n} ({'cold' if n == 1 else 'warm'}), {r.wall:.1f} s")
    print(
        f"  sessions: {len(r.sessions)}, rendered: {len(firsts)}, "
        f"with errors: {sum(1 for s in r.sessions if s.errors)}, "
        f"errors: {sum(len(s.errors) for s in r.sessions)}"
    )
    print(f"  first render: {spread(firsts)}")
    print(
        f"  step latency: {spread(steps, (50, 95, 'max'))} "
        f"({len(steps)} of {len(r.sessions) * args.steps} steps, via {args.via}, "
        f"{args.think:g} s think time)"
    )
    print(f"  server RSS peak {r.peak:.0f} MB, after close {r.after:.0f} MB")
    print(
        f"  CPU: server {r.server_cpu:.1f} s for {runs} script runs "
        f"({r.server_cpu / max(runs, 1) * 1000:.0f} ms a run), clients {r.client_cpu:.1f} s, "
        f"other processes {r.all_cpu - r.server_cpu - r.client_cpu:.1f} s, "
        f"of {r.wall * (os.cpu_count() or 1):.0f} s available"
    )
    for text in sorted({e for s in r.sessions for e in s.errors})[:10]:
        print(f"  error: {text}")


async def rounds(args, pid: int, base: str) -> list[Round]:
    """`args.rounds` rounds of `args.sessions` sessions at once, the last one profiled
    when asked (`args.py_spy`)."""
    done = []
    for n in range(1, args.rounds + 1):
        sessions = [one_session(base, args.url, args) for _ in range(args.sessions)]
        profile = args.py_spy if n == args.rounds else None
        with recording(pid, profile) if profile else contextlib.nullcontext():
            done.append(await measured_round(pid, sessions))
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120, help="seconds per run")
    parser.add_argument("--url", default="/bpe?corpus=sample:lee&merges=2000&step=5")
    parser.add_argument("--via", choices=("next", "slider"), default="next")
    parser.add_argument(
        "--think", type=float, default=0, help="mean seconds a student reads before a step"
    )
    parser.add_argument("--st", action="append", default=[], help="KEY=VALUE for streamlit run")
    parser.add_argument("--py-spy", metavar="FILE", help="profile the last round into FILE")
    args = parser.parse_args()
    if min(args.sessions, args.rounds) < 1 or min(args.steps, args.think) < 0:
        parser.error("--sessions and --rounds must be at least 1, --steps and --think at least 0")
    flags = [
        part
        for option in args.st
        for part in (f"--{option.split('=')[0]}", option.split("=", 1)[-1])
    ]

    served = serve(
        "subtok-load-ws-",
        lambda pid, port: asyncio.run(rounds(args, pid, f"ws://127.0.0.1:{port}/_stcore/stream")),
        flags=flags,
    )
    done, server_log = served.result, served.log
    served.header(f"subtok load test over the websocket protocol: {args.url}", args)
    print(f"streamlit run options: {' '.join(flags) or 'none'} (and .streamlit/config.toml)")
    for n, r in enumerate(done, 1):
        report(n, r, args)
    server_log.report(served.log_name)
    if args.py_spy:
        print("\n" + summary(args.py_spy, sum(s.runs for s in done[-1].sessions)))
    print_targets(issue_targets(server_log, [r.sessions for r in done], max(r.peak for r in done)))


if __name__ == "__main__":
    main()
