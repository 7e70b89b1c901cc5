"""After a restart: how long the first student waits on each shared link of a warmed lesson.

For each deep link of the README's "Share a view" section (or those given), starts a fresh
``streamlit run app.py`` on the warmed disk cache (``SUBTOK_CACHE_DIR``), opens the link in
a fresh headless chromium context (Debian's, never a downloaded one) at 1280x720 and
prints the time from ``goto`` to the first full render: the app idle
(``[data-testid='stApp'][data-test-script-state='notRunning']``), the page's websocket has
received the server's word that the page's run finished (not one cut short for a rerun),
its main text is there (the page's title, an ``h1``) and no progress bar or spinner is
left. Then the same for a one-line Streamlit page written to a temporary directory: the
floor, what Streamlit itself costs here. Beside each time, the CPU seconds the server
spent on the page (its process's CPU time from its health answer to the render: the
machine's load changes it less than the time) and those the browser spent drawing it
(chromium runs on the same cores: on Compare with three trained tokenizers it used about
4 s, the server about 1.5, the one-line page's browser about 2). The server's log says how
many runs and tables it read from the disk cache and how many it computed
(subtok_core.store's lines).

    python -m subtok_core warm --readme          # first, into the same SUBTOK_CACHE_DIR
    python bench/restart.py                      # the README's links, the default cache
    python bench/restart.py --repeat 3 "/bpe?corpus=toy:low-lower&step=3"

Target (issue 27): every README link under 3 s on this 2-core machine, the floor about 2 s.
Issue 39: Compare with three trained tokenizers on enwiki is one of the README's links
(so `warm --readme` and this bench cover it); it read and counted the sample on every
restart before its words and fingerprints were kept on disk (subtok_core/corpus/kept.py),
and its first run imported SQLAlchemy and pandas' Styler and compiled our sources (where no
bytecode is written) until neither was needed (server CPU 1.8-2.2 s -> 1.3-1.5 s); a merge
lesson's step chart and Unigram's removal chart and lattice were built with Altair on every
restart until their specs were kept like the other charts. What is left is mostly the
browser's: about 4 s of chromium's CPU for Compare, on the same two cores as the server.
A timing depends on the machine's load: the report prints the load average beside it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing
sys.path.insert(0, str(ROOT / "bench"))

from _server import cpu_s, free_port, start_server, stop_server, tree  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from subtok_core import diskcache  # noqa: E402
from subtok_core.warm_links import readme_of  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
BUSY = "[data-testid='stMain'] [data-testid='stProgress'], [data-testid='stSpinner']"
ERRORS = "[data-testid='stException'], [data-testid='stAlertContentError']"
RERUN = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN
# the page is idle, shows its title and nothing still working (or it shows an error)
READY_JS = """([idle, busy, errors]) => !!document.querySelector(idle) && (
    !!document.querySelector(errors) ||
    (!!document.querySelector("[data-testid='stMain'] h1") && !document.querySelector(busy)))"""
FLOOR_PAGE = 'import streamlit as st\n\nst.title("One line")\n'


def first_render(browser, url: str, timeout_s: float, rendered=None) -> tuple[float, list[str]]:
    """Seconds from goto to the first full render of `url` in a fresh context, and the
    errors the page showed; `rendered()` is called once it is drawn, before the context
    (and its renderer process, with its CPU time) goes."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    finished = [0.0]

    def frame(payload) -> None:
        if isinstance(payload, bytes | bytearray):
            msg = ForwardMsg.FromString(bytes(payload))
            if msg.WhichOneof("type") == "script_finished" and msg.script_finished != RERUN:
                finished[0] = time.perf_counter()

    try:
        page = context.new_page()
        page.set_default_timeout(timeout_s * 1000)
        page.on("websocket", lambda ws: ws.on("framereceived", frame))
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        while True:  # idle and drawn, after the run's end reached the page
            page.wait_for_function(READY_JS, arg=[IDLE, BUSY, ERRORS], polling=100)
            if finished[0] > start or page.locator(ERRORS).count():
                break
            page.wait_for_timeout(50)
        seconds = time.perf_counter() - start
        if rendered is not None:
            rendered()
        errors = [" ".join(t.split())[:200] for t in page.locator(ERRORS).all_inner_texts()]
        return seconds, errors
    finally:
        context.close()


