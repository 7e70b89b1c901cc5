"""Benchmark: our SaGe against the SaGe authors' package (sage-tokenizer 2.0.0), in one run.

Two settings, each run by ours and by the reference on the same sentences file, in the
same run (the machinery is in bench/sage_runs.py):

- ``enwiki``, where SaGe is the work: the whole Wikipedia sample (``sample:enwiki`` split
  into sentences like ``sage.sample_sentences``), a 4,000-piece BPE vocabulary pruned to
  3,000 in 10 steps of 100, every piece's ablation loss recomputed at every step (m=1, as
  the reference always does), Word2Vec trained once, at the start (l=10), for 1 epoch, and
  SaGe's window 2 (the reference's ablation fixes its context at 2 tokens each side, so
  both compute the same pairs). Why: at the Lee setting below, two 5-epoch Word2Vec
  trainings are most of both runs, so that row measures gensim. Here 10 full scorings of
  every piece on the whole sample are the work: for the reference they are almost all of
  the run; for ours, much faster at them, ablation scoring is still the largest part, with
  one short Word2Vec and one BPE training the next. More steps would make the share larger
  and the reference's run longer still (several minutes a step); 4,000 pieces keeps the
  pair table (loss.MATRIX_MAX) in use. The reference prunes from its *active* vocabulary
  (the tokens its tokenization uses), so when fewer than 4,000 are active its first step
  skips to the next size of the schedule below that number.
- ``lee``, the issue's first figures: gensim's Lee corpus as sentences (2,682), 1,200
  pieces pruned to 1,000 in 4 steps of 50 (k=50, M=400, m=1, l=2: every score recomputed
  at every step, Word2Vec, 5 epochs, retrained at 1,200 and 1,100 pieces; SaGe's window 5).

Seed 1 and 1 worker everywhere. The targets: at least 5 x faster than the reference and
under a third of its peak memory (ru_maxrss; the reference's is its process + its largest
child, a pool worker). Times are wall clock; CPU seconds are printed too, because other
work may share the machine (both run in the same minutes, one after the other). The final
vocabularies are compared as text (the reference's tokens are bytes: decoded as UTF-8; our
``▁`` read as a space). Not a test and not run by CI.

Usage (from the repository root; the enwiki row takes many minutes, most of them the
reference's)::

    PYTHONPATH=. python bench/sage.py [--setting enwiki|lee|both] [--repeat 1] [--skip-reference]

The reference pins gensim 4.3.2 and numpy<2, so it gets its own venv; SAGE_REF_PYTHON
names its python (default: /tmp/sage-ref-venv/bin/python). To create it::

    python3 -m venv /tmp/sage-ref-venv
    /tmp/sage-ref-venv/bin/pip install sage-tokenizer==2.0.0 tokenizers
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
from importlib.metadata import version
from pathlib import Path

from sage_runs import (
    PARTS,
    REF_PYTHON,
    Setting,
    overlap,
    reference_versions,
    run_ours,
    run_reference,
    sentences_file,
)

from subtok_core import sage

TARGET_SPEEDUP, TARGET_MEMORY = 5.0, 1 / 3
SETTINGS = {
    "enwiki": Setting(
        "enwiki", "sample:enwiki",
        sage.SageSettings(vocab_size=3000, initial_size=4000, k=100, M=100, m=1, l=10,
                          window=2, epochs=1, seed=1, workers=1),
        "10 full scorings of every piece, Word2Vec once (1 epoch), window 2 like the reference",
    ),
    "lee": Setting(
        "lee", "sample:lee",
        sage.SageSettings(vocab_size=1000, initial_size=1200, k=50, M=400, m=1, l=2,
                          seed=1, workers=1),
        "the issue's setting: Word2Vec (5 epochs) twice in 4 steps, window 5",
    ),
}  # fmt: skip


def header(setting: Setting, sizes: dict) -> None:
    print(f"== {setting.name}: {setting.why}")
    print(f"corpus {setting.corpus}: {sizes['sentences']:,} sentences, {sizes['words']:,} "
          f"words, {sizes['chars']:,} chars")  # fmt: skip
    s = setting.settings
    print(f"{s.start_size} -> {s.vocab_size} pieces, k={s.k} M={s.M} m={s.m} l={s.l}, "
          f"window {s.window}, dim {s.dim}, epochs {s.epochs}, seed {s.seed}, "
          f"workers {s.workers}; Word2Vec at {setting.embeddings_at()} pieces")  # fmt: skip


def print_ours(ours: dict) -> None:
    print(f"ours (fresh process): {ours['wall_s']:.2f} s ({ours['cpu_s']:.2f} s CPU), "
          f"peak RSS {ours['peak_rss_mb']:.0f} MB ({ours['imports_rss_mb']:.0f} MB after "
          f"importing numpy and gensim); {len(ours['steps'])} steps")  # fmt: skip
    print(f"  {'part':<36} {'seconds':>8}  calls  share")
    for key, label in PARTS:
        seconds, calls = ours["parts"][key]
        print(f"  {label:<36} {seconds:8.2f}  {calls:>5}  {seconds / ours['wall_s']:5.1%}")
    rest = ours["wall_s"] - sum(seconds for seconds, _ in ours["parts"].values())
    print(f"  {'other (ranking, pair table, loop)':<36} {rest:8.2f}         "
          f"{rest / ours['wall_s']:5.1%}")  # fmt: skip
    largest = max(PARTS, key=lambda part: ours["parts"][part[0]][0])
    print(f"  largest part: {largest[1]}")


def print_reference(ref: dict, ours: dict) -> dict:
    """The reference's figures and the ratios; returns the row of the summary table."""
    print(f"reference sage-tokenizer: SaGe {ref['wall_s']:.2f} s ({ref['cpu_s']:.2f} s CPU) "
          f"+ BPE vocabulary {ref['init_vocab_s']:.2f} s ({ref['process_s']:.1f} s with "
          f"imports), peak RSS {ref['peak_rss_mb']:.0f} MB (process {ref['self_rss_mb']:.0f} "
          f"+ largest child {ref['child_rss_mb']:.0f}); {ref['steps']} steps, final "
          f"{ref['final_vocab_size']} tokens")  # fmt: skip
    for label, key in (("ablation scoring", "scoring_s"), ("Word2Vec", "word2vec_part_s")):
        print(f"  {label:<36} {ref[key]:8.2f}  {ref[key] / ref['wall_s']:5.1%}")
    time_ratio = ref["wall_s"] / ours["wall_s"]
    both = (ref["wall_s"] + ref["init_vocab_s"]) / ours["wall_s"]
    print(f"reference / ours, time: {time_ratio:.2f} x (target: at least {TARGET_SPEEDUP:.0f} x;"
          f" ours includes its BPE training; with the reference's BPE too: {both:.2f} x; "
          f"CPU: {ref['cpu_s'] / ours['cpu_s']:.2f} x)")  # fmt: skip
    ours_w2v, ref_w2v = ours["parts"]["word2vec"][0], ref["embeddings_s"]
    rest = (ref["wall_s"] - ref_w2v) / (ours["wall_s"] - ours_w2v)
    print(f"  Word2Vec (same settings): reference {ref_w2v:.2f} s, ours {ours_w2v:.2f} s; "
          f"everything else: reference {ref['wall_s'] - ref_w2v:.2f} s, ours "
          f"{ours['wall_s'] - ours_w2v:.2f} s = {rest:.2f} x")  # fmt: skip
    ours_abl, ref_abl = ours["parts"]["ablation"][0], ref["scoring_s"]
    print(f"  ablation scoring: reference {ref_abl:.2f} s, ours {ours_abl:.2f} s = "
          f"{ref_abl / ours_abl:.1f} x")  # fmt: skip
    memory = ours["peak_rss_mb"] / ref["peak_rss_mb"]
    print(f"peak RSS: ours {ours['peak_rss_mb']:.0f} MB, reference {ref['peak_rss_mb']:.0f} MB:"
          f" ours is {memory:.1%} of it (target: under {TARGET_MEMORY:.0%})")  # fmt: skip
    return {"time": time_ratio, "cpu": ref["cpu_s"] / ours["cpu_s"], "memory": memory}


