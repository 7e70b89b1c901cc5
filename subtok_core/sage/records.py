"""SaGe's records: the settings (Algorithm 3's names), the start, one prune step, the model.

>>> s = SageSettings(vocab_size=1000)
>>> s.start_size, PAPER.start_size
(1200, 20000)
>>> SageModel(("▁", "a", "▁a")).algorithm
'sage'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .loss import Embeddings

CONTROLS = ("frequency", "random")
SCORE_NAMES = {None: "ablation loss", "frequency": "uses", "random": "random draw"}


@dataclass(frozen=True, slots=True)
class SageSettings:
    """Algorithm 3's parameters under the paper's names; defaults scaled to small samples
    (:data:`PAPER` has Table 6's)."""

    vocab_size: int = 1000  # V
    initial_size: int | None = None  # the BPE size to start from; None: round(n x V)
    n: float = 1.2  # overshoot factor
    k: int = 50  # pieces pruned per step
    M: int = 400  # size of the candidate set  # noqa: N815
    m: int = 1  # every m steps all losses are recomputed
    l: int = 2  # embeddings retrained every l x m steps  # noqa: E741
    window: int = 5  # SaGe's window W (both sides)
    w2v_window: int = 5
    dim: int = 50
    negative: int = 15
    epochs: int = 5
    seed: int = 1
    workers: int = 1

    @property
    def start_size(self) -> int:
        return self.initial_size or round(self.n * self.vocab_size)


PAPER = SageSettings(vocab_size=16000, n=1.25, k=100, M=1500, m=10, l=4)


@dataclass(frozen=True, slots=True)
class SageStart:
    """Before the first prune: the BPE vocabulary and the sample it tokenizes."""

    vocab: tuple[str, ...]  # BPE's n x V pieces in the order BPE learned them
    protected: int  # how many of them are never pruned
    sentences: int
    words: int
    tokens: int  # running tokens of the sample under this vocabulary


@dataclass(frozen=True, slots=True)
class SageStep:
    """One prune step of Algorithm 3 (or of a control on the same schedule)."""

    number: int
    vocab_size: int  # after the prune
    loss: float | None  # eq. (1) before the prune, with this step's embeddings (None: control)
    recomputed_losses: bool  # every piece's score recomputed (i = 0 mod m)
    retrained_embeddings: bool
    candidates: tuple[tuple[str, float], ...]  # the candidate set, lowest score first
    pruned: tuple[tuple[str, float], ...]
    tokens: int  # running tokens after the prune
    embeddings: Embeddings | None = None  # the new embeddings when retrained


@dataclass(frozen=True, slots=True)
class SageModel:
    """A SaGe vocabulary (BPE's order), applied by greedy longest prefix."""

    algorithm: ClassVar[str] = "sage"
    vocab: tuple[str, ...]
    marker: str = "sow"
    split_punct: bool = False
