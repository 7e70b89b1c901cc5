"""``subtok vocab``: how many tokens of a vocabulary fall in each health category.

>>> import contextlib, io, json
>>> from subtok_core.cli import main
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     status = main(["vocab", "--tokenizer", "mistral-v1", "--json"])
>>> status
0
>>> report = json.loads(out.getvalue())
>>> report["size"], report["categories"]["special"], report["categories"]["unused"]
(32000, 3, None)
>>> report["examples"]["partial"][0]
{'id': 131, 'bytes_hex': '80', 'text': None}
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "count the tokens of a vocabulary that are special, partial, unreachable or ok"
EXAMPLES = 5  # tokens shown per category


def add(commands) -> None:
    """The `vocab` subcommand of `subtok`."""
    cmd = commands.add_parser("vocab", help=HELP, description=HELP)
    source = cmd.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--tokenizer", metavar="NAME", help="cl100k_base, mistral-v1, mistral-v3 or tekken"
    )
    source.add_argument("--model", metavar="FILE", help="a model saved by `subtok train --out`")
    cmd.add_argument(
        "--corpus",
        help="with --model: the corpus it was trained on (toy:NAME, sample:NAME or a .txt "
        "path), to count the tokens it never uses there",
    )
    cmd.add_argument("--json", action="store_true", help="print the counts and examples as JSON")
    cmd.set_defaults(run=run)


def report(name: str, args: argparse.Namespace) -> dict:
    """The counts and examples of one vocabulary, as the --json shape."""
    from .health import CATEGORIES, health
    from .table import as_text, pretrained_table

    model = wc = None
    if args.tokenizer is not None:
        table = pretrained_table(args.tokenizer)
    else:
        from .. import corpus, export
        from .trained import trained_table

        model = export.load_model(args.model)
        table = trained_table(model, name)
        if args.corpus:
            wc = corpus.load(args.corpus, allow_paths=True)
    found = health(table, model=model, wc=wc)
    examples = {}
    for category in (*CATEGORIES, *(("unused",) if found.unused is not None else ())):
        examples[category] = [
            {"id": table.ids[k], "bytes_hex": (table.data[k] or b"").hex(),
             "text": as_text(table.data[k])}
            for k in found.positions(category)[:EXAMPLES]
        ]  # fmt: skip
    return {"tokenizer": name, "size": table.size, "categories": found.counts(),
            "examples": examples}  # fmt: skip


def run(args: argparse.Namespace) -> None:
    """Print the counts per category (a table, or JSON)."""
    from .health import SENTENCES

    if args.corpus and args.model is None:
        raise ValueError("--corpus says what a model trained on: use it with --model.")
    name = args.tokenizer or args.model
    data = report(name, args)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return
    print(f"{name}: {data['size']:,} tokens")
    for category, count in data["categories"].items():
        if count is None:
            continue
        print(f"  {category:<12} {count:>8,}  {SENTENCES[category]}")
    if args.model and not args.corpus:
        print("Give --corpus to count the tokens the model never uses there.", file=sys.stderr)