def browser_cpu_s(server: int) -> float:
    """CPU seconds used so far by the browser: every process this script started (the
    Playwright driver, chromium's processes) but the server's."""
    skip = {os.getpid(), *tree(server)}
    return sum(cpu_s(pid) for pid in tree(os.getpid()) if pid not in skip)


def served(
    app_dir: Path, path: str, env: dict, browser, args
) -> tuple[list, list, list, list, str]:
    """Start a server of `app_dir`'s app.py `args.repeat` times (just started each time),
    open `path` once on each; the times, the server's CPU seconds for the page (its
    process's CPU time from its answer to /_stcore/health to the render: less of a
    function of the machine's load than the time), the browser's CPU seconds meanwhile
    (it draws the page on the same cores), the errors, and the store's lines of the
    last."""
    times, cpus, drawing, errors, store_lines = [], [], [], [], ""
    for _ in range(args.repeat):
        port = free_port()
        with tempfile.NamedTemporaryFile("w", prefix="restart-", suffix=".log") as log:
            proc = start_server(port, log, env=env, root=app_dir)
            try:
                started, drawn = cpu_s(proc.pid), browser_cpu_s(proc.pid)

                def rendered(pid=proc.pid, started=started, drawn=drawn) -> None:
                    cpus.append(cpu_s(pid) - started)
                    drawing.append(browser_cpu_s(pid) - drawn)

                seconds, seen = first_render(
                    browser, f"http://127.0.0.1:{port}{path}", args.timeout, rendered
                )
            finally:
                stop_server(proc)
            times.append(seconds)
            errors += seen
            store_lines = store_summary(Path(log.name).read_text(errors="replace"))
    return times, cpus, drawing, errors, store_lines


def store_summary(log: str) -> str:
    """How many runs and tables the server read from the disk cache and computed."""
    lines = [line for line in log.splitlines() if "subtok_core.store" in line]
    read = sum("from the disk cache" in line for line in lines)
    computed = sum(" trained " in line for line in lines)
    return f"read {read}, computed {computed}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("links", nargs="*", help="deep links (default: the README's shared)")
    parser.add_argument("--repeat", type=int, default=1, help="fresh servers per link")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per page")
    args = parser.parse_args()
    cache = diskcache.from_env()
    if cache is None:
        raise SystemExit("SUBTOK_CACHE_DIR is off: warm a cache first, then measure on it")
    links = args.links or readme_of(ROOT / "app.py")
    env = {"SUBTOK_CACHE_DIR": str(cache.directory)}
    print(f"cache {cache.directory}: {len(cache.files())} files; {os.cpu_count()} CPUs")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as floor_dir:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        (Path(floor_dir) / "app.py").write_text(FLOOR_PAGE, encoding="utf-8")
        rows = [("floor: a one-line page", *served(Path(floor_dir), "/", env, browser, args))]
        for link in links:
            rows.append((link, *served(ROOT, link, env, browser, args)))
        browser.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print(
        "first full render (s), a fresh server each time; the CPU seconds the server and "
        "the browser spent on it (medians)"
    )
    for name, times, cpus, drawing, errors, store in rows:
        shown = f"{statistics.median(times):6.2f}" + (
            f" (min {min(times):.2f}, max {max(times):.2f})" if len(times) > 1 else ""
        )
        used = f"cpu {statistics.median(cpus):4.2f} + browser {statistics.median(drawing):4.2f}"
        print(f"{shown}  {used}  {name}  [{store}]")
        for error in errors[:3]:
            print(f"        error on the page: {error}")


if __name__ == "__main__":
    main()
