"""A tokenizer library that fails on a user's file or text fails with a sentence.

tokenizers and tiktoken are Rust inside: a bad file can make them panic, and pyo3 raises
the panic as ``pyo3_runtime.PanicException``, a BaseException, not an Exception, so every
``except Exception`` lets it through (it killed a page's script thread, and the CLI
printed a Rust backtrace). Every call into tokenizers, sentencepiece and tiktoken with a
user's data goes through ``library_call`` (or a function wrapped by ``guarded``): any
failure but SystemExit, KeyboardInterrupt and GeneratorExit becomes a ValueError whose
sentence a student can act on. A ValueError is passed on as it is: it is a sentence
already (ours, or the library's own refusal of the input).

Rust prints its panic ('thread ... panicked at ...', and a backtrace of some 45 frames
with RUST_BACKTRACE=1) to the process's stderr before Python sees the exception, so our
sentence came after it. ``library_call(..., quiet=True)`` (reading a file) sends stderr
to a temporary file around the call and gives back all of it but a panic's lines.

>>> with library_call("tokenizers", "reading 'x.json'"):
...     raise BaseException("range end index 2 out of range")
Traceback (most recent call last):
...
ValueError: The tokenizers library failed while reading 'x.json' (BaseException: range end index 2 out of range). The file is probably damaged or made for another version; try another file.
"""  # noqa: E501

from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

PASSED_ON = (SystemExit, KeyboardInterrupt, GeneratorExit, ValueError)
Call = TypeVar("Call", bound=Callable)


def sentence(library: str, doing: str, err: BaseException) -> str:
    """What a student reads when `library` failed while `doing` something."""
    first = str(err).strip().splitlines()[0] if str(err).strip() else "no message"
    first = first if len(first) <= 200 else first[:197] + "..."
    return (
        f"The {library} library failed while {doing} ({type(err).__name__}: {first}). "
        "The file is probably damaged or made for another version; try another file."
    )


@contextlib.contextmanager
def library_call(library: str, doing: str, quiet: bool = False) -> Iterator[None]:
    """Run the block; a panic or any other failure of the library becomes a ValueError.
    `quiet`: a panic's own lines on stderr are kept off the screen (see quiet_panics)."""
    try:
        with quiet_panics() if quiet else contextlib.nullcontext():
            yield
    except PASSED_ON:
        raise
    except BaseException as err:  # noqa: BLE001 - pyo3's PanicException is a BaseException
        raise ValueError(sentence(library, doing, err)) from None


_STDERR = threading.Lock()  # one thread at a time moves file descriptor 2
PANIC = b"panicked at "  # how Rust's panic hook starts its report


@contextlib.contextmanager
def quiet_panics() -> Iterator[None]:
    """Run the block with file descriptor 2 (what Rust writes to) sent to a temporary file;
    then write back what it holds up to a Rust panic's report (the report and its
    backtrace are dropped: the panic itself reaches Python, which makes a sentence of it).
    Where descriptor 2 cannot be moved, the block runs as it is."""
    target = 2  # Rust's panic hook writes to descriptor 2, whatever sys.stderr is
    with _STDERR:
        try:
            saved = os.dup(target)
        except OSError:
            yield
            return
        with tempfile.TemporaryFile() as caught:
            with contextlib.suppress(AttributeError, OSError, ValueError):
                sys.__stderr__.flush()
            os.dup2(caught.fileno(), target)
            try:
                yield
            finally:
                os.dup2(saved, target)
                os.close(saved)
                caught.seek(0)
                kept = _without_panic(caught.read())
                if kept:
                    os.write(target, kept)


def _without_panic(data: bytes) -> bytes:
    """`data` up to the line where a Rust panic's report starts (all of it if none does).

    >>> _without_panic(b"kept\\n\\nthread '<unnamed>' panicked at src/x.rs:1:2:\\nboom\\n")
    b'kept\\n'
    """
    at = data.find(PANIC)
    if at < 0:
        return data
    kept = data[: data.rfind(b"\n", 0, at) + 1].rstrip(b"\n")
    return kept + b"\n" if kept else b""


def guarded(function: Call, library: str, doing: str) -> Call:
    """`function` with every call run inside library_call(library, doing)."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        with library_call(library, doing):
            return function(*args, **kwargs)

    return call  # type: ignore[return-value]
