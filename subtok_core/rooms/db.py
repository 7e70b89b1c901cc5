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
import threading
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import (
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)

DB_FILE = "rooms.sqlite3"
BUSY_TIMEOUT_MS = 10_000  # an SQLite writer waits this long for another one's lock
CODE_LENGTH = 4
ANSWER_MAX = 80  # characters of one answer
SESSION_MAX = 64  # characters of an anonymous session id

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(CODE_LENGTH), primary_key=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
    Column("page", String(32), nullable=False),  # the lesson's url path: bpe, unigram, ...
    Column("algorithm", String(32), nullable=False),  # its name in the registry
    Column("corpus", String(200), nullable=False),  # the corpus's name, as the page shows it
    Column("link", Text, nullable=False),  # the lesson's path and query: /bpe?corpus=...
    Column("params", Text, nullable=False),  # the trace's parameters, JSON
    Column("words", Text, nullable=False),  # [[word, count], ...] the trace learned from, JSON
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(CODE_LENGTH), ForeignKey("rooms.code"), nullable=False, index=True),
    Column("step", Integer, nullable=False),  # the step the class looks at (0: before any)
    Column("algorithm", String(32), nullable=False),
    Column("state", String(10), nullable=False),  # open, closed (moved on), revealed
    Column("answer", Text, nullable=False),  # JSON list: the answer(s) the algorithm gives
    Column("ties", Text, nullable=False),  # JSON list: the candidates tied with it
    Column("opened", Float, nullable=False),
)

answers = Table(
    "answers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round", Integer, ForeignKey("rounds.id"), nullable=False),
    Column("session", String(SESSION_MAX), nullable=False),
    Column("answer", String(ANSWER_MAX * 4), nullable=False),  # room for any UTF-8 encoding
    Column("at", Float, nullable=False),
    UniqueConstraint("round", "session", name="one_answer_per_session"),
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
            _ENGINES[url] = _new_engine(url)
        return _ENGINES[url]


def _new_engine(url: str) -> Engine:
    made = create_engine(url)
    if made.dialect.name == "sqlite":
        where = made.url.database
        if not where or where == ":memory:":
            raise ValueError(
                "The class poll needs an SQLite file (or another database), not an in-memory "
                "one: every session and thread must see the same answers."
            )
        Path(where).expanduser().parent.mkdir(parents=True, exist_ok=True)
        event.listen(made, "connect", _sqlite_settings)
    metadata.create_all(made)
    return made


def _sqlite_settings(dbapi_connection, _record) -> None:
    """Each new SQLite connection: the write-ahead log (readers never wait for the writer,
    and the writer never waits for readers) and a wait instead of an error when another
    writer holds the lock, so thirty answers sent at once are all stored."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()
