"""Load test: one real server, N real browsers on the same deep link, then K steps each.

Starts ``streamlit run app.py`` on a free loopback port, opens N browser contexts of one
headless chromium (Debian's, never a downloaded one) on the same deep link at once, and
measures per session

* first render: from ``goto`` until the app is idle
  (``[data-testid='stApp'][data-test-script-state='notRunning']``) AND the page's main
  content is there: the step slider (``[data-testid='stSlider']``) or,
  on a page without one (/compare), a chart (``[data-testid='stMain'] .vega-embed``);
  both are drawn only after the trace is trained, so the progress bar does not count;
  then, reported beside it, until vega has drawn the first chart (canvas or svg);
* each click on the next-step button (keyed ``<page>_step_next``): until the app is
  idle AND both ``?step=`` in the URL and the slider's value show the next step (the
  value comes from the server's rerun, so an idle app still showing the old step does
  not count);
* beside both, "ScriptFinished received": when the page's websocket received the server's
  ScriptFinished message for that run: the latency without the drawing (it still includes
  the browser loading the app and the websocket's trip through a busy browser);
* errors: ``stException`` elements, ``st.error`` alerts, page crashes, timeouts
  (``--timeout``, 120 s per action);
* the server's resident memory (VmRSS of the process and its children) before, at the
  peak of each round (sampled every 0.2 s) and after each round's sessions closed, and
  the CPU seconds of the server, of the browsers (this script's process tree) and of
  everything else on the machine, per round: the clients share the server's machine
  (bench/load_ws.py measures the server without browsers);
* how many times the server trained: lines of ``subtok_core.store`` containing "trained"
  in the server's stderr ("not logged" when it logs none).

The browsers run on the server's machine, niced (10) so that the server goes first, as if
the students had machines of their own; their drawing still shares the CPUs, so compare
"ScriptFinished received" and the CPU line with the render times.

Round 2 (``--rounds 2``, the default) runs on the same server, so its first renders are
warm (the trace is kept). Not a test and not run by CI.

Usage (from the repository root)::

    python bench/load.py --sessions 30
    python bench/load.py --sessions 10 --url "/compare?corpus=sample:lee&size=2000&tok=bpe,unigram"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlparse

from _server import (
    ROOT,
    Round,
    issue_targets,
    measured_round,
    print_targets,
    serve,
    spread,
)

sys.path.insert(0, str(ROOT))  # like the other benchmarks; the server gets it as PYTHONPATH

from playwright.async_api import Error as PlaywrightError  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]  # as conftest.py
ARGS += ["--disable-component-update", "--disable-sync", "--no-first-run"]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
NEXT = "[class*='_step_next'] button"  # Streamlit marks a keyed element with st-key-<key>
SLIDER = "[data-testid='stSlider']"
CONTENT = f"{SLIDER}, [data-testid='stMain'] .vega-embed"
CHART = "[data-testid='stMain'] .vega-embed canvas, [data-testid='stMain'] .vega-embed svg"
POLL_MS = 200  # how often a page checks a condition (the default, every frame, costs CPU)
RERUN = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN  # a run cut short
ERR_KINDS = (
    ("exception", "[data-testid='stException']"),
    ("st.error", "[data-testid='stAlertContentError']:not([data-testid='stException'] *)"),
)
ERR = ", ".join(sel for _, sel in ERR_KINDS)
# true when the app is idle and shows the main content (or an exception or st.error)
READY_JS = """([idle, err, content]) => !!document.querySelector(idle) &&
    (!!document.querySelector(err) ||
     [...document.querySelectorAll(content)].some(e => e.getClientRects().length > 0))"""
# true when the app is idle and the URL's ?step= and the slider show the expected value
# (or an exception or st.error)
STEPPED_JS = """([idle, err, want]) => !!document.querySelector(idle) &&
    (!!document.querySelector(err) ||
     new URL(location.href).searchParams.get('step') === String(want) &&
     document.querySelector("[data-testid='stSlider'] input")?.value === String(want))"""

STATE_JS = """() => location.pathname + location.search + ': script ' +
    document.querySelector("[data-testid='stApp']")?.getAttribute('data-test-script-state') +
    ', title ' + document.querySelector('h1')?.innerText + ', ' + [...document.querySelectorAll(
    "[data-testid='stProgress']")].map(e => e.innerText.trim()).join(' | ')"""


@dataclass
class Session:
    first_render: float | None = None
    charts: float | None = None
    steps: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    server_first: float | None = None  # until the page received the run's ScriptFinished
    server_steps: list[float] = field(default_factory=list)
    finished: float = 0.0  # perf_counter of the last completed run's ScriptFinished message

    def watch(self, ws) -> None:
        """Note when the page receives the server's word that a run of the script finished
        (not one cut short for a rerun): the latency without the browser's drawing."""

        def frame(payload) -> None:
            if isinstance(payload, bytes | bytearray):
                with contextlib.suppress(Exception):
                    msg = ForwardMsg.FromString(bytes(payload))
                    if msg.WhichOneof("type") == "script_finished" and msg.script_finished != RERUN:
                        self.finished = time.perf_counter()

        ws.on("framereceived", frame)


