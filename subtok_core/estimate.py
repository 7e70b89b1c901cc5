"""Roughly how long training takes on a corpus, from measured growth, before it starts.

``bench/scaling.py --write`` times our trainers on corpora from 0.4 to 20 MB at three
vocabulary sizes and writes the fitted model to ``subtok_core/data/scaling.toml`` (with the
date, the machine and the command): the figures here are measured, never typed in. The model has two
parts, both fitted by least squares in log-log:

- counting the words, ``count.coef * n_chars ** count.exponent``;
- training, which works on distinct words rather than running ones:
  ``exp(a + b x + c y + d x y)`` with ``x = ln n_types`` and ``y = ln(size / vocab_size)``.
  The ``x y`` term lets the vocabulary size cost more on a small corpus, where the last
  merges are among rare pairs that tie by the thousand. In that term ``x`` is held inside
  the measured range of distinct words, so far outside it the size keeps its measured
  effect instead of an extrapolated one.

The times are CPU seconds on the machine measured, for one trainer at a time; several
trainings on one corpus (Compare's) count the words once, and on several processors take
as long as the busiest one (:func:`together_seconds`). It answers "seconds or minutes?",
not the second digit.

>>> fast = estimate_seconds("bpe", 300_000, 17_000, 8000)
>>> slow = estimate_seconds("bpe", 16_000_000, 290_000, 8000)
>>> 0 < fast < slow
True
>>> estimate_seconds("sage", 300_000, 17_000, 8000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: There is no time estimate for 'sage'; the estimate knows bpe, wordpiece, unigram.
>>> describe(42), describe(370)
('about 40 s', 'about 6 min')
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Sequence
from pathlib import Path

from .corpus import DATA_DIR, WordCounts

SCALING_FILE = DATA_DIR / "scaling.toml"


@functools.cache
def load_scaling(path: str | Path = SCALING_FILE) -> dict:
    """The fitted model in `path` (read once per process and path)."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ValueError(
            f"The timing figures ({Path(path).name}) are missing; "
            "run python bench/scaling.py --write to measure them."
        ) from None


def algorithms(path: str | Path = SCALING_FILE) -> tuple[str, ...]:
    """The algorithms the file has figures for."""
    return tuple(k for k, v in load_scaling(path).items() if isinstance(v, dict) and "coefs" in v)


def count_seconds(n_chars: int, *, path: str | Path = SCALING_FILE) -> float:
    """Seconds to count the words of a corpus of `n_chars` characters (spaces not counted):
    done once on the page, whatever it trains then.

    >>> count_seconds(1_000_000) < count_seconds(2_000_000)
    True
    """
    if n_chars < 1:
        raise ValueError(f"The number of characters is {n_chars}; it must be at least 1.")
    count = load_scaling(path)["count"]
    return count["coef"] * n_chars ** count["exponent"]


def train_seconds(
    algorithm: str, n_types: int, size: int, *, path: str | Path = SCALING_FILE
) -> float:
    """Seconds to train `algorithm` to `size` pieces on word counts of `n_types` distinct
    words, the words already counted (see the module doc for the formula).

    >>> train_seconds("bpe", 30_000, 4000) < train_seconds("bpe", 60_000, 4000)
    True
    """
    model = load_scaling(path)
    known = algorithms(path)
    if algorithm not in known:
        raise ValueError(
            f"There is no time estimate for {algorithm!r}; the estimate knows {', '.join(known)}."
        )
    for name, value in (("distinct words", n_types), ("pieces", size)):
        if value < 1:
            raise ValueError(f"The number of {name} is {value}; it must be at least 1.")
    a, b, c, d = model[algorithm]["coefs"]
    x, y = math.log(n_types), math.log(size / model["vocab_size"])
    lo, hi = (math.log(n) for n in model[algorithm]["types_range"])
    held = min(max(x, lo), hi)  # x of the interaction, inside the measured range
    return math.exp(a + b * x + c * y + d * held * y)


