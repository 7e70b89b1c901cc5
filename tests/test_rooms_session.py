"""The class session in the store (issue 35): a room found again by the teacher's key, moved
from lesson to lesson, ended; the teacher's heartbeat; the students' anonymous numbers; the
teacher's record (every answer, a summary hardest first); and the rate limits kept in the
database, so that two stores (two app servers) on one database keep a room within them.
Each test runs on SQLite and, with SUBTOK_TEST_PG_URL, on PostgreSQL (tests/test_rooms.py).

The expected numbers are counted by hand from the answers each test sends.
"""

from __future__ import annotations

import csv
import hashlib
import io

import pytest
from sqlalchemy import select
from test_rooms import Clock, ask, at_once, clock, open_room, polls  # noqa: F401

from subtok_core import rooms
from subtok_core.rooms import db

KEY = "t" * 22  # a teacher's key as secrets.token_urlsafe(16) gives it: 22 characters


def second_server(polls, clock):  # noqa: F811
    """A store on the same database through an engine of its own: another app server."""
    url = polls.engine.url.render_as_string(hide_password=False)
    return rooms.RoomStore(url, clock=clock, engine=db.new_engine(url))


def teacher_room(polls, key=KEY, page="bpe"):  # noqa: F811
    return polls.open_room(page, page, "toy:low-lower", "fp", "run-a", f"/{page}", True,
                           step=2, teacher=key, title=page.upper())  # fmt: skip


def test_the_room_is_found_again_by_the_teachers_key_kept_only_as_its_hash(polls, clock):  # noqa: F811
    code = teacher_room(polls)
    other = second_server(polls, clock)  # a reload that lands on another server
    assert other.teacher_room(KEY).code == code
    assert other.teacher_room("u" * 22) is None and other.teacher_room("") is None
    with polls.engine.connect() as conn:
        stored = conn.execute(select(db.rooms.c.teacher)).scalar_one()
    assert stored == hashlib.sha256(KEY.encode()).hexdigest() and KEY not in stored
    clock.now += 10
    newer = teacher_room(polls)  # should not happen; if it does, the newest wins
    assert polls.teacher_room(KEY).code == newer


def test_an_ended_or_expired_room_is_not_found_and_phones_are_told(polls, clock):  # noqa: F811
    code = teacher_room(polls)
    polls.end(code)
    assert polls.teacher_room(KEY) is None
    with pytest.raises(rooms.RoomEnded, match=r"Your teacher ended the class \(room "):
        polls.join(code)
    with pytest.raises(rooms.RoomEnded):  # a right code is no wrong try
        polls.try_code(code, "student")
    later = teacher_room(polls)
    clock.now += rooms.LIFETIME + 1
    assert polls.teacher_room(KEY) is None
    with pytest.raises(ValueError, match="has expired"):
        polls.join(later)


def test_the_room_moves_with_the_teacher_and_closes_the_round_left_behind(polls):  # noqa: F811
    code = teacher_room(polls)
    round_id = polls.open_round(code, ask(2))
    polls.submit(code, round_id, "s1", "(l, o)")
    assert polls.follow(code, view={}, step=2, run="run-a") is False  # nothing changed
    assert polls.current_round(code).state == "open"
    view = {"kind": "vocab", "title": "The seed vocabulary"}
    moved = dict(page="unigram", title="Unigram LM", algorithm="unigram", run="run-u", step=0)
    assert polls.follow(code, view=view, **moved) is True
    room = polls.join(code)
    assert (room.page, room.title, room.algorithm, room.run, room.step, room.view) == (
        "unigram", "Unigram LM", "unigram", "run-u", 0, view,
    )  # fmt: skip
    assert polls.current_round(code).state == "closed"  # the BPE round: the class moved on
    with pytest.raises(ValueError, match="moved on"):
        polls.submit(code, round_id, "s2", "(l, o)")
    with pytest.raises(ValueError, match="does not keep"):
        polls.follow(code, view={}, teacher="x")


