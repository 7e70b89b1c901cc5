"""The room on the projector: its code in large type, the link students open (and, in
plain words, what keeps phones from reaching it) and its QR code, drawn at whole pixels a
module so that a phone reads it from the back of a classroom."""

from __future__ import annotations

import html
import io

import segno
import streamlit as st

from lessons.poll import teacher
from lessons.ui.corpus import TEXT, UPLOAD
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from lessons.ui.present import presenting
from subtok_core import rooms
from subtok_core.rooms import address
from subtok_core.rooms.address import Base

# The QR code is drawn at a whole number of screen pixels a module (no blur from scaling)
# with its 4-module quiet zone, at least this wide: a 37-module code (a 40-character link)
# gets 8 px a module, 296 px, what a phone reads from the back of a classroom off a
# projector; in presenter mode 10 px, 370 px.
QR_WIDTH = 280  # px at least, on the teacher's screen
QR_BIG = 360  # px at least, in presenter mode
QR_BORDER = 4  # modules of quiet zone around the code (ISO/IEC 18004 asks for 4)
# The panel's own look (its container is keyed "<page>_poll_panel"): the room's row (the
# QR code, then the code and the link, wrapping under it when the screen is narrow), the
# code in large type, and figures and labels that wrap instead of being cut with "…".
POLL_CSS = """<style>
.poll-code {font-size: 1.1rem;}
.poll-code b {display: block; font-size: 2.6rem; letter-spacing: .25em; font-family: monospace;
              white-space: nowrap;}
.poll-code.big b {font-size: 4.6rem; letter-spacing: .15em;}
.poll-link {overflow-wrap: anywhere;}
div[class*="_poll_roomtext"] {min-width: min(18rem, 100%); flex: 1 1 18rem;}
div[class*="_poll_qr"] {flex: 0 0 auto;}
div[class*="_poll_qr"] img {max-width: none; border-radius: 0;}  /* the quiet zone whole */
/* a phone in presenter mode: the code shrinks to the screen, its modules kept square */
@media (max-width: 640px) {
  div[class*="_poll_qr"], div[class*="_poll_qr"] * {max-width: 100% !important;}
  div[class*="_poll_qr"] img {height: auto; image-rendering: pixelated;}
}
/* no fullscreen button over the code's corner (its finder pattern) when the mouse is near */
div[class*="_poll_qr"] [data-testid="stElementToolbar"] {display: none;}
div[class*="_poll_panel"] [data-testid="stMetricValue"],
div[class*="_poll_panel"] [data-testid="stMetricValue"] *,
div[class*="_poll_panel"] [data-testid="stMetricLabel"] * {
  white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; overflow-wrap: anywhere;}
div[class*="_poll_panel"] [data-testid="stMetricValue"] {font-size: 1.9rem; line-height: 1.25;}
.poll-typed {border-collapse: collapse; width: 100%;}
.poll-typed :is(td, th) {text-align: left; padding: .25rem .6rem; overflow-wrap: anywhere;
  border-bottom: 1px solid #d5d9de;}
</style>"""


def _share(page_name: str, code: str) -> None:
    """The teacher changed their mind on showing their own corpus: the room says so, and
    the next run writes the step's view again (with the words, or without)."""
    rooms.store().share_words(code, st.session_state[widget_key(page_name, f"poll_shared_{code}")])
    teacher.forget_written()


def join_link(code: str, page_name: str, page_url: str | None) -> tuple[str, Base]:
    """The address students open and the base it was built on: $SUBTOK_PUBLIC_URL, else
    the teacher's address, else (the teacher's address is this computer only) the machine's
    address on the network (subtok_core.rooms.address)."""
    try:
        base = address.choose_base(page_url, page_name)
    except ValueError as err:  # a public URL setting that is no web address
        st.error(plain(str(err)))
        base = address.choose_base(page_url, page_name, environ={})
    return address.join_url(base, code), base


def qr_png(link: str, least: int = QR_WIDTH) -> bytes:
    """A QR code of `link` as PNG bytes, drawn by segno on this machine: a whole number
    of pixels a module, at least `least` px wide with its quiet zone (qr_width says how
    wide), so that it is shown at its own size, unscaled."""
    code = segno.make(link, error="m")
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=qr_scale(code, least), border=QR_BORDER)
    return buffer.getvalue()


def qr_scale(code, least: int) -> int:
    """Pixels a module so that `code` (a segno QR code) is at least `least` px wide."""
    modules = code.symbol_size(scale=1, border=QR_BORDER)[0]
    return max(1, -(-least // modules))


def qr_width(link: str, least: int = QR_WIDTH) -> int:
    """How wide qr_png(link, least) is, in px (modules with the quiet zone, times scale).

    >>> qr_width("http://10.0.0.5:8501/join?room=K7RD")  # 37 modules, 8 px each
    296
    """
    code = segno.make(link, error="m")
    return code.symbol_size(scale=qr_scale(code, least), border=QR_BORDER)[0]


def show_room(room, page_name: str, left, right) -> None:
    """The code in large type, the link and a warning in plain words when the phones
    cannot reach the address (in `left`), its QR code (in `right`, at its own size: whole
    pixels a module, never scaled down)."""
    link, base = join_link(room.code, page_name, st.context.url)
    big = presenting()
    left.html(POLL_CSS)
    size = "poll-code big" if big else "poll-code"
    code = html.escape(room.code)  # our own alphabet, escaped all the same
    left.markdown(f'<div class="{size}">Room code <b>{code}</b></div>', unsafe_allow_html=True)
    left.markdown(
        f'<div class="poll-link">Students open <b>{html.escape(link)}</b> (or the page '
        "<i>Join a poll</i> and type the code).</div>",
        unsafe_allow_html=True,
    )
    for warning in reach_warnings(base):
        left.warning(warning)
    if room.corpus in (TEXT, UPLOAD):  # the teacher's own words: shared on request
        left.toggle(
            "Show this corpus's words on the phones",
            value=room.share,
            key=widget_key(page_name, f"poll_shared_{room.code}"),
            on_change=_share,
            args=(page_name, room.code),
        )
    left.caption("The room closes 2 hours after its last round opened.")
    if not base.url.startswith("/"):
        least = QR_BIG if big else QR_WIDTH
        right.image(
            qr_png(link, least),
            caption="Scan to join",
            width=qr_width(link, least),
            alt=f"QR code of {link}",
        )


def reach_warnings(base: Base) -> list[str]:
    """What keeps the phones from the link, in plain words (none: nothing known)."""
    said = []
    if base.local:
        said.append(
            "This address works on this computer only: phones cannot open it. Connect this "
            "computer to the room's network (or set SUBTOK_PUBLIC_URL to the server's "
            "public address) and reopen the page."
        )
    listening = str(st.get_option("server.address") or "")
    behind_proxy = base.source == "setting"  # a proxy on this machine may reach it there
    if listening and not behind_proxy and address.is_local(listening) and listening != "::":
        said.append(
            f"This server listens on {listening} only, so phones cannot connect even with "
            "the address above: start it with --server.address 0.0.0.0."
        )
    return said
