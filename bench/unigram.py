"""Benchmark: our EM Unigram trainer against sentencepiece's unigram trainer, in one run.

Trains on the lines of ``sample:enwiki`` (words = whitespace split) to the same vocabulary
size with both, keeps the best of ``--repeat`` runs, prints seconds and the ratio
ours/sentencepiece (num_threads=1), the vocabulary overlap (pieces in both over the
number compared: sentencepiece's pieces without <unk>, <s>, </s>, and as many of our most
probable pieces), and both models' log-likelihood per word (the mean over the corpus's
running words of log P(word), summed over every segmentation, computed by the same code
for both; sentencepiece's scores are taken as log-probabilities). Not a test and not run
by CI.

Usage (from the repository root)::

    PYTHONPATH=. python bench/unigram.py --vocab-size 8000 --repeat 3
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run without installing

import numpy as np  # noqa: E402
import sentencepiece as spm  # noqa: E402
from _timing import best_of, setup, train_sentencepiece  # noqa: E402  (bench/ is on sys.path when run as a script)

from subtok_core.corpus import WordCounts, count_lines  # noqa: E402
from subtok_core.records import SOW  # noqa: E402
from subtok_core.unigram.em import EmRun  # noqa: E402
from subtok_core.unigram.em_arrays import lattices_of  # noqa: E402

META = ("<unk>", "<s>", "</s>")


def train_ours(lines: list[str], vocab_size: int) -> tuple[WordCounts, dict[str, float]]:
    """Count the words (and the line ends the seed reads) and run EM to the end; the last
    step carries every piece."""
    wc = count_lines(lines)
    last = None
    for last in EmRun(wc, vocab_size).steps():  # noqa: B007
        pass
    return wc, {row.piece: float(np.log(row.prob)) for row in last.vocab}


def sentencepiece_pieces(lines: list[str], vocab_size: int) -> dict[str, float]:
    """sentencepiece's unigram pieces (without its meta pieces) and their log-probabilities."""
    model = train_sentencepiece(
        lines, vocab_size, "unigram", normalization_rule_name="identity", num_threads=1
    )
    sp = spm.SentencePieceProcessor(model_proto=model)
    pieces = (sp.id_to_piece(i) for i in range(sp.get_piece_size()))
    return {p: sp.get_score(sp.piece_to_id(p)) for p in pieces if p not in META}


def overlap(ours: dict[str, float], theirs: dict[str, float]) -> tuple[int, int]:
    """Pieces in both, among sentencepiece's pieces and as many of our most probable."""
    n = min(len(ours), len(theirs))
    top = sorted(ours, key=lambda p: -ours[p])[:n]
    return len(set(top) & set(theirs)), n


def loglik_per_word(wc: WordCounts, logp: dict[str, float]) -> float:
    """Mean over running words of log P(word), every segmentation summed (natural log)."""
    pieces = list(logp)
    lat = lattices_of([SOW + w for w in wc.words], pieces)
    totals = lat.totals(lat.forward(np.array([logp[p] for p in pieces])))
    counts = np.asarray(wc.counts, dtype=float)
    return float((counts * totals).sum() / counts.sum())


def main() -> None:
    args, lines = setup(__doc__, f"numpy {np.__version__}, sentencepiece {spm.__version__}")

    ours_s, (wc, ours) = best_of(args.repeat, lambda: train_ours(lines, args.vocab_size))
    spm_s, theirs = best_of(args.repeat, lambda: sentencepiece_pieces(lines, args.vocab_size))
    print(f"{'trainer':<40} {'seconds':>8}  pieces")
    print(f"{'ours (count_lines + EmRun.steps)':<40} {ours_s:8.2f}  {len(ours)}")
    print(f"{'sentencepiece unigram, num_threads=1':<40} {spm_s:8.2f}  {len(theirs)}")
    print(f"\nours / sentencepiece: {ours_s / spm_s:.2f} x (target: at most 1.5 x)")
    both, n = overlap(ours, theirs)
    print(f"vocabulary overlap: {both} of {n} pieces = {both / n:.1%} (target: at least 85 %)")
    print("log-likelihood per word (nats, higher is better):")
    print(f"  ours          {loglik_per_word(wc, ours):.4f}")
    print(f"  sentencepiece {loglik_per_word(wc, theirs):.4f}")


if __name__ == "__main__":
    main()
