"""One measurement of bench/scaling.py, in a process of its own (not a benchmark itself).

    python bench/_scaling_child.py TOOL ALGORITHM LINES_FILE VOCAB_SIZE [train-only]

TOOL is ``ours`` or ``ref``; ALGORITHM is ``bpe``, ``wordpiece`` or ``unigram``. The child
reads the lines, trains one tokenizer, encodes the same lines with it (not with
``train-only``) and prints one JSON object: the CPU seconds of each phase (``*_s``, every
thread of the process counted), its wall seconds (``*_wall``) and the peak resident memory
in KiB after reading the lines, after training and after encoding. CPU time is what the
tables show: on a machine shared with other work, wall time measures the neighbours too.
A fresh process per measurement means one trainer's memory never counts against another's.

The peak is VmHWM of /proc/self/status, the high-water mark of this process's own memory
since it started. Not ru_maxrss: Linux carries a process's ru_maxrss across exec, so a
child of a 400 MB parent reports 400 MB before it has done anything (checked here).

Ours: the words are split and counted (``count_words``, what the app does to an upload),
then trained as the Compare page trains them (the registry's ``for_compare``, which keeps
the trace the pages step through), then encoded as Compare encodes (``tokenize_with``).
The references: ``tokenizers``' BpeTrainer and WordPieceTrainer (whitespace split, then
``encode_batch``) and ``sentencepiece``'s unigram trainer (then ``encode``), all on one
thread: the parent sets TOKENIZERS_PARALLELISM=false, and sentencepiece gets
``num_threads=1``. Their counting is inside their training, so ours is reported as
counting + training too.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))  # _timing


def peak_kib() -> int:
    """The largest resident set size of this process so far, in KiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
    except (OSError, StopIteration):  # not Linux: the best there is
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def now() -> tuple[float, float, int]:
    """Wall clock, CPU time of this process, peak memory: one point between phases."""
    return time.perf_counter(), time.process_time(), peak_kib()


def ours(algorithm: str, lines: list[str], vocab_size: int, clock: dict, encode: bool) -> int:
    from subtok_core import registry
    from subtok_core.corpus import count_words
    from subtok_core.measure.tokenized import tokenize_with

    algo = registry.get(algorithm)
    clock["base"] = now()
    wc = count_words(" ".join(lines).split())
    clock["count"] = now()
    model = algo.model_at(algo.for_compare(wc, vocab_size, None))
    clock["train"] = now()
    n_tokens = len(tokenize_with(model, lines).ids) if encode else 0
    clock["encode"] = now()
    return n_tokens


def reference(algorithm: str, lines: list[str], vocab_size: int, clock: dict, encode: bool) -> int:
    if algorithm == "unigram":
        import sentencepiece as spm
        from _timing import train_sentencepiece

        clock["base"] = clock["count"] = now()
        proto = train_sentencepiece(
            lines, vocab_size, "unigram", normalization_rule_name="identity", num_threads=1
        )
        sp = spm.SentencePieceProcessor(model_proto=proto)
        clock["train"] = now()
        n_tokens = sum(map(len, sp.encode(lines, num_threads=1))) if encode else 0
        clock["encode"] = now()
        return n_tokens
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    if algorithm == "bpe":
        tok, trainer = Tokenizer(models.BPE()), trainers.BpeTrainer(vocab_size=vocab_size)
    else:  # its WordPiece trainer learns BPE merges, then keeps them as a WordPiece vocab;
        # without [UNK] in the vocab, encoding fails on a word it cannot cut (full sample)
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"])
    trainer.show_progress = False
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    clock["base"] = clock["count"] = now()
    tok.train_from_iterator(lines, trainer=trainer)
    clock["train"] = now()
    n_tokens = sum(len(e.ids) for e in tok.encode_batch(lines)) if encode else 0
    clock["encode"] = now()
    return n_tokens


def main() -> None:
    tool, algorithm, path, vocab_size = sys.argv[1:5]
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    clock: dict[str, tuple[float, float, int]] = {}
    run = ours if tool == "ours" else reference
    n_tokens = run(algorithm, lines, int(vocab_size), clock, sys.argv[5:6] != ["train-only"])
    phases = ("base", "count", "train", "encode")
    result: dict[str, float] = {"tokens": n_tokens}
    for before, phase in zip(phases, phases[1:]):
        result[f"{phase}_s"] = clock[phase][1] - clock[before][1]
        result[f"{phase}_wall"] = clock[phase][0] - clock[before][0]
    result.update({f"{phase}_kib": clock[phase][2] for phase in phases})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
