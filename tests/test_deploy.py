"""deploy/: the HAProxy configuration the README's lecture-hall steps use is the one
deploy/haproxy.py writes, HAProxy accepts it, and it has what Streamlit needs behind a
proxy (a sticky cookie, a health check on /_stcore/health, a long websocket tunnel) and
what the poll's limits need (the client's address in X-Forwarded-For, a forged one dropped)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "deploy"))

from haproxy import config  # noqa: E402

SHIPPED = ROOT / "deploy" / "haproxy.cfg"
EXAMPLE = ["127.0.0.1:8501", "127.0.0.1:8502", "127.0.0.1:8503"]  # deploy/README.md's


def test_the_shipped_configuration_is_the_generators_for_the_readmes_three_servers():
    assert SHIPPED.read_text() == config("127.0.0.1:8500", EXAMPLE)


def test_the_configuration_has_what_streamlit_needs_behind_a_proxy():
    lines = [line.strip() for line in config("127.0.0.1:9000", EXAMPLE[:2]).splitlines()]
    assert "bind 127.0.0.1:9000" in lines
    assert "cookie SRV insert indirect nocache" in lines  # session affinity (Streamlit's docs)
    assert "timeout tunnel 1h" in lines  # the websocket lives for the lesson
    assert "option httpchk GET /_stcore/health" in lines
    assert "option redispatch" in lines  # a dead server's browsers go to another
    # the client's address (the poll's limits): a forged header dropped, the proxy's sent
    frontend = lines[lines.index("frontend subtok") : lines.index("backend streamlit")]
    forged = ("X-Forwarded-For", "Forwarded", "X-Real-IP")
    dropped = [f"http-request del-header {h}" for h in forged]
    assert frontend.index("option forwardfor") > max(frontend.index(d) for d in dropped)
    servers = [line for line in lines if line.startswith("server ")]
    assert servers == ["server a 127.0.0.1:8501 cookie a", "server b 127.0.0.1:8502 cookie b"]


@pytest.mark.parametrize("bad", ["8501", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000"])
def test_a_wrong_address_is_refused_with_a_sentence(bad):
    with pytest.raises(ValueError, match="is not HOST:PORT"):
        config("127.0.0.1:8500", [bad])


def test_haproxy_accepts_the_shipped_configuration():
    found = subprocess.run(["bash", str(ROOT / ".ci" / "haproxy")], capture_output=True, text=True)
    if found.returncode:
        pytest.skip(f"no haproxy here: {found.stderr.strip()}")
    checked = subprocess.run(
        [found.stdout.strip(), "-c", "-f", str(SHIPPED)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
