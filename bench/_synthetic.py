"""A synthetic corpus of about 20 MB made from a real sample, whose vocabulary keeps growing
as a real corpus's does (not a benchmark itself; bench/scaling.py uses it).

Repeating the sample would keep the number of distinct words fixed, and our trainers work
on distinct words, so a pure repeat would make a 20 MB upload look cheap. Instead:

1. Heaps' law is fitted on the sample itself: distinct words = K * running words ** beta,
   by least squares of log types on log tokens over the sample's prefixes (numpy.polyfit).
2. The sample is copied line after line until the target size in bytes is reached. The
   first copy is the sample as it is; in every later copy each line's words are shuffled
   (so no line repeats exactly).
3. While the number of distinct words so far is below the Heaps curve for the running words
   so far, the next word of four characters or more is replaced by a blend: its own start
   cut at a random place joined to the end of another word of the same line cut at a random
   place ("government" + "language" -> "goverguage"). A blend keeps English letter pairs
   (what BPE counts) and is nearly always a new word, seen once, as most new words in a
   longer real text are.

Everything is drawn from one seeded random.Random, so the corpus is the same at every run.

>>> lines = ["the cat sat on the mat", "a dog ate the bone today"] * 20
>>> grown = grow(lines, 4000, seed=1)
>>> 3900 < sum(len(line.encode()) + 1 for line in grown) <= 4000
True
>>> def types(text_lines): return len({w for line in text_lines for w in line.split()})
>>> types(lines), types(grown) > types(lines)
(10, True)
"""

from __future__ import annotations

import random

import numpy as np

MIN_BLEND = 4  # only words this long are replaced: short function words stay as they are


def heaps_fit(lines: list[str], parts: int = 8) -> tuple[float, float]:
    """(K, beta) of Heaps' law, types = K * tokens ** beta, fitted on `parts` prefixes.

    >>> k, beta = heaps_fit([f"w{i} the a" for i in range(64)])
    >>> 0.5 < beta <= 1.0
    True
    """
    seen: set[str] = set()
    tokens, points = 0, []
    bounds = {round(len(lines) * (i + 1) / parts) for i in range(parts)}
    for n, line in enumerate(lines, start=1):
        words = line.split()
        seen.update(words)
        tokens += len(words)
        if n in bounds:
            points.append((tokens, len(seen)))
    x, y = np.log([p[0] for p in points]), np.log([p[1] for p in points])
    beta, log_k = np.polyfit(x, y, 1)
    return float(np.exp(log_k)), float(beta)


def blend(word: str, donor: str, rng: random.Random) -> str:
    """The start of `word` cut at a random place joined to the end of `donor`.

    >>> blend("government", "language", random.Random(4))
    'goverguage'
    """
    head = word[: rng.randint(2, len(word) - 1)]
    tail = donor[rng.randint(1, len(donor) - 2) :] if len(donor) >= MIN_BLEND else donor
    return head + tail


def grow(lines: list[str], target_bytes: int, seed: int = 0) -> list[str]:
    """Lines of the sample, copied and perturbed as the module says, until the next line
    would pass `target_bytes` (UTF-8, one newline per line)."""
    rng = random.Random(seed)
    k, beta = heaps_fit(lines)
    seen: set[str] = set()
    out: list[str] = []
    size = tokens = 0
    for copy in range(1_000_000):
        for line in lines:
            words = line.split()
            if copy:
                rng.shuffle(words)
            long_words = [w for w in words if len(w) >= MIN_BLEND]
            for i, word in enumerate(words):
                tokens += 1
                behind = len(seen) < k * tokens**beta
                if copy and behind and len(word) >= MIN_BLEND and len(long_words) > 1:
                    words[i] = word = blend(word, rng.choice(long_words), rng)
                seen.add(word)
            text = " ".join(words)
            size += len(text.encode()) + 1
            if size > target_bytes:
                return out
            out.append(text)
    return out