def test_a_round_opened_on_the_same_step_of_another_run_is_a_new_round(polls):  # noqa: F811
    code = teacher_room(polls)
    first = polls.open_round(code, ask(2))
    polls.follow(code, view={}, run="run-b")  # another corpus, same step number
    second = polls.open_round(code, ask(2))
    assert second != first and polls.current_round(code).run == "run-b"


def test_the_heartbeat_tells_phones_when_the_teacher_is_away(polls, clock):  # noqa: F811
    code = teacher_room(polls)
    away = 5  # the pulse's place for "the teacher has not been seen for a minute"
    assert polls.pulse(code)[away] is False
    clock.now += 61
    assert polls.pulse(code)[away] is True and polls.join(code).absent(clock.now)
    second_server(polls, clock).seen(code)  # the teacher's page, on any server
    assert polls.pulse(code)[away] is False


def test_students_are_numbered_by_their_first_answer_and_keep_their_number(polls, clock):  # noqa: F811
    code = teacher_room(polls)
    r1 = polls.open_round(code, ask(2))
    for session, said in [("zed", "z"), ("amy", "a1"), ("bob", "b"), ("amy", "a2")]:
        clock.now += 1  # zed first, amy second (her change of mind keeps her number)
        polls.submit(code, r1, session, said)
    polls.follow(code, view={}, step=3)
    r2 = polls.open_round(code, ask(3, ("(l, o)",)))
    for session, said in [("new", "n"), ("bob", "b2")]:
        clock.now += 1
        polls.submit(code, r2, session, said)
    numbers = {(r["round"], r["answer"]): r["student"] for r in polls.answer_rows(code)}
    assert numbers == {(1, "z"): 1, (1, "a2"): 2, (1, "b"): 3, (2, "n"): 4, (2, "b2"): 3}
    other = teacher_room(polls, key="v" * 22)  # another class counts from 1
    polls.submit(other, polls.open_round(other, ask(2)), "bob", "b")
    assert [r["student"] for r in polls.answer_rows(other)] == [1]


def test_the_csv_has_one_row_per_answer_the_panel_counts(polls, clock):  # noqa: F811
    code = teacher_room(polls)
    r1 = polls.open_round(code, ask(2))
    sent = {"a": "(est, </w>)", "b": "(l, o)", "c": "(est, </w>)", "d": "(o, w)"}
    for session, said in sent.items():
        polls.submit(code, r1, session, said)
    polls.submit(code, r1, "b", "(est, </w>)")  # replaced: still one row for b
    polls.follow(code, view={}, step=3)
    r2 = polls.open_round(code, ask(3, ("(l, o)",), ("(o, w)",)))
    polls.submit(code, r2, "a", "(o, w)")
    polls.submit(code, r2, "c", "(l, o)")
    rows = polls.answer_rows(code)
    counted = sum(n for _, n in polls.tally(r1)) + sum(n for _, n in polls.tally(r2))
    assert len(rows) == counted == 6
    assert [r["choice"] for r in rows if r["round"] == 1] == ["yes", "yes", "yes", "no"]
    assert [(r["answer"], r["choice"]) for r in rows if r["round"] == 2] == [
        ("(o, w)", "no"),  # tied, not the algorithm's choice
        ("(l, o)", "yes"),
    ]
    assert all(r["time"].endswith("+00:00") and r["page"] == "bpe" for r in rows)
    assert {r["corpus"] for r in rows} == {"toy:low-lower"} and {r["step"] for r in rows} == {2, 3}
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    assert len(list(csv.DictReader(io.StringIO(text.getvalue())))) == 6


