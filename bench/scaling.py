"""Benchmark: how training and encoding time and memory grow with the corpus, ours against
tokenizers (BPE, WordPiece) and sentencepiece (Unigram), and the fit the app's estimate uses.

Corpora: the first 1/8, 1/4, 1/2 and all lines of ``sample:enwiki``, and a synthetic corpus
of about 20 MB grown from it whose distinct words keep growing as Heaps' law fitted on the
sample says (see bench/_synthetic.py: a pure repeat would keep them fixed). Each tokenizer
is trained to ``--vocab-size`` and then encodes the same corpus, once, in a fresh child
process (bench/_scaling_child.py), so each peak memory is that measurement's own; every
library runs on one thread. Prints, per corpus: seconds to train (ours: counting the
words + training as the Compare page does) and to encode, the ratios ours/reference, peak
memory (the child's high-water mark, and its rise over the child after reading the
lines), and per tool the growth exponent b of time ~ n_chars ** b (least squares of log
time on log n_chars, numpy.polyfit). Seconds are the child's CPU seconds: on a machine
shared with other work, wall time measures the neighbours too (the progress lines show
both, and the load average).

Then our trainers alone train every corpus again to 1/8 and 1/2 of the vocab size (no
encoding), and the model behind ``subtok_core.estimate`` is fitted on that grid:
seconds = count.coef * n_chars ** count.exponent + exp(a + b x + c y + d x y), with
x = ln n_types and y = ln(size / vocab_size), by least squares (numpy.linalg.lstsq). The
x y term is there because the vocab size costs more on a small corpus: the last merges
there are among pairs seen once or twice, where thousands of pairs tie. With ``--write``
the model goes to subtok_core/data/scaling.toml (date, machine and command in its header).
Not a test and not run by CI.

Usage (from the repository root; the 20 MB corpus takes long, ``--quick`` skips it)::

    PYTHONPATH=. python bench/scaling.py [--quick] [--write] [--vocab-size 8000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing
sys.path.insert(0, str(ROOT / "bench"))

from _scaling_report import Corpus, environment, print_tables, write_model  # noqa: E402
from _synthetic import grow  # noqa: E402

from subtok_core.corpus import load_lines  # noqa: E402

ALGORITHMS = ("bpe", "wordpiece", "unigram")
FRACTIONS = ((1, 8), (1, 4), (1, 2), (1, 1))
SYNTHETIC_BYTES = 20_000_000  # just under the 20 MB an upload may have
CHILD = ROOT / "bench" / "_scaling_child.py"


GRID = (8, 2)  # our trainers also train every corpus to vocab_size // 8 and // 2


def measure(tool: str, algorithm: str, corpus: Corpus, size: int, timeout: int, encode=True):
    """One child process: train `algorithm` with `tool` on `corpus` to `size` (and encode
    it); the child's JSON figures, or None (with the reason printed) when it failed."""
    env = {**os.environ, "TOKENIZERS_PARALLELISM": "false", "RAYON_NUM_THREADS": "1"}
    command = [sys.executable, str(CHILD), tool, algorithm, str(corpus.path), str(size)]
    command += [] if encode else ["train-only"]
    what = f"{tool:<4} {algorithm:<9} {corpus.label:<12} {size:>6}"
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        print(f"    {what}: over {timeout} s, stopped", flush=True)
        return None
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        print(f"    {what}: failed: {tail[0]}", flush=True)
        return None
    result = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = result["count_s"] + result["train_s"]
    wall = result["count_wall"] + result["train_wall"]
    print(
        f"    {what}  train {cpu:8.2f} s CPU ({wall:7.2f} wall)  encode {result['encode_s']:7.2f}"
        f" s CPU  peak {result['encode_kib'] / 1024:6.0f} MB  load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    return result


def corpora(folder: Path, quick: bool) -> list[Corpus]:
    """The sample's prefixes and (unless quick) the synthetic corpus, each in a file."""
    lines = load_lines("sample:enwiki")
    chosen = [(f"{a}/{b} sample", lines[: len(lines) * a // b]) for a, b in FRACTIONS]
    if not quick:
        chosen.append(("synthetic", grow(lines, SYNTHETIC_BYTES, seed=0)))
    out = []
    for i, (label, part) in enumerate(chosen):
        path = folder / f"corpus{i}.txt"
        path.write_text("\n".join(part) + "\n", encoding="utf-8")
        out.append(Corpus.of(label, path, part))
    return out


def fit(x, y) -> tuple[float, float]:
    """(coef, exponent) of y = coef * x ** exponent, least squares in log-log."""
    exponent, log_coef = np.polyfit(np.log(x), np.log(y), 1)
    return float(np.exp(log_coef)), float(exponent)


def fit_training(points: list[tuple[int, int, float]], vocab_size: int) -> dict:
    """ln seconds = a + b x + c y + d x y (x = ln n_types, y = ln(size / vocab_size)) by
    least squares over (n_types, size, seconds) points, and the largest factor between a
    measured time and the fitted one."""
    types, sizes, secs = (np.array(column, dtype=float) for column in zip(*points, strict=True))
    x, y = np.log(types), np.log(sizes / vocab_size)
    rows = np.column_stack([np.ones_like(x), x, y, x * y])
    coefs, *_ = np.linalg.lstsq(rows, np.log(secs), rcond=None)
    worst = float(np.exp(np.abs(rows @ coefs - np.log(secs)).max()))
    return {"coefs": [float(v) for v in coefs], "types_range": [int(types.min()), int(types.max())],
            "max_error_factor": worst}  # fmt: skip


def fit_model(runs: dict, sets: list[Corpus], vocab_size: int) -> dict:
    """The estimate's model from our runs (keyed tool, algorithm, corpus label, size):
    counting on n_chars (every algorithm's runs pooled), training per algorithm on n_types
    and the size (the grid), and Heaps' exponent (types on chars) over the sample's prefixes."""
    by_label = {c.label: c for c in sets}
    ours = [(a, by_label[lab], size, r) for (t, a, lab, size), r in runs.items() if t == "ours"]
    ours = [row for row in ours if row[3]]
    count = fit([c.n_chars for _, c, _, _ in ours], [r["count_s"] for *_, r in ours])
    sample = [c for c in sets if c.label.endswith("sample")]
    model: dict = {
        "vocab_size": vocab_size,
        "heaps": {"exponent": fit([c.n_chars for c in sample], [c.n_types for c in sample])[1]},
        "count": dict(zip(("coef", "exponent"), count, strict=True)),
    }
    for algorithm in ALGORITHMS:
        mine = [(c, size, r) for a, c, size, r in ours if a == algorithm]
        model[algorithm] = fit_training(
            [(c.n_types, s, r["train_s"]) for c, s, r in mine], vocab_size
        )
        model[algorithm]["measured"] = [
            [c.n_chars, c.n_types, s, round(r["count_s"] + r["train_s"], 3)] for c, s, r in mine
        ]
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--quick", action="store_true", help="skip the 20 MB corpus")
    parser.add_argument("--write", action="store_true", help="write subtok_core/data/scaling.toml")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per measurement")
    args = parser.parse_args()
    size = args.vocab_size
    print(environment(size), flush=True)
    runs = {}
    with tempfile.TemporaryDirectory(prefix="subtok-scaling-") as folder:
        sets = corpora(Path(folder), args.quick)
        print("\n".join(f"  {c.describe()}" for c in sets), flush=True)
        for c in sets:
            for algorithm in ALGORITHMS:
                for tool in ("ours", "ref"):
                    runs[(tool, algorithm, c.label, size)] = measure(
                        tool, algorithm, c, size, args.timeout
                    )
        for c in sets:
            for algorithm in ALGORITHMS:
                for smaller in (size // part for part in GRID):
                    runs[("ours", algorithm, c.label, smaller)] = measure(
                        "ours", algorithm, c, smaller, args.timeout, encode=False
                    )
    print_tables(runs, sets, ALGORITHMS, size, fit)
    model = fit_model(runs, sets, size)
    print("\nThe estimate's model (ours; seconds to count the words + to train):")
    for name, table in model.items():
        if isinstance(table, dict):
            print(f"  {name:<10}", {k: v for k, v in table.items() if k != "measured"})
    if args.write:
        command = "python bench/scaling.py " + " ".join(sys.argv[1:])
        path = write_model(model, ROOT / "subtok_core" / "data" / "scaling.toml", command.strip())
        print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
