"""One app server of bench/hall.py: ``python -m streamlit run app.py ...`` (the arguments
after this script's first), with the room's answer limit raised to the hall's size, and
the code tries of one client address too (every phone of the bench is 127.0.0.1).

Why: the poll holds a room to 90 answers per 30 s (subtok_core/rooms/limits.py), a bound
made for a class of 30; 300 phones answering one round pass it, and the phones are told
to wait. bench/poll.py lifts the same limit in its own process to measure the database;
here each app server does it before Streamlit starts, so the hall measures the servers,
the proxy and the database, not the limit (``--keep-limits`` in bench/hall.py runs without
this script, and counts the refusals). Not a benchmark itself.

    python bench/_hall_app.py ROOM_ANSWERS run app.py --server.port 8501 ...
"""

from __future__ import annotations

import runpy
import sys

from subtok_core.rooms import limits


def raise_room_limit(count: int) -> None:
    """Every poll store made from now on (the app makes one per database URL) allows
    `count` answers per room in its window; says so on stderr, or that it could not."""
    made = limits.PollLimits.__init__

    def init(self, *args, **kwargs):
        made(self, *args, **kwargs)
        window = getattr(self, "room_answers", None)
        if window is None or not hasattr(window, "count"):
            print("bench/_hall_app.py: no room_answers window to raise", file=sys.stderr)
            return
        window.count = max(window.count, count)
        # every phone of the bench comes from this machine: one client address to the
        # poll, whose 60 code tries a minute are a class's, not a hall's
        self.client_code_tries.count = max(self.client_code_tries.count, count)

    limits.PollLimits.__init__ = init
    print(f"bench/_hall_app.py: a room takes up to {count} answers a window", file=sys.stderr)


if __name__ == "__main__":
    raise_room_limit(int(sys.argv[1]))
    sys.argv = ["streamlit", *sys.argv[2:]]
    runpy.run_module("streamlit", run_name="__main__", alter_sys=True)
