"""Timing shared by the benchmarks in this folder (not a benchmark itself)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest wall time of `repeat` runs, and the result of the last run."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result
