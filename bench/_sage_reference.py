"""Reference run of the SaGe authors' package (sage-tokenizer 2.0.0) on a sentences file.

Not part of subtok: it runs in its own venv, because the package pins gensim 4.3.2 and numpy<2.

    python3 -m venv /tmp/sage-ref-venv
    /tmp/sage-ref-venv/bin/pip install sage-tokenizer==2.0.0 tokenizers
    /tmp/sage-ref-venv/bin/python bench/_sage_reference.py SENTENCES.txt OUT_DIR

SENTENCES.txt holds one sentence a line (the issue's benchmark: the 2,682 sentences of gensim's
Lee corpus). The script trains a 1,200-token byte-level BPE vocabulary with `tokenizers` (all 256
single bytes + merges, hex-encoded one a line: the package's format), then runs the package's
SaGeVocabBuilder from 1,200 to 1,000 tokens in 4 steps of 50, re-ranking every step, Word2Vec
(skip-gram, 50 dims, window 5, 15 negatives) trained at 1,200 and 1,100, on 1 worker.
OUT_DIR must be new or empty: the package caches embeddings and its corpus files there.

Last line printed, JSON: wall_s (the SaGe run), init_vocab_s (the BPE vocabulary),
embeddings_s (its Word2Vec trainings, read from the package's log), peak_rss_mb (ru_maxrss of
this process + of its largest child: the package forks a pool even for 1 worker),
final_vocab_size (the active vocabulary: the tokens the last tokenization used, plus all 256
single bytes), inactive (tokens still listed but unused, not counted), final_vocab_file (that
active vocabulary, hex-encoded bytes one a line), steps, first_pruned (lowest-scored tokens of
the first step, decoded as UTF-8).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

from sage_tokenizer.HFEncoding import HFEncoding
from sage_tokenizer.SaGeVocabBuilder import SaGeVocabBuilder
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

SCHEDULE = [1200, 1150, 1100, 1050, 1000]
EMBEDDINGS_AT = [1200, 1100]
EXPERIMENT = "lee"


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


def embeddings_seconds(logs: Path) -> float:
    """The package logs "Embeddings time:<seconds>" after each Word2Vec training."""
    mark = "Embeddings time:"
    lines = (line for log in logs.glob("*.log") for line in log.read_text().splitlines())
    return sum(float(line.split(mark)[1]) for line in lines if mark in line)


def main() -> None:
    sentences, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(out)  # the package writes logs/, results/ and data/ in the working directory

    start = time.perf_counter()
    vocab = bpe_vocab(sentences, SCHEDULE[0])
    init_s = time.perf_counter() - start
    assert len(vocab) == SCHEDULE[0], len(vocab)
    vocab_file = out / "initial_vocab_hex.vocab"
    vocab_file.write_text("".join(v.hex() + "\n" for v in vocab))

    builder = SaGeVocabBuilder(
        full_vocab_schedule=list(SCHEDULE),
        embeddings_schedule=EMBEDDINGS_AT,
        max_len=max(map(len, vocab)),
        workers_number=1,
        word2vec_d=50,
        word2vec_n=15,
        word2vec_window_size=5,
        word2vec_sg=1,
    )
    start = time.perf_counter()
    builder.build_vocab(EXPERIMENT, str(sentences), str(vocab_file))
    wall_s = time.perf_counter() - start
    own, child = rss_mb()

    vocabs = out / "results" / EXPERIMENT / "sage_vocabs"
    final_file = vocabs / f"active_vocab_{SCHEDULE[-1]}.vocab"
    final = final_file.read_text().split()
    listed = (vocabs / f"sage_vocab_{SCHEDULE[-1]}.vocab").read_text().split()
    worst = (vocabs / f"worst_500_{SCHEDULE[1]}.txt").read_text(encoding="utf-8").splitlines()
    first = [
        HFEncoding().to_bytes(line.split("\t")[0]).decode("utf-8", "replace")
        for line in worst[: SCHEDULE[0] - SCHEDULE[1]]
    ]
    result = {
        "wall_s": round(wall_s, 2),
        "init_vocab_s": round(init_s, 2),
        "embeddings_s": round(embeddings_seconds(out / "logs"), 2),
        "peak_rss_mb": round(own + child, 1),
        "self_rss_mb": round(own, 1),
        "child_rss_mb": round(child, 1),
        "final_vocab_size": len(final),
        "inactive": len(listed) - len(final),
        "final_vocab_file": str(final_file),
        "steps": len(list((out / "results" / EXPERIMENT / "stats").glob("stats_*.json"))),
        "first_pruned": first[:10],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