def test_the_summary_counts_each_round_and_puts_the_hardest_first(polls):  # noqa: F811
    code = polls.open_room("bpe", "bpe", "toy:low-lower", "fp", "run", "/bpe?corpus=c&step=2",
                           True, step=2)  # fmt: skip
    r1 = polls.open_round(code, ask(2))
    for k, said in enumerate(["(est, </w>)"] * 3 + ["(l, o)"]):  # 3 of 4 right: 75 %
        polls.submit(code, r1, f"s{k}", said)
    polls.follow(code, view={}, step=3)
    r2 = polls.open_round(code, ask(3, ("(l, o)",)))
    for k, said in enumerate(["(l, o)", "(o, w)", "(o, w)"]):  # 1 of 3 right: 33 %
        polls.submit(code, r2, f"s{k}", said)
    polls.follow(code, view={}, step=4)
    polls.open_round(code, ask(4))  # nobody answered: last
    summary = polls.summary(code)
    assert [(s["round"], s["step"], s["answered"], s["predicted"]) for s in summary] == [
        (2, 3, 3, 1),
        (1, 2, 4, 3),
        (3, 4, 0, 0),
    ]
    assert summary[0]["share"] == pytest.approx(1 / 3) and summary[2]["share"] is None
    assert [s["link"] for s in summary] == [
        "/bpe?corpus=c&step=3",
        "/bpe?corpus=c&step=2",
        "/bpe?corpus=c&step=4",
    ]


@pytest.mark.slow  # two stores, many rooms
def test_two_servers_on_one_database_keep_a_room_within_its_limit(polls, clock):  # noqa: F811
    other = second_server(polls, clock)
    code = teacher_room(polls)
    round_id = polls.open_round(code, ask(2))
    students = 100
    assert at_once(students, lambda k: polls.submit(code, round_id, f"s{k}", "(l, o)")) == []
    limit = polls.limits.room_answers.count  # 90 changed answers per 30 s in a room

    def change(k):  # each student changes their mind, half of them through each server
        (polls, other)[k % 2].submit(code, round_id, f"s{k}", "(est, </w>)")

    errors = at_once(students, change)
    assert len(errors) == students - limit
    assert {str(e) for e in errors} == {"Too many answers in this room: wait 30 s, then try again."}
    assert dict(polls.tally(round_id)) == {"(est, </w>)": limit, "(l, o)": students - limit}


def test_the_code_tries_of_one_browser_count_across_servers(polls, clock):  # noqa: F811
    other = second_server(polls, clock)
    tries = polls.limits.code_tries.count
    for k in range(tries):
        with pytest.raises(ValueError, match="There is no room"):
            (polls, other)[k % 2].try_code("KKKK", "guesser")
    for server in (polls, other):
        with pytest.raises(ValueError, match="Too many room-code tries from this browser"):
            server.try_code("KKKK", "guesser")
    clock.now += 61
    with pytest.raises(ValueError, match="There is no room"):
        other.try_code("KKKK", "guesser")


def test_old_hits_are_deleted(polls, clock):  # noqa: F811
    for k in range(3):
        with pytest.raises(ValueError):
            polls.try_code("KKKK", f"b{k}")
    clock.now += 2 * 3600
    with pytest.raises(ValueError):
        second_server(polls, clock).try_code("KKKK", "late")
    with polls.engine.connect() as conn:
        left = conn.execute(select(db.hits.c.at)).scalars().all()
    # the late try: its code try (per browser, per client address) and its wrong code
    assert left == [clock.now] * 3


def test_a_database_of_the_earlier_version_gets_the_new_tables_beside_its_old_ones(tmp_path):
    """A database made by the version before the class session (tables poll_*, a room
    in them) opens: the new tables are created beside the old ones, which stay untouched."""
    import sqlite3

    path = tmp_path / "rooms.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE poll_rooms (code VARCHAR(4) PRIMARY KEY, page VARCHAR(32))")
        old.execute("INSERT INTO poll_rooms VALUES ('K7RD', 'bpe')")
    store = rooms.RoomStore(f"sqlite:///{path}")
    code = teacher_room(store)
    store.submit(code, store.open_round(code, ask(2)), "ann", "(l, o)")
    assert [r["answer"] for r in store.answer_rows(code)] == ["(l, o)"]
    with sqlite3.connect(path) as old:
        assert old.execute("SELECT code, page FROM poll_rooms").fetchall() == [("K7RD", "bpe")]
