"""Where the class polls are kept: the database setting, one engine per URL, the tables.

The setting is one database URL: ``$SUBTOK_DB_URL`` when it is set (a department can
point every app server at one PostgreSQL database, ``postgresql+psycopg://...``),
else an SQLite file in the data directory (``$SUBTOK_DATA_DIR``, by default
``~/.cache/subtok``):

>>> database_url({"SUBTOK_DATA_DIR": "/srv/subtok"})
'sqlite:////srv/subtok/rooms.sqlite3'
>>> database_url({"SUBTOK_DB_URL": "postgresql+psycopg://db/subtok"})
'postgresql+psycopg://db/subtok'

Times are stored as seconds since the epoch (a float), which every database compares
the same way. The queries use SQLAlchemy's portable constructs only; what is particular
to SQLite (write-ahead log, waiting for a lock) is set when a connection opens.
"""

from __future__ import annotations

import os
import random
import stat
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.exc import DBAPIError

from ..ownfiles import private_directory

DB_FILE = "rooms.sqlite3"
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside it
BUSY_TIMEOUT_MS = 10_000  # an SQLite writer waits this long for another one's lock
CODE_LENGTH = 4
ANSWER_MAX = 80  # characters of one answer
SESSION_MAX = 64  # characters of an anonymous session id

metadata = MetaData()

# The tables are named class_* (a room that follows the teacher from lesson to lesson: its
# teacher's key, heartbeat and end; a round's page and run; the students' numbers; the
# rate limits' hits). A database of an earlier version keeps its old tables (poll_* and
# before), unused, and gets these beside them: rooms last two hours, so nothing open is lost
# that a class would miss. A fresh database and an old one get the same tables.
rooms = Table(
    "class_rooms",
    metadata,
    Column("code", String(CODE_LENGTH), primary_key=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
    Column("teacher", String(64), nullable=False, index=True),  # sha256 of the teacher's key
    Column("seen", Float, nullable=False),  # the teacher's page was last seen open then
    Column("ended", Float, nullable=True),  # when the teacher ended the class (None: open)
    Column("live", Boolean, nullable=False),  # whether the tally shows before Reveal
    Column("page", String(32), nullable=False),  # the lesson's url path: bpe, unigram, ...
    Column("title", String(80), nullable=False),  # the lesson's title: "BPE", "Unigram LM"
    Column("algorithm", String(32), nullable=False),  # its name in the registry ("": none)
    Column("corpus", String(200), nullable=False),  # the corpus's name, as the page shows it
    Column("corpus_print", String(64), nullable=False),  # the fingerprint of its word counts
    Column("run", String(64), nullable=False),  # the fingerprint of the run (corpus, settings)
    Column("link", Text, nullable=False),  # the lesson's path and query: /bpe?corpus=...
    Column("share", Boolean, nullable=False),  # whether phones are shown the corpus's words
    Column("step", Integer, nullable=False),  # the step the teacher's page shows now
    Column("view", Text, nullable=False),  # JSON: what phones show of that step ({}: nothing)
)

rounds = Table(
    "class_rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(CODE_LENGTH), ForeignKey("class_rooms.code"), nullable=False, index=True),
    Column("step", Integer, nullable=False),  # the step the class looks at (0: before any)
    Column("page", String(32), nullable=False),  # the lesson page it was asked on
    Column("algorithm", String(32), nullable=False),
    Column("corpus", String(200), nullable=False),
    Column("run", String(64), nullable=False),
    Column("link", Text, nullable=False),  # the lesson's path and query when it was asked
    Column("state", String(10), nullable=False),  # open, closed (moved on), revealed
    Column("answer", Text, nullable=False),  # JSON list: the answer(s) the algorithm gives
    Column("ties", Text, nullable=False),  # JSON list: the candidates tied with it
    Column("question", Text, nullable=False),  # JSON: the question (rooms.questions.Question)
    Column("opened", Float, nullable=False),
)

answers = Table(
    "class_answers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round", Integer, ForeignKey("class_rounds.id"), nullable=False),
    Column("session", String(SESSION_MAX), nullable=False),
    Column("answer", String(ANSWER_MAX * 4), nullable=False),  # room for any UTF-8 encoding
    Column("at", Float, nullable=False),
    UniqueConstraint("round", "session", name="class_one_answer_per_student"),
)

students = Table(  # a student's anonymous number in a room: 1, 2, 3... by first answer
    "class_students",
    metadata,
    Column("room", String(CODE_LENGTH), ForeignKey("class_rooms.code"), nullable=False),
    Column("session", String(SESSION_MAX), nullable=False),
    Column("number", Integer, nullable=False),
    UniqueConstraint("room", "session", name="class_one_number_per_student"),
    UniqueConstraint("room", "number", name="class_one_student_per_number"),
)

