"""The lecture hall's machinery for bench/hall.py and tests/test_hall.py, the steps of
deploy/README.md run by a script: a throwaway PostgreSQL (.ci/postgres, on a Unix socket),
N app servers on free loopback ports with one cookie secret and that database, and
Debian's HAProxy in front (deploy/haproxy.py's configuration). One server can be killed
(SIGKILL, as a crash would) in the middle. Not a benchmark itself."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from _server import ROOT, cpu_s, free_port, tree

sys.path.insert(0, str(ROOT / "deploy"))
from haproxy import NAMES, config  # noqa: E402

OPTIONS = "--server.headless true --server.address 127.0.0.1 --browser.gatherUsageStats false"


def ci_tool(name: str, *args: str) -> str:
    """What `bash .ci/<name> ARGS` prints (its last line); its failure as SystemExit."""
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / name), *args], capture_output=True, text=True, timeout=600
    )
    if done.returncode:
        raise SystemExit(f".ci/{name} failed: {done.stderr.strip()[-500:]}")
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
            return r.read() == b"ok"
    except OSError:
        return False


def wait_healthy(procs: dict[str, subprocess.Popen], ports: dict[str, int], what: str) -> None:
    """Every process of `procs` answers /_stcore/health on its port within 90 s."""
    waiting = set(procs)
    for _ in range(180):
        for name in sorted(waiting):
            if procs[name].poll() is not None:
                raise SystemExit(f"{what} {name} exited with code {procs[name].returncode}")
            if healthy(ports[name]):
                waiting.discard(name)
        if not waiting:
            return
        time.sleep(0.5)
    raise SystemExit(f"{what} {', '.join(sorted(waiting))} did not answer within 90 s")


@dataclass
class Cluster:
    """PostgreSQL, the app servers (a, b, c, ...) and HAProxy, all on this machine."""

    logs: Path
    db_url: str = ""
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    ports: dict[str, int] = field(default_factory=dict)
    servers: dict[str, subprocess.Popen] = field(default_factory=dict)
    proxy: subprocess.Popen | None = None
    proxy_port: int = 0
    killed: str = ""
    dead_cpu: dict[str, float] = field(default_factory=dict)  # a killed server's, before
    events: list[str] = field(default_factory=list)  # HAProxy's, read when it stopped

    def start(self, count: int, room_answers: int | None) -> None:
        """The steps of deploy/README.md: the database, `count` app servers (each room
        taking `room_answers` answers a window, see bench/_hall_app.py; None: the app's
        own limits), the proxy."""
        self.db_url = ci_tool("postgres")
        names = NAMES[:count]
        self.ports = {name: free_port() for name in names}
        env = {**os.environ, "PYTHONPATH": str(ROOT), "SUBTOK_DB_URL": self.db_url}
        # one secret for all (Streamlit refuses it as a command-line flag)
        env["STREAMLIT_SERVER_COOKIE_SECRET"] = self.secret
        # the join page trains nothing: no worker processes, no disk cache of runs
        env |= {"SUBTOK_WORKERS": "0", "SUBTOK_CACHE_DIR": "off"}
        for name in names:
            cmd = [*OPTIONS.split(), "--server.port", str(self.ports[name])]
            if room_answers is None:
                cmd = [sys.executable, "-m", "streamlit", "run", "app.py", *cmd]
            else:
                launcher = str(ROOT / "bench" / "_hall_app.py")
                cmd = [sys.executable, launcher, str(room_answers), "run", "app.py", *cmd]
            log = open(self.logs / f"server-{name}.log", "w")  # noqa: SIM115 (kept by Popen)
            self.servers[name] = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log
            )
        wait_healthy(self.servers, self.ports, "app server")
        self.proxy_port = free_port()
        cfg = self.logs / "haproxy.cfg"
        where = [f"127.0.0.1:{self.ports[name]}" for name in names]
        cfg.write_text(config(f"127.0.0.1:{self.proxy_port}", where))
        log = open(self.logs / "haproxy.log", "w")  # noqa: SIM115
        self.proxy = subprocess.Popen(
            [ci_tool("haproxy"), "-f", str(cfg), "-db"], stdout=log, stderr=subprocess.STDOUT
        )
        wait_healthy({"proxy": self.proxy}, {"proxy": self.proxy_port}, "HAProxy")

    def kill(self, name: str) -> None:
        """App server `name` dies at once (SIGKILL): its websockets close."""
        self.killed = name
        self.dead_cpu[name] = sum(map(cpu_s, tree(self.servers[name].pid)))
        self.servers[name].send_signal(signal.SIGKILL)
        self.servers[name].wait(timeout=30)

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far: each app server, HAProxy, PostgreSQL (every process)."""
        used = {
            f"app server {n}": self.dead_cpu.get(n) or sum(map(cpu_s, tree(p.pid)))
            for n, p in self.servers.items()
        }
        used["HAProxy"] = cpu_s(self.proxy.pid) if self.proxy else 0.0
        used["PostgreSQL"] = sum(map(cpu_s, tree(self.postmaster()))) if self.db_url else 0.0
        return used

    def proxy_events(self) -> list[str]:
        """HAProxy's lines on servers taken out or back (its health checks, a kill)."""
        log = self.logs / "haproxy.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        return [line.strip() for line in lines if " is DOWN" in line or " is UP" in line]

    def postmaster(self) -> int:
        pid_file = Path(self.db_url.split("host=", 1)[1]) / "data" / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(pid_file.read_text().split()[0])
        return 0

    def stop(self) -> None:
        # the proxy first: its log keeps only what happened during the lecture
        for proc in [*([self.proxy] if self.proxy else []), *self.servers.values()]:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.events = self.proxy_events()
        if self.db_url:
            ci_tool("postgres", "stop", self.db_url)
            self.db_url = ""
