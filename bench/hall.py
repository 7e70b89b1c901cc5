"""A lecture hall: phones through HAProxy to several app servers on one PostgreSQL, one
server killed in the middle.

Starts what deploy/README.md starts (bench/_hall_cluster.py): a throwaway PostgreSQL,
`--servers` app servers with one cookie secret, HAProxy in front with its sticky cookie.
The teacher is this script, through the poll store's API (subtok_core.rooms), as the
panel writes the room: a BPE room on toy:low-lower (10 merges), its words shared. The
phones (bench/_phone.py) open /join?room=CODE through the proxy over Streamlit's
websocket protocol, each with its own cookies (the proxy's SRV, the student id), joining
over `--join-over` seconds. Then, for each of `--steps` steps, the teacher

1. moves the room to the step; each phone's watching fragment notices it and the page is
   drawn anew: the time from the move's commit to that drawing is a follow;
2. opens a round (the next merge); each phone answers after 0 to `--think` s; the teacher
   reads the round's answers every 0.75 s (the panel's period, lessons/poll/results.py):
   the time from a phone's tap to the teacher's first read that has it is answer-to-tally;
3. once every phone has answered (or after 60 s), reveals the round.

In the middle step, once a third of the class (and of server b's phones) has answered,
app server b is killed (SIGKILL). Its phones reconnect through the proxy (to another
server, a new session); a phone is back when its page is drawn again without a new
student id and shows the answer it had sent in the open round. At the end the answers
table is read: stored rows against the answers sent, a round's second row of one phone
(a new id) a double vote.

A room takes 90 answers per 30 s (subtok_core/rooms/limits.py), made for a class of 30,
and a client address 60 room-code tries a minute (every phone here is 127.0.0.1); the app
servers here take 10 x `--phones` of each (bench/_hall_app.py), unless `--keep-limits`.
Not a test (tests/test_hall.py runs the small hall), not run by CI.

    python bench/hall.py                       # 300 phones, 3 servers, 5 steps
    python bench/hall.py --servers 2 --phones 30
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from _hall_cluster import Cluster
from _hall_report import report
from _phone import Phone
from _server import ROOT, cpu_s

sys.path.insert(0, str(ROOT))
from sqlalchemy import select  # noqa: E402

from lessons.poll.results import LIVE_EVERY as TALLY_EVERY  # noqa: E402  (the panel's)
from lessons.ui.store import fingerprint  # noqa: E402
from subtok_core import rooms  # noqa: E402
from subtok_core.bpe import trace_bpe  # noqa: E402
from subtok_core.corpus import load  # noqa: E402
from subtok_core.rooms.db import answers  # noqa: E402

CORPUS, MERGES = "toy:low-lower", 10
FOLLOW_WAIT, ANSWER_WAIT = 20.0, 60.0  # seconds the teacher waits at most for the class


@dataclass
class Hall:
    """What the phones share: where the proxy is, the room, the teacher's moves."""

    port: int
    code: str
    think: float
    timeout: float
    end: float  # perf_counter: everything stops here, whatever happened
    moved: dict[int, float] = field(default_factory=dict)  # step -> when the move committed
    done: bool = False
    forget: bool = False  # phones drop their student cookie when they reconnect

    def over(self) -> bool:
        return self.done or time.perf_counter() > self.end


@dataclass
class Teacher:
    rounds: dict[int, int] = field(default_factory=dict)  # step -> round id
    seen: dict[tuple[str, int], float] = field(default_factory=dict)  # (id, round) -> when
    killed_at: float | None = None
    on_killed: list[int] = field(default_factory=list)  # phones on the killed server
    before_kill: set[tuple[str, int]] = field(default_factory=set)  # rows read just before
    waits: list[str] = field(default_factory=list)  # the teacher's waits that timed out


async def until(done, seconds: float, every: float = 0.25) -> bool:
    """Wait until done() is true, at most `seconds`."""
    end = time.perf_counter() + seconds
    while not done():
        if time.perf_counter() > end:
            return False
        await asyncio.sleep(every)
    return True


async def teach(hall, polls, trace, phones, cluster, args, t: Teacher) -> None:
    joined = await until(lambda: all(p.joined for p in phones), args.join_over + 120)
    if not joined:
        t.waits.append(f"joined: {sum(1 for p in phones if p.joined)} of {len(phones)}")
    middle = (args.steps + 1) // 2
    for step in range(1, args.steps + 1):
        view = rooms.step_view(trace, step, True)
        await asyncio.to_thread(polls.move, hall.code, step, view)
        hall.moved[step] = time.perf_counter()
        if not await until(lambda s=step: all(s in p.follow for p in phones), FOLLOW_WAIT):
            t.waits.append(f"step {step}: {sum(step in p.follow for p in phones)} followed")
        round_id = await asyncio.to_thread(
            polls.open_round, hall.code, rooms.next_merge(trace, step)
        )
        t.rounds[step] = round_id
        end = time.perf_counter() + ANSWER_WAIT
        while time.perf_counter() < end:
            # every phone shows its answer (one back from a reconnect too): then this read
            # has them all, and it is the last
            everyone = all(p.showing(round_id) for p in phones)
            rows = await asyncio.to_thread(read, polls, [round_id])
            now = time.perf_counter()
            for key in rows:
                t.seen.setdefault(key, now)
            if step == middle and t.killed_at is None and a_third(phones, rows):
                t.on_killed = [p.n for p in phones if p.server == "b"]
                t.killed_at, t.before_kill = time.perf_counter(), set(rows)
                await asyncio.to_thread(cluster.kill, "b")
                everyone = False  # its phones have to come back first
            if everyone:
                break
            await asyncio.sleep(TALLY_EVERY)
        else:
            t.waits.append(f"step {step}: {len(rows)} answers in {ANSWER_WAIT:g} s")
        print(
            f"step {step}: {sum(step in p.follow for p in phones)} followed, round {round_id}: "
            f"{len(rows)} answers" + (", server b killed" if step == middle else ""),
            file=sys.stderr,
            flush=True,
        )
        await asyncio.to_thread(polls.reveal, round_id)
        await asyncio.sleep(1.0)  # the class reads the verdict
    hall.done = True


