"""The address of a class poll's link (subtok_core.rooms.address): a teacher's local
address is replaced by the machine's network address, a public URL setting wins, and the
panel says so in plain words when phones cannot reach what it shows."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from subtok_core.rooms import address

NETWORK = lambda: "192.168.1.20"  # noqa: E731 - what the machine's route probe would say
NO_NETWORK = lambda: None  # noqa: E731


@pytest.mark.parametrize(
    "page_url",
    ["http://localhost:8501/bpe", "http://127.0.0.1:8501/bpe", "http://[::1]:8501/bpe"],
)
def test_a_local_teacher_address_becomes_the_network_address_with_its_port(page_url):
    base = address.choose_base(page_url, "bpe", environ={}, network_ip=NETWORK)
    assert base == address.Base("http://192.168.1.20:8501/", False, "network")
    assert address.join_url(base, "K7RD") == "http://192.168.1.20:8501/join?room=K7RD"


def test_a_network_teacher_address_is_kept_with_its_path():
    base = address.choose_base(
        "http://10.0.0.5:8501/sub/bpe", "bpe", environ={}, network_ip=NETWORK
    )
    assert base == address.Base("http://10.0.0.5:8501/sub/", False, "page")


def test_the_public_url_setting_wins_over_every_address():
    env = {"SUBTOK_PUBLIC_URL": " https://lab.example.org/subtok/ "}
    for page_url in ("http://localhost:8501/bpe", "http://10.0.0.5:8501/bpe", None):
        base = address.choose_base(page_url, "bpe", environ=env, network_ip=NETWORK)
        assert base == address.Base("https://lab.example.org/subtok/", False, "setting")


def test_a_public_url_that_is_no_web_address_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match="must be a web address"):
        address.choose_base("http://localhost/bpe", "bpe", environ={"SUBTOK_PUBLIC_URL": "lab"})


def test_without_a_network_the_local_address_stays_and_is_called_local():
    base = address.choose_base("http://localhost:8501/bpe", "bpe", {}, network_ip=NO_NETWORK)
    assert base == address.Base("http://localhost:8501/", True, "local")


@pytest.mark.parametrize(
    ("host", "local"),
    [("localhost", True), ("127.0.0.2", True), ("::1", True), ("[::1]", True),
     ("0.0.0.0", True), ("192.168.1.20", False), ("lab.example.org", False)],
)  # fmt: skip
def test_which_hosts_are_this_machine_only(host, local):
    assert address.is_local(host) is local


def test_the_route_probe_gives_a_network_address_or_none():
    ip = address.machine_network_ip()  # no packet is sent: UDP connect only picks a route
    assert ip is None or not address.is_local(ip)


def panel_page() -> None:
    import streamlit as st

    from lessons.poll import room

    for said in room.reach_warnings(room.address.choose_base(*st.session_state["args"])):
        st.warning(said)


def warnings_for(*args) -> list[str]:
    at = AppTest.from_function(panel_page)
    at.session_state["args"] = args
    return [w.value for w in at.run().warning]


def test_the_panel_warns_in_plain_words_when_only_a_local_address_is_known(monkeypatch):
    monkeypatch.delenv("SUBTOK_PUBLIC_URL", raising=False)
    local = warnings_for("http://localhost:8501/bpe", "bpe", {}, NO_NETWORK)
    assert any("works on this computer only: phones cannot open it" in w for w in local)
    assert warnings_for("http://lab.example.org/bpe", "bpe", {}, NETWORK) == []
