"""The client of this page session, as the class poll's limits count it (a network address,
subtok_core/rooms/clients.py), read from Streamlit's public ``st.context``.

What Streamlit 1.67 gives, read in its source: ``st.context.ip_address`` is the address of
the page's websocket, and None when that is 127.0.0.1 or ::1 (the server's own machine),
or when there is no connection (AppTest). The server is uvicorn, whose proxy-headers
middleware is on: when the TCP peer is one of the addresses in ``FORWARDED_ALLOW_IPS``
(uvicorn's setting; by default 127.0.0.1 and ::1, a proxy on the same machine), the address
is the rightmost untrusted one of X-Forwarded-For; from any other peer that header is
ignored. So a student who forges X-Forwarded-For straight to the app server is still
counted at their own address, and behind the deploy/ HAProxy (which drops a forged header
and sends its own, ``option forwardfor``) each phone is counted at its address.

``st.context.headers`` are the headers of that websocket's request, as sent. They tell a
page opened on the server's own machine (the README's local command: the teacher at the
keyboard) from a page that came through a proxy on it: the proxy's request carries a
forwarding header. Only the first is ``local``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

import streamlit as st

from subtok_core.rooms.clients import Client

FORWARDING = ("x-forwarded-for", "forwarded", "x-real-ip")  # headers a proxy adds
LOOPBACK = "127.0.0.1"  # what Streamlit's None stands for in a page's session


def context() -> tuple[str | None, Mapping[str, str]]:
    """This session's address and request headers, as Streamlit gives them (tests replace
    this)."""
    return st.context.ip_address, st.context.headers


def identify(address: str | None, headers: Mapping[str, str]) -> Client:
    """The client of a session whose websocket came from `address` (Streamlit's; None for
    the server's own machine) with request `headers`.

    >>> identify(None, {})
    Client(address='127.0.0.1', local=True)
    >>> identify(None, {"X-Forwarded-For": "203.0.113.9"})  # a proxy on this machine
    Client(address='127.0.0.1', local=False)
    >>> identify("192.0.2.7", {"X-Forwarded-For": "127.0.0.1"})  # a forged header
    Client(address='192.0.2.7', local=False)
    """
    proxied = any(str(name).lower() in FORWARDING for name in headers)
    if address is None:
        return Client(LOOPBACK, local=not proxied)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return Client(address, local=False)
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1
    loopback = ip.is_loopback or bool(mapped and mapped.is_loopback)
    return Client(address, local=loopback and not proxied)


def current() -> Client:
    """The client of this page session."""
    address, headers = context()
    return identify(address, headers)
