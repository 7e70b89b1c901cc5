"""Benchmark: our EM Unigram trainer against sentencepiece's unigram trainer, in one run.

Trains on the lines of ``sample:enwiki`` (words = whitespace split) to the same vocabulary
size with both, keeps the best of ``--repeat`` runs, prints seconds (wall and CPU) and the
ratio ours/sentencepiece (num_threads=1; target at most 1.5 x), the vocabulary overlap
(pieces in both over the number compared: sentencepiece's pieces without <unk>, <s>,
</s>, and as many of our most probable pieces; target at least 85 %), and both models'
log-likelihood per word (the mean over the corpus's running words of log P(word), summed
over every segmentation, computed by the same code for both; sentencepiece's scores are
taken as log-probabilities). Not a test and not run by CI.

On a shared machine the wall times swing with the other processes' load (``cat
/proc/loadavg`` alongside); the CPU-time ratio (process time, both in this process)
swings much less.

Where our time goes (issue 27, cProfile and per-phase process time, enwiki, 8,000
pieces, before this work: 9.3 s of CPU): the seed 1.9 s (every substring occurrence of
every word, 3 million, made in Python and hashed; what follows each; the seed's
lattices, 2.4 million edges), the E-steps 2.2 s (backward 1.7 s, posteriors 0.5 s), the
forward passes 1.5 s (after each M-step and each prune: the loss, reused by the next
E-step), the prunes 3.5 s (Viterbi over every word and over each piece's own string 1.4
s; re-filtering and re-sorting the lattices after each of the 10 prunes 1.4 s, then their
backward sweep order again). Every pass is a few numpy operations per edge at each of
the ~100 positions (np.add.reduceat and np.maximum.reduceat group the edges of a node);
memory, not Python, bounds them; np.maximum.reduceat (a maximum per node) was the slowest
of them. What changed: substrings hashed by pandas.factorize; pruned lattices keep their
sweep orders; a sweep's levels bounded by a bincount; a prune leaves dead edges
(probability 0) until they are a tenth of the edges (em.DEAD_EDGES); forward and backward
shift a node's sum by its neighbour instead of its maximum (Lattices.shift_by_neighbour);
Viterbi finds the latest near-best edge without a second maximum; sums by bincount. After
(same measure, load average 6): 7.5 s of CPU, the seed 1.6 s, the E-steps 1.75 s
(backward 1.1 s), the forward passes 1.3 s, the prunes 2.75 s (Viterbi and the pieces'
own strings 1.3 s, filtering the lattices 0.7 s). main's EmRun against this one in the
same session: 10.4 s and 8.4 s of CPU at load average 10.

Second pass (same results to the last bit: every step's loss, removed pieces and final
probabilities hashed before and after each change): EmRun.steps 5.4-5.6 s of CPU before,
4.8-4.9 s after (load average 3-6). The lattices drop dead edges at 40 % (one filtering
on enwiki instead of four, 0.1-0.2 s); forward, backward, the posteriors and Viterbi sum
in place (no new edge-long array per operation: passes about 10 %, Viterbi 5 % faster);
a sweep's node groups by comparing neighbours, not np.diff; the records built from
tolist (0.3 s of numpy scalars); a lattice's characters, longest edge, edge offsets per
node and one edge per piece kept across the passes and prunes it serves. The whole run
(count_lines + EmRun) went from about 7.5 s to 7.0-7.2 s of CPU, 1.49-1.60 x
sentencepiece's; this bench alternating the two versions at load average 6-8: before
7.85 and 8.43 s (1.76 and 1.79 x), after 7.15 and 6.98 s (1.50 and 1.49 x). What is
left: the seed 1.6 s (1 s of it slicing 3 million substring occurrences in Python and
hashing them), the 53 forward and backward passes (36 ms each), the 21 posteriors (32
ms), the prunes' Viterbi (55 ms) and sub-lattices.

The overlap is printed under two settings, named in the output: the timed runs use
identity normalisation and character_coverage 1.0 on both sides (every character kept,
the text as it is); the second pair uses sentencepiece's defaults (nmt_nfkc
normalisation, character_coverage 0.9995) and ours with the lines in NFKC and the same
coverage (em_coverage.py). nmt_nfkc also maps a few control and space characters that
NFKC leaves; on these samples the seed sizes agree (tests/test_unigram_coverage.py).

The overlap comes from the seed (em_seed.py): sentencepiece keeps a whole word as a seed
only if two different characters follow it in its text (the next word's ``▁`` and the end
of a line count), so the lines matter (WordCounts.line_ends); with every whole word seen
twice kept, the overlap was 83.3 %, with the lines' rule 92.3 %. sentencepiece's digamma
M-step alone gave 84.7 %, so ours stays plain maximum likelihood.

Usage (from the repository root)::

    PYTHONPATH=. python bench/unigram.py --vocab-size 8000 --repeat 3
"""

