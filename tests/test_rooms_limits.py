"""The class poll against a hostile room (issue 26): rate limits on answers, room-code
tries and new rooms, each with a log line; a private database file; tables created
safely by many servers starting at once; rooms that keep no corpus words."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import stat

import pytest
from sqlalchemy import inspect as sql_inspect
from sqlalchemy import select
from test_rooms import Clock, ask, at_once, clock, open_room, open_round, polls  # noqa: F401

from subtok_core import rooms
from subtok_core.bpe import trace_bpe
from subtok_core.corpus import load
from subtok_core.rooms import db
from subtok_core.rooms.clients import Client

CLASS = 30
TEACHER = Client("192.0.2.1")


def address(k: int) -> Client:
    """The k-th of many clients, each at its own network address."""
    return Client(f"10.0.{k // 250}.{k % 250 + 1}")


def test_a_flood_of_200_changed_answers_is_cut_at_the_rooms_limit(polls, caplog):  # noqa: F811
    code, round_id = open_round(polls)
    assert at_once(100, lambda k: polls.submit(code, round_id, f"bot{k}", "(l, o)")) == []
    with caplog.at_level(logging.WARNING, logger="subtok.poll"):
        errors = at_once(200, lambda k: polls.submit(code, round_id, f"bot{k % 100}", f"x{k}"))
    accepted = 200 - len(errors)
    assert accepted == polls.limits.room_answers.count < 200
    assert sum(n for _, n in polls.tally(round_id)) == 100  # still one answer per student
    assert {str(e) for e in errors} == {"Too many answers in this room: wait 30 s, then try again."}
    logged = [r.getMessage() for r in caplog.records if "poll rate limit" in r.getMessage()]
    assert len(logged) == 1 and "answers in this room refused" in logged[0]


def test_a_rooms_limit_never_refuses_a_students_first_answer(polls):  # noqa: F811
    """Issue 40: 90 junk answers in 30 s fill the room's window; a student's first answer
    right after is still taken."""
    code, round_id = open_round(polls)
    junk = polls.limits.room_answers.count
    for k in range(junk):  # a script changing its answers from many ids
        polls.submit(code, round_id, f"bot{k}", "(l, o)")
        polls.submit(code, round_id, f"bot{k}", "(o, w)")
    with pytest.raises(ValueError, match="in this room"):
        polls.submit(code, round_id, "bot0", "(l, o)")
    polls.submit(code, round_id, "real student", "(est, </w>)")  # first answer: in
    assert polls.answer_of(round_id, "real student") == "(est, </w>)"


def test_first_answers_are_bounded_per_round(polls, monkeypatch):  # noqa: F811
    from subtok_core.rooms import answers

    monkeypatch.setattr(answers, "ROUND_STUDENTS", 3)
    code, round_id = open_round(polls)
    for k in range(3):
        polls.submit(code, round_id, f"s{k}", "(l, o)")
    with pytest.raises(ValueError, match="This round has 3 answers already"):
        polls.submit(code, round_id, "s3", "(l, o)")
    polls.submit(code, round_id, "s0", "(o, w)")  # a change of mind is still taken
    assert polls.tally(round_id) == [("(l, o)", 2), ("(o, w)", 1)]


def test_a_real_class_of_30_answering_and_changing_their_minds_is_not_cut(polls, clock):  # noqa: F811
    code, round_id = open_round(polls)
    choices = ["(est, </w>)", "(l, o)", "(o, w)"]
    assert at_once(CLASS, lambda k: polls.submit(code, round_id, f"s{k}", choices[k % 3])) == []
    clock.now += 2
    assert at_once(CLASS, lambda k: polls.submit(code, round_id, f"s{k}", "(est, </w>)")) == []
    assert polls.tally(round_id) == [("(est, </w>)", CLASS)]
    clock.now += 60  # the next round, a minute later: the room's window has moved on
    second = polls.open_round(code, ask(3, ("(l, o)",)))
    assert at_once(CLASS, lambda k: polls.submit(code, second, f"s{k}", "(l, o)")) == []


def test_room_codes_tried_too_often_get_a_wait_with_a_sentence(polls, clock, caplog):  # noqa: F811
    code = open_room(polls)
    with caplog.at_level(logging.WARNING, logger="subtok.poll"):
        for _ in range(polls.limits.code_tries.count):
            with pytest.raises(ValueError, match="There is no room"):
                polls.try_code("KKKK" if code != "KKKK" else "KKKM", "guesser")
        with pytest.raises(ValueError, match=r"Too many room-code tries from this browser: wait"):
            polls.try_code(code, "guesser")  # even the right one, until the wait is over
    assert any(
        "room-code tries from this browser refused" in r.getMessage() for r in caplog.records
    )
    assert polls.try_code(code, "student").code == code  # another browser is not held
    clock.now += 61
    assert polls.try_code(code, "guesser").code == code


@pytest.mark.slow  # hundreds of wrong codes
def test_wrong_codes_from_many_browsers_are_bounded_per_server(polls):  # noqa: F811
    for k in range(polls.limits.wrong_codes.count):
        with pytest.raises(ValueError, match="There is no room"):
            polls.try_code("KKKK", f"browser{k}", address(k))
    with pytest.raises(ValueError, match="Too many wrong room codes on this server"):
        polls.try_code("KKKK", "one more browser", Client("192.0.2.99"))


@pytest.mark.slow  # many codes
def test_a_right_code_is_accepted_even_when_the_server_has_seen_too_many_wrong_ones(polls):  # noqa: F811
    code = open_room(polls)
    wrong = "KKKK" if code != "KKKK" else "KKKM"
    paused = []
    polls.pause = paused.append  # the seconds a wrong try is held, not slept in a test
    for k in range(polls.limits.wrong_codes.count):  # a sweep from many browsers
        with pytest.raises(ValueError, match="There is no room"):
            polls.try_code(wrong, f"sweeper{k}", address(k))
    assert paused == []  # under the cap nobody waits
    assert polls.try_code(code, "student", Client("192.0.2.1")).code == code
    assert polls.try_code(code.lower(), "another student", Client("192.0.2.2")).code == code
    with pytest.raises(ValueError, match="Too many wrong room codes on this server"):
        polls.try_code(wrong, "one more sweeper", Client("192.0.2.3"))
    assert paused == [polls.WRONG_PAUSE]  # a wrong try over the cap is slowed


def test_rooms_opened_too_often_are_refused(polls, clock, caplog):  # noqa: F811
    def make(who, client=TEACHER):
        return polls.open_room("bpe", "bpe", "toy", "p", "r", "/bpe", True, connection=who,
                               client=client)  # fmt: skip

    for _ in range(polls.limits.new_rooms.count):
        make("teacher")
    with pytest.raises(ValueError, match="Too many new rooms from this browser: wait"):
        make("teacher")
    for k in range(polls.limits.server_rooms.count - polls.limits.new_rooms.count):
        make(f"other{k}", address(k))
    refused = pytest.raises(ValueError, match="Too many new rooms on this server")
    with caplog.at_level(logging.WARNING, logger="subtok.poll"), refused:
        make("yet another", Client("192.0.2.99"))
    assert any("new rooms on this server refused" in r.getMessage() for r in caplog.records)


def test_a_room_keeps_a_reference_to_the_corpus_not_its_words(polls):  # noqa: F811
    trace = trace_bpe(load("toy:low-lower"), merges=4, marker="eow")
    shared = polls.open_room("bpe", "bpe", "toy:low-lower", "fp", "run", "/bpe", True,
                             view=rooms.step_view(trace, 2, True))  # fmt: skip
    private = polls.open_room("bpe", "bpe", "upload:a .txt file", "fp2", "run2", "/bpe", False,
                              view=rooms.step_view(trace, 2, False))  # fmt: skip
    with polls.engine.connect() as conn:
        rows = {r.code: r for r in conn.execute(select(db.rooms))}
    assert "words" not in db.rooms.c and "params" not in db.rooms.c
    assert (rows[shared].corpus, rows[shared].corpus_print) == ("toy:low-lower", "fp")
    assert "newest" in rows[shared].view  # a built-in corpus: its first words, shown
    assert json.loads(rows[private].view) == {}  # an upload the teacher did not share
    assert polls.join(private).view == {} and not polls.join(private).share


def test_the_sqlite_file_is_private(tmp_path):
    path = tmp_path / "data" / "rooms.sqlite3"
    store = rooms.RoomStore(f"sqlite:///{path}")
    code = open_room(store)
    store.submit(code, store.open_round(code, ask()), "ann", "(l, o)")
    for made in [path, *path.parent.glob("rooms.sqlite3-*")]:
        assert stat.S_IMODE(made.stat().st_mode) == 0o600, made
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_world_readable_file_from_before_is_made_private(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    rooms.RoomStore(f"sqlite:///{path}")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def _open_at_once(url: str, gate, failures) -> None:
    db._ENGINES.clear()  # a new server process: no engine yet (fork copied the parent's)
    gate.wait()
    try:
        db.engine(url)
    except Exception as err:  # noqa: BLE001 - the parent counts them
        failures.put(repr(err))


@pytest.mark.slow  # a long run (fast tier: README)
def test_thirty_processes_opening_a_fresh_database_at_once_all_succeed(tmp_path):
    url = os.environ.get("SUBTOK_TEST_PG_URL") or f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    if url.startswith("postgresql"):
        db.metadata.drop_all(db.create_engine(url))  # fresh: no tables
    context = multiprocessing.get_context("fork")
    gate, failures = context.Barrier(30), context.Queue()
    workers = [context.Process(target=_open_at_once, args=(url, gate, failures)) for _ in range(30)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    errors = [failures.get() for _ in range(failures.qsize())]
    assert errors == [] and all(w.exitcode == 0 for w in workers)
    names = set(sql_inspect(db.create_engine(url)).get_table_names())
    assert {"class_rooms", "class_rounds", "class_answers", "class_students", "class_hits"} <= names
