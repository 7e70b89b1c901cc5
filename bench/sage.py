"""Benchmark: our SaGe against the SaGe authors' package (sage-tokenizer 2.0.0), in one run.

The issue's setting: gensim's Lee corpus split into sentences (``sage.sample_sentences``,
2,682 sentences), a 1,200-piece BPE vocabulary pruned to 1,000 in 4 steps of 50 (k=50,
M=400, m=1, l=2: every score recomputed at every step, Word2Vec retrained at 1,200 and
1,100 pieces; seed 1, 1 worker). Our SaGe runs in a fresh child process, so its peak RSS
(ru_maxrss) is its own; the child times the parts of the run by wrapping the core's
functions (BPE training, tokenizing the sample, Word2Vec, ablation losses, the eq. (1)
loss, re-tokenizing after a prune). The reference runs ``bench/_sage_reference.py`` in its
own venv on the same sentences file, in the same run; the targets are a 5 x speedup and a
peak of at most 300 MB. The final vocabularies are compared as text (the reference's
tokens are bytes: decoded as UTF-8; our ``▁`` read as a space). Not a test and not run by
CI.

Usage (from the repository root)::

    PYTHONPATH=. python bench/sage.py [--repeat 1] [--skip-reference]

The reference pins gensim 4.3.2 and numpy<2, so it gets its own venv; SAGE_REF_PYTHON
names its python (default: /tmp/sage-ref-venv/bin/python). To create it::

    python3 -m venv /tmp/sage-ref-venv
    /tmp/sage-ref-venv/bin/pip install sage-tokenizer==2.0.0 tokenizers
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))  # run without installing

from _timing import best_of  # noqa: E402  (bench/ is on sys.path when run as a script)

from subtok_core import sage  # noqa: E402

CORPUS = "sample:lee"
SETTINGS = sage.SageSettings(
    vocab_size=1000, initial_size=1200, k=50, M=400, m=1, l=2, seed=1, workers=1
)
REF_PYTHON = os.environ.get("SAGE_REF_PYTHON", "/tmp/sage-ref-venv/bin/python")
ISSUE_REFERENCE = {"wall_s": 35.0, "peak_rss_mb": 840.0}  # the issue's figures, for reference
TARGET_SPEEDUP, TARGET_MB = 5.0, 300.0
PARTS = [  # (key, label); "tokenize" is prepare minus BPE training
    ("bpe", "BPE training to 1,200 pieces"),
    ("tokenize", "tokenizing the sample (greedy)"),
    ("word2vec", "Word2Vec trainings"),
    ("ablation", "ablation-loss scoring"),
    ("loss", "eq. (1) loss of the sample"),
    ("retokenize", "re-tokenizing after each prune"),
]


# --- the child: our SaGe, timed part by part ------------------------------------------------


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def _timed(owner, name: str, totals: dict, calls: dict, key: str) -> None:
    """Replace owner.name by a wrapper adding its wall time to totals[key]."""
    inner = getattr(owner, name)

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - start
            calls[key] += 1

    setattr(owner, name, wrapper)


def child(sentences_file: str, repeat: int) -> None:
    """Run our SaGe `repeat` times on the sentences file; print one JSON line."""
    import gensim.models  # noqa: F401  (imported now, so "after imports" includes it)

    from subtok_core.sage import train as sage_train
    from subtok_core.sage.corpus import SentenceCorpus

    after_imports = peak_mb()
    text = Path(sentences_file).read_text(encoding="utf-8")
    sentences = [line.split() for line in text.splitlines()]
    totals: dict[str, float] = {}
    calls: dict[str, int] = {}
    for key, owner, name in [  # wrapped where the trainer (sage/train.py) looks them up
        ("bpe", sage_train.bpe, "trace_bpe"),
        ("prepare", sage_train, "prepare"),
        ("word2vec", sage_train, "train_embeddings"),
        ("ablation", sage_train, "ablation_losses"),
        ("loss", sage_train, "corpus_loss"),
        ("retokenize", SentenceCorpus, "remove"),
    ]:
        _timed(owner, name, totals, calls, key)

    def run():
        for key in ("bpe", "prepare", "word2vec", "ablation", "loss", "retokenize"):
            totals[key], calls[key] = 0.0, 0
        return sage.trace_sage(sentences, SETTINGS)

    wall, trace = best_of(repeat, run)
    parts = {**totals, "tokenize": totals["prepare"] - totals["bpe"]}
    counted = {**calls, "tokenize": calls["prepare"]}
    result = {
        "wall_s": wall,
        "peak_rss_mb": peak_mb(),
        "imports_rss_mb": after_imports,
        "parts": {key: [parts[key], counted[key]] for key, _ in PARTS},
        "steps": [[s.vocab_size, s.retrained_embeddings] for s in trace.steps],
        "first_pruned": [p for p, _ in trace.steps[0].pruned[:10]],
        "initial_vocab": list(trace.start.vocab),
        "final_vocab": list(sage.model_from_trace(trace).vocab),
    }
    print(json.dumps(result, ensure_ascii=False))


# --- the parent: run both, compare --------------------------------------------------------


def last_json_line(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


def run_ours(sentences_file: Path, repeat: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent)}
    cmd = [sys.executable, __file__, "--child", str(sentences_file), "--repeat", str(repeat)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"our SaGe failed:\n{done.stderr[-2000:]}")
    return last_json_line(done.stdout)


def run_reference(sentences_file: Path, out: Path) -> dict | None:
    """The authors' package on the same file; None (with the reason printed) if it fails."""
    script = str(BENCH / "_sage_reference.py")
    start = time.perf_counter()
    cmd = [REF_PYTHON, script, str(sentences_file), str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"reference run failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
        return None
    return {**last_json_line(done.stdout), "process_s": time.perf_counter() - start}


def reference_versions() -> str:
    code = "import importlib.metadata as m; print(*(m.version(p) for p in {}))"
    packages = ("sage-tokenizer", "gensim", "numpy", "tokenizers")
    cmd = [REF_PYTHON, "-c", code.format(packages)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    values = done.stdout.split() if done.returncode == 0 else ["?"] * len(packages)
    return ", ".join(f"{p} {v}" for p, v in zip(packages, values, strict=True))


def as_text(hex_tokens: list[str]) -> tuple[set[str], int]:
    """The reference's hex-encoded byte tokens as text, and how many are not whole UTF-8."""
    texts, broken = set(), 0
    for token in hex_tokens:
        try:
            texts.add(bytes.fromhex(token).decode("utf-8"))
        except UnicodeDecodeError:
            broken += 1
    return texts, broken


def overlap(ours: list[str], ref_file: Path) -> tuple[int, int, int]:
    """Pieces in both vocabularies (▁ read as a space), the reference's size, and how many
    of its tokens are partial UTF-8 sequences."""
    tokens = ref_file.read_text().split()
    theirs, broken = as_text(tokens)
    return len({p.replace("▁", " ") for p in ours} & theirs), len(tokens), broken


def header(sentences: list[list[str]], ref_available: bool) -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"ours: numpy {version('numpy')}, gensim {version('gensim')}")
    print(f"reference: {reference_versions() if ref_available else 'not installed'}")
    words = sum(map(len, sentences))
    chars = sum(len(" ".join(s)) for s in sentences)
    print(f"corpus {CORPUS}: {len(sentences)} sentences, {words} words, {chars} chars")
    s = SETTINGS
    print(f"{s.initial_size} -> {s.vocab_size} pieces, k={s.k} M={s.M} m={s.m} l={s.l}, "
          f"dim {s.dim}, seed {s.seed}, workers {s.workers}\n")  # fmt: skip


def print_ours(ours: dict, repeat: int) -> None:
    sizes = " -> ".join(str(size) for size, _ in ours["steps"])
    retrained = [i + 1 for i, (_, again) in enumerate(ours["steps"]) if again]
    print(f"ours (fresh process, best of {repeat}): {ours['wall_s']:.2f} s, "
          f"peak RSS {ours['peak_rss_mb']:.0f} MB "
          f"({ours['imports_rss_mb']:.0f} MB after importing numpy and gensim)")  # fmt: skip
    print(f"  steps: {sizes}; embeddings retrained at steps {retrained}")
    print(f"  {'part':<36} {'seconds':>8}  calls  share")
    for key, label in PARTS:
        seconds, calls = ours["parts"][key]
        print(f"  {label:<36} {seconds:8.2f}  {calls:>5}  {seconds / ours['wall_s']:5.1%}")
    rest = ours["wall_s"] - sum(seconds for seconds, _ in ours["parts"].values())
    print(f"  {'other (ranking, records, loop)':<36} {rest:8.2f}")


def print_reference(ref: dict, ours: dict) -> None:
    print(f"\nreference sage-tokenizer (same sentences file): SaGe {ref['wall_s']:.2f} s "
          f"+ BPE vocabulary {ref['init_vocab_s']:.2f} s ({ref['process_s']:.1f} s with "
          f"imports), peak RSS {ref['peak_rss_mb']:.0f} MB (process {ref['self_rss_mb']:.0f} "
          f"+ largest child {ref['child_rss_mb']:.0f}); {ref['steps']} steps, final "
          f"{ref['final_vocab_size']} tokens")  # fmt: skip
    speedup = ref["wall_s"] / ours["wall_s"]
    both = (ref["wall_s"] + ref["init_vocab_s"]) / ours["wall_s"]
    print(
        f"\nreference / ours, time: {speedup:.2f} x (target: at least {TARGET_SPEEDUP:.0f} x;"
        f" ours includes its BPE training; with the reference's BPE too: {both:.2f} x)"
    )
    ours_w2v, ref_w2v = ours["parts"]["word2vec"][0], ref["embeddings_s"]
    rest = (ref["wall_s"] - ref_w2v) / (ours["wall_s"] - ours_w2v)
    print(f"  Word2Vec (2 trainings, same settings): reference {ref_w2v:.2f} s, ours "
          f"{ours_w2v:.2f} s; everything else: reference {ref['wall_s'] - ref_w2v:.2f} s, "
          f"ours {ours['wall_s'] - ours_w2v:.2f} s = {rest:.2f} x")  # fmt: skip
    print(f"  {TARGET_SPEEDUP:.0f} x would mean ours in {ref['wall_s'] / TARGET_SPEEDUP:.2f} s")
    print(f"peak RSS: ours {ours['peak_rss_mb']:.0f} MB (target: at most {TARGET_MB:.0f} MB), "
          f"reference {ref['peak_rss_mb']:.0f} MB = "
          f"{ref['peak_rss_mb'] / ours['peak_rss_mb']:.1f} x ours")  # fmt: skip


def print_unmeasured(ours: dict, why: str) -> None:
    print(f"\nreference: {why}. To measure it in this run, create its venv:")
    print("    python3 -m venv /tmp/sage-ref-venv")
    print("    /tmp/sage-ref-venv/bin/pip install sage-tokenizer==2.0.0 tokenizers")
    ref = ISSUE_REFERENCE
    print(f"the issue's reference figures (not measured in this run): about "
          f"{ref['wall_s']:.0f} s, {ref['peak_rss_mb']:.0f} MB -> reference / ours about "
          f"{ref['wall_s'] / ours['wall_s']:.1f} x (target {TARGET_SPEEDUP:.0f} x); ours "
          f"{ours['peak_rss_mb']:.0f} MB (target at most {TARGET_MB:.0f} MB)")  # fmt: skip


def print_vocabularies(ours: dict, ref: dict, out: Path) -> None:
    both, size, broken = overlap(ours["final_vocab"], Path(ref["final_vocab_file"]))
    start_both, start_size, _ = overlap(ours["initial_vocab"], out / "initial_vocab_hex.vocab")
    print(f"\nfinal vocabularies: {both} of {len(ours['final_vocab'])} pieces in both "
          f"({both / len(ours['final_vocab']):.1%}; the reference's {size} tokens include all "
          f"256 bytes, {broken} of them not whole UTF-8)")  # fmt: skip
    print(
        f"  (initial vocabularies: {start_both} of {start_size} in both; theirs is byte-level "
        "BPE with a space only before non-initial words, ours has ▁ before every word)"
    )
    print(f"first pruned, ours:      {' '.join(ours['first_pruned'])}")
    print(f"first pruned, reference: {' '.join(t.replace(' ', '▁') for t in ref['first_pruned'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of ours (best kept)")
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--child", metavar="SENTENCES", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.repeat)
        return
    sentences = sage.sample_sentences(CORPUS)
    ref_available = Path(REF_PYTHON).exists() and not args.skip_reference
    header(sentences, ref_available)
    with tempfile.TemporaryDirectory(prefix="sage-bench-") as folder:
        sentences_file = Path(folder) / "lee_sentences.txt"
        sentences_file.write_text("".join(" ".join(s) + "\n" for s in sentences), "utf-8")
        ours = run_ours(sentences_file, args.repeat)
        print_ours(ours, args.repeat)
        if not ref_available:
            why = "skipped" if args.skip_reference else f"no venv at {REF_PYTHON}"
            print_unmeasured(ours, why)
            return
        out = Path(folder) / "reference"
        ref = run_reference(sentences_file, out)
        if ref is None:
            print_unmeasured(ours, "the run failed")
            return
        print_reference(ref, ours)
        print_vocabularies(ours, ref, out)


if __name__ == "__main__":
    main()
