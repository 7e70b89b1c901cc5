"""Charts with words (issue 31): every builder gives its chart a title and a Vega-Lite
`description` (read by a screen reader as the chart's label) that states the number the
chart shows, computed from the chart's own data. Pages print the description under the
chart too (lessons/ui/a11y.py), so a student who cannot see the chart reads the same thing.

>>> import pandas as pd
>>> df = pd.DataFrame({"step": [0, 1, 2], "vocab_size": [11, 12, 13],
...                    "corpus_symbols": [40, 31, 27]})
>>> for part in growth(df).split(", "):
...     print(part)
The vocabulary grows from 11 to 13 symbols over 2 steps
while the corpus shrinks from 40 to 27 symbols.
"""

from __future__ import annotations

import pandas as pd


def described(chart, title: str, description: str):
    """The chart with its title and its description (a sentence with its numbers)."""
    # a title of its own line: 12 px above it, or the top of its letters is cut where the
    # page sets a block close above the chart (screenshots of /sage and /compare)
    return chart.properties(title=title, description=description, padding={"top": 12})


def _number(value: float, fmt: str = "") -> str:
    if fmt:
        return format(value, fmt)
    if float(value).is_integer():
        return f"{int(value):,}"
    # a SaGe loss of 41,115.1, not 4.112e+04; a small value to 4 significant digits
    return f"{value:,.1f}" if abs(value) >= 1000 else f"{value:,.4g}"


def _each(df: pd.DataFrame, say, field: str = "tokenizer") -> str:
    """One clause per tokenizer of a long table, joined: 'BPE: ...; SaGe: ...'."""
    parts = [f"{name}: {say(group)}" for name, group in df.groupby(field, sort=False)]
    return "; ".join(parts) if parts else "no data"


def growth(df: pd.DataFrame) -> str:
    first, last = df.iloc[0], df.iloc[-1]
    steps = int(last["step"] - first["step"])
    return (
        f"The vocabulary grows from {int(first['vocab_size']):,} to {int(last['vocab_size']):,}"
        f" symbols over {steps} step{'s' if steps != 1 else ''}, while the corpus shrinks from "
        f"{int(first['corpus_symbols']):,} to {int(last['corpus_symbols']):,} symbols."
    )


def best_bars(df: pd.DataFrame, label: str, value: str, status: str = "status") -> str:
    """The bar with the largest value, and the ones marked by a status (merged, pruned)."""
    if df.empty:
        return "No bars to draw."
    top = df.loc[df[value].idxmax()]
    said = f"{len(df)} bars; the largest {value} is {top[label]} with {_number(top[value])}"
    marked = df[~df[status].isin(["", "other", "kept"])] if status in df else df.iloc[0:0]
    for kind, group in marked.groupby(status, sort=False):
        said += f"; {kind}: {', '.join(map(str, group[label]))}"
    return said + "."


def loss(df: pd.DataFrame, title: str) -> str:
    if df.empty:
        return f"No {title} yet."
    first, last = df.iloc[0], df.iloc[-1]
    return (
        f"The {title} goes from {_number(first['loss'])} at step {int(first['step'])} to "
        f"{_number(last['loss'])} at step {int(last['step'])}."
    )


def lattice(df: pd.DataFrame) -> str:
    best = df[df["best"]].sort_values("start") if len(df) else df
    path = " + ".join(best["piece"]) if len(best) else "none"
    return f"{len(df)} pieces fit the word; the best path cuts it as {path}."


def removal(df: pd.DataFrame) -> str:
    if df.empty:
        return "No piece can be removed."
    low = df.loc[df["increase"].idxmin()]
    pruned = df.loc[df["status"] == "pruned", "piece"].tolist()
    said = f"Removing {low['piece']} would raise the loss least, by {low['increase']:.4f}"
    return said + (f"; pruned: {', '.join(pruned)}." if pruned else ".")


def most_common(df: pd.DataFrame, x: str, y: str, unit: str) -> str:
    """Grouped bars: per tokenizer, the x with the largest share."""

    def say(group: pd.DataFrame) -> str:
        row = group.loc[group[y].idxmax()]
        return (
            f"{unit} = {row[x]} most often ({row[y]:.0%})"  # "characters = 1", not "1 characters"
        )

    return _each(df, say) + "."


def neighbours(df: pd.DataFrame) -> str:
    def say(group: pd.DataFrame) -> str:
        row = group.loc[group["neighbours"].idxmax()]
        return f"{row['token']!r} meets the most, {int(row['neighbours']):,} distinct neighbours"

    return _each(df, say) + "."


def ratio(df: pd.DataFrame) -> str:
    def say(group: pd.DataFrame) -> str:
        row = group.loc[group["share"].idxmax()]
        return (
            f"{row['share']:.0%} of tokens between {row['bin_start']:.2f} and {row['bin_end']:.2f}"
        )

    return "Largest share: " + _each(df, say) + "."


def profile(df: pd.DataFrame) -> str:
    def say(group: pd.DataFrame) -> str:
        unused = int((group["frequency"] == 0).sum())
        return f"{unused:,} of {len(group):,} entries unused"

    return _each(df, say) + "."


def difference(df: pd.DataFrame) -> str:
    if df.empty:
        return "The two tokenizations use every token equally often."
    row = df.loc[df["difference"].abs().idxmax()]
    return (
        f"{len(df)} tokens; the biggest difference is {row['token']!r}: used "
        f"{int(row['freq_a']):,} times against {int(row['freq_b']):,}, more in {row['more_in']}."
    )


def per_tokenizer(df: pd.DataFrame, value: str, title: str, fmt: str) -> str:
    return _each(df, lambda g: f"{_number(g[value].iloc[0], fmt)} {title}") + "."


def premium(df: pd.DataFrame) -> str:
    def say(group: pd.DataFrame) -> str:
        row = group.loc[group["premium"].idxmax()]
        return f"{row['language']} needs {row['premium']:.2f} times the tokens of English"

    return _each(df, say) + "."


def alignment(table: pd.DataFrame) -> str:
    """Each tokenizer's F1, or that it cut no gold word (F1 undefined: no cut to score)."""

    def say(group: pd.DataFrame) -> str:
        f1 = group["F1"].iloc[0]
        return "no gold word scored" if pd.isna(f1) else f"F1 {f1:.2f}"

    return _each(table, say) + "."


def answers(df: pd.DataFrame, right: str) -> str:
    total = int(df["count"].sum())
    if not total:
        return "No answer yet."
    top = df.sort_values(["count", "answer"], ascending=[False, True]).iloc[0]
    plural = "s" if total != 1 else ""
    said = f"{total} answer{plural}; the most given is {top['answer']} ({top['count']})"
    chosen = df.loc[df["verdict"] == right]
    if len(chosen):
        got = int(chosen["count"].sum())
        said += f"; the algorithm's choice {', '.join(chosen['answer'])} got {got}"
    return said + "."


def spread(df: pd.DataFrame) -> str:
    first, last = df.iloc[0], df.iloc[-1]
    return (
        f"Tokens per sample: a mean of {first['mean']:.2f} at p = {first['p']:.1f}, "
        f"{last['mean']:.2f} at p = {last['p']:.1f}; the widest spread is "
        f"{int((df['max'] - df['min']).max())} tokens."
    )


def sampling(df: pd.DataFrame) -> str:
    gap = (df["observed"] - df["exact"]).abs()
    row = df.loc[gap.idxmax()]
    return (
        f"{len(df)} segmentations; the largest gap is for {row['segmentation']}: exact "
        f"{row['exact']:.3f}, observed {row['observed']:.3f}."
    )
