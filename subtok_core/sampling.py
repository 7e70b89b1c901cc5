"""What BPE-dropout (bpe/dropout.py) and Unigram sampling (unigram/nbest.py) share: the
checks on their inputs, the words of a text, and a summary of sampled token counts.

Both are *subword regularization*: the same text is cut into different pieces on every
call, so a model trained on the samples sees many segmentations of each word (Kudo 2018;
Provilkov et al. 2020). Every sample is drawn from ``random.Random(seed)``, so a seed
repeats its samples.

>>> text_words("hug  pugs", False)
['hug', 'pugs']
>>> count_summary([3, 1, 2, 2])
{'mean': 2.0, 'min': 1, 'q1': 1.75, 'median': 2.0, 'q3': 2.25, 'max': 3}
"""

from __future__ import annotations

import math
import statistics

from . import corpus, limits


def check_probability(p, what: str = "The dropout probability") -> float:
    """`p` as a float; a value that is no number from 0 to 1 is refused in a sentence.

    >>> check_probability(1.5)
    Traceback (most recent call last):
    ...
    ValueError: The dropout probability must be a number from 0 to 1, not 1.5.
    """
    if not _is_number(p) or not 0 <= p <= 1:
        raise ValueError(f"{what} must be a number from 0 to 1, not {p!r}.")
    return float(p)


ALPHA_MAX = 1000.0  # beyond it samples change no more (see check_alpha); far beyond, overflow


def check_alpha(alpha) -> float:
    """The sampling temperature alpha as a float: a finite number above 0, at most ALPHA_MAX.

    >>> check_alpha(0)
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a finite number above 0 (1 samples by the model's \
probabilities; smaller flattens them, larger sharpens them), not 0.
    """
    if not _is_number(alpha) or alpha <= 0:
        raise ValueError(
            "alpha must be a finite number above 0 (1 samples by the model's probabilities; "
            f"smaller flattens them, larger sharpens them), not {alpha!r}."
        )
    if alpha > ALPHA_MAX:
        raise ValueError(
            f"alpha {alpha:g} is more than the {ALPHA_MAX:g} allowed: at 1000 a segmentation "
            "only 0.01 nats less probable than the best is already drawn e^10 (about 22,000) "
            "times less often."
        )
    return float(alpha)


def check_seed(seed) -> int:
    """A random seed: a whole number."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"The seed must be a whole number, not {seed!r}.")
    return seed


def _is_number(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def text_words(text: str, split_punct: bool, where: str = "cli") -> list[str]:
    """The words of a text to sample, checked as every encoder checks them: some text,
    within the limits of its length and of each word's."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("Type a word to encode.")
    limits.check("text_chars", len(text), where)
    words = corpus.split_words(text, split_punct)
    limits.check_words(words)
    return words


def count_summary(counts: list[int]) -> dict[str, float]:
    """Mean, smallest, quartiles (inclusive method: a quartile lies between two counts when
    it falls between them) and largest of a list of token counts."""
    ordered = sorted(counts)
    if len(ordered) == 1:  # one sample: every quartile is that sample
        q1 = median = q3 = float(ordered[0])
    else:
        q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return {
        "mean": statistics.fmean(ordered),
        "min": ordered[0],
        "q1": q1,
        "median": median,
        "q3": q3,
        "max": ordered[-1],
    }
