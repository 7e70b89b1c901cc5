"""Class poll: 30 students answer within 2 s, the teacher's tally follows.

Each round opens a round in one room of the poll store (an SQLite file in a fresh
temporary directory, or ``--db URL``), then starts one thread per student, each with its
own anonymous session id, each sending its answer at a random moment of a ``--spread``
window (2 s; ``--spread 0``: all at once, released by a barrier). Meanwhile a teacher
thread does what the poll panel's fragment does (lessons/poll/results.py): every LIVE_EVERY
seconds it reads the room's current round and its tally.

Printed per setting, over all rounds:

* answers stored: the tally's total and the rows in the answers table (must be
  students x rounds; no answer lost or counted twice);
* submit latency: p50, p95 and max of one ``submit`` call (the answer is committed
  when it returns);
* tally after the last submit: the time from the return of the round's last submit to
  the return of the teacher's first tally that counts every answer (the poll period
  included: what the teacher waits for), and the time of one tally query on its own;
* one phone's look at the room (the teacher's step and the latest round), which every
  phone on /join makes once a second.

Usage (from the repository root)::

    python bench/poll.py                # 30 students, 2 s window, 10 rounds, then a burst
    python bench/poll.py --students 60 --rounds 20 --db postgresql+psycopg://.../subtok
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing

import sqlalchemy  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from lessons.poll.results import LIVE_EVERY  # noqa: E402
from subtok_core import rooms  # noqa: E402
from subtok_core.rooms import db  # noqa: E402

CHOICES = ["(est, </w>)", "(l, o)", "(o, w)", "(e, s)"]


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, by linear interpolation."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def one_round(polls, code: str, number: int, students: int, spread: float) -> dict:
    """One round: the students' submits and the teacher's polling, timed."""
    question = rooms.Question(number, number + 1, "pair", "Which pair?", tuple(CHOICES),
                              ("(est, </w>)",), (), "")  # fmt: skip
    round_id = polls.open_round(code, question)
    gate = threading.Barrier(students + 1)
    latencies, returned, errors = [], [], []
    lock = threading.Lock()
    rng = random.Random(number)
    delays = [rng.uniform(0, spread) for _ in range(students)]

    def student(k: int) -> None:
        session = f"bench-{number}-{k}"
        gate.wait()
        time.sleep(delays[k])
        start = time.perf_counter()
        try:
            polls.submit(code, round_id, session, CHOICES[k % len(CHOICES)])
        except Exception as err:  # reported, not raised: every failure counts
            with lock:
                errors.append(repr(err))
            return
        end = time.perf_counter()
        with lock:
            latencies.append(end - start)
            returned.append(end)

    seen = {}

    def teacher() -> None:
        gate.wait()
        while True:
            current = polls.current_round(code)
            total = sum(n for _, n in polls.tally(current.id))
            if total >= students or time.perf_counter() > deadline:
                seen["at"], seen["total"] = time.perf_counter(), total
                return
            time.sleep(LIVE_EVERY)

    deadline = time.perf_counter() + spread + 60
    threads = [threading.Thread(target=student, args=(k,)) for k in range(students)]
    threads.append(threading.Thread(target=teacher))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    start = time.perf_counter()
    total = sum(n for _, n in polls.tally(round_id))
    query = time.perf_counter() - start
    last = max(returned) if returned else float("nan")
    return {
        "latencies": latencies,
        "errors": errors,
        "stored": total,
        "seen_total": seen["total"],
        "tally_after_last": seen["at"] - last,
        "tally_query": query,
    }


def run(polls, students: int, rounds: int, spread: float) -> None:
    code = polls.open_room("bpe", "bpe", "toy:low-lower", "print", "run", "/bpe", True)
    # rounds follow each other within seconds here: the room's answer limit (90 per 30 s,
    # subtok_core.rooms.limits) is lifted, this measures the database
    polls.limits.room_answers.count = 10**9
    results = [one_round(polls, code, n, students, spread) for n in range(rounds)]
    latencies = [x for r in results for x in r["latencies"]]
    after = [r["tally_after_last"] for r in results]
    queries = [r["tally_query"] for r in results]
    errors = [e for r in results for e in r["errors"]]
    with polls.engine.connect() as conn:
        rows = conn.execute(
            select(func.count())
            .select_from(db.answers)
            .join(db.rounds, db.rounds.c.id == db.answers.c.round)
            .where(db.rounds.c.room == code)
        ).scalar()
    window = f"within {spread:g} s" if spread else "all at once"
    print(f"{students} students answering {window}, {rounds} rounds:")
    print(
        f"  answers stored: {sum(r['stored'] for r in results)} by the tallies, {rows} rows, "
        f"of {students * rounds} sent; errors: {len(errors)}"
        + (f" (first: {errors[0]})" if errors else "")
    )
    print(
        f"  submit latency: p50 {quantile(latencies, 0.5) * 1000:.1f} ms, "
        f"p95 {quantile(latencies, 0.95) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    print(
        f"  teacher's tally counts every answer, after the last submit (polling every "
        f"{LIVE_EVERY:g} s): p50 {quantile(after, 0.5) * 1000:.0f} ms, "
        f"p95 {quantile(after, 0.95) * 1000:.0f} ms, max {max(after) * 1000:.0f} ms"
    )
    print(
        f"  one tally query: p50 {statistics.median(queries) * 1000:.1f} ms, "
        f"max {max(queries) * 1000:.1f} ms"
    )
    looks = []
    for _ in range(200):  # what each phone's page does every second (lessons/poll/page.py)
        start = time.perf_counter()
        polls.pulse(code)
        looks.append(time.perf_counter() - start)
    print(
        f"  one phone's look at the room (step, round): p50 {quantile(looks, 0.5) * 1000:.2f} ms, "
        f"p95 {quantile(looks, 0.95) * 1000:.2f} ms\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--spread", type=float, default=2.0, help="seconds (0: all at once)")
    parser.add_argument("--db", default="", help="a database URL (default: a temporary file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'polls.sqlite3'}"
        print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
        print(f"SQLAlchemy {sqlalchemy.__version__}, database {url.split('://')[0]}\n")
        polls = rooms.RoomStore(url)
        run(polls, args.students, args.rounds, args.spread)
        if args.spread:  # and the worst case: everyone at the same instant
            run(polls, args.students, args.rounds, 0.0)


if __name__ == "__main__":
    main()
