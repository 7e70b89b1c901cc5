"""``subtok train boundless``: BoundlessBPE's options and its trace as a table (the same
table as SuperBPE's: each merge with its stage).

>>> from subtok_core.superbpe import trace_boundless
>>> print(table(trace_boundless(["the cat the cat", "the cat"], merges=6)).splitlines()[-1])
  6  super     ["the"] + [" cat"]  ["the cat"]      2      2
"""

from __future__ import annotations

from ..superbpe.cli import CORPUS_HELP, add_common, load, source, table  # noqa: F401
from ..superbpe.io import trace_json  # noqa: F401  (cli.py prints --json through it)

HELP = "BoundlessBPE: ordinary merges and supermerges across spaces compete for one budget"
FULL_HELP = "add every step's pair table and the first lines' tokens"


def add(cmd) -> None:
    add_common(cmd, "merges in all, ordinary and supermerges together")


def params(args) -> dict:
    return {"merges": args.merges, "pattern": args.pattern, "ties": args.ties}
