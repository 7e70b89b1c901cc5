"""``subtok train parity``: a corpus and a dev text per language, the merges as a table.

>>> from subtok_core.parity.trace import load, trace_parity
>>> dev = {"en": "low newest widest", "xx": "hug pun bun"}
>>> print(table(trace_parity(load("en=toy:low-lower xx=toy:hug-pug"), dev, merges=3)))
  #  served  dev before   pair    new symbol  counts  ties
  1  en      en 15, xx 9  s + t   st          9, 0    (e, s)
  2  en      en 13, xx 9  e + st  est         9, 0
  3  en      en 11, xx 9  o + w   ow          7, 0    (l, o)
"""

from __future__ import annotations

from .. import limits
from ..explain import tied_text
from ..records import Trace
from .trace import load, pairs_of
from .train import MIN_FREQUENCY

HELP = "Parity-aware BPE (Foroutan, Meister et al., 2025): each merge serves the language longest on its dev set"  # noqa: E501
FULL_HELP = "add each merge's top pairs in the serving language and the corpora's length"
CORPUS_HELP = (
    "one LANG=CORPUS per language (two or more), CORPUS a toy:NAME, sample:NAME or .txt path "
    "read as words at whitespace, e.g. en=toy:low-lower xx=toy:hug-pug"
)
CORPUS_NARGS = "+"  # subtok_core/cli.py: --corpus takes one LANG=CORPUS per language


def source(args):
    return load(args.corpus, getattr(args, "split_punct", False), allow_paths=True)


def add(cmd) -> None:
    cmd.add_argument(
        "--dev", nargs="+", required=True, metavar="LANG=C",
        help='each language\'s parallel dev set, its words counted at whitespace: a corpus '
        '(toy:NAME, sample:NAME or a .txt path) or the text itself, e.g. '
        'en="low newest widest" xx="hug pun bun" (one per language of --corpus)',
    )  # fmt: skip
    cmd.add_argument(
        "--merges", type=int, required=True,
        help=f"merges to learn ({limits.describe('merges')})",
    )  # fmt: skip
    cmd.add_argument(
        "--global-merges", type=int, default=0, metavar="N",
        help="the first N merges chosen on every language's counts together (the paper's "
        "hybrid); N = --merges is ordinary BPE on the corpora together; default 0",
    )  # fmt: skip
    cmd.add_argument(
        "--min-frequency", type=int, default=MIN_FREQUENCY,
        help=f"stop when the served language's best pair is rarer (the reference's "
        f"default {MIN_FREQUENCY})",
    )  # fmt: skip


def params(args) -> dict:
    limits.check("merges", args.merges)
    dev = {lang: dev_text(value) for lang, value in pairs_of(args.dev, "dev text")}
    return {"dev": dev, "merges": args.merges, "global_merges": args.global_merges,
            "min_frequency": args.min_frequency}  # fmt: skip


def dev_text(value: str) -> str:
    """A dev set as text: a corpus's lines when `value` names one (a toy, a sample, an
    exercise or a file), else `value` itself.

    >>> dev_text("low newest widest"), dev_text("toy:cat-bat")[:7]
    ('low newest widest', 'cat cat')
    """
    from pathlib import Path

    from .. import corpus

    names_one = value.startswith(("toy:", "sample:", "exercise:")) or (
        value.endswith(".txt") and Path(value).is_file()
    )
    if not names_one:
        return value
    return "\n".join(corpus.load_lines(value, allow_paths=True))


def table(trace: Trace) -> str:
    """One merge per line: number, the language served, the dev lengths before it, the
    pair, the new symbol, its count per language, the pairs tied with it."""
    languages = trace.start.languages
    rows = [
        (s.number, s.language or "(all)",
         ", ".join(f"{lang} {n}" for lang, n in zip(languages, s.dev_before)),
         " + ".join(s.pair), s.new_symbol, ", ".join(map(str, s.counts)),
         tied_text(s.tied_with) if s.tied_with else "")
        for s in trace.steps
    ]  # fmt: skip
    w = [max([len(str(r[k])) for r in rows] + [len(h)]) for k, h in
         enumerate(("#", "served", "dev before", "pair", "new symbol", "counts"))]  # fmt: skip
    head = f"{'#':>3}  {'served':<{w[1]}}  {'dev before':<{w[2]}}  {'pair':<{w[3]}}  "
    lines = [f"{head}{'new symbol':<{w[4]}}  {'counts':<{w[5]}}  ties"]
    for n, lang, dev, pair, new, counts, ties in rows:
        line = f"{n:>3}  {lang:<{w[1]}}  {dev:<{w[2]}}  {pair:<{w[3]}}  {new:<{w[4]}}  "
        lines.append(f"{line}{counts:<{w[5]}}  {ties}".rstrip())
    return "\n".join(lines)
