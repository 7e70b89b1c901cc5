"""A student's merge list read from the files students have: GPT-2's ``merges.txt``, a
Hugging Face ``tokenizer.json`` (BPE), JSON ``{"merges": [[left, right], ...]}``, a
``vocab.json`` + ``merges.txt`` pair, a minbpe ``.model`` or a tiktoken rank file (these
two in ``modelfiles``).

Symbols are kept as written. For byte-level BPE a symbol is written in GPT-2's byte
letters (a space is Ġ), as ``merges.txt`` and ``tokenizer.json`` write them, or in JSON
as a list of byte values; both become GPT-2 letters here, the notation of our traces.

>>> read_merges("#version: 0.2\\na b\\nab c\\n")
[('a', 'b'), ('ab', 'c')]
>>> read_merges('{"merges": [[[32], [116]], ["Ġt", "h"]]}', bytelevel=True)
[('Ġ', 't'), ('Ġt', 'h')]
>>> read_merges("a b c")  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: This file is in none of the formats the checker reads (...); its line 1 is 'a b c'.
"""

from __future__ import annotations

import json

from .. import userjson
from ..bytebpe.symbols import to_bytes, to_letters
from . import modelfiles

FORMATS = (
    "merges.txt (one merge per line: 'left right', an optional '#version' first line); "
    'a Hugging Face tokenizer.json with a BPE model; JSON {"merges": [[left, right], '
    "...]}; a vocab.json with its merges.txt beside it; a minbpe .model; a tiktoken rank "
    "file (base64 token and rank per line). Byte-level symbols are GPT-2's byte letters (a "
    "space is Ġ) or, in JSON, lists of byte values such as [32, 116]"
)
NAMES = (
    "merges.txt, tokenizer.json, JSON merges, vocab.json + merges.txt, minbpe .model, "
    "tiktoken rank file"
)

Pair = tuple[str, str]


def read_merges(text: str, bytelevel: bool = False) -> list[Pair]:
    """The merges of a file's text, in order, whatever its format (see FORMATS)."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise ValueError("The merges file is empty: give one merge per line, like 'a b'.")
    if modelfiles.is_minbpe(stripped) or modelfiles.is_tiktoken(stripped):
        if not bytelevel:
            raise ValueError(
                "This file holds byte-level merges (a minbpe .model or tiktoken ranks): "
                "add --bytebpe (on the page: bytes)."
            )
        if modelfiles.is_minbpe(stripped):
            return modelfiles.minbpe_merges(stripped)
        return modelfiles.tiktoken_merges(stripped)
    if stripped[0] in "{[":  # JSON, or a merges.txt whose first merge starts with [ or {
        try:
            merges = _json_merges(stripped, bytelevel)
        except NotJson as err:  # no JSON at all: read as lines (JSON that is read stays JSON)
            try:
                merges = _text_merges(stripped)
            except ValueError:
                raise err from None  # neither: the sentence about the JSON it looks like
    else:
        merges = _text_merges(stripped)
    if bytelevel:
        for pair in merges:
            for symbol in pair:
                to_bytes(symbol)  # a letter outside GPT-2's table: a sentence naming it
    return merges


def _text_merges(text: str) -> list[Pair]:
    merges = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or (number == 1 and line.startswith("#")):
            continue
        parts = line.rstrip("\r\n").split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(
                f"This file is in none of the formats the checker reads ({NAMES}); its line "
                f"{number} is {line[:80]!r}."
            )
        merges.append((parts[0], parts[1]))
    return merges


class NotJson(ValueError):
    """A file that starts like JSON but is none (it may be a merges.txt)."""


def _json_merges(text: str, bytelevel: bool) -> list[Pair]:
    try:
        data = userjson.loads(text)
    except json.JSONDecodeError as err:
        raise NotJson(
            f"The merges file looks like JSON but cannot be read (line {err.lineno}: {err.msg})."
        ) from None
    except ValueError as err:  # nested too deeply
        raise ValueError(f"The merges file looks like JSON but cannot be read: {err}.") from None
    if isinstance(data, dict) and isinstance(data.get("model"), dict):  # tokenizer.json
        model = data["model"]
        if model.get("type") != "BPE":
            raise ValueError(
                f"This tokenizer.json holds a {model.get('type')} model, not BPE: it has no merges."
            )
        data = model
    if isinstance(data, dict) and data and all(isinstance(v, int) for v in data.values()):
        raise ValueError(
            "This is a vocab.json, which holds no merges: give the merges.txt beside it "
            "(on the command line, a vocab.json is read with the merges.txt in its folder)."
        )
    if not isinstance(data, dict) or not isinstance(data.get("merges"), list):
        raise ValueError(
            'A JSON merges file needs a list under "merges": {"merges": [["a", "b"], ...]}.'
        )
    return [_json_pair(item, n, bytelevel) for n, item in enumerate(data["merges"], start=1)]


def _json_pair(item, number: int, bytelevel: bool) -> Pair:
    if isinstance(item, str):  # tokenizer.json before 0.20 writes "left right"
        parts = item.split(" ")
        if len(parts) == 2 and all(parts):
            return parts[0], parts[1]
    elif isinstance(item, list) and len(item) == 2:
        left, right = (_json_symbol(side, bytelevel) for side in item)
        if left and right:
            return left, right
    raise ValueError(
        f'Merge {number} should be two symbols, like ["a", "b"] or [[97], [98]]: '
        f"{json.dumps(item)[:80]}."
    )


def _json_symbol(side, bytelevel: bool) -> str | None:
    if isinstance(side, str):
        return side
    if bytelevel and isinstance(side, list) and all(isinstance(b, int) for b in side):
        if not all(0 <= b < 256 for b in side):
            raise ValueError(f"A byte value is 0 to 255; {side} has one outside.")
        return to_letters(bytes(side))
    return None


def from_bytes_pairs(merges) -> list[Pair]:
    """Merges as pairs of bytes (CS336's ``train_bpe``) -> pairs of GPT-2 letters."""
    out = []
    for number, pair in enumerate(merges, start=1):
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            raise ValueError(f"Merge {number} should be a pair (bytes, bytes), not {pair!r:.80}.")
        if not all(isinstance(side, bytes) and side for side in pair):
            raise ValueError(f"Merge {number} should be two non-empty bytes objects: {pair!r:.80}.")
        out.append((to_letters(pair[0]), to_letters(pair[1])))
    return out
