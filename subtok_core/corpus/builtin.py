"""The corpora by name: toy:NAME (data/toys.toml), sample:NAME (samples.py), exercise:NAME
(exercises.py), and with the caller's leave a .txt path; their list, lines and word counts."""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass

from .exercises import EXERCISE, exercise, exercise_names, file_lines, is_exercise
from .files import DATA_DIR, _read_path
from .kept import sample_counts
from .samples import SAMPLES, sample_lines
from .tables import from_pairs
from .words import WordCounts, from_text


@dataclass(frozen=True, slots=True)
class CorpusInfo:
    name: str
    title: str
    source: str


@functools.cache
def _toys() -> dict[str, dict]:
    with open(DATA_DIR / "toys.toml", "rb") as fh:
        return tomllib.load(fh)


def list_corpora() -> list[CorpusInfo]:
    """Every built-in corpus and sample, toys first, then the samples and the exercises."""
    infos = [CorpusInfo(f"toy:{k}", v["title"], v["source"]) for k, v in _toys().items()]
    for key, (title, filename) in SAMPLES.items():
        infos.append(CorpusInfo(f"sample:{key}", title, f"gensim/test/test_data/{filename}"))
    for key in exercise_names():
        head, _ = exercise(key)
        title = f"exercise for the cause '{head['cause']}' of a difference (subtok check)"
        infos.append(CorpusInfo(f"{EXERCISE}{key}", title, f"ours: data/exercises/{key}.txt"))
    return infos


def toy_names() -> list[str]:
    return [f"toy:{k}" for k in _toys()]


def is_toy(name: str) -> bool:
    return name.startswith("toy:")


def load_lines(name: str, *, allow_paths: bool = False) -> list[str]:
    """A corpus name -> its lines of text (toy word tables repeat each word count times).
    A file path is read only with `allow_paths` (the command line), see :func:`load`."""
    if name.startswith("sample:"):
        return list(sample_lines(name.removeprefix("sample:")))
    if is_toy(name):
        entry = toy_entry(name)
        if "text" in entry:
            return [entry["text"]]
        return [" ".join([w] * c) for w, c in entry["counts"]]
    if is_exercise(name):  # each line with its break: byte-level BPE learns them
        return list(file_lines(exercise(name)[1]))
    return _read_path(name, allow_paths).splitlines()


def toy_entry(name: str) -> dict:
    """The entry of toy corpus `name` in subtok_core/data/toys.toml, as read (see
    subtok_core.toys for its settings)."""
    key = name.removeprefix("toy:")
    if key not in _toys():
        known = ", ".join(toy_names())
        raise ValueError(f"There is no toy corpus {name!r}; the toy corpora are {known}.")
    return _toys()[key]


def toy_seed(name: str) -> tuple[tuple[tuple[str, int], ...], str] | None:
    """The seed vocabulary (piece, frequency) a toy's source gives for Unigram, and where
    it comes from; None when the toy has none.

    >>> pieces, source = toy_seed("toy:hug-pug")
    >>> pieces[:3], sum(f for _, f in pieces)
    ((('h', 15), ('u', 36), ('g', 20)), 210)
    """
    if not is_toy(name) or "seed" not in toy_entry(name):
        return None
    entry = toy_entry(name)
    return tuple((str(p), int(f)) for p, f in entry["seed"]), entry["seed_source"]


def load(name: str, split_punct: bool = False, *, allow_paths: bool = False) -> WordCounts:
    """A corpus name (toy:NAME, sample:NAME, or with `allow_paths` a .txt path) -> WordCounts.

    Paths are off by default: the web app passes on names from requests, and must never
    open a file on the server; the command line, on the user's own machine, allows them.

    >>> load("toy:cat-bat").items()[:2]
    [('cat', 10), ('bat', 5)]
    >>> load("/etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown corpus '/etc/passwd': choose toy:NAME or sample:NAME here, or upload ...
    """
    if is_toy(name):
        entry = toy_entry(name)
        if "counts" in entry:
            return from_pairs(entry["counts"], name)
        return from_text(entry["text"], split_punct, name)
    if name.startswith("sample:"):  # counted once, then read from the disk cache
        return sample_counts(name.removeprefix("sample:"), split_punct)[0]
    if is_exercise(name):
        return from_text(exercise(name)[1], split_punct, name)
    return from_text(_read_path(name, allow_paths), split_punct, name)