joined = Table(  # when a student first opened a room's code (a room nobody joined closes early)
    "class_joined",
    metadata,
    Column("room", String(CODE_LENGTH), ForeignKey("class_rooms.code"), primary_key=True),
    Column("at", Float, nullable=False),
)

hits = Table(  # the events the rate limits count (subtok_core.rooms.limits)
    "class_hits",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False),  # the window's name and whose: "answers:s1"
    Column("at", Float, nullable=False),
    Index("class_hits_key_at", "key", "at"),
)


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The directory for subtok's files: $SUBTOK_DATA_DIR, else ~/.cache/subtok."""
    given = environ.get("SUBTOK_DATA_DIR", "").strip()
    return Path(given).expanduser() if given else Path.home() / ".cache" / "subtok"


def database_url(environ: Mapping[str, str] = os.environ) -> str:
    """The database of the class polls: $SUBTOK_DB_URL, else the SQLite file in data_dir."""
    given = environ.get("SUBTOK_DB_URL", "").strip()
    return given or f"sqlite:///{data_dir(environ) / DB_FILE}"


_ENGINES: dict[str, Engine] = {}
_LOCK = threading.Lock()


def engine(url: str) -> Engine:
    """The one engine of this process for `url`, its tables created on first use (and,
    for an SQLite file, its directory)."""
    with _LOCK:
        if url not in _ENGINES:
            _ENGINES[url] = new_engine(url)
        return _ENGINES[url]


def new_engine(url: str) -> Engine:
    """A new engine for `url` (engine() keeps one per URL; a second one is a second app
    server's, as the tests of the limits across servers use it)."""
    made = create_engine(url)
    if made.dialect.name == "sqlite":
        where = made.url.database
        if not where or where == ":memory:":
            raise ValueError(
                "The class poll needs an SQLite file (or another database), not an in-memory "
                "one: every session and thread must see the same answers."
            )
        private_file(Path(where).expanduser())
        event.listen(made, "connect", _sqlite_settings)
    create_tables(made)
    return made


def private_file(path: Path) -> None:
    """The SQLite file readable and writable by its owner only (0600; its write-ahead log
    and shared-memory files get the same mode from SQLite), in a data folder trusted as the
    cache folder is (subtok_core.ownfiles: made 0700 with a log line when others may write
    to it, refused when it is another user's). A link in place of the file (or of its
    write-ahead log, shared memory or journal) is refused, never followed: a planted link
    would have the victim file chmodded, or overwritten by a database."""
    if not private_directory(path.parent, "data"):
        raise ValueError(
            f"The data folder {path.parent} cannot hold the class poll's database (the log "
            "says why, e.g. it belongs to another user): point SUBTOK_DATA_DIR at a folder "
            "of your own."
        )
    for name in (path, *(path.with_name(path.name + end) for end in SQLITE_SIDE_FILES)):
        if name.is_symlink():
            raise ValueError(
                f"{name} is a link, and the class poll's database is never written through "
                "a link: remove it, or point SUBTOK_DATA_DIR at a folder of your own."
            )
    flags = os.O_CREAT | os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
    try:
        handle = os.open(path, flags, 0o600)
    except OSError as err:
        raise ValueError(f"The class poll's database {path} cannot be opened "
                         f"({err.strerror}).") from None  # fmt: skip
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path} is not a regular file, so it cannot be the poll's database.")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise ValueError(
                f"{path} belongs to another user: point SUBTOK_DATA_DIR at a folder of your own."
            )
        if info.st_mode & 0o077:
            os.fchmod(handle, 0o600)  # a file from before: made private
    finally:
        os.close(handle)


def create_tables(made: Engine, attempts: int = 8) -> None:
    """Create the missing tables. Servers starting at once all find a table missing and
    all create it; those that lose the race get "already exists" (SQLite, PostgreSQL) or a
    duplicate catalogue key (PostgreSQL), wait a moment and look again (checkfirst)."""
    for attempt in range(attempts):
        try:
            metadata.create_all(made, checkfirst=True)
            return
        except DBAPIError:
            if attempt == attempts - 1:
                raise
            time.sleep(random.uniform(0.02, 0.1) * (attempt + 1))


def _sqlite_settings(dbapi_connection, _record) -> None:
    """Each new SQLite connection: the write-ahead log (readers never wait for the writer,
    and the writer never waits for readers) and a wait instead of an error when another
    writer holds the lock, so thirty answers sent at once are all stored."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: WAL may wait for a lock
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()
