"""Benchmark: byte-level BPE on a big file (issue 36, CS336's scale), ours beside Hugging
Face tokenizers' BpeTrainer on the same file and vocabulary, in one run.

The file (``--mb``, default 200 MB) is made at run time in a temporary directory, and
deleted after, from the real text that ships in gensim's test data: the Wikipedia sample
(its markup stripped, subtok's ``sample:enwiki``), Lee's news corpus, the Pang & Lee movie
reviews, the IMDB sentences (alldata-id-10) and the Russian excerpt of Crime and
Punishment. Repeating a few MB of text would leave the number of distinct words fixed,
which flatters counting and training; so the file is made of documents of 5 to 30 lines
drawn at random (seeded) from that text, each opened by a numbered title ("Story 48213.")
and closed by ``<|endoftext|>`` on its own line, as in TinyStories, and in one line of
four a word is replaced by two words of the pool run together ("harbourcouncil"): the
number of distinct pre-tokens grows with the file, as in real text (printed).

Each trainer runs in its own process, one after the other, timed from the outside (start-up
included), its peak memory sampled every 0.05 s from /proc: the resident memory of the
process and all its children added up (pages shared by forked workers count once per
process, so this overstates ours a little).

- ours: what ``subtok train bytebpe --corpus FILE --vocab-size V-1 --special
  '<|endoftext|>' --ties tokenizers --out model.json`` runs (stream_cli.count with the
  default --workers, one per CPU, then the trainer), with the time of each part;
- tokenizers: ``Tokenizer(BPE())``, ByteLevel pre-tokenizer (no prefix space), BpeTrainer
  (vocab V, the special token, the ByteLevel alphabet), ``train([FILE])``; its threads
  are as many as the CPUs.

Both make V - 257 merges (V counts the special token for tokenizers; ours does not keep
special tokens in a vocabulary). tokenizers' trainer does not cut the text at the special
token, it learns ``<|`` and ``endoftext`` like other text; ours cuts there, as CS336 asks.
So the merges agree until the first that involves those pieces (printed).

Measured on 2026-11-28 (2 CPUs shared, load average 17 to 24): 200 MB, 291,606 distinct
pre-tokens, ours 345.9 s and 244 MB at its peak, tokenizers 430.9 s and 409 MB (0.80x);
1 GB (``--only ours``, load 25 to 33): 1,169,240 distinct, 1,827 s, 851 MB.

Not a test and not run by CI. Usage (from the repository root)::

    python bench/scale.py                         # 200 MB, both trainers
    python bench/scale.py --mb 1000 --only ours   # 1 GB
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EOT = "<|endoftext|>"
SOURCES = ("lee_background.cor", "pang_lee_polarity.cor", "alldata-id-10.txt",
           "crime-and-punishment.txt")  # fmt: skip

OURS = """
import json, sys, time
from subtok_core import export, stream_cli
from subtok_core.bytebpe.train import Chunked, train_bytebpe
from subtok_core.corpus.stream import Split
path, vocab, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
counts = stream_cli.count(path, Split("gpt2", specials=("<|endoftext|>",)), None)
counted = time.perf_counter()
model = train_bytebpe(Chunked(counts, "gpt2"), vocab_size=vocab, ties="tokenizers")
export.save_model(model, out)
print(json.dumps({"count_s": counted - start, "merge_s": time.perf_counter() - counted,
                  "distinct": len(counts), "chunks": counts.total}))
