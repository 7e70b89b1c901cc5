"""A tokenizer library that fails on a user's file or text fails with a sentence.

tokenizers and tiktoken are Rust inside: a bad file can make them panic, and pyo3 raises
the panic as ``pyo3_runtime.PanicException``, a BaseException, not an Exception, so every
``except Exception`` lets it through (it killed a page's script thread, and the CLI
printed a Rust backtrace). Every call into tokenizers, sentencepiece and tiktoken with a
user's data goes through ``library_call`` (or a function wrapped by ``guarded``): any
failure but SystemExit, KeyboardInterrupt and GeneratorExit becomes a ValueError whose
sentence a student can act on. A ValueError is passed on as it is: it is a sentence
already (ours, or the library's own refusal of the input).

>>> with library_call("tokenizers", "reading 'x.json'"):
...     raise BaseException("range end index 2 out of range")
Traceback (most recent call last):
...
ValueError: The tokenizers library failed while reading 'x.json' (BaseException: range end index 2 out of range). The file is probably damaged or made for another version; try another file.
"""  # noqa: E501

from __future__ import annotations

import contextlib
import functools
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
def library_call(library: str, doing: str) -> Iterator[None]:
    """Run the block; a panic or any other failure of the library becomes a ValueError."""
    try:
        yield
    except PASSED_ON:
        raise
    except BaseException as err:  # noqa: BLE001 - pyo3's PanicException is a BaseException
        raise ValueError(sentence(library, doing, err)) from None


def guarded(function: Call, library: str, doing: str) -> Call:
    """`function` with every call run inside library_call(library, doing)."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        with library_call(library, doing):
            return function(*args, **kwargs)

    return call  # type: ignore[return-value]
