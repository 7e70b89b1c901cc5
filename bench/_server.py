"""What the load tests share (bench/load.py drives browsers, bench/load_ws.py Streamlit's
websocket protocol): a real server on a free port, its memory and CPU watched through
/proc, its log read for trainings and tracebacks, and the report's percentiles and
targets. Not a benchmark itself."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tree(pid: int) -> list[int]:
    """`pid` and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo += children.get(found[-1], [])
    return found


def rss_mb(pid: int) -> float:
    """VmRSS of `pid` and all its descendants, in MB (0 for processes already gone)."""
    total = 0
    for p in tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])  # kB
    return total / 1024


def cpu_s(pid: int | None = None) -> float:
    """CPU seconds used so far by `pid` alone, or by the whole machine."""
    tick = os.sysconf("SC_CLK_TCK")
    if pid is None:  # user nice system (idle iowait) irq softirq steal
        fields = [int(f) for f in Path("/proc/stat").read_text().split("\n")[0].split()[1:9]]
        return (sum(fields[:3]) + sum(fields[5:8])) / tick
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / tick  # utime, stime
    except (OSError, IndexError, ValueError):
        return 0.0


class Sampler:
    """Every 0.2 s: the server's RSS (its peak kept) and the CPU time of every process
    of the server and of the clients (this script and its children), each last seen
    value kept, so that processes gone before the end still count."""

    def __init__(self, server: int):
        self.server, self.peak, self.stop = server, 0.0, asyncio.Event()
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.sample()
        self.first = dict(self.last)

    def sample(self) -> None:
        self.peak = max(self.peak, rss_mb(self.server))
        for pid in tree(os.getpid()):
            self.last[pid] = cpu_s(pid)

    def used(self, server: bool) -> float:
        ours = set(tree(self.server)) if server else set(self.last) - set(tree(self.server))
        return sum(self.last[p] - self.first.get(p, 0.0) for p in ours if p in self.last)

    async def run(self) -> None:
        while not self.stop.is_set():
            self.sample()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 0.2)
        self.sample()


@dataclass
class Round:
    """N sessions at once on one server, and what the server used meanwhile."""

    sessions: list  # each load test's own Session records
    peak: float  # server RSS, MB
    after: float  # server RSS 3 s after the sessions closed, MB
    wall: float  # seconds, while the sessions ran
    server_cpu: float  # CPU seconds of the server in that time
    client_cpu: float  # of this script and its children (Playwright's driver, chromium)
    all_cpu: float  # of the whole machine (other people's jobs included)


async def measured_round(pid: int, sessions: list[Awaitable]) -> Round:
    """Run the coroutines `sessions` at once, the server `pid` sampled meanwhile."""
    sampler, wall, machine = Sampler(pid), time.perf_counter(), cpu_s()
    task = asyncio.create_task(sampler.run())
    done = await asyncio.gather(*sessions)
    sampler.stop.set()
    await task
    wall, machine = time.perf_counter() - wall, cpu_s() - machine
    await asyncio.sleep(3)  # let the server notice the closed sockets
    server, clients = sampler.used(server=True), sampler.used(server=False)
    return Round(list(done), sampler.peak, rss_mb(pid), wall, server, clients, machine)


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `values`; inf when there are none.

    >>> pct([0.3, 0.1, 0.2, 0.4], 50), pct([0.3, 0.1, 0.2, 0.4], 95), pct([], 50)
    (0.2, 0.4, inf)
    """
    ordered = sorted(values) or [math.inf]
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def spread(values: list[float], qs=("min", 50, 95, "max")) -> str:
    """`values` (seconds) as min, percentiles and max on one line.

    >>> spread([0.25, 0.5, 1.0])
    'min 0.25, p50 0.50, p95 1.00, max 1.00 s'
    """
    if not values:
        return "none"
    parts = [
        f"{q if isinstance(q, str) else f'p{q}'} "
        f"{min(values) if q == 'min' else max(values) if q == 'max' else pct(values, q):.2f}"
        for q in qs
    ]
    return ", ".join(parts) + " s"


def start_server(
    port: int, log, env: dict | None = None, flags: list[str] = (), root: Path = ROOT
) -> subprocess.Popen:
    """`streamlit run app.py` on 127.0.0.1:`port`, its stderr to `log` (an open file),
    returned once it answers /_stcore/health. `env` adds to (or overrides) the
    environment, `flags` are more options of `streamlit run` ("--runner.fastReruns",
    "false", ...), `root` the folder of the app.py (default: subtok's)."""
    options = "--server.headless true --server.address 127.0.0.1 --browser.gatherUsageStats false"
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", *options.split(), *flags]
    cmd += ["--server.port", str(port)]
    # a server that starts cold: no run read from the disk cache of an earlier server,
    # unless SUBTOK_CACHE_DIR is given (to measure a warmed lesson); the class polls in a
    # database of its own beside the log, unless SUBTOK_DB_URL is given
    polls = f"sqlite:///{Path(log.name).with_suffix('.polls.sqlite3')}"
    env = {"SUBTOK_CACHE_DIR": "off", "SUBTOK_DB_URL": polls, **os.environ, **(env or {})}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(120):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
                if r.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.5)
    stop_server(proc)
    raise SystemExit("the server did not answer /_stcore/health within 60 s")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@dataclass
