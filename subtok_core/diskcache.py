"""Finished runs on disk, so that a restarted server (and next week's class) does not
train them again.

The server-wide store (subtok_core.store) keeps runs in memory; this keeps a copy of each
in a cache directory, one file per run, named by a digest of the run's key. The pages' keys
are fingerprints of the corpus and the parameters, so a file answers the same deep link in
any later process. Settings:

- ``SUBTOK_CACHE_DIR``: the directory (default ``~/.cache/subtok/traces``, or under
  ``$XDG_CACHE_HOME``); ``off`` keeps nothing on disk. The app and ``subtok warm`` read the
  same default, so warming a lesson and then starting the app needs no setting.
- ``SUBTOK_CACHE_MB``: how much the directory may hold (default 2000); past it the files
  used least recently go first.

A file is one line of header, JSON: a tag, the core's version, the run's key, the body's
length and a digest of the key and the body together; then the run as plain data
(subtok_core.plaindata: JSON that can only build numbers, strings, containers, numpy
arrays of numbers and the core's own records, each field of the type it declares). Nothing
read runs code. The header is checked before the run is parsed: a file of another version,
for another key, truncated, whose body is not the one its header was written with (another
run's body under a true header), or unreadable is ignored (a line in the log, the file
removed) and the run computed again: never an error. What the run must be (a trace, a
table, a chart's spec) is the caller's to check (Store.get's `expect`).

Only our own files are read: a file is opened without following a link (a link is never
read), and one that is not a regular file, belongs to another user or is bigger than the
store's memory budget is skipped. The directory is made private to its user (mode 0700,
with a log line if it was writable by others); a directory that belongs to another user
is not used at all, nor one that is a link of another user (a log line says so, and runs
stay in memory).

>>> with tempfile.TemporaryDirectory() as folder:
...     disk = DiskCache(Path(folder), max_bytes=1 << 20)
...     disk.save(("bpe", "toy:low-lower", 4), plaindata.encode(["a trace"]))
...     print(disk.load(("bpe", "toy:low-lower", 4)), disk.load(("bpe", "toy:low-lower", 5)))
['a trace'] None
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import stat
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

from . import plaindata
from .ownfiles import Skipped, open_own, private_directory

log = logging.getLogger(__name__)

FORMAT = 3  # bump when the file layout changes, or what a trace means without a code change
TAG = "subtok-run"  # the tag of every file's header
MAX_HEADER = 1 << 16  # a header line longer than this is not ours
SUFFIX, TEMP_PREFIX = ".run", ".writing-"
DEFAULT_LIMIT_MB = 2000
OLD_TEXT = ("sample-", ".txt")  # how an earlier version kept the Wikipedia sample's text
STALE_TEMP_SECONDS = 3600  # a half-written file this old was left by a process that died


@cache
def core_version() -> str:
    """The version a cache file must have been written by: the package's version, FORMAT,
    and a digest of the core's source, so that a changed trainer never serves an old run."""
    from importlib import metadata  # here: importing it costs a CLI's start 50-100 ms

    try:
        package = metadata.version("subtok")
    except metadata.PackageNotFoundError:
        package = "unknown"
    source = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        source.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{package} format {FORMAT} source {source.hexdigest()[:16]}"


def megabytes_from_env(name: str, default: float) -> int:
    """The byte count of the environment variable `name` (a positive number of megabytes),
    `default` megabytes when it is unset or not such a number."""
    raw = os.environ.get(name, "")
    try:
        megabytes = float(raw) if raw else default
    except ValueError:
        log.warning("%s=%r is not a number; using %s", name, raw, default)
        megabytes = default
    if not megabytes > 0:  # also nan
        megabytes = default
    return int(megabytes * 1024 * 1024)


def directory_from_env() -> Path | None:
    """The cache directory ``SUBTOK_CACHE_DIR`` names, the per-user default, or None (off)."""
    raw = os.environ.get("SUBTOK_CACHE_DIR", "").strip()
    if raw.lower() == "off":
        return None
    if raw:
        return Path(raw).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    try:
        return Path(base or Path.home() / ".cache") / "subtok" / "traces"
    except RuntimeError:  # no home directory to put it in
        log.warning("no home directory: runs are not kept on disk (set SUBTOK_CACHE_DIR)")
        return None


def from_env() -> DiskCache | None:
    """The cache the settings describe, or None when it is off."""
    directory = directory_from_env()
    if directory is None:
        return None
    return DiskCache(directory, megabytes_from_env("SUBTOK_CACHE_MB", DEFAULT_LIMIT_MB))


