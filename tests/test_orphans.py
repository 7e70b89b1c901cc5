"""Workers die with their server (issue 26): after kill -9 of a server with a training
worker running, the worker is gone within 10 s (it used to finish its run at full CPU, then
wait forever holding its memory)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

SERVER = """
import sys
from subtok_core import parallel
from tests.test_orphans import spin
print(parallel.run(spin, sys.argv[1], workers=1), flush=True)
"""


def spin(pid_file: str, report) -> int:
    """A training that never ends by itself: it writes its process id, then reports."""
    Path(pid_file).write_text(str(os.getpid()))
    done = 0
    while True:
        done += 1
        report(done, 0)
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_is_gone_within_10_s_of_its_server_killed_by_9(tmp_path):
    pid_file = tmp_path / "worker.pid"
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(pid_file)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and server.poll() is None, "no worker started"
            time.sleep(0.1)
        worker = int(pid_file.read_text())
        assert alive(worker) and worker != server.pid
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    killed = time.monotonic()
    while alive(worker) and time.monotonic() - killed < 10:
        time.sleep(0.1)
    gone_after = time.monotonic() - killed
    if alive(worker):
        os.kill(worker, signal.SIGKILL)  # leave nothing behind, then fail
    assert gone_after < 10, f"the worker outlived its server by {gone_after:.1f} s"