def estimate_seconds(
    algorithm: str, n_chars: int, n_types: int, size: int, *, path: str | Path = SCALING_FILE
) -> float:
    """Seconds to count the words of a corpus of `n_chars` characters (spaces not counted)
    with `n_types` distinct words and to train `algorithm` on it to `size` pieces
    (for BPE and WordPiece a number of merges is close enough: size = alphabet + merges).

    BPE and WordPiece add one piece per step, so a bigger size takes longer; Unigram
    prunes a big seed down to the size, so a smaller size takes more rounds, and longer.

    >>> def bpe(size): return estimate_seconds("bpe", 1_000_000, 30_000, size)
    >>> def unigram(size): return estimate_seconds("unigram", 1_000_000, 30_000, size)
    >>> bpe(4000) < bpe(8000), unigram(4000) > unigram(8000)
    (True, True)
    """
    training = train_seconds(algorithm, n_types, size, path=path)
    return count_seconds(n_chars, path=path) + training


def slice_size(
    n_chars: int, n_types: int, fraction: float, *, path: str | Path = SCALING_FILE
) -> tuple[int, int]:
    """(n_chars, n_types) of the first `fraction` of a corpus: its characters in
    proportion, its distinct words as Heaps' law measured on the Wikipedia sample says
    (n_types * fraction ** heaps.exponent: half of a text has more than half of its
    distinct words).

    >>> chars, types = slice_size(3_000_000, 70_000, 0.5)
    >>> chars, 35_000 < types < 70_000
    (1500000, True)
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"The fraction {fraction} is not between 0 and 1.")
    beta = load_scaling(path)["heaps"]["exponent"]
    return max(1, round(n_chars * fraction)), max(1, round(n_types * fraction**beta))


def wall_seconds(seconds: Sequence[float], workers: int) -> float:
    """How long runs taking `seconds` each last together on `workers` processors, when
    each run, in order, goes to the first processor free: so the pool of
    subtok_core.parallel takes Compare's trainings (lessons.ui.store.trained_all asks for
    them in order). One processor: the sum; as many as runs: the longest.

    >>> wall_seconds([30, 20, 40], 1), wall_seconds([30, 20, 40], 2), wall_seconds([30, 20, 40], 3)
    (90, 60, 40)
    >>> wall_seconds([], 2)
    0
    """
    if workers < 1:
        raise ValueError(f"The number of processors is {workers}; it must be at least 1.")
    free = [0] * min(workers, max(1, len(seconds)))  # when each processor is free again
    for run in seconds:
        first = free.index(min(free))  # the processor free first takes the next run
        free[first] += run
    return max(free)


def together_seconds(
    names: Sequence[str],
    n_chars: int,
    n_types: int,
    size: int,
    *,
    fraction: float = 1.0,
    workers: int = 1,
    path: str | Path = SCALING_FILE,
) -> float:
    """Seconds to count the words of the first `fraction` of a corpus once and then to
    train every algorithm of `names` on them to `size` pieces, `workers` at a time.

    >>> one = together_seconds(["bpe"], 3_000_000, 70_000, 8000)
    >>> one == estimate_seconds("bpe", 3_000_000, 70_000, 8000)
    True
    >>> three = ["bpe", "wordpiece", "unigram"]
    >>> side = together_seconds(three, 3_000_000, 70_000, 8000, workers=2)
    >>> side < together_seconds(three, 3_000_000, 70_000, 8000, workers=1)
    True
    """
    chars, types = slice_size(n_chars, n_types, fraction, path=path)
    runs = [train_seconds(name, types, size, path=path) for name in names]
    return count_seconds(chars, path=path) + wall_seconds(runs, workers)


def corpus_size(wc: WordCounts) -> tuple[int, int]:
    """(n_chars, n_types) of word counts: characters of the running words, distinct words.

    >>> from subtok_core.corpus import from_text
    >>> corpus_size(from_text("the cat and the hat"))
    (15, 4)
    """
    return sum(len(w) * c for w, c in zip(wc.words, wc.counts, strict=True)), len(wc)


def describe(seconds: float) -> str:
    """A duration as a person says it: rounded, in seconds, minutes or hours.

    >>> [describe(s) for s in (0.3, 4.4, 58, 61, 599, 3000, 5400)]
    ['under a second', 'about 4 s', 'about 1 min', 'about 1 min', 'about 10 min', \
'about 50 min', 'about 1.5 h']
    """
    if seconds < 1:
        return "under a second"
    if seconds < 10:
        return f"about {round(seconds)} s"
    if round(seconds / 5) * 5 < 60:
        return f"about {round(seconds / 5) * 5} s"
    minutes = seconds / 60
    shown = round(minutes) if minutes < 10 else round(minutes / 5) * 5
    if shown < 60:
        return f"about {shown} min"
    return f"about {round(seconds / 3600, 1):g} h"