def print_vocabularies(ours: dict, ref: dict, out: Path) -> str:
    """How far the final vocabularies agree; returns the table's cell."""
    both, size, broken = overlap(ours["final_vocab"], Path(ref["final_vocab_file"]))
    start_both, start_size, _ = overlap(ours["initial_vocab"], out / "initial_vocab_hex.vocab")
    print(f"final vocabularies: {both} of {len(ours['final_vocab'])} pieces in both "
          f"({both / len(ours['final_vocab']):.1%}; the reference's {size} tokens include all "
          f"256 bytes, {broken} of them not whole UTF-8)")  # fmt: skip
    print(
        f"  (initial vocabularies: {start_both} of {start_size} in both; theirs is byte-level "
        "BPE with a space only before non-initial words, ours has ▁ before every word)"
    )
    print(f"first pruned, ours:      {' '.join(ours['first_pruned'])}")
    print(f"first pruned, reference: {' '.join(t.replace(' ', '▁') for t in ref['first_pruned'])}")
    return f"{both}/{len(ours['final_vocab'])} ({both / len(ours['final_vocab']):.0%})"


def run_setting(setting: Setting, args, folder: Path) -> dict:
    """Both runs of one setting, printed; the row of the summary table."""
    sentences = folder / f"{setting.name}_sentences.txt"
    header(setting, sentences_file(setting.corpus, sentences))
    print(f"load average (1 min) before ours: {os.getloadavg()[0]:.1f}")
    ours = run_ours(setting, sentences, args.repeat)
    print_ours(ours)
    row = {"setting": setting.name, "ours": ours, "ref": None}
    if args.skip_reference or not Path(REF_PYTHON).exists():
        print(f"reference: {'skipped' if args.skip_reference else f'no venv at {REF_PYTHON}'}"
              " (see this file's docstring to create it)\n")  # fmt: skip
        return row
    out = folder / f"{setting.name}_reference"
    print(f"load average (1 min) before the reference: {os.getloadavg()[0]:.1f}")
    ref = run_reference(setting, sentences, out)
    print(f"load average (1 min) after it: {os.getloadavg()[0]:.1f}")
    if ref is not None:
        row.update(print_reference(ref, ours), ref=ref)
        row["vocab"] = print_vocabularies(ours, ref, out)
    print()
    return row


