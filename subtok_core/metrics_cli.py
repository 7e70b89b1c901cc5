"""`subtok metrics`: the measures recent papers report (subtok_core/measure/information.py)
for a saved model (--model) or a pretrained tokenizer (--tokenizer) on a corpus. Its heavy
imports are inside the functions."""

from __future__ import annotations

import argparse
import json
import math

HELP = "the measures papers report: Rényi and Shannon efficiency, fertility, ..."


def add(commands) -> None:
    """The command `subtok metrics` and its options."""
    cmd = commands.add_parser(
        "metrics",
        help=HELP,
        description="Encode a corpus with one tokenizer and print the measures recent papers "
        "report: Rényi efficiency of order --alpha and Shannon efficiency (Zouhar et al. 2023: "
        "the entropy of the token distribution over log2 of the vocabulary size), fertility "
        "(tokens per word), characters and UTF-8 bytes per token (of the words, spaces not "
        "counted), and the share of words that are one token.",
    )
    source = cmd.add_mutually_exclusive_group(required=True)
    source.add_argument("--model", metavar="FILE", help="a model saved by `subtok train --out`")
    source.add_argument(
        "--tokenizer",
        metavar="NAME",
        help="a pretrained tokenizer: cl100k_base, mistral-v1, mistral-v3, tekken, or the path "
        "of a Hugging Face tokenizer.json (see `subtok tokenizers`)",
    )
    cmd.add_argument("--corpus", required=True, help="toy:NAME, sample:NAME or a .txt path")
    cmd.add_argument(
        "--alpha", type=float, default=2.5, help="the Rényi order α (default 2.5, the paper's)"
    )
    cmd.add_argument("--json", action="store_true", help="print the measures as one JSON object")
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Measure the tokenizer on the corpus; print a table or JSON.

    >>> from subtok_core.cli import main
    >>> main(["metrics", "--tokenizer", "cl100k_base", "--corpus", "toy:low-lower", "--json",
    ...       "--alpha", "3"])  # doctest: +ELLIPSIS
    {"vocab_size": 100261, "alpha": 3.0, "tokens": 16, "words": 16, ...}
    0
    """
    from . import corpus, export, registry
    from .measure.information import measure
    from .measure.tokenized import tokenize_with
    from .tokenizer import tokenizer

    if not math.isfinite(args.alpha) or args.alpha < 0:
        raise ValueError(f"--alpha is the Rényi order: a number of 0 or more, not {args.alpha}.")
    model = (
        registry.pretrained(args.tokenizer)
        if args.tokenizer is not None
        else export.load_model(args.model)
    )
    lines = corpus.load_lines(args.corpus, allow_paths=True)
    encoded = tokenize_with(model, lines, args.corpus)
    result = measure(encoded, tokenizer(model).vocab_size, args.alpha).as_json()
    if args.json:
        print(json.dumps(result))
        return
    width = max(map(len, result))
    for key, value in result.items():
        shown = f"{value:.6f}" if isinstance(value, float) else f"{value:,}"
        print(f"{key:<{width}}  {shown}")
