"""``subtok encode`` with subword regularization: the same text cut differently on each call.

- ``--dropout P --samples N [--seed S]`` (a BPE or byte-level BPE model): N BPE-dropout
  samples;
- ``--nbest N`` (a Unigram model): each word's N most probable segmentations;
- ``--alpha A --samples N [--seed S]`` (a Unigram model): N samples with P(x)^A.

cli.py adds these options to ``encode`` (``add``) and hands a request that uses one of them
here (``asked``, ``run``).

Worked example (001, `toy:run-bug`, strict seed, frequency / 155): ru n and r un both have
P = 3·26/155² (log P = -5.7301), r u n has 3·31·26/155³ (-7.3396); shares 5/11, 5/11, 1/11.

>>> import math, os, tempfile
>>> from subtok_core.cli import main
>>> from subtok_core.export import save_model
>>> from subtok_core.unigram import UnigramModel
>>> freq = {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26}
>>> logprobs = tuple(math.log(f / 155) for f in freq.values())
>>> path = os.path.join(tempfile.mkdtemp(), "run.json")
>>> save_model(UnigramModel(tuple(freq), logprobs, ("r", "u", "n")), path)
>>> main(["encode", "--model", path, "--nbest", "3", "run"])
run: the 3 most probable segmentations
   1  ru n   log P   -5.7301  P(x | word) 0.4545
   2  r un   log P   -5.7301  P(x | word) 0.4545
   3  r u n  log P   -7.3396  P(x | word) 0.0909
0
"""

from __future__ import annotations

import argparse
import json

from . import export, limits, registry
from .sampling import text_words

OPTIONS = ("dropout", "nbest", "alpha", "samples", "seed")


def add(encode: argparse.ArgumentParser) -> None:
    """The options of ``encode`` for subword regularization."""
    encode.add_argument(
        "--dropout",
        type=float,
        metavar="P",
        help="with a BPE or byte-level BPE model: skip each possible merge with probability "
        "P (0 to 1) and print one sample per line; with --json: "
        '{"dropout": P, "seed": S, "samples": [["piece", ...], ...]}',
    )
    encode.add_argument(
        "--nbest",
        type=int,
        metavar="N",
        help="with a Unigram model: each word's N most probable segmentations with log P "
        "and P(segmentation | word); with --json: "
        '{"nbest": N, "words": [{"word", "segmentations": [{"pieces", "logp", '
        '"probability"}, ...]}, ...]} '
        f"({limits.describe('nbest')})",
    )
    encode.add_argument(
        "--alpha",
        type=float,
        metavar="A",
        help="with a Unigram model: sample segmentations with probability P(x)^A "
        "normalised (A > 0; 1: the model's own probabilities, smaller: flatter), one per "
        'line; with --json: {"alpha": A, "seed": S, "samples": [["piece", ...], ...]}',
    )
    encode.add_argument(
        "--samples",
        type=int,
        metavar="N",
        help=f"how many samples --dropout or --alpha draws (1; {limits.describe('samples')})",
    )
    encode.add_argument(
        "--seed", type=int, metavar="S", help="random seed of the samples (0): a seed repeats"
    )


def asked(args: argparse.Namespace) -> bool:
    """Whether the request uses one of these options."""
    return any(getattr(args, name, None) is not None for name in OPTIONS)


def run(args: argparse.Namespace, text: str) -> None:
    """Check the combination of options, load the model, print the samples or the n best."""
    mode = _mode(args)
    model = export.load_model(args.model)
    algo = registry.of_model(model)
    sampler = getattr(algo.sampling, mode)  # each mode is a field of records.Sampling
    if sampler is None:
        raise ValueError(_wrong_model(mode, algo.label))
    samples = 1 if args.samples is None else args.samples
    seed = 0 if args.seed is None else args.seed
    if mode == "nbest":
        _print_nbest(model, text, args.nbest, args.json, sampler)
        return
    value = args.dropout if mode == "dropout" else args.alpha
    drawn = sampler(model, text, value, samples, seed)
    if args.json:
        data = {mode: value, "seed": seed, "samples": [list(s) for s in drawn]}
        print(json.dumps(data, ensure_ascii=False))
        return
    for pieces in drawn:
        print(" ".join(pieces))


def _mode(args: argparse.Namespace) -> str:
    """dropout, nbest or alpha; a combination that means nothing is refused in a sentence."""
    given = [name for name in ("dropout", "nbest", "alpha") if getattr(args, name) is not None]
    if args.tokenizer is not None:
        raise ValueError(
            "--dropout, --nbest, --alpha, --samples and --seed need a model you trained "
            "(--model): a pretrained tokenizer here encodes one way only."
        )
    if not given:
        raise ValueError(
            "--samples is the number of samples of --dropout or --alpha: give one of them too."
            if args.samples is not None
            else "--seed seeds the samples of --dropout or --alpha: give one of them too."
        )
    if len(given) > 1:
        options = " and ".join(f"--{name}" for name in given)
        raise ValueError(f"Give one of --dropout, --nbest or --alpha, not {options} together.")
    if args.trace or getattr(args, "replay", False):
        raise ValueError(
            f"--{given[0]} prints its own lines; leave out --trace and --replay, which show "
            "how the plain encoding was found."
        )
    if given[0] == "nbest" and (args.samples is not None or args.seed is not None):
        raise ValueError(
            "--nbest lists the most probable segmentations and draws nothing: leave out "
            "--samples and --seed, or sample with --alpha A --samples N."
        )
    return given[0]


def _wrong_model(mode: str, label: str) -> str:
    if mode == "dropout":
        return (
            f"--dropout skips BPE merges at random, so it needs a BPE or byte-level BPE "
            f"model; this model is "
            f"{label}. A Unigram model samples with --alpha A --samples N."
        )
    return (
        f"--{mode} works on the lattice of a Unigram model; this model is {label}. "
        "A BPE model samples with --dropout P --samples N."
    )


def _print_nbest(model, text: str, n: int, as_json: bool, best_of) -> None:
    """Per word, its n best segmentations (``best_of(model, word, n)``, the algorithm's
    ``Sampling.nbest``): log P and the share of the word's probability."""
    words = [(word, best_of(model, word, n)) for word in text_words(text, model.split_punct)]
    if as_json:
        data = {
            "nbest": n,
            "words": [
                {
                    "word": word,
                    "segmentations": [
                        {"pieces": list(s.pieces), "logp": s.logp, "probability": s.probability}
                        for s in best
                    ],
                }
                for word, best in words
            ],
        }
        print(json.dumps(data, ensure_ascii=False))
        return
    for word, best in words:
        if len(best) < n:
            print(f"{word}: all {len(best)} of its segmentations")
        else:
            print(f"{word}: the {n} most probable segmentations" if n > 1 else f"{word}: the best")
        width = max(len(" ".join(s.pieces)) for s in best)
        for rank, s in enumerate(best, start=1):
            shown = " ".join(s.pieces)
            print(
                f"{rank:>4}  {shown:<{width}}  log P {s.logp:9.4f}  P(x | word) {s.probability:.4f}"
            )