from __future__ import annotations

import sys
import time
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run without installing

import numpy as np  # noqa: E402
import sentencepiece as spm  # noqa: E402
from _timing import best_of, setup, train_sentencepiece  # noqa: E402  (bench/ is on sys.path when run as a script)

from subtok_core.corpus import WordCounts, count_lines  # noqa: E402
from subtok_core.records import SOW  # noqa: E402
from subtok_core.unigram.em import EmRun  # noqa: E402
from subtok_core.unigram.em_arrays import lattices_of  # noqa: E402
from subtok_core.unigram.em_coverage import SENTENCEPIECE_COVERAGE  # noqa: E402

META = ("<unk>", "<s>", "</s>")


IDENTITY = {"normalization_rule_name": "identity", "character_coverage": 1.0}
DEFAULTS = {"normalization_rule_name": "nmt_nfkc", "character_coverage": SENTENCEPIECE_COVERAGE}


def train_ours(
    lines: list[str], vocab_size: int, coverage: float = 1.0
) -> tuple[WordCounts, dict[str, float]]:
    """Count the words (and the line ends the seed reads) and run EM to the end; the last
    step carries every piece."""
    wc = count_lines(lines)
    last = None
    for last in EmRun(wc, vocab_size, character_coverage=coverage).steps():  # noqa: B007
        pass
    return wc, {row.piece: float(np.log(row.prob)) for row in last.vocab}


def sentencepiece_pieces(
    lines: list[str], vocab_size: int, settings: dict = IDENTITY
) -> dict[str, float]:
    """sentencepiece's unigram pieces (without its meta pieces) and their log-probabilities."""
    model = train_sentencepiece(lines, vocab_size, "unigram", num_threads=1, **settings)
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


def timed(repeat: int, run):
    """best_of, with the process (CPU) time of the fastest run beside its wall time."""
    cpu = []

    def measured():
        start = time.process_time()
        result = run()
        cpu.append(time.process_time() - start)
        return result

    wall, result = best_of(repeat, measured)
    return wall, min(cpu), result


def main() -> None:
    args, lines = setup(__doc__, f"numpy {np.__version__}, sentencepiece {spm.__version__}")
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}")
    ours_s, ours_cpu, (wc, ours) = timed(args.repeat, lambda: train_ours(lines, args.vocab_size))
    spm_s, spm_cpu, theirs = timed(
        args.repeat, lambda: sentencepiece_pieces(lines, args.vocab_size)
    )
    print(f"load average after:  {Path('/proc/loadavg').read_text().strip()}\n")
    print(f"{'trainer':<40} {'seconds':>8} {'CPU s':>8}  pieces")
    print(f"{'ours (count_lines + EmRun.steps)':<40} {ours_s:8.2f} {ours_cpu:8.2f}  {len(ours)}")
    print(
        f"{'sentencepiece unigram, num_threads=1':<40} {spm_s:8.2f} {spm_cpu:8.2f}  {len(theirs)}"
    )
    print(
        f"\nours / sentencepiece: {ours_s / spm_s:.2f} x wall, {ours_cpu / spm_cpu:.2f} x CPU "
        "(target: at most 1.5 x)"
    )
    both, n = overlap(ours, theirs)
    print(
        "\nsettings of the timed runs: sentencepiece normalization_rule_name=identity, "
        "character_coverage=1.0; ours the lines as they are, character_coverage=1.0"
    )
    print(f"vocabulary overlap: {both} of {n} pieces = {both / n:.1%} (target: at least 85 %)")
    _, ours_d = train_ours(
        [unicodedata.normalize("NFKC", line) for line in lines], args.vocab_size,
        SENTENCEPIECE_COVERAGE,
    )  # fmt: skip
    both_d, n_d = overlap(ours_d, sentencepiece_pieces(lines, args.vocab_size, DEFAULTS))
    print(
        "settings: sentencepiece's defaults (nmt_nfkc, character_coverage="
        f"{SENTENCEPIECE_COVERAGE:g}); ours the lines in NFKC, character_coverage="
        f"{SENTENCEPIECE_COVERAGE:g}"
    )
    print(f"vocabulary overlap: {both_d} of {n_d} pieces = {both_d / n_d:.1%}")
    print("log-likelihood per word (nats, higher is better):")
    print(f"  ours          {loglik_per_word(wc, ours):.4f}")
    print(f"  sentencepiece {loglik_per_word(wc, theirs):.4f}")


if __name__ == "__main__":
    main()
