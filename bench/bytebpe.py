"""Benchmark: byte-level BPE, ours against tokenizers and tiktoken, measured in one run.

1. Training on the lines of ``sample:enwiki`` to ``--vocab-size`` (256 bytes included):
   our trainer (GPT-2's pattern, ties ``tokenizers``) against Hugging Face's BpeTrainer
   with the ByteLevel pre-tokenizer; prints seconds, the ratio (target: within 3x) and
   whether the merges are equal.
2. Encoding the whole Lee sample with cl100k_base's ranks: our pure-Python encoder (a
   fresh one, cold cache, then warm) against tiktoken (ids only, and with the character
   spans our pretrained wrapper adds, the same Encoded as ours); prints the ratios and
   checks the ids.
3. Encoding one typed sentence as the page does (replay of every chunk, cold cache):
   target under 100 ms.

Not a test and not run by CI. Usage (from the repository root)::

    PYTHONPATH=. python bench/bytebpe.py --vocab-size 8000 --repeat 3
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run without installing

import tiktoken  # noqa: E402
import tokenizers  # noqa: E402
from _timing import best_of, setup  # noqa: E402  (bench/ is on sys.path when run as a script)
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402

from subtok_core import registry  # noqa: E402
from subtok_core.bytebpe import encode_text, replay_text, train_bytebpe  # noqa: E402
from subtok_core.bytebpe.ranks import CL100K_PATTERN, Encoder, for_ranks  # noqa: E402
from subtok_core.corpus import load_lines  # noqa: E402
from subtok_core.pretrained.tiktoken_based import cl100k_ranks  # noqa: E402

SENTENCE = "Tokenizers split “naïve” café text, 12345 numbers and emoji 😀🦜 into bytes."


def train_tokenizers(lines: list[str], vocab_size: int) -> list[tuple[str, str]]:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )  # fmt: skip
    tok.train_from_iterator(lines, trainer=trainer)
    return [tuple(m) for m in json.loads(tok.to_str())["model"]["merges"]]


def fresh_cl100k() -> Encoder:
    """Our encoder on cl100k_base's ranks with an empty chunk cache (for_tokenizer's is
    shared and would be warm after the first run)."""
    return for_ranks("cl100k_base", CL100K_PATTERN, cl100k_ranks())


def tiktoken_cl100k() -> tiktoken.Encoding:
    from subtok_core.pretrained.tiktoken_based import CL100K_SPECIALS

    ranks = cl100k_ranks()
    return tiktoken.Encoding(
        "cl100k_base", pat_str=CL100K_PATTERN, mergeable_ranks=ranks, special_tokens=CL100K_SPECIALS
    )


def row(label: str, seconds: float, reference: float | None, note: str = "") -> None:
    ratio = f"{seconds / reference:9.1f}x" if reference else f"{'':>10}"
    print(f"{label:<46} {seconds:9.3f} {ratio}  {note}")


def main() -> None:
    args, lines = setup(
        __doc__, f"tokenizers {tokenizers.__version__}, tiktoken {tiktoken.__version__}"
    )
    print(f"{'':<46} {'seconds':>9} {'ours/ref':>10}")

    # 1. training
    ours_s, model = best_of(
        args.repeat, lambda: train_bytebpe(lines, vocab_size=args.vocab_size, ties="tokenizers")
    )
    hf_s, hf = best_of(args.repeat, lambda: train_tokenizers(lines, args.vocab_size))
    row("train, tokenizers BpeTrainer (ByteLevel)", hf_s, None, f"{len(hf)} merges")
    same = "equal" if list(model.merges) == hf else "DIFFERENT"
    row("train, ours (gpt2 pattern, ties tokenizers)", ours_s, hf_s, f"merges {same}")

    # 2. encoding the Lee sample with cl100k_base's ranks
    text = "\n".join(load_lines("sample:lee"))
    lib = tiktoken_cl100k()
    lib_s, expected = best_of(args.repeat, lambda: lib.encode_ordinary(text))
    row(f"Lee ({len(text):,} chars), tiktoken", lib_s, None, f"{len(expected):,} tokens")
    wrap_s, _ = best_of(args.repeat, lambda: registry.pretrained("cl100k_base").encode(text))
    row("Lee, tiktoken + character spans (pretrained/)", wrap_s, None, "the same Encoded as ours")
    cold_s, coded = best_of(args.repeat, lambda: encode_text(fresh_cl100k(), text))
    same = "equal" if coded.ids == tuple(expected) else "DIFFERENT"
    row("Lee, ours, cold cache", cold_s, lib_s, f"ids {same}")
    warm = fresh_cl100k()
    encode_text(warm, text)
    warm_s, _ = best_of(args.repeat, lambda: encode_text(warm, text))
    row("Lee, ours, warm cache", warm_s, lib_s, f"{warm_s / wrap_s:.1f}x tiktoken + spans")

    # 3. one typed sentence, as the page encodes and replays it
    one_s, _ = best_of(args.repeat, lambda: replay_text(fresh_cl100k(), SENTENCE))
    row(f"one sentence ({len(SENTENCE)} chars), replay, cold", one_s, None, "target < 0.100")


if __name__ == "__main__":
    main()
