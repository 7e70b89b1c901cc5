"""Every algorithm behind one name: the CLI, export, Compare and the measures ask here.

>>> sorted(ALGORITHMS)
['bpe', 'bytebpe', 'sage', 'unigram', 'wordpiece']
>>> from subtok_core.corpus import load
>>> bpe = get("bpe")
>>> model = bpe.model_at(bpe.trace(load("toy:cat-bat"), merges=2))
>>> of_model(model).label, bpe.segment(model, "bag").pieces
('BPE', ['b', 'ag'])

Pretrained tokenizers register the encoding verbs only (subtok_core/pretrained/), each
behind a loader that reads its vocabulary file on the first call:

>>> sorted(PRETRAINED)
['cl100k_base', 'mistral-v1', 'mistral-v3', 'tekken']
>>> pretrained("cl100k_base").encode("hello world").ids
(15339, 1917)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import bpe, bytebpe, sage, unigram, wordpiece
from .pretrained import BUILTIN, Pretrained, hf
from .records import Algorithm, Trace

ALGORITHMS: dict[str, Algorithm] = {
    package.ALGORITHM.name: package.ALGORITHM
    for package in (bpe, wordpiece, unigram, sage, bytebpe)
}
LABELS = {name: algo.label for name, algo in ALGORITHMS.items()}


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
