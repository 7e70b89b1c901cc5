"""What the benchmarks in this folder share: timing, the command line and the header
(not a benchmark itself)."""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from typing import Any

CORPUS = "sample:enwiki"


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest wall time of `repeat` runs, and the result of the last run."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def setup(doc: str, versions: str = "") -> tuple[argparse.Namespace, list[str]]:
    """Read --vocab-size and --repeat, load the lines of the corpus, and print the machine,
    the library versions and the corpus, so that every result says what it ran on."""
    from subtok_core.corpus import load_lines  # the caller has put the repository on sys.path

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lines = load_lines(CORPUS)
    words = sum(len(line.split()) for line in lines)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    if versions:
        print(versions)
    print(f"corpus {CORPUS}: {len(lines)} lines, {words} words, {sum(map(len, lines))} chars")
    print(f"vocab size {args.vocab_size}, best of {args.repeat}\n")
    return args, lines


def train_sentencepiece(lines: list[str], vocab_size: int, model_type: str, **extra) -> bytes:
    """Train sentencepiece on `lines` (every line kept, all characters covered) and return
    the serialized model; `extra` adds or overrides trainer options (num_threads=1, ...)."""
    import io

    import sentencepiece as spm

    model = io.BytesIO()
    options = {
        "character_coverage": 1.0,
        "max_sentence_length": max(len(line.encode()) for line in lines) + 1,
        "minloglevel": 2,
        **extra,
    }
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=model,
        model_type=model_type,
        vocab_size=vocab_size,
        **options,
    )
    return model.getvalue()
