"""Where a server's time under the GIL goes, by py-spy (for bench/load_ws.py --py-spy).

py-spy (``pip install py-spy``; not a project dependency) samples the server's Python
stacks from outside, ``--gil``: only the thread holding the GIL, so a sample is Python
work that every other session waits for, and sleeping or waiting threads are left out.
The stacks are kept in py-spy's raw format (one "frame;frame;... count" line per stack)
and each sample goes to the first bucket below that its stack matches.
"""

from __future__ import annotations

import collections
import contextlib
import re
import shutil
import subprocess
import time
from pathlib import Path

RATE = 100  # samples a second
PAGE = "exec_func_with_error_handling"  # the frame under which a page's script runs
ROOT = Path(__file__).resolve().parents[1]
# py-spy names a file by its path under the sys.path entry it was found in (the clone's root)


def ours(frame: str) -> bool:
    """Whether a frame ("function (file:line)") is in this repository's app or core.

    >>> ours("segment (subtok_core/bpe/encode.py:40)"), ours("_enqueue (streamlit/dg.py:9)")
    (True, False)
    """
    found = re.search(r"\(([\w./]+\.py):\d+\)$", frame)
    return bool(found) and (
        found[1].startswith(("subtok_core/", "lessons/")) or found[1] == "app.py"
    )


# (bucket, test of (stack, leaf frame)): the first test that holds names a sample's bucket
BUCKETS = [
    (
        "gc.collect(2) after every run (runner.postScriptGC)",
        lambda stack, leaf: leaf.startswith("ScriptRunner._on_script_finished "),
    ),
    ("file watcher: modules re-scanned after a run", lambda s, _: "update_watched_modules" in s),
    ("file watcher threads", lambda s, _: "watcher/" in s),
    ("page: Arrow (DataFrames to bytes)", lambda s, _: PAGE in s and "pyarrow" in s),
    ("page: Altair / Vega-Lite specs", lambda s, _: PAGE in s and "altair/" in s),
    ("page: st.cache_data (hash, pickle)", lambda s, _: PAGE in s and "runtime/caching/" in s),
    (
        "page: ForwardMsg hashed (serialised once per element)",
        lambda s, _: PAGE in s and "populate_hash_if_needed" in s,
    ),
    ("page: our own code (leaf frame in the repository)", lambda s, leaf: PAGE in s and ours(leaf)),
    ("page: Streamlit's element code", lambda s, _: PAGE in s),
    ("script thread: start and end of a run", lambda s, _: "ScriptRunner" in s),
    ("event loop: ForwardMsg serialised to send", lambda s, _: "serialize_forward_msg" in s),
    ("event loop: websocket frames and sockets", lambda s, _: "websockets/" in s),
    ("event loop: sessions, queues, asyncio", lambda s, _: "MainThread" in s),
]


@contextlib.contextmanager
def recording(pid: int, path: str):
    """py-spy records the process `pid` into `path` while the block runs."""
    if shutil.which("py-spy") is None:
        raise SystemExit("--py-spy needs py-spy: pip install py-spy")
    cmd = ["py-spy", "record", "--pid", str(pid), "--gil", "--threads", "--rate", str(RATE)]
    cmd += ["--format", "raw", "--output", path, "--nonblocking"]
    spy = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(1)  # py-spy attaches
        yield
    finally:
        spy.send_signal(2)  # SIGINT: py-spy writes what it has and exits
        _, err = spy.communicate(timeout=60)
        if spy.returncode not in (0, -2) or not Path(path).exists():
            raise SystemExit(f"py-spy failed: {err.decode(errors='replace')[-300:]}")


def bucket(stack: str) -> str:
    """The bucket of one sample's stack ("thread (id): name;frame (file:line);...")."""
    leaf = stack.rsplit(";", 1)[-1]
    return next((name for name, test in BUCKETS if test(stack, leaf)), "other threads")


def summary(path: str, runs: int) -> str:
    """The samples of `path` by bucket, in seconds and ms per script run (`runs` runs)."""
    counts: collections.Counter[str] = collections.Counter()
    for line in Path(path).read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if stack:
            counts[bucket(stack)] += int(n)
    total = sum(counts.values())
    lines = [
        f"py-spy --gil ({path}): {total / RATE:.1f} s under the GIL, "
        f"{total / RATE / max(runs, 1) * 1000:.0f} ms per script run ({runs} runs)"
    ]
    for name, n in counts.most_common():
        lines.append(f"  {n / RATE:6.1f} s {n / RATE / max(runs, 1) * 1000:6.1f} ms/run  {name}")
    return "\n".join(lines)
