"""Benchmark: our BPE trainer against tokenizers and sentencepiece, measured in one run.

Trains on the lines of ``sample:enwiki`` to the same vocabulary size with each library,
keeps the best of ``--repeat`` runs, prints seconds and the ratios ours/reference, and
checks that our merges (marker none, ties ``tokenizers``) equal tokenizers' merges.
Not a test and not run by CI.

Usage (from the repository root)::

    PYTHONPATH=. python bench/bpe.py --vocab-size 8000 --repeat 3
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run without installing

import sentencepiece as spm  # noqa: E402
import tokenizers  # noqa: E402
from _timing import best_of, setup, train_sentencepiece  # noqa: E402  (bench/ is on sys.path when run as a script)
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402

from subtok_core.bpe import BpeModel, train_bpe  # noqa: E402
from subtok_core.corpus import count_words  # noqa: E402


def train_ours(lines: list[str], vocab_size: int) -> BpeModel:
    wc = count_words(" ".join(lines).split())
    return train_bpe(wc, vocab_size=vocab_size, ties="tokenizers")


def train_tokenizers(lines: list[str], vocab_size: int) -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tok.train_from_iterator(lines, trainer=trainer)
    return tok


def sentencepiece_bpe(lines: list[str], vocab_size: int, threads: int | None) -> bytes:
    extra = {} if threads is None else {"num_threads": threads}
    return train_sentencepiece(lines, vocab_size, "bpe", hard_vocab_limit=False, **extra)


def tokenizers_merges(tok: Tokenizer) -> list[tuple[str, str]]:
    """Merges from the tokenizer's JSON: ["a", "b"] pairs (>= 0.20) or "a b" strings."""
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in merges]


def compare_merges(ours: list[tuple[str, str]], theirs: list[tuple[str, str]]) -> str:
    same = sum(1 for a, b in zip(ours, theirs, strict=False) if a == b)
    if ours == theirs:
        return f"yes, all {len(ours)} merges equal"
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), None)
    where = (
        f"first difference at merge {first + 1}: ours {ours[first]} vs {theirs[first]}"
        if first is not None
        else "one list is a prefix of the other"
    )
    return f"NO: {same} equal positions of {len(ours)} vs {len(theirs)} merges; {where}"


def main() -> None:
    args, lines = setup(
        __doc__, f"tokenizers {tokenizers.__version__}, sentencepiece {spm.__version__}"
    )

    rows: list[tuple[str, float | None, str]] = []
    ours_s, ours = best_of(args.repeat, lambda: train_ours(lines, args.vocab_size))
    rows.append(("ours (count_words + train_bpe)", ours_s, f"{len(ours.vocab)} symbols"))
    tok_s, tok = best_of(args.repeat, lambda: train_tokenizers(lines, args.vocab_size))
    rows.append(("tokenizers BpeTrainer", tok_s, f"{tok.get_vocab_size()} symbols"))
    spm_runs = [
        ("sentencepiece bpe, num_threads=1", 1),
        ("sentencepiece bpe, default threads", None),
    ]
    for label, threads in spm_runs:
        try:
            spm_s, model = best_of(
                args.repeat, lambda t=threads: sentencepiece_bpe(lines, args.vocab_size, t)
            )
            pieces = spm.SentencePieceProcessor(model_proto=model).get_piece_size()
            rows.append((label, spm_s, f"{pieces} pieces"))
        except Exception as err:  # measure what works, report what does not
            rows.append((label, None, f"failed: {err}"))

    print(f"{'trainer':<36} {'seconds':>8} {'ours/this':>10}  size")
    for label, seconds, note in rows:
        secs = f"{seconds:8.2f}" if seconds is not None else f"{'-':>8}"
        ratio = f"{ours_s / seconds:10.2f}" if seconds else f"{'-':>10}"
        print(f"{label:<36} {secs} {ratio}  {note}")
    print(
        "\nour merges == tokenizers' merges:",
        compare_merges(list(ours.merges), tokenizers_merges(tok)),
    )


if __name__ == "__main__":
    main()