async def page_errors(page) -> list[str]:
    """Texts of the exceptions and error alerts on the page now."""
    found = []
    for kind, sel in ERR_KINDS:
        for text in await page.locator(sel).all_inner_texts():
            found.append(f"{kind}: {' '.join(text.split())[:300]}")
    return found


async def one_session(browser, url: str, steps: int, timeout_s: float) -> Session:
    s, page = Session(), None
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = await context.new_page()
        page.set_default_timeout(timeout_s * 1000)
        page.on("crash", lambda *_: s.errors.append("page crashed"))
        page.on("websocket", s.watch)
        start = time.perf_counter()
        await page.goto(url, wait_until="commit")
        await page.wait_for_function(READY_JS, arg=[IDLE, ERR, CONTENT], polling=POLL_MS)
        s.errors += await page_errors(page)
        if s.errors:
            return s
        s.first_render = time.perf_counter() - start
        s.server_first = s.finished - start if s.finished > start else None
        await page.locator(CHART).first.wait_for(state="visible")
        s.charts = time.perf_counter() - start
        query = parse_qs(urlparse(page.url).query)
        if not steps or ("step" not in query and await page.locator(SLIDER).count() == 0):
            return s  # a page without steps (/compare)
        nxt = page.locator(NEXT).first
        await nxt.wait_for(state="visible")  # a deep link with ?step= must have one
        step = int(query.get("step", ["0"])[0])
        for _ in range(steps):
            step += 1
            start = time.perf_counter()
            await nxt.click()
            await page.wait_for_function(STEPPED_JS, arg=[IDLE, ERR, step], polling=POLL_MS)
            s.errors += await page_errors(page)
            if s.errors:
                return s
            s.steps.append(time.perf_counter() - start)
            if s.finished > start:
                s.server_steps.append(s.finished - start)
    except PlaywrightError as err:  # timeouts included
        try:  # what the page was showing: address, script's state, title, progress bars
            state = await asyncio.wait_for(page.evaluate(STATE_JS), 5) if page else "no page"
        except (PlaywrightError, TimeoutError):
            state = "unknown"
        s.errors.append(f"{type(err).__name__}: {str(err).splitlines()[0][:200]} ({state})")
    finally:
        await context.close()
    return s


async def one_round(browser, pid: int, url: str, args) -> Round:
    return await measured_round(
        pid, [one_session(browser, url, args.steps, args.timeout) for _ in range(args.sessions)]
    )


async def run(args, pid: int, base: str) -> list[Round]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            return [
                await one_round(browser, pid, base + args.url, args) for _ in range(args.rounds)
            ]
        finally:
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120, help="seconds per action")
    parser.add_argument("--url", default="/bpe?corpus=sample:lee&merges=2000&step=5")
    args = parser.parse_args()
    if min(args.sessions, args.rounds) < 1 or args.steps < 0:
        parser.error("--sessions and --rounds must be at least 1, --steps at least 0")

    served = serve(
        "subtok-load-",
        lambda pid, port: asyncio.run(run(args, pid, f"http://127.0.0.1:{port}")),
        nice=10,  # Playwright and chromium start after the server: it goes first
    )
    rounds, server_log = served.result, served.log
    served.header(f"subtok load test: {args.url}", args)
    for n, r in enumerate(rounds, 1):
        firsts = [s.first_render for s in r.sessions if s.first_render is not None]
        steps = [t for s in r.sessions for t in s.steps]
        print(f"\nround {n} ({'cold' if n == 1 else 'warm'}), {r.wall:.1f} s")
        print(
            f"  sessions: {len(r.sessions)}, rendered: {len(firsts)}, "
            f"with errors: {sum(1 for s in r.sessions if s.errors)}, "
            f"errors: {sum(len(s.errors) for s in r.sessions)}"
        )
        server_firsts = [s.server_first for s in r.sessions if s.server_first is not None]
        server_steps = [t for s in r.sessions for t in s.server_steps]
        print(f"  first render: {spread(firsts)}")
        print(f"    ScriptFinished received: {spread(server_firsts)}")
        print(f"    first chart drawn: {spread([s.charts for s in r.sessions if s.charts])}")
        print(
            f"  step latency: {spread(steps, (50, 95, 'max'))} "
            f"({len(steps)} of {len(r.sessions) * args.steps} clicks)"
        )
        print(f"    ScriptFinished received: {spread(server_steps, (50, 95, 'max'))}")
        print(f"  server RSS peak {r.peak:.0f} MB, after close {r.after:.0f} MB")
        print(
            f"  CPU: server {r.server_cpu:.0f} s, browsers {r.client_cpu:.0f} s, "
            f"other processes {r.all_cpu - r.server_cpu - r.client_cpu:.0f} s, "
            f"of {r.wall * (os.cpu_count() or 1):.0f} s available"
        )
        for text in sorted({e for s in r.sessions for e in s.errors})[:10]:
            print(f"  error: {text}")
    server_log.report(served.log_name)
    print_targets(
        issue_targets(server_log, [r.sessions for r in rounds], max(r.peak for r in rounds))
    )


if __name__ == "__main__":
    main()
