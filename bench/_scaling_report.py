"""What bench/scaling.py prints and writes: the corpora's sizes, the machine, the tables,
and subtok_core/data/scaling.toml (not a benchmark itself)."""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REFERENCE = {
    "bpe": "tokenizers BpeTrainer",
    "wordpiece": "tokenizers WordPieceTrainer",
    "unigram": "sentencepiece unigram",
}


@dataclass(frozen=True)
class Corpus:
    """One corpus of the benchmark, written to a file the children read."""

    label: str
    path: Path
    n_lines: int
    n_bytes: int
    n_chars: int  # characters of the running words, spaces not counted (as estimate.py)
    n_tokens: int
    n_types: int

    @classmethod
    def of(cls, label: str, path: Path, lines: list[str]) -> Corpus:
        words = [w for line in lines for w in line.split()]
        return cls(
            label, path, len(lines), path.stat().st_size, sum(map(len, words)), len(words),
            len(set(words)),
        )  # fmt: skip

    def describe(self) -> str:
        return (
            f"{self.label:<12} {self.n_bytes / 1e6:6.2f} MB, {self.n_lines:,} lines, "
            f"{self.n_tokens:,} running words, {self.n_types:,} distinct"
        )


def machine() -> str:
    """The processor, the number of CPUs and the system, for the results' header."""
    model = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            names = [line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")]
        model = names[0] if names else model
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def revision() -> str:
    """The commit measured, and the core's files changed since (others may be editing)."""
    import subprocess

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
        return done.stdout.strip()

    changed = git("status", "--porcelain", "--", "subtok_core").splitlines()
    return f"commit {git('rev-parse', '--short', 'HEAD') or '?'}, " + (
        f"{len(changed)} changed file(s) in subtok_core" if changed else "subtok_core as committed"
    )


def environment(vocab_size: int) -> str:
    import numpy
    import sentencepiece
    import tokenizers

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return "\n".join(
        [
            f"Python {platform.python_version()} on {machine()}; load average {load}",
            revision(),
            f"tokenizers {tokenizers.__version__}, sentencepiece {sentencepiece.__version__}, "
            f"numpy {numpy.__version__}; every library on one thread",
            f"vocab size {vocab_size}; one run per measurement, each in a fresh process; "
            "seconds are the child's CPU seconds",
        ]
    )


def _num(value: float | None, width: int, digits: int = 2) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:{width}.{digits}f}"


def _ratio(ours: float | None, ref: float | None) -> str:
    return _num(ours / ref if ours is not None and ref else None, 6, 1)


def _memory(run: dict | None) -> str:
    """Peak MB of the child and, in brackets, its rise over the child after reading."""
    if not run:
        return f"{'-':>12}"
    peak, rise = run["encode_kib"] / 1024, (run["encode_kib"] - run["base_kib"]) / 1024
    return f"{peak:5.0f} ({rise:+5.0f})"


def _seconds(run: dict | None, phase: str) -> float | None:
    """Training (ours: counting + training, as the references count inside) or encoding."""
    if not run:
        return None
    return run["count_s"] + run["train_s"] if phase == "train" else run["encode_s"]


def print_tables(runs: dict, sets: list, algorithms: tuple, size: int, fit: Callable) -> None:
    """One table per algorithm at `size`, each tool's growth exponents, then our
    training times at every size of the grid."""
    for algorithm in algorithms:
        print(f"\n{algorithm} to {size:,}: ours against {REFERENCE[algorithm]}")
        print(
            f"{'corpus':<12} {'MB':>6} {'types':>8} | {'train s: ours':>13} {'ref':>7} "
            f"{'x':>6} | {'encode s: ours':>14} {'ref':>6} {'x':>6} | "
            f"{'peak MB (rise): ours':>20} {'ref':>12}"
        )
        for c in sets:
            ours = runs[("ours", algorithm, c.label, size)]
            ref = runs[("ref", algorithm, c.label, size)]
            train = _seconds(ours, "train"), _seconds(ref, "train")
            encode = _seconds(ours, "encode"), _seconds(ref, "encode")
            print(
                f"{c.label:<12} {c.n_bytes / 1e6:6.2f} {c.n_types:8,} | {_num(train[0], 13)} "
                f"{_num(train[1], 7)} {_ratio(*train)} | {_num(encode[0], 14)} "
                f"{_num(encode[1], 6)} {_ratio(*encode)} | {_memory(ours):>20} {_memory(ref):>12}"
            )
        for tool in ("ours", "ref"):
            parts = []
            for phase in ("train", "encode"):
                found = [(c.n_chars, _seconds(runs[(tool, algorithm, c.label, size)], phase))
                         for c in sets]  # fmt: skip
                found = [(x, y) for x, y in found if y]
                b = fit(*zip(*found, strict=True))[1] if len(found) > 1 else None
                parts.append(f"{phase} {_num(b, 5)}")
            print(f"  growth exponent b (time ~ n_chars ** b), {tool:<4}: " + ", ".join(parts))
    sizes = sorted({key[3] for key in runs})
    print("\nours, seconds to count + train, by vocab size (the estimate's grid)")
    print(f"{'corpus':<12} {'algorithm':<10}" + "".join(f"{s:>9,}" for s in sizes))
    for c in sets:
        for algorithm in algorithms:
            row = [_seconds(runs.get(("ours", algorithm, c.label, s)), "train") for s in sizes]
            print(f"{c.label:<12} {algorithm:<10}" + "".join(_num(v, 9) for v in row))


def _toml(value) -> str:
    """A number, a string or a list of them in TOML."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def write_model(model: dict, path: Path, command: str) -> Path:
    """Write the fitted model to `path` as TOML, with where and how it was measured."""
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# How long our trainers take, fitted on measurements by bench/scaling.py.",
        "# Do not edit by hand: run the command below again to measure anew.",
        f"# date: {date}",
        f"# machine: {machine()}",
        f"# command: {command}",
        f"# code: {revision()}",
        "# seconds = count.coef * n_chars ** count.exponent + exp(a + b x + c y + d x y),",
        "# [a, b, c, d] = coefs, x = ln n_types, y = ln(size / vocab_size); n_chars:",
        "# characters of the running words; n_types: distinct words; size: the vocab size",
        "# trained to. measured: [n_chars, n_types, size, CPU seconds to count and train].",
        "# max_error_factor: the worst measured/fitted (or fitted/measured) time.",
        "# heaps.exponent: distinct words grow as n_chars ** it (the sample's prefixes).",
        "",
        f"date = {_toml(date)}",
        f"machine = {_toml(machine())}",
        f"command = {_toml(command)}",
        f"vocab_size = {model['vocab_size']}",
    ]
    for name, table in model.items():
        if isinstance(table, dict):
            lines += ["", f"[{name}]"] + [f"{k} = {_toml(v)}" for k, v in table.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