class DiskCache:
    """Runs by key in `directory`, at most `max_bytes` of them (least recently used go)."""

    def __init__(self, directory: Path, max_bytes: int, version: str | None = None):
        self.directory = Path(directory)
        self.max_bytes = max_bytes
        self.version = core_version() if version is None else version
        self._usable: bool | None = None

    def path(self, key) -> Path | None:
        """The file of `key`, named by a digest of its repr; None for a key whose repr
        does not show its content (an object's address), which is never kept."""
        text = repr(key)
        if " at 0x" in text:
            return None
        return self.directory / (hashlib.sha256(text.encode()).hexdigest()[:40] + SUFFIX)

    def has(self, key) -> bool:
        path = self.path(key)
        if path is None:
            return False
        try:  # a link is not a kept run (read never follows one)
            return stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            return False

    def load(self, key, max_bytes: int | None = None) -> Any:
        """The run kept for `key`, or None (not kept, or a file that cannot be used: then a
        log line says why). A file over `max_bytes` (the memory budget) is not read."""
        found = self.read(key, max_bytes)
        return None if found is None else found[0]

    def read(self, key, max_bytes: int | None = None) -> tuple[Any, int] | None:
        """As load, with the file's size in bytes (about the run's size as plain data)."""
        path = self.path(key)
        if path is None or not self.usable():
            return None
        try:
            with open_own(path, max_bytes) as file:
                size = os.fstat(file.fileno()).st_size
                header = self._header(file.readline(MAX_HEADER), key)
                why = header if isinstance(header, str) else None
                if why is None:
                    body = file.read()
                    why = _body_refused(header, body)
                value = None if why else plaindata.decode(body)
        except FileNotFoundError:
            return None  # not kept, or removed by another process meanwhile
        except Skipped as err:
            log.warning("cache file %s %s; not read", path, err)
            return None
        except Exception as err:  # truncated, corrupt, a record since renamed: computed again
            why = f"it cannot be read ({type(err).__name__}: {err})"
        if why:
            log.warning("ignored cache file %s: %s; the run is computed again", path.name, why)
            self._remove(path)
            return None
        with contextlib.suppress(OSError):  # used now: the size bound removes it last
            os.utime(path, follow_symlinks=False)
        return value, size

    def _header(self, line: bytes, key) -> list | str:
        """The header line of a file that may answer `key`, or why it cannot (a sentence)."""
        try:
            header = json.loads(line)
        except ValueError:
            return "it is not a subtok run"
        if not (isinstance(header, list) and len(header) == 5 and header[0] == TAG):
            return "it is not a subtok run"
        if header[1] != self.version:
            return f"it was written by another version ({str(header[1])[:80]})"
        if header[2] != _plain_key(key):
            return "it holds another run"
        return header

    def forget(self, key, why: str) -> None:
        """Remove the file of `key`, read but refused by its reader (`why`, in the log)."""
        path = self.path(key)
        if path is not None:
            log.warning("ignored cache file %s: %s; the run is computed again", path.name, why)
            self._remove(path)

    def usable(self) -> bool:
        """Whether the directory may be used: made (private) if missing, made private if it
        was writable by others, refused if it belongs to another user (checked once)."""
        if self._usable is None:
            self._usable = private_directory(self.directory, "cache")
        return self._usable

    def save(self, key, data: bytes) -> None:
        """Keep `data` (the run as plaindata.encode wrote it) for `key`: written to a
        temporary file that then replaces the old one at once, so a reader sees the whole
        old file or the whole new one. A failure (disk full, no permission) is logged,
        never raised."""
        path = self.path(key)
        if path is None or len(data) > self.max_bytes or not self.usable():
            return
        try:
            plain = _plain_key(key)
            seal = [len(data), _seal(plain, data)]
            header = json.dumps([TAG, self.version, plain, *seal]).encode() + b"\n"
        except TypeError as err:  # a key that is not plain data: the run stays in memory
            log.warning("a run under %s cannot be kept on disk: %s", path.name, err)
            return
        temp = None
        try:
            handle, temp = tempfile.mkstemp(dir=self.directory, prefix=TEMP_PREFIX)
            with os.fdopen(handle, "wb") as file:  # mkstemp: readable by this user only
                file.write(header)
                file.write(data)
            os.replace(temp, path)
        except OSError as err:
            log.warning("could not keep a run in %s: %s", self.directory, err)
            if temp is not None:
                self._remove(Path(temp))
            return
        self.prune()

    def prune(self) -> None:
        """Remove the least recently used files until the directory is within max_bytes,
        and half-written files that a dead process left behind."""
        files, now = [], time.time()
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            return
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue  # removed meanwhile by another process
            if entry.name.endswith(SUFFIX):
                files.append((info.st_mtime, info.st_size, Path(entry.path)))
            elif entry.name.startswith(TEMP_PREFIX) and now - info.st_mtime > STALE_TEMP_SECONDS:
                self._remove(Path(entry.path))
            elif entry.name.startswith(OLD_TEXT[0]) and entry.name.endswith(OLD_TEXT[1]):
                self._remove(Path(entry.path))  # outside the budget: now kept as a run
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):  # oldest use first
            if total <= self.max_bytes:
                break
            self._remove(path)
            total -= size

    def files(self) -> list[Path]:
        """The runs kept now (for tests and `subtok warm`)."""
        return sorted(self.directory.glob("*" + SUFFIX)) if self.directory.is_dir() else []

    @staticmethod
    def _remove(path: Path) -> None:
        with contextlib.suppress(OSError):  # already gone (another process), or not ours
            path.unlink()


def _seal(plain_key, body: bytes) -> str:
    """A digest of a key (as the header holds it) and the body kept under it together."""
    digest = hashlib.sha256(json.dumps(plain_key, sort_keys=True).encode() + b"\0" + body)
    return digest.hexdigest()


def _body_refused(header: list, body: bytes) -> str | None:
    """Why `body` is not the body the header was written with, or None."""
    if header[3] != len(body):
        return f"it cannot be read whole (its body is {len(body)} bytes, not {header[3]})"
    if header[4] != _seal(header[2], body):
        return "its body is not the one its header was written with"
    return None


def _plain_key(key) -> Any:
    """The key as the header holds it (JSON), compared before the run is parsed."""
    return json.loads(plaindata.encode(key))
