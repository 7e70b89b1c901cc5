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

A file starts with a header (a tag, the core's version, the key) and then the pickled run.
A file of another version, for another key, truncated or unreadable is ignored (a line in
the log, the file removed) and the run computed again: never an error.

Reading a pickle can run code, so only our own files are read: the directory is made
private to the user, a file owned by someone else is skipped, and so is one bigger than
the store's memory budget. Point ``SUBTOK_CACHE_DIR`` at a directory nobody else writes to.

>>> with tempfile.TemporaryDirectory() as folder:
...     disk = DiskCache(Path(folder), max_bytes=1 << 20)
...     disk.save(("bpe", "toy:low-lower", 4), pickle.dumps(["a trace"]))
...     print(disk.load(("bpe", "toy:low-lower", 4)), disk.load(("bpe", "toy:low-lower", 5)))
['a trace'] None
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FORMAT = 1  # bump when the file layout changes, or what a trace means without a code change
TAG = "subtok-run"  # the first item of every file's header
SUFFIX, TEMP_PREFIX = ".run", ".writing-"
DEFAULT_LIMIT_MB = 2000
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

    def path(self, key) -> Path | None:
        """The file of `key`, named by a digest of its repr; None for a key whose repr
        does not show its content (an object's address), which is never kept."""
        text = repr(key)
        if " at 0x" in text:
            return None
        return self.directory / (hashlib.sha256(text.encode()).hexdigest()[:40] + SUFFIX)

    def has(self, key) -> bool:
        path = self.path(key)
        return path is not None and path.is_file()

    def load(self, key, max_bytes: int | None = None) -> Any:
        """The run kept for `key`, or None (not kept, or a file that cannot be used: then a
        log line says why). A file over `max_bytes` (the memory budget) is not read."""
        found = self.read(key, max_bytes)
        return None if found is None else found[0]

    def read(self, key, max_bytes: int | None = None) -> tuple[Any, int] | None:
        """As load, with the file's size in bytes (about the run's pickled size)."""
        path = self.path(key)
        if path is None:
            return None
        try:
            info = path.stat()
        except OSError:
            return None  # not kept
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            log.warning("cache file %s belongs to another user; not read", path)
            return None
        if max_bytes is not None and info.st_size > max_bytes:
            log.warning("cache file %s is over the store's budget; not read", path)
            return None
        try:
            with path.open("rb") as file:
                header = pickle.load(file)
                why = self._refuse(header, key)
                value = None if why else pickle.load(file)
        except FileNotFoundError:
            return None  # removed by another process since stat
        except Exception as err:  # truncated, corrupt, a class since renamed: computed again
            why = f"it cannot be read ({type(err).__name__}: {err})"
        if why:
            log.warning("ignored cache file %s: %s; the run is computed again", path.name, why)
            self._remove(path)
            return None
        with contextlib.suppress(OSError):  # used now: the size bound removes it last
            os.utime(path)
        return value, info.st_size

    def _refuse(self, header, key) -> str | None:
        """Why a file with this header cannot answer `key`, or None when it can."""
        if not (isinstance(header, tuple) and len(header) == 3 and header[0] == TAG):
            return "it is not a subtok run"
        if header[1] != self.version:
            return f"it was written by another version ({header[1]})"
        if header[2] != key:
            return "it holds another run"
        return None

    def save(self, key, data: bytes) -> None:
        """Keep `data` (the run, pickled) for `key`: written to a temporary file that then
        replaces the old one at once, so a reader sees the whole old file or the whole new
        one. A failure (disk full, no permission) is logged, never raised."""
        path = self.path(key)
        if path is None or len(data) > self.max_bytes:
            return
        try:
            header = pickle.dumps((TAG, self.version, key), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # a key that cannot be pickled: the run stays in memory only
            log.warning("a run under %s cannot be kept on disk: %s", path.name, err)
            return
        temp = None
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
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
                info = entry.stat()
            except OSError:
                continue  # removed meanwhile by another process
            if entry.name.endswith(SUFFIX):
                files.append((info.st_mtime, info.st_size, Path(entry.path)))
            elif entry.name.startswith(TEMP_PREFIX) and now - info.st_mtime > STALE_TEMP_SECONDS:
                self._remove(Path(entry.path))
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
