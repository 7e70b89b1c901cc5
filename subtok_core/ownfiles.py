"""Files and folders of this user only: what the disk cache (and any data folder) reads.

A file is opened without following a link (``O_NOFOLLOW``, then a check that what was
opened is what ``lstat`` saw), and only if it is a regular file of this user. A folder is
made private: others may not write to it, and one that belongs to another user, or is a
link another user made (whatever it points at), is refused.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)


class Skipped(Exception):
    """A file that is not read, and why (the message completes 'file PATH ...')."""


@contextlib.contextmanager
def open_own(path: Path, max_bytes: int | None):
    """`path` opened for reading if it is a regular file of this user, not a link, and
    not over `max_bytes`; else Skipped. The name is opened without following a link
    (O_NOFOLLOW) and what was opened is checked to be what was looked at (lstat)."""
    before = os.lstat(path)  # FileNotFoundError: not kept
    if stat.S_ISLNK(before.st_mode):
        raise Skipped("is a link")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except OSError as err:
        if isinstance(err, FileNotFoundError):
            raise
        raise Skipped(f"cannot be opened ({err.strerror})") from None
    file = os.fdopen(handle, "rb")
    with file:
        info = os.fstat(handle)
        if not (stat.S_ISREG(info.st_mode) and os.path.samestat(before, info)):
            raise Skipped("is not a regular file")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise Skipped("belongs to another user")
        if max_bytes is not None and info.st_size > max_bytes:
            raise Skipped("is over the store's budget")
        yield file


def private_directory(directory: Path, what: str) -> bool:
    """Make `directory` (and its missing parents) for this user only; a directory that
    others may write to is made private (mode 0700) with a log line; one that belongs to
    another user, or is a link of another user, or cannot be made, is refused with a log
    line. True when it may be used.
    """
    if _links_of_others(directory):
        log.warning(
            "the %s folder %s is a link made by another user, so nothing is kept there: "
            "point SUBTOK_CACHE_DIR (or SUBTOK_DATA_DIR) at a folder of your own",
            what, directory,
        )  # fmt: skip
        return False
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as err:
        log.warning("the %s folder %s cannot be made (%s); nothing is kept there", what,
                    directory, err.strerror)  # fmt: skip
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        log.warning(
            "the %s folder %s belongs to another user, so nothing is kept there: "
            "point SUBTOK_CACHE_DIR (or SUBTOK_DATA_DIR) at a folder of your own",
            what, directory,
        )  # fmt: skip
        return False
    if info.st_mode & 0o022:
        try:
            os.chmod(directory, 0o700)
        except OSError as err:
            log.warning("the %s folder %s is writable by others and cannot be made private "
                        "(%s); nothing is kept there", what, directory, err.strerror)  # fmt: skip
            return False
        log.warning("the %s folder %s was writable by others; made private (mode 0700)",
                    what, directory)  # fmt: skip
    return True


def _links_of_others(directory: Path) -> bool:
    """Whether `directory`, or a folder on its way, is a link that another user made: what
    it points at is theirs to change (a link of root's, such as /tmp on some systems, is
    trusted as root is)."""
    if not hasattr(os, "getuid"):
        return False
    me = os.getuid()
    path = Path(os.path.abspath(directory))
    for step in (path, *path.parents):
        try:
            info = os.lstat(step)
        except OSError:
            continue  # not made yet
        if stat.S_ISLNK(info.st_mode) and info.st_uid not in (me, 0):
            return True
    return False
