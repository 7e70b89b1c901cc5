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
