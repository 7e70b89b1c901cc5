"""What bench/sage.py runs: our SaGe in a fresh child process, timed part by part, and the
SaGe authors' package (bench/_sage_reference.py) in its own venv, on one sentences file.
Not a benchmark by itself (bench/sage.py chooses the settings and prints the table).

The parent only writes files and prints: the sample is read and split into sentences in a
child too, because a child's ru_maxrss starts from its parent's RSS when it is started.
Our child times the parts of the run by wrapping the core's functions where the trainer
(subtok_core/sage/train.py) looks them up: BPE training, tokenizing the sample, Word2Vec,
ablation losses, the eq. (1) loss, re-tokenizing after a prune. Its peak RSS (ru_maxrss) is
its own. The reference gets the same schedule: the vocabulary sizes after each of our
prune steps, Word2Vec retrained at the sizes where we retrain it, the same epochs.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))  # run without installing

from _timing import best_of  # noqa: E402  (bench/ is on sys.path when run as a script)

from subtok_core import sage  # noqa: E402

REF_PYTHON = os.environ.get("SAGE_REF_PYTHON", "/tmp/sage-ref-venv/bin/python")
PARTS = [  # (key, label); "tokenize" is prepare minus BPE training
    ("bpe", "BPE training to the initial size"),
    ("tokenize", "tokenizing the sample (greedy)"),
    ("word2vec", "Word2Vec trainings"),
    ("ablation", "ablation-loss scoring"),
    ("loss", "eq. (1) loss of the sample"),
    ("retokenize", "re-tokenizing after each prune"),
]


@dataclass(frozen=True)
class Setting:
    """One row of the benchmark: a sample, our settings, and why they were chosen."""

    name: str
    corpus: str
    settings: sage.SageSettings
    why: str

    def schedule(self) -> list[int]:
        """The vocabulary size before the first prune and after each one (k at a time)."""
        s = self.settings
        return [max(s.start_size - i * s.k, s.vocab_size) for i in range(sage.steps_needed(s) + 1)]

    def embeddings_at(self) -> list[int]:
        """The sizes at which Word2Vec is (re)trained: every l x m steps from the first."""
        s = self.settings
        return self.schedule()[: -1 : s.l * s.m]


# --- the child: our SaGe, timed part by part ------------------------------------------------


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def cpu_s(who: int = resource.RUSAGE_SELF) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


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


def child(sentences_file: str, settings_json: str, repeat: int) -> None:
    """Run our SaGe `repeat` times on the sentences file; print one JSON line."""
    import gensim.models  # noqa: F401  (imported now, so "after imports" includes it)

    from subtok_core.sage import train as sage_train
    from subtok_core.sage.corpus import SentenceCorpus

    settings = sage.SageSettings(**json.loads(settings_json))
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
        return sage.trace_sage(sentences, settings)

    cpu_before = cpu_s()
    wall, trace = best_of(repeat, run)
    parts = {**totals, "tokenize": totals["prepare"] - totals["bpe"]}
    counted = {**calls, "tokenize": calls["prepare"]}
    result = {
        "wall_s": wall,
        "cpu_s": (cpu_s() - cpu_before) / repeat,
        "peak_rss_mb": peak_mb(),
        "imports_rss_mb": after_imports,
        "parts": {key: [parts[key], counted[key]] for key, _ in PARTS},
        "steps": [[s.vocab_size, s.retrained_embeddings] for s in trace.steps],
        "first_pruned": [p for p, _ in trace.steps[0].pruned[:10]],
        "initial_vocab": list(trace.start.vocab),
        "final_vocab": list(sage.model_from_trace(trace).vocab),
    }
    print(json.dumps(result, ensure_ascii=False))


def write_sentences(corpus: str, path: str) -> None:
    """The sample as sentences (``sage.sample_sentences``), one a line; print their sizes."""
    sentences = sage.sample_sentences(corpus)
    Path(path).write_text("".join(" ".join(s) + "\n" for s in sentences), "utf-8")
    words, chars = sum(map(len, sentences)), sum(len(" ".join(s)) for s in sentences)
    print(json.dumps({"sentences": len(sentences), "words": words, "chars": chars}))


# --- the parent: run both ------------------------------------------------------------------


def sentences_file(corpus: str, path: Path) -> dict:
    """Write the sample's sentences to `path` (in a child process); their counts."""
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent)}
    cmd = [sys.executable, __file__, "--sentences", corpus, str(path)]
    return last_json_line(subprocess.run(cmd, capture_output=True, text=True, env=env).stdout)


def last_json_line(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


def run_ours(setting: Setting, sentences_file: Path, repeat: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent)}
    settings = json.dumps(asdict(setting.settings))
    cmd = [sys.executable, __file__, str(sentences_file), settings, str(repeat)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"our SaGe failed:\n{done.stderr[-2000:]}")
    return last_json_line(done.stdout)


def run_reference(setting: Setting, sentences_file: Path, out: Path) -> dict | None:
    """The authors' package on the same file and schedule; None (with the reason printed)
    if it fails."""
    start = time.perf_counter()
    cmd = [
        REF_PYTHON, str(BENCH / "_sage_reference.py"), str(sentences_file), str(out),
        "--schedule", ",".join(map(str, setting.schedule())),
        "--embeddings-at", ",".join(map(str, setting.embeddings_at())),
        "--epochs", str(setting.settings.epochs), "--experiment", setting.name,
    ]  # fmt: skip
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


if __name__ == "__main__":  # a child: --sentences CORPUS PATH, or SENTENCES SETTINGS REPEAT
    if sys.argv[1] == "--sentences":
        write_sentences(sys.argv[2], sys.argv[3])
    else:
        child(sys.argv[1], sys.argv[2], int(sys.argv[3]))
