"""The address a class poll's link and QR code use: one that the students' phones reach.

The teacher's browser knows the server by the address the teacher typed: opened the
README's way that is ``http://localhost:8501``, which on a phone names the phone itself.
In order:

1. ``$SUBTOK_PUBLIC_URL`` (a server behind a proxy or with a name: the base the students
   open, such as ``https://lab.example.org/subtok``) wins;
2. else the teacher's address, when its host is not this machine alone;
3. else that address with the host replaced by this machine's address on the network,
   the one Streamlit prints as its "Network URL";
4. else (no network) the local address, with a warning in plain words.

>>> choose_base("http://localhost:8501/bpe", "bpe", environ={}, network_ip=lambda: "10.0.0.5")
Base(url='http://10.0.0.5:8501/', local=False, source='network')
>>> choose_base("http://localhost:8501/bpe", "bpe", environ={}, network_ip=lambda: None).local
True
>>> env = {"SUBTOK_PUBLIC_URL": "https://lab.example.org/subtok"}
>>> choose_base("http://localhost:8501/bpe", "bpe", environ=env).url
'https://lab.example.org/subtok/'
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

PUBLIC_URL = "SUBTOK_PUBLIC_URL"
LOCAL_NAMES = ("localhost", "0.0.0.0", "::")
# Any routable address serves: a UDP socket "connected" to it sends nothing, the system
# only picks the interface (and so the address) it would use to get there.
ROUTE_PROBE = ("10.255.255.255", 1)


@dataclass(frozen=True, slots=True)
class Base:
    """The base URL students open (ends with /), whether it names this machine only, and
    where it came from: 'setting', 'page' (the teacher's address), 'network' or 'local'."""

    url: str
    local: bool
    source: str


def is_local(host: str | None) -> bool:
    """Whether `host` names this machine only (localhost, 127.x, ::1, or no host)."""
    if not host or host.lower() in LOCAL_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False  # a name: the network's business
    return address.is_loopback or address.is_unspecified


def machine_network_ip() -> str | None:
    """This machine's address on its network, as Streamlit's "Network URL" gives it: the
    local end of a UDP socket connected to a routable address (no packet is sent).
    None when the machine has no route (no network)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            ip = probe.getsockname()[0]
    except OSError:
        return None
    return None if is_local(ip) else ip


def setting_base(environ: Mapping[str, str] = os.environ) -> str | None:
    """$SUBTOK_PUBLIC_URL as a base ending in /, checked; None when it is not set."""
    given = environ.get(PUBLIC_URL, "").strip()
    if not given:
        return None
    parts = urlsplit(given)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(
            f"{PUBLIC_URL} must be a web address such as https://lab.example.org/subtok, "
            f"not '{given[:60]}'."
        )
    return given.rstrip("/") + "/"


def choose_base(
    page_url: str | None,
    page_name: str,
    environ: Mapping[str, str] = os.environ,
    network_ip: Callable[[], str | None] = machine_network_ip,
) -> Base:
    """The base of the join link for a page opened at `page_url` (st.context.url, which
    ends with /`page_name`), by the rules of this module's docstring."""
    configured = setting_base(environ)
    if configured:
        return Base(configured, is_local(urlsplit(configured).hostname), "setting")
    if not page_url:
        return Base("/", True, "local")
    parts = urlsplit(page_url)
    path = parts.path.rstrip("/")
    path = path[: -len(page_name)] if path.endswith("/" + page_name) else path + "/"
    if not is_local(parts.hostname):
        return Base(f"{parts.scheme}://{parts.netloc}{path}", False, "page")
    ip = network_ip()
    if ip is None:
        return Base(f"{parts.scheme}://{parts.netloc}{path}", True, "local")
    port = f":{parts.port}" if parts.port else ""
    return Base(f"{parts.scheme}://{ip}{port}{path}", False, "network")


def join_url(base: Base, code: str) -> str:
    """The link a student opens for room `code`."""
    return f"{base.url}join?room={code}"
