"""The poll's client address behind deploy/'s HAProxy (issue 40): a script that opens a new
websocket session for every guess, sends no cookie and forges X-Forwarded-For with a new
address each time is still one client, counted at the address the proxy saw; past the
limit its next session is refused with the wait. One app server on an SQLite file and
Debian's haproxy with deploy/haproxy.py's configuration (about half a minute)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websockets
from _servers import app_server, free_port

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "deploy"))

from _tab import SUBPROTOCOLS, Tab  # noqa: E402
from haproxy import config  # noqa: E402

from subtok_core.rooms import RoomStore  # noqa: E402

pytestmark = pytest.mark.server


def haproxy_binary() -> str:
    found = subprocess.run(["bash", str(ROOT / ".ci" / "haproxy")], capture_output=True, text=True)
    if found.returncode:
        pytest.skip(f"no haproxy here: {found.stderr.strip()}")
    return found.stdout.strip()


async def guess(port: int, forged: str) -> list[str]:
    """A new session on /join?room=KKKK through the proxy, X-Forwarded-For forged, no
    cookie: the errors its page showed."""
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/_stcore/stream",
        subprotocols=SUBPROTOCOLS,
        additional_headers={"X-Forwarded-For": forged},
        max_size=None,
    ) as ws:
        return await Tab(ws, "/join", "room=KKKK", timeout=60).run()


def test_forged_forwarded_addresses_through_the_proxy_count_as_one_client(tmp_path):
    binary = haproxy_binary()
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    limit = RoomStore(url).limits.client_code_tries.count
    assert limit == 60  # the README's room-code tries a minute per client address
    env = {"SUBTOK_DB_URL": url, "SUBTOK_WORKERS": "0", "SUBTOK_CACHE_DIR": "off"}
    app_port, proxy_port = free_port(), free_port()
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(config(f"127.0.0.1:{proxy_port}", [f"127.0.0.1:{app_port}"]))
    with app_server(app_port, env):
        proxy = subprocess.Popen([binary, "-f", str(cfg), "-db"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            for _ in range(60):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{proxy_port}/_stcore/health")
                    break
                except OSError:
                    time.sleep(0.5)

            async def script() -> list[list[str]]:
                return [await guess(proxy_port, f"198.51.100.{k + 1}") for k in range(limit + 2)]

            with concurrent.futures.ThreadPoolExecutor(1) as apart:  # Playwright's loop
                said = apart.submit(asyncio.run, script()).result()
        finally:
            proxy.terminate()
            proxy.wait(timeout=10)
    looked = [s for s in said if any("There is no room KKKK" in e for e in s)]
    refused = [s for s in said if any("from your network address: wait" in e for e in s)]
    assert len(looked) == limit, said[:3] + said[-3:]
    assert len(refused) == 2, said[-3:]
