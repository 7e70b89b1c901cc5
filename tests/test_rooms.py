"""The class poll's store (subtok_core.rooms) on an SQLite file: thirty students answering
at once, one answer per person, expired rooms, the tally; and the question a round asks.

Expected answers come from the course material:
003 = ../shared/seeds/003_fbf19eb985f31fbe.txt (low/lower/newest/widest with </w>)
001 = ../shared/seeds/001_cd5e11af49399106.txt (WordPiece sunflower, Unigram run/bug/fun/sun)
"""

from __future__ import annotations

import os
import threading

import pytest
from sqlalchemy import func, select, text

from subtok_core import rooms
from subtok_core.bpe import trace_bpe
from subtok_core.corpus import load
from subtok_core.rooms import db
from subtok_core.unigram import trace_unigram
from subtok_core.wordpiece import trace_wordpiece

STUDENTS = 30


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
def polls(request, tmp_path, clock):
    """The store on a fresh SQLite file; and on PostgreSQL when SUBTOK_TEST_PG_URL names an
    empty database to use (postgresql+psycopg://...; CI starts one with .ci/postgres)."""
    if request.param == "sqlite":
        return rooms.RoomStore(f"sqlite:///{tmp_path / 'polls.sqlite3'}", clock=clock)
    url = os.environ.get("SUBTOK_TEST_PG_URL", "")
    if not url:
        pytest.skip("set SUBTOK_TEST_PG_URL (.ci/postgres prints one) to run on PostgreSQL too")
    url = worker_database(url, os.environ.get("PYTEST_XDIST_WORKER", ""))
    engine = db.engine(url)
    db.metadata.drop_all(engine)  # every test starts on empty tables
    db.metadata.create_all(engine)
    return rooms.RoomStore(url, clock=clock)


def ask(step=2, answers=("(est, </w>)",), ties=()):
    """A question on `step` with these answers (candidates: 003's pairs and them)."""
    candidates = tuple(sorted({"(est, </w>)", "(l, o)", "(o, w)", *answers, *ties}))
    return rooms.Question(step, step + 1, "pair", "Which pair?", candidates, answers, ties, "")


def open_room(polls, share=True):
    return polls.open_room("bpe", "bpe", "toy:low-lower", "print", "run", "/bpe", share)


def worker_database(url: str, worker: str) -> str:
    """The URL of a database of this pytest-xdist worker's own on the server of `url`
    (created on first use), so two workers never drop each other's tables; `url` itself
    when tests run in one process (no worker name)."""
    if not worker:
        return url
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    server = make_url(url)
    name = f"{server.database}_{worker}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            found = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if found is None:  # the name is the server's database and gw0, gw1...: no quoting
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return server.set(database=name).render_as_string(hide_password=False)


def test_each_xdist_worker_gets_a_database_of_its_own_on_the_same_server():
    url = os.environ.get("SUBTOK_TEST_PG_URL", "")
    if not url:
        pytest.skip("set SUBTOK_TEST_PG_URL (.ci/postgres prints one) to run on PostgreSQL")
    assert worker_database(url, "") == url  # one process: the database given
    names = set()
    for worker in ("gw0", "gw1", "gw1"):  # the second gw1: the database is there already
        engine = db.engine(worker_database(url, worker))
        with engine.connect() as conn:
            names.add(conn.execute(text("SELECT current_database()")).scalar_one())
    base = db.engine(url).url.database
    assert names == {f"{base}_gw0", f"{base}_gw1"}


def open_round(polls, answers=("(est, </w>)",), ties=()):
    code = open_room(polls)
    return code, polls.open_round(code, ask(2, tuple(answers), tuple(ties)))


def at_once(count: int, work) -> list[BaseException]:
    """Run work(k) for k < count in as many threads, released together; their errors."""
    gate, errors = threading.Barrier(count), []

    def run(k: int) -> None:
        gate.wait()
        try:
            work(k)
        except BaseException as err:  # noqa: BLE001 - every failure is reported
            errors.append(err)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_thirty_students_answering_at_once_are_each_counted_exactly_once(polls):
    code, round_id = open_round(polls)
    choices = ["(est, </w>)", "(l, o)", "(o, w)"]
    errors = at_once(STUDENTS, lambda k: polls.submit(code, round_id, f"s{k}", choices[k % 3]))
    assert errors == []
    assert sorted(polls.tally(round_id)) == [("(est, </w>)", 10), ("(l, o)", 10), ("(o, w)", 10)]
    with polls.engine.connect() as conn:
        sessions = conn.execute(
            select(db.answers.c.session, func.count()).group_by(db.answers.c.session)
        ).all()
    assert sorted(sessions) == sorted((f"s{k}", 1) for k in range(STUDENTS))


