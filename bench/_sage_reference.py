"""Reference run of the SaGe authors' package (sage-tokenizer 2.0.0) on a sentences file.

Not part of subtok: it runs in its own venv, because the package pins gensim 4.3.2 and numpy<2.

    python3 -m venv /tmp/sage-ref-venv
    /tmp/sage-ref-venv/bin/pip install sage-tokenizer==2.0.0 tokenizers
    /tmp/sage-ref-venv/bin/python bench/_sage_reference.py SENTENCES.txt OUT_DIR \
        [--schedule 1200,1150,1100,1050,1000] [--embeddings-at 1200,1100] [--epochs 5]

SENTENCES.txt holds one sentence a line. The script trains a byte-level BPE vocabulary of the
schedule's first size with `tokenizers` (all 256 single bytes + merges, hex-encoded one a line:
the package's format), then runs the package's SaGeVocabBuilder down the schedule (every score
recomputed at every size), Word2Vec (skip-gram, 50 dims, window 5, 15 negatives, `--epochs`
epochs) trained at the `--embeddings-at` sizes, on 1 worker. The defaults are bench/sage.py's
Lee setting: 1,200 to 1,000 in 4 steps of 50, Word2Vec at 1,200 and 1,100, 5 epochs. The
package's build_vocab has no epochs option (gensim's default, 5, applies); another number is
passed by wrapping gensim's Word2Vec class, the only change made to the package's run.
OUT_DIR must be new or empty: the package caches embeddings and its corpus files there.

Last line printed, JSON: wall_s (the SaGe run), init_vocab_s (the BPE vocabulary),
embeddings_s (its Word2Vec trainings, read from the package's log), word2vec_part_s (its
get_embeddings calls: writing the tokenized corpus for gensim, then Word2Vec), scoring_s (its
run_sage_parallel calls: the ablation losses of every token, in a pool of 1 process that the
parent polls once a second), cpu_s (CPU seconds of the SaGe run, this process and its pool),
peak_rss_mb (ru_maxrss of this process + of its largest child: the package forks a pool even
for 1 worker), final_vocab_size (the active vocabulary: the tokens the last tokenization used,
plus all 256 single bytes), inactive (tokens still listed but unused, not counted),
final_vocab_file (that active vocabulary, hex-encoded bytes one a line), steps, first_pruned
(lowest-scored tokens of the first step, decoded as UTF-8).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import time
from pathlib import Path

import gensim.models
from sage_tokenizer import SaGeVocabBuilder as builder_module
from sage_tokenizer.HFEncoding import HFEncoding
from sage_tokenizer.SaGeVocabBuilder import SaGeVocabBuilder
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

GENSIM_EPOCHS = 5  # gensim's default, which the package leaves in place


def bpe_vocab(sentences: Path, size: int) -> list[bytes]:
    """A byte-level BPE vocabulary of `size` tokens, as bytes, in id order."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=size, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train([str(sentences)], trainer)
    to_bytes = HFEncoding().to_bytes
    return [to_bytes(s) for s, _ in sorted(tok.get_vocab().items(), key=lambda kv: kv[1])]


def rss_mb() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def cpu_s() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers)."""
    who = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    return sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage, who))


def timed(name: str, seconds: dict[str, float]) -> None:
    """Wrap the builder module's function `name` so that its wall time adds to seconds[name]."""
    inner = getattr(builder_module, name)

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            seconds[name] += time.perf_counter() - start

    seconds[name] = 0.0
    setattr(builder_module, name, wrapper)


def sizes(text: str) -> list[int]:
    return [int(size) for size in text.split(",")]


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sentences", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--schedule", type=sizes, default=[1200, 1150, 1100, 1050, 1000])
    parser.add_argument("--embeddings-at", type=sizes, default=[1200, 1100])
    parser.add_argument("--epochs", type=int, default=GENSIM_EPOCHS)
    parser.add_argument("--experiment", default="lee")
    return parser.parse_args()


def embeddings_seconds(logs: Path) -> float:
    """The package logs "Embeddings time:<seconds>" after each Word2Vec training."""
    mark = "Embeddings time:"
    lines = (line for log in logs.glob("*.log") for line in log.read_text().splitlines())
    return sum(float(line.split(mark)[1]) for line in lines if mark in line)


def main() -> None:
    args = arguments()
    schedule, experiment = args.schedule, args.experiment
    sentences, out = args.sentences.resolve(), args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(out)  # the package writes logs/, results/ and data/ in the working directory
    if args.epochs != GENSIM_EPOCHS:  # the package calls gensim.models.Word2Vec(...)
        gensim.models.Word2Vec = functools.partial(gensim.models.Word2Vec, epochs=args.epochs)
    parts: dict[str, float] = {}
    for name in ("get_embeddings", "run_sage_parallel"):
        timed(name, parts)

    start = time.perf_counter()
    vocab = bpe_vocab(sentences, schedule[0])
    init_s = time.perf_counter() - start
    assert len(vocab) == schedule[0], len(vocab)
    vocab_file = out / "initial_vocab_hex.vocab"
    vocab_file.write_text("".join(v.hex() + "\n" for v in vocab))

    builder = SaGeVocabBuilder(
        full_vocab_schedule=list(schedule),
        embeddings_schedule=list(args.embeddings_at),
        max_len=max(map(len, vocab)),
        workers_number=1,
        word2vec_d=50,
        word2vec_n=15,
        word2vec_window_size=5,
        word2vec_sg=1,
    )
    start, cpu_start = time.perf_counter(), cpu_s()
    builder.build_vocab(experiment, str(sentences), str(vocab_file))
    wall_s, cpu = time.perf_counter() - start, cpu_s() - cpu_start
    own, child = rss_mb()

    vocabs = out / "results" / experiment / "sage_vocabs"
    final_file = vocabs / f"active_vocab_{schedule[-1]}.vocab"
    final = final_file.read_text().split()
    listed = (vocabs / f"sage_vocab_{schedule[-1]}.vocab").read_text().split()
    worst = (vocabs / f"worst_500_{schedule[1]}.txt").read_text(encoding="utf-8").splitlines()
    first = [
        HFEncoding().to_bytes(line.split("\t")[0]).decode("utf-8", "replace")
        for line in worst[: schedule[0] - schedule[1]]
    ]
    result = {
        "wall_s": round(wall_s, 2),
        "init_vocab_s": round(init_s, 2),
        "embeddings_s": round(embeddings_seconds(out / "logs"), 2),
        "word2vec_part_s": round(parts["get_embeddings"], 2),
        "scoring_s": round(parts["run_sage_parallel"], 2),
        "cpu_s": round(cpu, 2),
        "peak_rss_mb": round(own + child, 1),
        "self_rss_mb": round(own, 1),
        "child_rss_mb": round(child, 1),
        "final_vocab_size": len(final),
        "inactive": len(listed) - len(final),
        "final_vocab_file": str(final_file),
        "steps": len(list((out / "results" / experiment / "stats").glob("stats_*.json"))),
        "first_pruned": first[:10],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
