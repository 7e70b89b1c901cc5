"""Merges read from byte-level model files that hold ids or ranks, not merge lines.

- minbpe's ``.model`` (``Tokenizer.save`` in karpathy/minbpe): a line ``minbpe v1``, the
  pattern, the number of special tokens and one line ``TOKEN ID`` each, then one merge a
  line as two ids. Ids 0-255 are the byte values; merge i (from 0) makes id 256 + i.
- a tiktoken rank file: one token a line, its bytes in base64 and its rank. A token of
  several bytes was made by the merge that BPE over the lower ranks reaches it with: the
  two parts left when every pair ranked below the token has been merged.

>>> text = "minbpe v1\\n\\n0\\n104 105\\n256 33\\n"
>>> [to_bytes(a) + b"|" + to_bytes(b) for a, b in minbpe_merges(text)]
[b'h|i', b'hi|!']
>>> ranks = "aA== 0\\naQ== 1\\naGk= 2\\n"
>>> is_tiktoken(ranks), tiktoken_merges(ranks)
(True, [('h', 'i')])
"""

from __future__ import annotations

import base64
import binascii

from ..bytebpe.symbols import to_bytes, to_letters

Pair = tuple[str, str]


def is_minbpe(text: str) -> bool:
    return text.startswith("minbpe v")


def minbpe_merges(text: str) -> list[Pair]:
    lines = text.splitlines()
    if lines[0].strip() != "minbpe v1":
        raise ValueError(f"This minbpe file is {lines[0].strip()!r}; only 'minbpe v1' is read.")
    try:
        specials = int(lines[2])
    except (IndexError, ValueError):
        raise ValueError(
            "Line 3 of a minbpe .model should be the number of special tokens."
        ) from None
    tokens = {i: bytes([i]) for i in range(256)}
    merges = []
    for number, line in enumerate(lines[3 + specials :], start=4 + specials):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError(
                f"Line {number} of the minbpe .model should be two ids: {line[:80]!r}."
            )
        left, right = (int(p) for p in parts)
        if left not in tokens or right not in tokens:
            raise ValueError(
                f"Line {number} of the minbpe .model uses an id no byte or earlier merge has: "
                f"{line[:80]!r}."
            )
        tokens[256 + len(merges)] = tokens[left] + tokens[right]
        merges.append((to_letters(tokens[left]), to_letters(tokens[right])))
    return merges


def _rank_line(line: str) -> tuple[bytes, int] | None:
    token, _, rank = line.partition(" ")
    if not rank.isdigit() or len(token) % 4:
        return None
    try:
        return base64.b64decode(token, validate=True), int(rank)
    except (binascii.Error, ValueError):
        return None


def is_tiktoken(text: str) -> bool:
    """Every line a base64 token and a rank, the ranks 0, 1, 2, ... (first lines only)."""
    lines = [line for line in text.splitlines()[:300] if line.strip()]
    found = [_rank_line(line) for line in lines]
    return bool(found) and all(f is not None and f[1] == i for i, f in enumerate(found))


def tiktoken_merges(text: str) -> list[Pair]:
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            found = _rank_line(line)
            if found is None:
                raise ValueError(
                    f"Line {number} of the tiktoken file should be a base64 token and a rank."
                )
            ranks[found[0]] = found[1]
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda tr: tr[1]):
        if len(token) > 1:
            left, right = _split(token, rank, ranks)
            merges.append((to_letters(left), to_letters(right)))
    return merges


def _split(token: bytes, rank: int, ranks: dict[bytes, int]) -> tuple[bytes, bytes]:
    """The two parts BPE over the ranks below `rank` leaves of `token`."""
    parts = [token[i : i + 1] for i in range(len(token))]
    while True:
        found = [
            (ranks[a + b], i) for i, (a, b) in enumerate(zip(parts, parts[1:]))
            if ranks.get(a + b, rank) < rank
        ]  # fmt: skip
        if not found:
            break
        _, i = min(found)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    if len(parts) != 2:
        raise ValueError(
            f"The token of rank {rank} cannot be made by one merge of lower ranks: "
            "the rank file is not a BPE's."
        )
    return parts[0], parts[1]


def vocab_pair_merges(vocab_text: str, merges_text: str, read) -> tuple[list[Pair], list[str]]:
    """A vocab.json + merges.txt pair: the merges, and sentences on what the vocab misses
    (a merge's product without an id)."""
    import json

    try:
        vocab = json.loads(vocab_text)
    except json.JSONDecodeError:
        raise ValueError("The vocab.json beside the merges cannot be read as JSON.") from None
    merges = read(merges_text)
    missing = [a + b for a, b in merges if a + b not in vocab]
    if not missing:
        return merges, []
    return merges, [
        f"{len(missing)} merge products have no id in vocab.json (the first: {missing[0]})."
    ]


assert to_bytes("Ġ") == b" "  # the letters here are GPT-2's byte letters
