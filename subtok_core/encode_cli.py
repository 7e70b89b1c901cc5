"""`subtok encode`: text through a saved model (--model) or a pretrained tokenizer
(--tokenizer), as pieces, ids, JSON with character offsets, or each word's trace. Its
options are made only when the command is `encode` (subtok_core/cli.py); every heavy
import is inside the functions."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .records import Encoded


def add(encode: argparse.ArgumentParser) -> None:
    """The options of `subtok encode`."""
    from . import regularize_cli
    from .bytebpe import cli as bytebpe_cli

    source = encode.add_mutually_exclusive_group(required=True)
    source.add_argument("--model", metavar="FILE", help="a model saved by --out")
    source.add_argument(
        "--tokenizer",
        metavar="NAME",
        help="a pretrained tokenizer: cl100k_base, mistral-v1, mistral-v3, tekken, or the "
        "path of a Hugging Face tokenizer.json (see `subtok tokenizers`)",
    )
    encode.add_argument(
        "--trace",
        action="store_true",
        help="with --model: show each merge applied (BPE), each longest-match attempt "
        "(WordPiece), the Viterbi path with log-probabilities (Unigram) or the greedy pieces "
        "(SaGe) per word",
    )
    encode.add_argument(
        "--json",
        action="store_true",
        help='print {"tokens": [{"text", "id", "start", "end"}, ...]} (character offsets); '
        "the unknown token [UNK] has the id after the vocabulary's last piece (its own "
        "place if the vocabulary holds it), the id `subtok export` gives it in "
        "tokenizer.json; with --model a word marker covers the character tokenizers gives it "
        "in that file (the space a ▁ stands for)",
    )
    encode.add_argument("--replay", action="store_true", help=bytebpe_cli.REPLAY_HELP)
    regularize_cli.add(encode)  # --dropout, --nbest, --alpha, --samples, --seed
    encode.add_argument("text", nargs="+", help="the text to encode")
    encode.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Encode the text with a saved model (--model) or a pretrained tokenizer (--tokenizer).

    >>> from subtok_core.cli import main
    >>> main(["encode", "--tokenizer", "cl100k_base", "--json", "hello world"])
    {"tokens": [{"text": "hello", "id": 15339, "start": 0, "end": 5}, \
{"text": " world", "id": 1917, "start": 5, "end": 11}]}
    0
    """
    from . import compare, export, registry, regularize_cli
    from .bytebpe import cli as bytebpe_cli

    text = " ".join(args.text)
    if regularize_cli.asked(args):  # subword regularization: samples or the n best
        regularize_cli.run(args, text)
        return
    if args.trace and args.json:
        raise ValueError("--json prints the tokens only, with no trace: leave out one of them.")
    if args.replay and args.tokenizer is None:
        raise ValueError(bytebpe_cli.REPLAY_NEEDS_TOKENIZER)
    if args.tokenizer is not None:
        if args.trace:
            raise ValueError(
                "--trace shows how a trained model found its pieces; a pretrained tokenizer "
                "has no such trace. Leave out --trace, or use --model."
            )
        if args.replay:  # our own byte-level encoder on the tokenizer's ranks
            encoded = bytebpe_cli.replay(args.tokenizer, text, show_merges=not args.json)
        else:
            encoded = registry.pretrained(args.tokenizer).encode(text)
        if args.json:
            print(tokens_json(encoded))
        else:
            print("|".join(visible(s.text) for s in encoded.spans))
            print(" ".join(map(str, encoded.ids)))
        return
    model = export.load_model(args.model)
    if args.json:  # offsets as tokenizers gives them for the exported file (marker_spans)
        from .marker_spans import aligned
        from .records import Encoded

        encoded = compare.encode(model, text)
        spans = aligned(encoded.spans, getattr(model, "marker", None))
        print(tokens_json(Encoded(tuple(spans), encoded.ids)))
        return
    algo = registry.of_model(model)
    segmented = algo.segment(model, text)
    if args.trace:
        for line in algo.word_lines(segmented, model):
            print(line)
    print(" ".join(segmented.pieces))


def tokens_json(encoded: Encoded) -> str:
    """The tokens of an encoded text as one line of JSON (character offsets)."""
    tokens = [
        {"text": span.text, "id": token_id, "start": span.start, "end": span.end}
        for span, token_id in zip(encoded.spans, encoded.ids, strict=True)
    ]
    return json.dumps({"tokens": tokens}, ensure_ascii=False)


def visible(token: str) -> str:
    """A token on one line: line breaks and tabs written as \\n, \\r, \\t."""
    return token.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
