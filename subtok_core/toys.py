"""The settings each toy corpus's source uses (subtok_core/data/toys.toml,
``[NAME.settings]``), which a lesson page opened on the corpus starts from, and the words
that credit them.

A page asks for a setting with a fallback of its own (the BPE page's marker is none unless
the corpus's source says otherwise), and says in one caption which settings come from the
source while they are in use:

>>> setting("toy:low-lower", "marker", "none"), setting("toy:cat-bat", "base", "10")
('eow', '10')
>>> as_in("toy:low-lower", {"marker": "eow"})
'As in 003: `</w>` after each word.'
>>> as_in("toy:low-lower", {"marker": "none"}) is None  # the student chose otherwise
True
>>> as_in("toy:low-lower", {"marker": "eow", "ties": "first"})
'As in 003: `</w>` after each word, and a tie goes to the pair met first in the corpus.'
"""

from __future__ import annotations

from . import corpus

# what each setting may hold (the pages check the values against their own choices; the
# tests check every corpus's settings against the lessons, tests/test_toy_settings.py)
KINDS = {"marker": str, "base": str, "merges": int, "encode": str, "ties": str}


def settings(name: str) -> dict[str, str | int]:
    """The settings of a toy corpus's source ({} for any other corpus).

    >>> settings("toy:hug-pug")["base"], settings("sample:lee")
    ('e', {})
    """
    if not corpus.is_toy(name) or name not in corpus.toy_names():
        return {}
    found = dict(corpus.builtin.toy_entry(name).get("settings", {}))
    for key, value in found.items():
        if key not in KINDS or not isinstance(value, KINDS[key]):
            raise ValueError(f"subtok_core/data/toys.toml: {name} has a setting {key} = {value!r}.")
    return found


def setting(name: str, key: str, fallback):
    """The value of setting `key` a page starts from on corpus `name`: the source's, else
    the page's own `fallback`."""
    return settings(name).get(key, fallback)


def as_in(name: str, used: dict[str, object]) -> str | None:
    """One sentence crediting the source for each setting in `used` (name -> the value the
    page uses) that is the source's own and has words in ``[NAME.as_in]``; None if none."""
    if not settings(name):
        return None
    said = corpus.builtin.toy_entry(name).get("as_in", {})
    own = settings(name)
    by_source: dict[str, list[str]] = {}  # "003: a" and "003: b" read "003: a, and b"
    for key, value in used.items():
        if key in said and own.get(key) == value:
            source, _, words = said[key].partition(": ")
            by_source.setdefault(source, []).append(words)
    parts = [f"{source}: {', and '.join(words)}" for source, words in by_source.items()]
    return f"As in {'; '.join(parts)}." if parts else None
