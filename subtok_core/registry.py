"""Every algorithm behind one name: the CLI, export, Compare and the measures ask here.

>>> sorted(ALGORITHMS)
['boundless', 'bpe', 'bytebpe', 'parity', 'picky', 'sage', 'superbpe', 'unigram', 'wordpiece']
>>> from subtok_core.corpus import load
>>> bpe = get("bpe")
>>> model = bpe.model_at(bpe.trace(load("toy:cat-bat"), merges=2))
>>> of_model(model).label, bpe.segment(model, "bag").pieces
('BPE', ['b', 'ag'])

Each algorithm is the package of its name (``subtok_core.bpe`` ...), imported the first
time it is asked for: ``subtok train bpe`` imports BPE only, not the numpy of SaGe and
Unigram (issue 28). Listing the names imports nothing; ``ALGORITHMS.values()`` imports all.

Pretrained tokenizers register the encoding verbs only (subtok_core/pretrained/), each
behind a loader that reads its vocabulary file on the first call:

>>> sorted(PRETRAINED)
['cl100k_base', 'mistral-v1', 'mistral-v3', 'tekken']
>>> pretrained("cl100k_base").encode("hello world").ids
(15339, 1917)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from .entry import Algorithm
from .pretrained import BUILTIN, Pretrained, hf
from .records import Trace

# the algorithms, in the order the lab lists them: each the name of its package
NAMES = (
    "bpe",
    "wordpiece",
    "unigram",
    "sage",
    "bytebpe",
    "picky",
    "superbpe",
    "boundless",
    "parity",
)

V = TypeVar("V")


class OnFirstUse(Mapping[str, V]):
    """A mapping of fixed names whose value for a name is made by `make(name)` the first
    time it is read, then kept. `in`, `len` and listing the names make nothing."""

    def __init__(self, names: tuple[str, ...], make: Callable[[str], V]):
        self._names, self._make = names, make
        self._made: dict[str, V] = {}

    def __getitem__(self, name: str) -> V:
        if name not in self._made:
            if name not in self._names:
                raise KeyError(name)
            self._made[name] = self._make(name)
        return self._made[name]

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _import(name: str) -> Algorithm:
    """The registry entry of an algorithm: ALGORITHM in the package of its name.
    (tests/test_import_cycles.py counts these imports as the registry's.)"""
    return importlib.import_module(f"{__package__}.{name}").ALGORITHM


ALGORITHMS: Mapping[str, Algorithm] = OnFirstUse(NAMES, _import)
LABELS: Mapping[str, str] = OnFirstUse(NAMES, lambda name: ALGORITHMS[name].label)


def get(name: str) -> Algorithm:
    """The algorithm registered as `name`; an unknown name raises ValueError."""
    if name not in ALGORITHMS:
        known = ", ".join(ALGORITHMS)
        raise ValueError(f"There is no algorithm called {name!r}; choose one of {known}.")
    return ALGORITHMS[name]


def of_model(model: Any) -> Algorithm:
    """The algorithm that made `model` (every model records it)."""
    name = getattr(model, "algorithm", None)
    if not isinstance(name, str):
        raise ValueError(
            f"A {type(model).__name__} is not a model of any algorithm here, so there is no "
            "word segmenter or encoder for it."
        )
    return get(name)


def of_trace(trace: Trace) -> Algorithm:
    """The algorithm that made `trace`."""
    return get(trace.algorithm)


# name -> loader of a real pretrained tokenizer (cached once per process)
PRETRAINED: dict[str, Callable[[], Pretrained]] = dict(BUILTIN)


def pretrained(name: str) -> Pretrained:
    """A pretrained tokenizer by name (cl100k_base, mistral-v1, mistral-v3, tekken) or the
    path of a Hugging Face tokenizer.json; anything else raises ValueError."""
    if name in PRETRAINED:
        return PRETRAINED[name]()
    if name.endswith(".json") or Path(name).is_file():
        return hf.load(name)
    known = ", ".join(PRETRAINED)
    raise ValueError(
        f"There is no pretrained tokenizer called {name!r}; choose one of {known}, "
        "or give the path of a tokenizer.json."
    )