class Served:
    """One load test's server run: what the clients returned, the server's memory before
    them, their wall time, and the server's log (read after it stopped)."""

    result: object
    rss_before: float
    wall: float
    log: ServerLog
    log_name: str

    def header(self, title: str, args) -> None:
        """The report's first lines: what ran, on how many CPUs, for how long, and the
        server's memory before."""
        print(title)
        print(
            f"{args.sessions} sessions x {args.rounds} rounds, {args.steps} steps each, "
            f"{os.cpu_count()} CPUs, {self.wall:.1f} s in all"
        )
        print(f"server RSS before: {self.rss_before:.0f} MB")


def serve(
    prefix: str, clients: Callable[[int, int], object], flags: list[str] = (), nice: int = 0
) -> Served:
    """Start the server on a free port (its stderr to a temporary log named `prefix`),
    run `clients(server pid, port)` and time it, stop the server, read its log. `nice`:
    how much lower this process (and the browsers it starts) runs than the server."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that `finally` stops it
    port = free_port()
    with tempfile.NamedTemporaryFile("w", prefix=prefix, suffix=".log", delete=False) as log:
        proc = start_server(port, log, flags=flags)
        if nice:
            os.nice(nice)  # started after the server: it goes first
        try:
            time.sleep(1)
            before = rss_mb(proc.pid)
            wall = time.perf_counter()
            result = clients(proc.pid, port)
            wall = time.perf_counter() - wall
        finally:
            stop_server(proc)
    return Served(result, before, wall, ServerLog.read(log.name), log.name)


@dataclass
class ServerLog:
    """What the server's stderr says: each training the store logged (logger
    subtok_core.store, "trained <what> (<key>) in 0.9 s"), its tracebacks, and the
    distinct last lines of those tracebacks."""

    trained: list[str]
    keys: list[str]
    tracebacks: int
    errors: list[str]

    @classmethod
    def read(cls, path: str) -> ServerLog:
        lines = Path(path).read_text(errors="replace").splitlines()
        trained = [line for line in lines if "subtok_core.store" in line and "trained" in line]
        # the whole label is the key: "<what> (<repr of the key>)"
        keys = [
            m.group(1) for line in trained if (m := re.search(r"trained (.*) in [\d.]+ s", line))
        ]
        errors = sorted(
            {line for line in lines if re.match(r"^\w+(\.\w+)*(Error|Exception)", line)}
        )
        tracebacks = sum(1 for line in lines if line.startswith("Traceback"))
        return cls(trained, keys, tracebacks, errors)

    def report(self, path: str) -> None:
        count = f"{len(self.trained)} ({len(set(self.keys))} distinct keys)"
        print(f"\ntrainings: {count if self.trained else 'not logged'}")
        for line in self.trained[:5]:
            print(f"  {line.strip()}")
        print(f"server stderr ({path}): {self.tracebacks} tracebacks")
        for line in self.errors[:5]:
            print(f"  {line.strip()[:200]}")

    def trained_once(self) -> bool | None:
        """Each key trained once (None: the log names no training)."""
        return len(self.keys) == len(set(self.keys)) if self.trained else None


def issue_targets(log: ServerLog, rounds: list[list], peak: float) -> list[tuple[str, bool | None]]:
    """The targets of the one-server issue for N = 30, from the sessions of each round (each
    with .errors, .first_render (None: never rendered) and .steps, in seconds), the
    server's log and its peak RSS in MB. The last round is the warm one (when there are
    several); the store's budget is SUBTOK_STORE_MB of pickled runs, and the store
    estimates that objects take 2-4x their pickled size, so RSS is held to 4x."""
    budget = float(os.environ.get("SUBTOK_STORE_MB") or 400)
    everyone = [s for sessions in rounds for s in sessions]
    # each round judged on its own: pooled, a slow cold round hid behind a fast warm one
    p95s = [pct(steps, 95) for steps in ([t for s in r for t in s.steps] for r in rounds) if steps]
    said = ", ".join(f"{p:.2f}" for p in p95s)
    warm = [s.first_render for s in rounds[-1] if s.first_render is not None]
    warm = warm if len(warm) == len(rounds[-1]) else []  # a missing one fails
    return [
        ("zero errors", not any(s.errors for s in everyone) and not log.tracebacks),
        ("every session rendered", all(s.first_render is not None for s in everyone)),
        ("trained once (each key)", log.trained_once()),
        (
            "warm first render < 3 s (p95, last round)",
            pct(warm, 95) < 3 if len(rounds) > 1 else None,
        ),
        (
            f"p95 step < 1 s (every round: {said or 'no steps'} s)",
            all(p < 1 for p in p95s) if p95s else None,
        ),
        (
            f"RSS under budget (peak {peak:.0f} MB <= 4 x SUBTOK_STORE_MB = {4 * budget:.0f} MB,"
            f" the store's 2-4x of its {budget:.0f} MB pickled)",
            peak <= 4 * budget,
        ),
    ]


def print_targets(targets: list[tuple[str, bool | None]]) -> None:
    """One line per target: PASS, FAIL, or n/a when the run cannot tell."""
    print()
    for name, ok in targets:
        print(f"{'n/a ' if ok is None else 'PASS' if ok else 'FAIL'}  {name}")