def summary(rows: list[dict]) -> None:
    print(f"{'setting':<8} {'ours s':>8} {'ref s':>8} {'time x':>7} {'CPU x':>6} "
          f"{'ours MB':>8} {'ref MB':>7} {'memory':>7}  {'ablation share':>14}  "
          "final vocab in both")  # fmt: skip
    for row in rows:
        ours, ref = row["ours"], row["ref"]
        share = ours["parts"]["ablation"][0] / ours["wall_s"]
        if ref is None:
            print(f"{row['setting']:<8} {ours['wall_s']:8.1f} {'-':>8} {'-':>7} {'-':>6} "
                  f"{ours['peak_rss_mb']:8.0f} {'-':>7} {'-':>7}  {share:14.0%}")  # fmt: skip
            continue
        print(f"{row['setting']:<8} {ours['wall_s']:8.1f} {ref['wall_s']:8.1f} "
              f"{row['time']:7.1f} {row['cpu']:6.1f} {ours['peak_rss_mb']:8.0f} "
              f"{ref['peak_rss_mb']:7.0f} {row['memory']:7.0%}  {share:14.0%}  "
              f"{row['vocab']}")  # fmt: skip
    print(f"targets: time x at least {TARGET_SPEEDUP:.0f}, memory (ours / reference) under "
          f"{TARGET_MEMORY:.0%}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setting", choices=[*SETTINGS, "both"], default="both")
    parser.add_argument("--repeat", type=int, default=1, help="runs of ours (best kept)")
    parser.add_argument("--skip-reference", action="store_true")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"ours: numpy {version('numpy')}, gensim {version('gensim')}")
    ref = reference_versions() if Path(REF_PYTHON).exists() else "not installed"
    print(f"reference: {ref}; load average before: {os.getloadavg()[0]:.1f}\n")
    names = list(SETTINGS) if args.setting == "both" else [args.setting]
    with tempfile.TemporaryDirectory(prefix="sage-bench-") as folder:
        rows = [run_setting(SETTINGS[name], args, Path(folder)) for name in names]
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    summary(rows)


if __name__ == "__main__":
    main()
