"""``subtok check trainer``: run a student's ``train_bpe`` with CS336's signature, on the
student's own machine, and check the vocab it returns against its merges.

CS336 (assignment 1): ``train_bpe(input_path, vocab_size, special_tokens)`` returns
``(vocab, merges)``, ``vocab: dict[int, bytes]`` and ``merges: list[tuple[bytes, bytes]]``
in the order they were made. The web app never calls this: uploaded code is not run.

>>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"<s>", 257: b"ab"}
>>> vocab_problems(vocab, [(b"a", b"b")], ("<s>",))
[]
>>> for line in vocab_problems(vocab, [(b"a", b"b"), (b"ab", b"c")], ()):
...     print(line)
the product of merge 2, "abc", is not in the vocab.
"<s>" is in the vocab, but it is no byte, no special token given and no merge's product.
>>> shifted = {i + 1: bytes([i]) for i in range(256)} | {0: b"<s>", 258: b" a"}
>>> print(vocab_problems(shifted, [(b" ", b"a")], ("<s>",))[0].split(": ")[1])
byte 0 has id 1; the product of merge 1, "Ġa", has id 258, the reference's 257 or 256.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from ..corpus import file_lines
from .formats import from_bytes_pairs
from .setup import Setup
from .sources import corpus_text


def load_function(spec: str):
    """MODULE:FUNCTION -> the function (MODULE found from the current directory too)."""
    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise ValueError(
            f"Give your function as MODULE:FUNCTION, like my_bpe:train_bpe, not {spec!r}."
        )
    here = os.getcwd()
    added = here not in sys.path
    if added:  # for this import only: the rest of the process keeps its own path
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"Cannot import {module_name!r}: {err}.") from None
    finally:
        if added and here in sys.path:
            sys.path.remove(here)
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"The module {module_name!r} has no function {name!r}.")
    return function


def run_student(spec: str, corpus: str, vocab_size: int, setup: Setup):
    """Call the student's function on the corpus as a file; (vocab, merges in GPT-2
    letters, the setup matching the file it read)."""
    function = load_function(spec)
    given = Path(corpus)
    with tempfile.TemporaryDirectory() as tmp:
        if given.is_file():  # a big file (setup.file) is never read whole here
            path, text = given, None if setup.file else given.read_text(encoding="utf-8")
        else:
            text = corpus_text(corpus)
            path = Path(tmp) / "corpus.txt"
            path.write_text(text, encoding="utf-8", newline="")
        result = function(str(path), vocab_size, list(setup.specials))
    if not (isinstance(result, tuple | list) and len(result) == 2):
        raise ValueError(
            f"{spec} should return (vocab, merges); it returned {type(result).__name__}."
        )
    vocab, merges = result
    lines = setup.lines if text is None else file_lines(text)
    return vocab, from_bytes_pairs(merges), replace(setup, lines=lines)


def vocab_problems(vocab, merges: list, specials: tuple[str, ...]) -> list[str]:
    """Sentences on what the vocab gets wrong about the merges (none: [])."""
    if not isinstance(vocab, dict) or not all(
        isinstance(k, int) and isinstance(v, bytes) for k, v in vocab.items()
    ):
        return ["the vocab should be a dict from int ids to bytes."]
    problems = []
    ids = {token: i for i, token in sorted(vocab.items(), reverse=True)}  # lowest id kept
    if len(ids) < len(vocab):
        problems.append(f"{len(vocab) - len(ids)} tokens have more than one id.")
    missing = [b for b in range(256) if bytes([b]) not in ids]
    if missing:
        problems.append(
            f"{len(missing)} of the 256 single bytes have no id (the first: {missing[0]})."
        )
    last = -1
    for number, (left, right) in enumerate(_as_bytes(merges), start=1):
        product = left + right
        if product not in ids:
            problems.append(
                f"the product of merge {number}, {_text(product)}, is not in the vocab."
            )
            break
        if ids[product] <= last:
            problems.append(
                f"the product of merge {number}, {_text(product)}, has id {ids[product]}, "
                "not above the id of the merge before: ids should follow the merges."
            )
            break
        last = ids[product]
    if not problems:
        problems.extend(shifted_ids(ids, list(_as_bytes(merges)), specials))
    for token in specials:
        if token.encode("utf-8") not in ids:
            problems.append(f"the special token {token} has no id.")
    extra = {t for t in ids if len(t) > 1} - {a + b for a, b in _as_bytes(merges)}
    extra -= {t.encode("utf-8") for t in specials}
    for token in sorted(extra)[:1]:
        problems.append(
            f"{_text(token)} is in the vocab, but it is no byte, no special token given and "
            "no merge's product."
        )
    return problems


def shifted_ids(ids: dict[bytes, int], merges, specials) -> list[str]:
    """A sentence when ids leave the reference's numbering (CS336's and minbpe's): byte b
    at id b, then the special tokens and the merges, in either order."""
    said = []
    moved = next((b for b in range(256) if ids.get(bytes([b])) not in (b, None)), None)
    if moved is not None:
        said.append(f"byte {moved} has id {ids[bytes([moved])]}")
    for number, (left, right) in enumerate(merges, start=1):
        allowed = (255 + len(specials) + number, 255 + number)
        got = ids.get(left + right)
        if got is not None and got not in allowed:
            said.append(
                f"the product of merge {number}, {_text(left + right)}, has id {got}, the "
                f"reference's {' or '.join(map(str, dict.fromkeys(allowed)))}"
            )
            break
    if not said:
        return []
    return [
        "ids are shifted from the reference's numbering (byte b at id b, then the special "
        "tokens and the merges in order, or the merges then the special tokens): "
        + "; ".join(said)
        + "."
    ]


def _as_bytes(merges):
    for pair in merges:
        yield tuple(p if isinstance(p, bytes) else _letters_to_bytes(p) for p in pair)


def _letters_to_bytes(symbol: str) -> bytes:
    from ..bytebpe.symbols import to_bytes

    return to_bytes(symbol)


def _text(token: bytes) -> str:
    """A token shown in quotes, in GPT-2's byte letters where it holds whitespace or a
    byte no character prints (a space is "Ġ"), so that no token is ever blank."""
    from ..bytebpe.symbols import to_letters

    text = token.decode("utf-8", errors="replace")
    if not text.isprintable() or text.strip() != text or not text or "\ufffd" in text:
        text = to_letters(token)
    return f'"{text}"'
