"""Who is asking, for the poll's limits: a client is a network address, not a page session.

A script opens as many sessions (websockets) as it likes, and sends any cookie it likes, so
a limit counted per session or per cookie grows with the sockets (issue 40: 12.4 room codes
a second with 8 sockets, 34 with 32). What a script cannot multiply cheaply is its address,
so the limits that guard the class count per ``Client.key``: an IPv4 address as it is, an
IPv6 address by its /64 network (one host is routinely given a whole /64), an IPv4 address
written as IPv6 (``::ffff:192.0.2.7``) as the IPv4 one.

The address is the one the app server gives (lessons/ui/client.py: Streamlit's
``st.context.ip_address``, which is the TCP peer, or, when the peer is a proxy the server
trusts, the address that proxy forwarded). ``local`` says the page was opened on the
server's own machine with no proxy between: the README's local command, where the teacher
is the person at the keyboard.

>>> Client("192.0.2.7").key, Client("::ffff:192.0.2.7").key
('192.0.2.7', '192.0.2.7')
>>> Client("2001:db8:1:2:aaaa::1").key == Client("2001:db8:1:2:bbbb::9").key
True
>>> Client("2001:db8:1:2::1").key
'2001:db8:1:2::/64'
>>> Client("not an address").key, Client("").key
('unknown', 'unknown')
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass

PASSCODE_SETTING = "SUBTOK_TEACHER_PASSCODE"


@dataclass(frozen=True)
class Client:
    """A client of the app: its network address ("" when unknown) and whether it is the
    server's own machine with no proxy between (`local`)."""

    address: str = ""
    local: bool = False

    @property
    def key(self) -> str:
        """What the limits count this client by (see the module's text)."""
        try:
            ip = ipaddress.ip_address(self.address.strip().strip("[]").split("%")[0])
        except ValueError:
            return "unknown"
        if ip.version == 6 and ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ip.version == 6:
            return str(ipaddress.ip_network(f"{ip}/64", strict=False))
        return str(ip)


UNKNOWN = Client()  # a caller that says nothing about its client: counted as one client


def teacher_passcode(environ: Mapping[str, str] = os.environ) -> str:
    """The teacher passcode the operator set ($SUBTOK_TEACHER_PASSCODE; "" for none)."""
    return environ.get(PASSCODE_SETTING, "").strip()


def passcode_matches(typed: str, setting: str) -> bool:
    """Whether `typed` is the passcode `setting`, compared in constant time."""
    return bool(setting) and hmac.compare_digest(typed.strip().encode(), setting.encode())
