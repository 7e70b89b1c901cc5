"""Benchmark: our WordPiece trainer against our BPE trainer, measured in the same run.

There is no reference WordPiece trainer to race (Hugging Face tokenizers' WordPieceTrainer
trains BPE), so the yardstick is our own incremental BPE: both train on the words of
``sample:enwiki`` to the same vocabulary size with the default tie rule. The words are
counted once, outside the timings; each trainer keeps the best of ``--repeat`` runs.
The target is WordPiece within 2x of BPE. Not a test and not run by CI.

Usage (from the repository root)::

    PYTHONPATH=. python bench/wordpiece.py --vocab-size 8000 --repeat 3
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run without installing

from _timing import best_of, setup  # noqa: E402  (bench/ is on sys.path when run as a script)

from subtok_core.bpe import train_bpe  # noqa: E402
from subtok_core.corpus import count_words  # noqa: E402
from subtok_core.wordpiece import train_wordpiece  # noqa: E402

TARGET_RATIO = 2.0


def main() -> None:
    args, lines = setup(__doc__)
    wc = count_words(" ".join(lines).split())

    wp_s, wp = best_of(args.repeat, lambda: train_wordpiece(wc, vocab_size=args.vocab_size))
    bpe_s, bpe = best_of(args.repeat, lambda: train_bpe(wc, vocab_size=args.vocab_size))
    ratio = wp_s / bpe_s
    print(f"{'trainer':<28} {'seconds':>8}  size")
    print(f"{'ours: train_wordpiece':<28} {wp_s:8.2f}  {len(wp.vocab)} symbols")
    print(f"{'ours: train_bpe':<28} {bpe_s:8.2f}  {len(bpe.vocab)} symbols")
    verdict = "within" if ratio <= TARGET_RATIO else "OVER"
    print(f"\nWordPiece / BPE = {ratio:.2f} ({verdict} the {TARGET_RATIO:g}x target)")


if __name__ == "__main__":
    main()
