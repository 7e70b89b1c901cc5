"""AppTest: Compare's measures from recent papers (issue 37). For every chosen tokenizer the
table shows |V| and the Rényi (α of the page) and Shannon efficiencies, each equal to
tokenization-scorer's on the measured corpus as that tokenizer encodes it; beside the
languages' premium, the Gini coefficient over the six languages per line and per character
equals a hand computation from the premium table's token and character counts."""

from __future__ import annotations

import pytest
import tokenization_scorer
from apptools import open_page
from test_metrics import stream

from subtok_core import compare, corpus, languages, registry
from subtok_core.measure.tokenized import tokenize_with
from subtok_core.tokenizer import tokenizer

TOY = {"corpus": "toy:hug-pug", "size": "14"}


def frame_with(at, column: str):
    for element in at.dataframe:
        frame = element.value
        frame = getattr(frame, "data", frame)  # a Styler's frame
        if column in frame.columns:
            return frame
    raise AssertionError(f"no table with the column {column!r}")


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_renyi_and_shannon_on_compare_equal_tokenization_scorer():
    at = open_page("lessons/compare/page.py", **TOY, tok="bpe,cl100k_base")
    table = frame_with(at, "Rényi eff.").set_index("tokenizer")
    assert list(table.index) == ["BPE", "cl100k_base (GPT-4)"]
    lines = corpus.load_lines("toy:hug-pug")
    bpe = compare.train("bpe", corpus.load("toy:hug-pug"), 14)
    for name, model in (("BPE", bpe), ("cl100k_base (GPT-4)", registry.pretrained("cl100k_base"))):
        size = tokenizer(model).vocab_size
        text = stream(tokenize_with(model, lines))
        row = table.loc[name]
        assert row["|V|"] == size
        renyi = tokenization_scorer.score(text, metric="renyi", power=2.5, vocab=size)
        shannon = tokenization_scorer.score(text, metric="shannon", vocab=size)
        assert row["Rényi eff."] == pytest.approx(renyi, abs=1e-9)
        assert row["Shannon eff."] == pytest.approx(shannon, abs=1e-9)
    at.number_input(key="compare_alpha").set_value(3.0).run()
    again = frame_with(at, "Rényi eff.").set_index("tokenizer")
    text = stream(tokenize_with(registry.pretrained("cl100k_base"), lines))
    want = tokenization_scorer.score(text, metric="renyi", power=3.0, vocab=again.loc[
        "cl100k_base (GPT-4)", "|V|"])  # fmt: skip
    assert again.loc["cl100k_base (GPT-4)", "Rényi eff."] == pytest.approx(want, abs=1e-9)


def test_the_gini_over_languages_per_line_and_per_character_by_hand():
    at = open_page("lessons/compare/page.py", **TOY, tok="bpe,cl100k_base")
    fair = frame_with(at, "Gini of tokens per line").set_index("tokenizer")
    cl100k = registry.pretrained("cl100k_base")
    tokens, chars = [], []
    for lang in languages.LANGUAGES.values():
        tokens.append(sum(len(cl100k.encode(s).ids) for s in lang.sentences))
        chars.append(sum(map(len, lang.sentences)))

    def by_hand(x):  # mean absolute difference over every ordered pair, over twice the mean
        n, mean = len(x), sum(x) / len(x)
        return sum(abs(a - b) for a in x for b in x) / (2 * n * n * mean)

    per_line = by_hand([t / 3 for t in tokens])
    per_char = by_hand([t / c for t, c in zip(tokens, chars)])
    assert fair.loc["cl100k_base (GPT-4)", "Gini of tokens per line"] == pytest.approx(per_line)
    assert fair.loc["cl100k_base (GPT-4)", "Gini of tokens per character"] == pytest.approx(
        per_char
    )
    said = " ".join(c.value for c in at.caption)
    assert "Gini" in said and "can disagree" in said and "Not ranked: BPE" in said