def test_the_sqlite_file_is_in_write_ahead_log_mode_and_waits_for_a_lock(tmp_path):
    polls = rooms.RoomStore(f"sqlite:///{tmp_path / 'polls.sqlite3'}")
    with polls.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == db.BUSY_TIMEOUT_MS


def test_a_second_answer_of_a_student_replaces_the_first(polls):
    code, round_id = open_round(polls)
    polls.submit(code, round_id, "ann", "(est, </w>)")
    polls.submit(code, round_id, "bob", "(l, o)")
    polls.submit(code, round_id, "ann", "(l, o)")  # a reload, a new tab, a change of mind
    assert polls.tally(round_id) == [("(l, o)", 2)]
    assert polls.answer_of(round_id, "ann") == "(l, o)"


def test_the_same_student_sending_thirty_times_at_once_is_one_row(polls):
    code, round_id = open_round(polls)
    errors = at_once(STUDENTS, lambda k: polls.submit(code, round_id, "ann", f"(x, {k})"))
    # ten a minute from one browser: the other twenty are told to wait
    assert len(errors) == STUDENTS - polls.limits.answers.count
    assert {str(err).split(":")[0] for err in errors} == {"Too many answers from this browser"}
    assert sum(n for _, n in polls.tally(round_id)) == 1
    with polls.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(db.answers)).scalar() == 1


def test_an_expired_room_is_refused_with_a_message(polls, clock):
    code, round_id = open_round(polls)
    clock.now += rooms.LIFETIME + 1
    with pytest.raises(ValueError, match=f"Room {code} has expired"):
        polls.join(code)
    with pytest.raises(ValueError, match="has expired"):
        polls.submit(code, round_id, "ann", "(l, o)")
    assert polls.tally(round_id) == []


def test_opening_a_round_keeps_the_room_open_two_more_hours(polls, clock):
    code, _ = open_round(polls)
    polls.try_code(code, "ann")  # a student joined: the room lives its 2 hours
    clock.now += rooms.LIFETIME - 60
    polls.open_round(code, ask(3, ("(l, o)",)))
    clock.now += rooms.LIFETIME - 60
    assert polls.join(code).code == code


def test_a_room_expired_a_day_ago_is_deleted_with_its_rounds_and_answers(polls, clock):
    code, round_id = open_round(polls)
    polls.submit(code, round_id, "ann", "(l, o)")
    clock.now += rooms.LIFETIME + 25 * 60 * 60
    assert polls.expire_rooms() == 1
    with pytest.raises(ValueError, match=f"There is no room {code}"):
        polls.join(code)
    assert polls.tally(round_id) == []


@pytest.mark.parametrize("typed", ["", "ab", "K7R", "O0O0", "K7RD5"])
def test_a_code_that_is_no_room_code_is_refused_with_a_message(polls, typed):
    with pytest.raises(ValueError, match="is not a room code"):
        polls.join(typed)


@pytest.mark.parametrize(
    ("typed", "named"),
    [("ZZZZ", "it has Z, which"), ("zz0q", "it has Z, 0 and Q, which"), ("O0O0", "O and 0,")],
)
def test_a_code_with_look_alike_characters_names_them(polls, typed, named):
    """Z, 0, Q and O are left out of room codes (Z/2, 0/O/Q look alike): four of them are
    of the right length, and the message says which characters are wrong, not the length."""
    with pytest.raises(ValueError, match="is not a room code") as refused:
        polls.join(typed)
    assert named in str(refused.value)
    assert "which room codes leave out" in str(refused.value)


def test_codes_are_typed_in_any_case_with_spaces(polls):
    code, _ = open_round(polls)
    assert polls.join(f" {code[:2].lower()} {code[2:]} ").code == code


def test_a_revealed_or_closed_round_takes_no_answer(polls):
    code, first = open_round(polls)
    second = polls.open_round(code, ask(3, ("(l, o)",), ("(o, w)",)))
    with pytest.raises(ValueError, match="moved on to another step"):
        polls.submit(code, first, "ann", "(l, o)")
    polls.reveal(second)
    with pytest.raises(ValueError, match="answer has been revealed"):
        polls.submit(code, second, "ann", "(l, o)")
    assert polls.current_round(code).state == "revealed"


def test_opening_the_open_round_again_keeps_its_answers(polls):
    code, round_id = open_round(polls)
    polls.submit(code, round_id, "ann", "(l, o)")
    assert polls.open_round(code, ask(2)) == round_id
    assert polls.tally(round_id) == [("(l, o)", 1)]


