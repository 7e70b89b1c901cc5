"""Parity-aware BPE (Foroutan, Meister et al. 2025): each merge chosen for the language
that is currently longest on a parallel dev set. ``train``: the trainer (``train_parity``)
and its records."""

from .train import MIN_FREQUENCY, ParityRun, ParityStep, train_parity

__all__ = ["MIN_FREQUENCY", "ParityRun", "ParityStep", "train_parity"]
