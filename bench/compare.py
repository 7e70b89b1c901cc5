"""Benchmark: the Compare page on `sample:enwiki` at 8,000 tokens with BPE, WordPiece and
Unigram, cold (training, encoding the corpus, every metric) and warm (the same choices
again, served from the caches). Runs the real page headless with Streamlit's AppTest and
prints both wall times against the targets (cold under 60 s, warm under 1 s), and the
core's own share of the cold time. Not a test and not run by CI.

Usage (from the repository root)::

    PYTHONPATH=. python bench/compare.py --vocab-size 8000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing

from streamlit.testing.v1 import AppTest  # noqa: E402

from subtok_core import compare, corpus  # noqa: E402
from subtok_core import measure as metrics  # noqa: E402

CORPUS = "sample:enwiki"
KINDS = ("bpe", "wordpiece", "unigram")


def page_run(size: int) -> tuple[float, float]:
    """Seconds for the first run of /compare with these choices, and for a rerun."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params.update(corpus=CORPUS, size=str(size), tok=",".join(KINDS))
    at.run()
    start = time.perf_counter()
    at.switch_page("lessons/compare/page.py").run()
    cold = time.perf_counter() - start
    if at.exception or at.error:
        raise SystemExit(f"the page failed: {at.exception or [e.value for e in at.error]}")
    start = time.perf_counter()
    at.run()
    return cold, time.perf_counter() - start


def core_split(size: int) -> None:
    """Where the cold time goes, outside Streamlit: training, encoding, metrics."""
    wc = corpus.load(CORPUS)
    lines = corpus.load_lines(CORPUS)
    for kind in KINDS:
        start = time.perf_counter()
        model = compare.train(kind, wc, size)
        trained = time.perf_counter() - start
        tokens = metrics.tokenize_with(model, lines, kind)
        encoded = time.perf_counter() - start - trained
        metrics.distinct_neighbours(tokens)
        metrics.fertility(tokens)
        measured = time.perf_counter() - start - trained - encoded
        print(
            f"  {kind:<10} train {trained:6.2f} s  encode {encoded:5.2f} s  "
            f"metrics {measured:5.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab-size", type=int, default=8000)
    args = parser.parse_args()
    print(f"/compare?corpus={CORPUS}&size={args.vocab_size}&tok={','.join(KINDS)}")
    cold, warm = page_run(args.vocab_size)
    print(f"cold: {cold:6.2f} s (target: under 60 s)")
    print(f"warm: {warm:6.2f} s (target: under 1 s)")
    print("core, outside Streamlit:")
    core_split(args.vocab_size)


if __name__ == "__main__":
    main()