def test_the_tally_counts_each_answer_most_given_first(polls):
    code, round_id = open_round(polls)
    given = ["(l, o)", "(est, </w>)", "(l, o)", "(o, w)", "(l, o)", "(est, </w>)"]
    for k, answer in enumerate(given):
        polls.submit(code, round_id, f"s{k}", answer)
    assert polls.tally(round_id) == [("(l, o)", 3), ("(est, </w>)", 2), ("(o, w)", 1)]


def test_an_answer_is_stored_and_given_back_as_plain_text(polls):
    code, round_id = open_round(polls)
    script = "<script>alert(1)</script>"
    polls.submit(code, round_id, "eve", f"  {script}\n")
    assert polls.tally(round_id) == [(script, 1)]
    assert polls.answer_of(round_id, "eve") == script


@pytest.mark.parametrize(
    ("answer", "message"), [(" \n ", "The answer is empty"), ("x" * 81, "at most 80 characters")]
)
def test_an_empty_or_too_long_answer_is_refused(polls, answer, message):
    code, round_id = open_round(polls)
    with pytest.raises(ValueError, match=message):
        polls.submit(code, round_id, "ann", answer)


def test_the_database_is_a_file_in_the_data_dir_unless_a_url_is_set(tmp_path):
    assert db.database_url({"SUBTOK_DATA_DIR": str(tmp_path)}) == (
        f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    )
    url = f"sqlite:///{tmp_path / 'new' / 'dir' / 'rooms.sqlite3'}"
    assert db.engine(url) is db.engine(url)  # one engine per URL
    assert (tmp_path / "new" / "dir" / "rooms.sqlite3").exists()
    with pytest.raises(ValueError, match="not an in-memory one"):
        db.engine("sqlite://")


# --- the question of a round ----------------------------------------------------------


def test_the_merge_after_step_2_of_003_is_est_and_end_of_word():
    # 003: 'Found "est </w>" with the highest frequency 6+3=9' (the third merge)
    trace = trace_bpe(load("toy:low-lower"), merges=4, marker="eow")
    question = rooms.next_merge(trace, 2)
    assert question.answers == ("(est, </w>)",) and question.tied == ()
    assert "(est, </w>) occurs 9 times" in question.explanation
    assert "(est, </w>)" in question.candidates and "(l, o)" in question.candidates


def test_the_merge_after_step_3_of_003_is_l_o_tied_with_o_w():
    # 003: 'Found "l o" with the highest frequency 5+2=7'; (o, w) also occurs 5 + 2 times
    question = rooms.next_merge(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"), 3)
    assert question.answers == ("(l, o)",) and question.tied == ("(o, w)",)
    assert [question.verdict(a) for a in ("l o", "o,w", "(e, r)")] == ["right", "tied", "wrong"]
    assert rooms.next_merge(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"), 4) is None


def test_typed_pairs_read_as_the_candidates_are_written():
    question = rooms.next_merge(trace_bpe(load("toy:low-lower"), merges=4, marker="eow"), 2)
    forms = ["est </w>", "(est,</w>)", " est , </w> ", "est</w>"]
    assert {question.canonical(form) for form in forms} == {"(est, </w>)"}
    assert question.canonical("<b>x</b>") == "<b>x</b>"


def test_the_first_wordpiece_merge_of_001_is_s_u():
    # 001: "Select the pair with highest score to be merged - s, ##u" (score 0.33)
    question = rooms.next_merge(trace_wordpiece(load("toy:sunflower"), merges=2), 0)
    assert question.answers == ("(s, ##u)",)
    assert "scores 1/3" in question.explanation


def test_the_first_unigram_prune_of_001_ties_six_pieces():
    # 001: removing any of ru, un, bu, ug, fu, su leaves the loss at 66.102; the slides
    # pick un "randomly", the tie rule here takes the first, ru; the other five are tied
    trace = trace_unigram(load("toy:run-bug"), log_base="10", vocab_size=14)
    question = rooms.next_prune(trace, 0)
    assert question.kind == "piece" and question.number == 3
    assert question.answers == ("ru",)
    assert sorted(question.tied) == ["bu", "fu", "su", "ug", "un"]
    assert question.verdict("un") == "tied"
    assert "Pruned ru" in question.explanation
    assert rooms.next_prune(trace, len(trace.steps)) is None


def test_a_poll_asks_about_the_three_stepping_lessons_only():
    assert rooms.question_for("unigram") is rooms.next_prune
    with pytest.raises(ValueError, match="not about sage"):
        rooms.question_for("sage")
