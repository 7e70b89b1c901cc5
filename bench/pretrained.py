"""Benchmark: our pretrained tokenizers against the libraries they wrap, measured in one run.

For each pretrained tokenizer, a fresh Python process loads it cold (imports included) and
encodes every line of ``sample:lee``; other fresh processes do the same with the library
used directly: tiktoken for cl100k_base and Tekken (an Encoding built from the same file;
for Tekken also mistral_common's own Tekkenizer), sentencepiece for Mistral v1 and v3. The
library runs twice: plain ids, and ids with character offsets (tiktoken's
decode_with_offsets, sentencepiece's offset_mapping), which is what our spans carry.
Keeps the best of ``--repeat`` runs (CPU seconds of the child process) and prints the
ratios ours / library (the target: total within 1.5x). Not a test and not run by CI.

Usage (from the repository root)::

    python bench/pretrained.py --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run without installing

CORPUS = "sample:lee"

# Each child reads the lines from a file (not timed), then times loading and encoding.
CHILD = """
import json, sys, time
lines = json.loads(open(sys.argv[1], encoding="utf-8").read())
t0 = time.process_time()
{load}
t1 = time.process_time()
tokens = 0
for line in lines:
    tokens += len({encode})
t2 = time.process_time()
print(json.dumps({{"load": t1 - t0, "encode": t2 - t1, "tokens": tokens}}))
"""

OURS = {
    "cl100k_base": "from subtok_core.pretrained.tiktoken_based import cl100k_base as f",
    "mistral-v1": "from subtok_core.pretrained.sentencepiece_based import mistral_v1 as f",
    "mistral-v3": "from subtok_core.pretrained.sentencepiece_based import mistral_v3 as f",
    "tekken": "from subtok_core.pretrained.tiktoken_based import tekken as f",
}

TIKTOKEN_CL100K = """
import tiktoken
from tiktoken.load import load_tiktoken_bpe
ranks = load_tiktoken_bpe({path!r}, expected_hash={sha!r})
tok = tiktoken.Encoding("cl100k_base", pat_str={pattern!r}, mergeable_ranks=ranks,
                        special_tokens={specials!r})
"""
TIKTOKEN_TEKKEN = """
import base64, json, tiktoken
doc = json.loads(open({path!r}, "rb").read())
inner = doc["config"]["default_vocab_size"] - doc["config"]["default_num_special_tokens"]
ranks = {{base64.b64decode(e["token_bytes"]): i for i, e in enumerate(doc["vocab"][:inner])}}
tok = tiktoken.Encoding("tekken", pat_str=doc["config"]["pattern"], mergeable_ranks=ranks,
                        special_tokens={{}})
"""
SENTENCEPIECE = """
import sentencepiece as spm
tok = spm.SentencePieceProcessor(model_file={path!r})
"""


MISTRAL_COMMON = """
from mistral_common.tokens.tokenizers.tekken import Tekkenizer
tok = Tekkenizer.from_file({path!r})
"""
IDS_AND_OFFSETS = "tok.decode_with_offsets(tok.encode_ordinary(line))[1]"


def references() -> dict[str, list[tuple[str, str, str]]]:
    """name -> the library used directly: (label, loading code, encoding expression) per
    way of calling it (plain ids; ids with character offsets, as our spans have)."""
    from subtok_core.pretrained import files
    from subtok_core.pretrained.tiktoken_based import CL100K_PATTERN, CL100K_SPECIALS

    path = {name: str(files.locate(name)) for name in files.FILES}
    cl100k = TIKTOKEN_CL100K.format(path=path["cl100k_base"], sha=files.CL100K_SHA256,
                                    pattern=CL100K_PATTERN, specials=CL100K_SPECIALS)  # fmt: skip
    tekken = TIKTOKEN_TEKKEN.format(path=path["tekken"])
    out = {
        "cl100k_base": [
            ("tiktoken (ids)", cl100k, "tok.encode_ordinary(line)"),
            ("tiktoken (+offsets)", cl100k, IDS_AND_OFFSETS),
        ],
        "tekken": [
            ("tiktoken (ids)", tekken, "tok.encode_ordinary(line)"),
            ("tiktoken (+offsets)", tekken, IDS_AND_OFFSETS),
            ("mistral_common", MISTRAL_COMMON.format(path=path["tekken"]),
             "tok.encode(line, bos=False, eos=False)"),
        ],
    }  # fmt: skip
    for name in ("mistral-v1", "mistral-v3"):
        load = SENTENCEPIECE.format(path=path[name])
        out[name] = [
            ("sentencepiece (ids)", load, "tok.encode(line)"),
            ("sentencepiece (+offsets)", load,
             'tok.encode(line, out_type="offset_mapping")["ids"]'),
        ]  # fmt: skip
    return {name: out[name] for name in OURS}


def run_child(load: str, encode: str, lines_file: str, repeat: int) -> dict[str, float]:
    """The best (shortest load + encode) of `repeat` fresh processes."""
    script = CHILD.format(load=load.strip(), encode=encode)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best: dict[str, float] | None = None
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", script, lines_file], env=env, check=True,
                              capture_output=True, text=True)  # fmt: skip
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["total"] = result["load"] + result["encode"]
        if best is None or result["total"] < best["total"]:
            best = result
    assert best is not None
    return best


def _row(name: str, label: str, res: dict[str, float]) -> str:
    return (f"{name:<12} {label:<25} {res['tokens']:>7} {res['load']:>7.3f} "
            f"{res['encode']:>8.3f} {res['total']:>7.3f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from importlib.metadata import version

    from subtok_core.corpus import load_lines

    lines = load_lines(CORPUS)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"tiktoken {version('tiktoken')}, sentencepiece {version('sentencepiece')}")
    print(f"corpus {CORPUS}: {len(lines)} lines, {sum(map(len, lines))} chars, encoded line by "
          "line; cold load (imports included) in a fresh process")  # fmt: skip
    print(f"CPU seconds of that process (steadier than wall time on a shared machine), best of "
          f"{args.repeat}\n")  # fmt: skip
    print(f"{'tokenizer':<12} {'run':<25} {'tokens':>7} {'load s':>7} {'encode s':>8} "
          f"{'total s':>7}   ours / this run: load encode  total")  # fmt: skip
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(lines, fh)
    try:
        for name, runs in references().items():
            ours = run_child(OURS[name] + "\ntok = f()", "tok.encode(line).ids", fh.name,
                             args.repeat)  # fmt: skip
            print(_row(name, "subtok (spans, ids)", ours))
            for label, load, encode in runs:
                theirs = run_child(load, encode, fh.name, args.repeat)
                ratios = [ours[k] / theirs[k] for k in ("load", "encode", "total")]
                mark = "" if ratios[2] <= 1.5 else "  over 1.5x"
                print(_row(name, label, theirs) + "   " + "".join(f"{r:>6.2f} " for r in ratios)
                      + mark)  # fmt: skip
                if theirs["tokens"] != ours["tokens"]:
                    print(f"  {label} gives {theirs['tokens']} tokens, subtok {ours['tokens']}!")
    finally:
        Path(fh.name).unlink()


if __name__ == "__main__":
    main()