def a_third(phones: list[Phone], rows: list[tuple[str, int]]) -> bool:
    """A third of the class has answered, and a third of server b's phones (at least
    one): the kill then cuts some phones that have answered and some that have not."""
    answered = {sid for sid, _ in rows}
    on_b = [p for p in phones if p.server == "b"]
    of_b = sum(1 for p in on_b if answered.intersection(p.ids))
    return len(answered) * 3 >= len(phones) and of_b >= max(1, len(on_b) / 3)


def read(polls, round_ids: list[int]) -> list[tuple[str, int]]:
    """(student id, round) of every answer stored in these rounds."""
    query = select(answers.c.session, answers.c.round).where(answers.c.round.in_(round_ids))
    with polls.engine.connect() as conn:
        return [(session, int(r)) for session, r in conn.execute(query)]


async def lecture(cluster: Cluster, args) -> tuple[list[Phone], Teacher, Hall, list]:
    trace = trace_bpe(load(CORPUS), merges=MERGES, marker="eow")
    polls = rooms.RoomStore(cluster.db_url)
    code = polls.open_room(
        "bpe", trace.algorithm, CORPUS, fingerprint(trace.start.words, trace.start.counts),
        "bench-hall", f"/bpe?corpus={CORPUS}&merges={MERGES}", True, step=0,
        view=rooms.step_view(trace, 0, True), connection="bench-hall-teacher",
    )  # fmt: skip
    budget = args.join_over + 150 + args.steps * (FOLLOW_WAIT + ANSWER_WAIT + 10)
    hall = Hall(cluster.proxy_port, code, args.think, args.timeout, time.perf_counter() + budget)
    hall.forget = args.forget
    phones = [Phone(n, hall) for n in range(args.phones)]

    async def arrive(phone: Phone) -> None:
        await asyncio.sleep(phone.n / len(phones) * args.join_over)  # students come in
        await phone.live()

    teacher = Teacher()
    crowd = asyncio.gather(*(arrive(p) for p in phones))
    try:
        await teach(hall, polls, trace, phones, cluster, args, teacher)
    finally:
        hall.done = True
        await asyncio.wait_for(crowd, args.timeout + 30)
    rows = await asyncio.to_thread(read, polls, list(teacher.rounds.values()))
    return phones, teacher, hall, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument(
        "--think", type=float, default=4.0, help="seconds before answering, at most"
    )
    parser.add_argument("--join-over", type=float, help="seconds the class takes to join")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per script run")
    parser.add_argument("--keep-limits", action="store_true", help="the app's own rate limits")
    parser.add_argument(
        "--forget",
        action="store_true",
        help="phones lose their student cookie when they reconnect (the bench must then "
        "count double votes: a check of the bench itself)",
    )
    args = parser.parse_args()
    if not 2 <= args.servers <= 26 or args.phones < 1 or not 1 <= args.steps <= MERGES - 1:
        parser.error(f"--servers 2 to 26, --phones at least 1, --steps 1 to {MERGES - 1}")
    args.join_over = args.phones / 10 if args.join_over is None else args.join_over
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that `finally` stops all
    wall, load = time.perf_counter(), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="subtok-hall-") as logs:
        cluster = Cluster(Path(logs))
        try:
            cluster.start(args.servers, None if args.keep_limits else 10 * args.phones)
            mine, machine, before = cpu_s(os.getpid()), cpu_s(), cluster.cpu()
            phones, teacher, _, rows = asyncio.run(lecture(cluster, args))
            used = {k: v - before[k] for k, v in cluster.cpu().items()}
            used["phones and teacher (this script)"] = cpu_s(os.getpid()) - mine
            used["machine, all processes"] = cpu_s() - machine
        finally:
            cluster.stop()
    print(
        f"subtok lecture hall: {args.phones} phones, {args.servers} app servers behind HAProxy,"
        f" PostgreSQL; {args.steps} steps, think 0-{args.think:g} s, joining over "
        f"{args.join_over:g} s; {os.cpu_count()} CPUs (load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after); {time.perf_counter() - wall:.0f} s in all"
        + ("; the app's own rate limits" if args.keep_limits else "")
    )
    report(phones, teacher, rows, cluster, used, args, TALLY_EVERY)


if __name__ == "__main__":
    main()
