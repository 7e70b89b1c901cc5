"""The measures recent papers report for a tokenizer on a corpus, for any tokenizer behind
the Tokenizer interface (trained here or pretrained), and the fairness of one across
languages.

- Rényi efficiency of order α (Zouhar et al. 2023, "Tokenization and the noiseless
  channel"): the Rényi entropy of the token distribution over the corpus, divided by
  log |V|, where |V| is the tokenizer's vocabulary size; α = 2.5 is the paper's choice.
  Shannon efficiency is the same with Shannon's entropy (the order α = 1). Each lies in
  [0, 1]; a tokenizer that uses its vocabulary evenly scores near 1.
- fertility (tokens per running word), characters and UTF-8 bytes per token (of the
  words: spaces and markers not counted, as Compare's "Characters per token"), and the
  share of running words that are one token; each word cut as the tokenizer cuts it inside
  running text (subtok_core.measure.tokenized).
- the Gini coefficient over languages (parity-aware BPE's fairness measure, Foroutan et al.
  2025) of a cost per language: tokens per line of a parallel text, or tokens per
  character. 0 is equal cost; the two costs can rank tokenizers differently, since the
  same sentence has more characters in one language than in another.

Hand computations: four tokens a a a b over |V| = 4 give p = (3/4, 1/4); Shannon
H = 0.811278 bits, log2 4 = 2, efficiency 0.405639. Rényi of order 2:
-log2(9/16 + 1/16) = 0.678072, efficiency 0.339036.

>>> round(renyi_efficiency([3, 1], 4, 2.0), 6), round(shannon_efficiency([3, 1], 4), 6)
(0.339036, 0.405639)
>>> gini([1.0, 1.0, 1.0]), gini([0.0, 0.0, 3.0])
(0.0, 0.6666666666666666)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from .tokenized import Tokenized

ALPHA = 2.5  # Zouhar et al. 2023's order for the Rényi efficiency


def _probabilities(counts: Iterable[int]) -> np.ndarray:
    freq = np.asarray([c for c in counts if c > 0], dtype=np.float64)
    if not len(freq):
        raise ValueError("No token to measure: the corpus gave no token at all.")
    return freq / freq.sum()


def _log_vocab(vocab_size: int) -> float:
    if vocab_size < 2:
        raise ValueError(
            f"An efficiency needs a vocabulary of at least 2 tokens (log |V| is 0 for "
            f"{vocab_size})."
        )
    return math.log2(vocab_size)


def shannon_efficiency(counts: Iterable[int], vocab_size: int) -> float:
    """Shannon entropy (bits) of the token frequencies `counts`, divided by log2 |V|."""
    p = _probabilities(counts)
    return float(-(p * np.log2(p)).sum()) / _log_vocab(vocab_size)


def renyi_efficiency(counts: Iterable[int], vocab_size: int, alpha: float = ALPHA) -> float:
    """Rényi entropy of order `alpha` of the token frequencies, divided by log2 |V|
    (order 1 is Shannon's)."""
    if not math.isfinite(alpha) or alpha < 0:
        raise ValueError(f"The Rényi order α must be a number of 0 or more, not {alpha}.")
    if alpha == 1.0:
        return shannon_efficiency(counts, vocab_size)
    p = _probabilities(counts)
    entropy = math.log2(float((p**alpha).sum())) / (1.0 - alpha)
    return entropy / _log_vocab(vocab_size)


def gini(values: Sequence[float]) -> float:
    """The Gini coefficient of non-negative costs: the mean absolute difference of every
    ordered pair, over twice the mean (0: all equal)."""
    x = np.asarray(values, dtype=np.float64)
    if not len(x) or (x < 0).any() or not np.isfinite(x).all():
        raise ValueError("A Gini coefficient needs one non-negative cost per language.")
    mean = x.mean()
    if mean == 0:
        return 0.0
    return float(np.abs(x[:, None] - x[None, :]).sum() / (2 * len(x) ** 2 * mean))


@dataclass(frozen=True, slots=True)
class Measures:
    """A tokenizer's measures on a corpus (the keys of `subtok metrics --json`)."""

    vocab_size: int
    alpha: float
    tokens: int
    words: int
    renyi_efficiency: float
    shannon_efficiency: float
    fertility: float
    chars_per_token: float
    bytes_per_token: float
    single_token_words: float

    def as_json(self) -> dict:
        return asdict(self)


def measure(t: Tokenized, vocab_size: int, alpha: float = ALPHA) -> Measures:
    """The measures of a corpus encoded by one tokenizer (`t`, from tokenize_with: each
    word as the tokenizer cuts it inside running text), with |V| = `vocab_size`."""
    if not len(t):
        raise ValueError("The corpus is empty: there is no word to measure.")
    counts = t.frequencies()
    words = len(t.word_ids)
    nbytes = np.fromiter((len(w.encode("utf-8")) for w in t.words), np.int64, len(t.words))
    return Measures(
        vocab_size=int(vocab_size),
        alpha=float(alpha),
        tokens=len(t),
        words=words,
        renyi_efficiency=renyi_efficiency(counts, vocab_size, alpha),
        shannon_efficiency=shannon_efficiency(counts, vocab_size),
        fertility=len(t) / words,
        chars_per_token=t.characters() / len(t),
        bytes_per_token=int(nbytes[t.word_ids].sum()) / len(t),
        single_token_words=float((t.type_lengths[t.word_ids] == 1).mean()),
    )
