"""App servers for the browser tests (conftest.py's app_url, tests/test_e2e_poll.py): each on a
free loopback port, with the environment a test gives it (the poll database, the public
URL the panel's link and QR code use), stopped after."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def app_server(
    port: int, env: dict[str, str], options: tuple[str, ...] = (), log: Path | None = None
) -> Iterator[str]:
    """`streamlit run app.py` on 127.0.0.1:`port` with `env` added and more command-line
    `options` (`--server.disconnectedSessionTTL 4`), its output written to `log` (None:
    dropped); yields its URL."""
    with app_process(port, env, options, log) as (url, _proc):
        yield url


@contextlib.contextmanager
def app_process(
    port: int, env: dict[str, str], options: tuple[str, ...] = (), log: Path | None = None
) -> Iterator[tuple[str, subprocess.Popen]]:
    """app_server, yielding the server's process beside its URL (its memory is read)."""
    fixed = "--server.headless true --server.address 127.0.0.1 --browser.gatherUsageStats false"
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", *fixed.split(), *options]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    out = subprocess.DEVNULL if log is None else open(log, "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [*cmd, "--server.port", str(port)],
        cwd=ROOT,
        env=full_env,
        stdout=out,
        stderr=out,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as resp:
                    if resp.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("the app did not answer /_stcore/health within 60 s")
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log is not None:
            out.close()
