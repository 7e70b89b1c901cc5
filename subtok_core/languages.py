"""The same text in six languages, and what each tokenizer charges for it.

Petrov et al. (2023), "Language Model Tokenizers Introduce Unfairness Between Languages"
(NeurIPS 2023), measure the *tokenization premium* of a language: the tokens a tokenizer
needs for a text in that language divided by the tokens it needs for the same text in
English. A premium of 3 means the text costs three times as much context, time and
money. ``subtok_core/data/languages.toml`` has three everyday sentences in English, Russian, German,
Chinese, Arabic and Hindi (written for subtok, with their meaning).

>>> [lang.name for lang in LANGUAGES.values()]
['English', 'Russian', 'German', 'Chinese', 'Arabic', 'Hindi']
>>> chars = lambda text: Encoded(tuple(Span(c, i, i + 1) for i, c in enumerate(text)),
...                              tuple(range(len(text))))
>>> table = premium({"characters": chars}, {"en": ("ab",), "zh": ("abc", "d")})
>>> table[["language", "tokens", "premium"]].values.tolist()
[['English', 2, 1.0], ['Chinese', 4, 2.0]]
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from .corpus import DATA_DIR
from .records import Encoded, Span  # noqa: F401  (Span: the doctest above)

UNKNOWN = frozenset({"[UNK]", "<unk>"})  # what our models and SentencePiece call "unknown"


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    name: str
    sentences: tuple[str, ...]


def _load() -> tuple[tuple[str, ...], dict[str, Language]]:
    with open(DATA_DIR / "languages.toml", "rb") as fh:
        data = tomllib.load(fh)
    meaning = tuple(data.pop("meaning"))
    languages = {
        code: Language(code, entry["name"], tuple(entry["text"])) for code, entry in data.items()
    }
    return meaning, languages


MEANING, LANGUAGES = _load()
NAMES = {code: lang.name for code, lang in LANGUAGES.items()}


def premium(
    encoders: Mapping[str, Callable[[str], Encoded]],
    texts: Mapping[str, Sequence[str]] | None = None,
) -> pd.DataFrame:
    """Per tokenizer and language: the tokens of the language's sentences (each encoded on
    its own, then summed), how many of them are unknown tokens, the characters, and the
    premium: tokens / the same tokenizer's tokens for English (``texts`` must have "en").

    Columns: tokenizer, language, tokens, unknown, characters, premium.
    """
    texts = texts if texts is not None else {c: lang.sentences for c, lang in LANGUAGES.items()}
    if "en" not in texts:
        raise ValueError("The premium is relative to English: give the English text too.")
    rows = []
    for name, encode in encoders.items():
        counts = {}
        for code, sentences in texts.items():
            spans = [span for text in sentences for span in encode(text).spans]
            counts[code] = (
                len(spans),
                sum(span.text in UNKNOWN for span in spans),
                sum(map(len, sentences)),
            )
        english = counts["en"][0]
        if english == 0:
            raise ValueError(f"{name} gives no token for the English text, so no premium.")
        rows += [
            {"tokenizer": name, "language": NAMES.get(code, code), "tokens": tokens,
             "unknown": unknown, "characters": chars, "premium": tokens / english}
            for code, (tokens, unknown, chars) in counts.items()
        ]  # fmt: skip
    return pd.DataFrame(rows)


def mostly_unknown(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of a premium table where more than half of the tokens are unknown tokens:
    there the premium counts lost text, not the cost of a language (a tokenizer trained
    on English writes most Chinese characters as [UNK], one token each, and looks cheap).

    >>> df = pd.DataFrame({"tokenizer": ["BPE", "BPE", "X"], "language": ["Chinese"] * 3,
    ...                    "tokens": [43, 10, 5], "unknown": [40, 5, 0]})
    >>> mostly_unknown(df)["tokens"].tolist()
    [43]
    """
    return table[table["unknown"] * 2 > table["tokens"]]


def fairness(table: pd.DataFrame, lines: int | None = None) -> pd.DataFrame:
    """Per tokenizer of a premium table, the Gini coefficient over the languages of two
    costs (parity-aware BPE's fairness measure): tokens per line of the parallel text
    (`lines` each; the sentences are the same in every language) and tokens per character.
    0 is every language paying the same.

    >>> df = pd.DataFrame({"tokenizer": ["T"] * 2, "language": ["English", "Russian"],
    ...                    "tokens": [10, 30], "characters": [50, 50]})
    >>> fairness(df, lines=3).round(4).values.tolist()
    [['T', 0.25, 0.25]]
    """
    from .measure.information import gini

    lines = lines or len(next(iter(LANGUAGES.values())).sentences)
    rows = []
    for name, group in table.groupby("tokenizer", sort=False):
        per_line = (group["tokens"] / lines).tolist()
        per_char = (group["tokens"] / group["characters"]).tolist()
        rows.append({"tokenizer": name, "gini_per_line": gini(per_line),
                     "gini_per_character": gini(per_char)})  # fmt: skip
    return pd.DataFrame(rows, columns=["tokenizer", "gini_per_line", "gini_per_character"])


def fairness_sentence(frame: pd.DataFrame, left_out: Sequence[str] = ()) -> str:
    """Which tokenizer is fairest by each cost, and whether the two costs agree; the
    tokenizers `left_out` (mostly unknown tokens in some language: their cost counts lost
    text) are named and not ranked.

    >>> df = pd.DataFrame({"tokenizer": ["A", "B"], "gini_per_line": [0.1, 0.2],
    ...                    "gini_per_character": [0.3, 0.2]})
    >>> fairness_sentence(df)  # doctest: +NORMALIZE_WHITESPACE
    'Fairest per line: A (Gini 0.100); per character: B (Gini 0.200). Here the two costs
    disagree: the same sentence has more characters in one language than in another, so a
    tokenizer can be fair per character and unfair per line.'
    """
    note = ""
    if left_out:
        many = len(left_out) > 1
        note = (
            f" Not ranked: {', '.join(left_out)}, which {'write' if many else 'writes'} most "
            f"of some language as unknown tokens, so {'their' if many else 'its'} cost counts "
            "lost text."
        )
        frame = frame[~frame["tokenizer"].isin(left_out)]
    if frame.empty:
        return note.strip()
    if len(frame) == 1:
        only = frame.iloc[0]
        return (
            f"{only['tokenizer']}: Gini {only['gini_per_line']:.3f} per line, "
            f"{only['gini_per_character']:.3f} per character. The two costs can disagree: "
            "the same sentence has more characters in one language than in another." + note
        )
    by_line = frame.loc[frame["gini_per_line"].idxmin()]
    by_char = frame.loc[frame["gini_per_character"].idxmin()]
    said = (
        f"Fairest per line: {by_line['tokenizer']} (Gini {by_line['gini_per_line']:.3f}); "
        f"per character: {by_char['tokenizer']} (Gini {by_char['gini_per_character']:.3f})."
    )
    line_order = list(frame.sort_values("gini_per_line", kind="stable")["tokenizer"])
    char_order = list(frame.sort_values("gini_per_character", kind="stable")["tokenizer"])
    why = (
        "the same sentence has more characters in one language than in another, so a "
        "tokenizer can be fair per character and unfair per line."
    )
    if line_order != char_order:
        return f"{said} Here the two costs disagree: {why}{note}"
    return (
        f"{said} Here the two costs rank the tokenizers alike, but they can disagree: {why}" + note
    )