"""

THEIRS = """
import json, sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
path, vocab, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
trainer = trainers.BpeTrainer(vocab_size=vocab, show_progress=False,
                              special_tokens=["<|endoftext|>"],
                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
tok.train([path], trainer)
merges = json.loads(tok.to_str())["model"]["merges"]
json.dump([list(m) for m in merges], open(out, "w"))
print(json.dumps({}))
"""


def pool_lines() -> list[str]:
    """The real text lines of gensim's test data (see the docstring), read at run time."""
    sys.path.insert(0, str(ROOT))
    from subtok_core.corpus import sample_lines
    from subtok_core.corpus.samples import _gensim_data

    lines = list(sample_lines("enwiki"))
    for name in SOURCES:
        text = (_gensim_data() / name).read_text(encoding="utf-8", errors="replace")
        lines += text.splitlines()
    lines = [" ".join(line.split()) for line in lines]
    return [line for line in lines if line]


def make_file(path: Path, megabytes: float, seed: int = 36) -> dict:
    """Write documents until the file has `megabytes` MB (see the docstring)."""
    rng = random.Random(seed)
    lines = pool_lines()
    words = sorted({w for line in lines for w in line.split() if w.isalpha()})
    goal, size, docs = int(megabytes * 1024 * 1024), 0, 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        while size < goal:
            batch = []
            for _ in range(200):
                docs += 1
                body = rng.choices(lines, k=rng.randint(5, 30))
                for i in range(0, len(body), 4):
                    cut = body[i].split(" ")
                    cut[rng.randrange(len(cut))] = rng.choice(words) + rng.choice(words).lower()
                    body[i] = " ".join(cut)
                batch.append(f"Story {rng.randrange(100_000)}.\n" + "\n".join(body) + f"\n{EOT}\n")
            text = "".join(batch)
            fh.write(text)
            size += len(text.encode("utf-8"))
    return {"mb": size / 1024 / 1024, "documents": docs, "pool_lines": len(lines)}


def tree_rss(pid: int) -> int:
    """Resident bytes of process `pid` and all its descendants (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    family, grew = {pid}, True
    while grew:
        more = {p for p, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return sum(rss.get(p, 0) for p in family)


def run(code: str, args: list[str]) -> tuple[float, int, dict]:
    """Run a child; (wall seconds, peak resident bytes of its tree, what it printed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, *args], env=env,
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    peak = [0]

    def sample() -> None:
        while child.poll() is None:
            peak[0] = max(peak[0], tree_rss(child.pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=sample)
    watcher.start()
    try:
        out, _ = child.communicate()
    finally:  # stopped (SIGTERM): stop the child too (its pool workers end with it)
        if child.poll() is None:
            child.terminate()
    wall = time.perf_counter() - start
    watcher.join()
    if child.returncode:
        raise SystemExit(f"the child failed with status {child.returncode}")
    return wall, peak[0], json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200, help="size of the file (default 200)")
    parser.add_argument("--vocab-size", type=int, default=10_000)
    parser.add_argument("--only", choices=("ours", "tokenizers"), help="run one trainer")
    args = parser.parse_args()
    import signal

    import tokenizers

    # stopped with kill (SIGTERM): leave through the `with` below, which deletes the file
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))

    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"tokenizers {tokenizers.__version__}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.txt"
        start = time.perf_counter()
        made = make_file(path, args.mb)
        print(f"file: {made['mb']:,.0f} MB, {made['documents']:,} documents from "
              f"{made['pool_lines']:,} lines of gensim's test data "
              f"(made in {time.perf_counter() - start:.0f} s)")  # fmt: skip
        rows = {}
        print(f"\nbyte-level BPE to {args.vocab_size:,} on {made['mb']:,.0f} MB:")
        print(f"{'':<12} {'wall s':>8} {'peak MB':>9}", flush=True)
        if args.only != "tokenizers":
            ours_out = str(Path(tmp) / "ours.json")
            rows["ours"] = run(OURS, [str(path), str(args.vocab_size - 1), ours_out])
            info = rows["ours"][2]
            show("ours", rows["ours"])
            print(f"  {info['chunks']:,} pre-tokens, {info['distinct']:,} distinct; "
                  f"counted in {info['count_s']:.1f} s, "
                  f"merged in {info['merge_s']:.1f} s", flush=True)  # fmt: skip
        if args.only != "ours":
            theirs_out = str(Path(tmp) / "theirs.json")
            rows["tokenizers"] = run(THEIRS, [str(path), str(args.vocab_size), theirs_out])
            show("tokenizers", rows["tokenizers"])
        if len(rows) == 2:
            ratio = rows["ours"][0] / rows["tokenizers"][0]
            print(f"{'ours/theirs':<12} {ratio:7.2f}x  target <= 1.5x, ours under 1,024 MB")
            k, ours_k, theirs_k = agreed(ours_out, theirs_out)
            print(f"merges: the first {k:,} agree; then ours {ours_k}, tokenizers' {theirs_k}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


def show(name: str, row: tuple[float, int, dict]) -> None:
    wall, peak, _ = row
    print(f"{name:<12} {wall:8.1f} {peak / 1024 / 1024:9.0f}", flush=True)


def agreed(ours_path: str, theirs_path: str) -> tuple[int, tuple, tuple]:
    """How many merges, from the first, are the same in both runs, and the next of each."""
    sys.path.insert(0, str(ROOT))
    from subtok_core.export import load_model

    ours = [tuple(m) for m in load_model(ours_path).merges]
    theirs = [tuple(m) for m in json.loads(Path(theirs_path).read_text(encoding="utf-8"))]
    k = 0
    while k < min(len(ours), len(theirs)) and ours[k] == theirs[k]:
        k += 1
    return k, (ours + [()])[k], (theirs + [()])[k]


if __name__ == "__main__":
    main()
