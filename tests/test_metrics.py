"""The measures papers report (subtok_core/measure/information.py, `subtok metrics`): the
Rényi and Shannon efficiencies held to `tokenization-scorer` (Zouhar et al.'s own package)
to 1e-9, with α pinned in every call (its default order is 3, and its README's "2.5"
figures are order 3); fertility, characters and bytes per token and single-token words by
hand; the Gini coefficient by hand; the command line's JSON keys and exit codes."""

from __future__ import annotations

import json
import math

import pytest
import tokenization_scorer

from subtok_core import bpe, corpus, registry
from subtok_core.cli import main
from subtok_core.measure.information import gini, measure, renyi_efficiency, shannon_efficiency
from subtok_core.measure.tokenized import tokenize_corpus, tokenize_with
from subtok_core.tokenizer import tokenizer

LEE = tuple(corpus.load_lines("sample:lee"))[:300]


def stream(t) -> str:
    """The running tokens as tokenization-scorer reads them: a line of space-separated
    tokens per line of the corpus (a token's id as its name: pieces may hold spaces)."""
    lines: dict[int, list[str]] = {}
    for k, token in enumerate(t.ids):
        lines.setdefault(int(t.line_index[k]), []).append(f"t{int(token)}")
    return "\n".join(" ".join(tokens) for _, tokens in sorted(lines.items()))


def encoded():
    """The Lee sample's first 300 lines through a BPE trained on them and through cl100k."""
    model = bpe.train_bpe(corpus.from_text("\n".join(LEE)), merges=400, marker="sow")
    cl100k = registry.pretrained("cl100k_base")
    return [(tokenize_with(m, list(LEE)), tokenizer(m).vocab_size) for m in (model, cl100k)]


@pytest.mark.parametrize(  # one power in the fast tier, the others in the full run
    "alpha",
    [2.5, pytest.param(3.0, marks=pytest.mark.slow), pytest.param(1.5, marks=pytest.mark.slow)],
)
def test_renyi_and_shannon_efficiency_equal_tokenization_scorer(alpha):
    for t, size in encoded():
        text = stream(t)
        mine = measure(t, size, alpha)
        want = tokenization_scorer.score(text, metric="renyi", power=alpha, vocab=size)
        assert mine.renyi_efficiency == pytest.approx(want, abs=1e-9)
        shannon = tokenization_scorer.score(text, metric="shannon", vocab=size)
        assert mine.shannon_efficiency == pytest.approx(shannon, abs=1e-9)
        assert 0 < mine.renyi_efficiency < mine.shannon_efficiency < 1  # α > 1: below Shannon


def test_efficiencies_by_hand():
    # a a a b over |V| = 4: p = (3/4, 1/4); Shannon 0.811278 bits / 2; Rényi-2 -log2(10/16) / 2
    h = -(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25))
    assert shannon_efficiency([3, 1, 0], 4) == pytest.approx(h / 2, abs=1e-12)
    assert renyi_efficiency([3, 1], 4, 2.0) == pytest.approx(-math.log2(10 / 16) / 2, abs=1e-12)
    assert renyi_efficiency([3, 1], 4, 1.0) == shannon_efficiency([3, 1], 4)
    assert renyi_efficiency([5, 5, 5, 5], 4, 2.5) == pytest.approx(1.0)  # even use of all |V|


def test_fertility_bytes_and_single_token_words_by_hand():
    # "ab c ab é": ab -> a|b, c -> c, é -> é; 6 tokens for 4 running words
    cut = {"ab": ["a", "b"], "c": ["c"], "é": ["é"]}
    m = measure(tokenize_corpus(cut.get, ["ab c ab é"]), 10)
    assert (m.tokens, m.words) == (6, 4)
    assert m.fertility == 6 / 4
    assert m.chars_per_token == 6 / 6  # a b c a b é: the words' 6 characters
    assert m.bytes_per_token == 7 / 6  # é is two bytes in UTF-8
    assert m.single_token_words == 2 / 4  # c and é


def test_gini_by_hand():
    assert gini([2.0, 2.0, 2.0, 2.0]) == 0.0
    # 1, 2, 3: |differences| over ordered pairs 2 * (1 + 2 + 1) = 8; 8 / (2 * 9 * 2) = 2/9
    assert gini([1.0, 2.0, 3.0]) == pytest.approx(2 / 9)
    with pytest.raises(ValueError, match="non-negative"):
        gini([1.0, -1.0])


def test_bad_values_are_sentences():
    with pytest.raises(ValueError, match="at least 2 tokens"):
        shannon_efficiency([1], 1)
    with pytest.raises(ValueError, match="Rényi order"):
        renyi_efficiency([1, 2], 4, float("nan"))


def test_the_command_line_prints_the_papers_keys_and_exits_2_on_bad_input(capsys, tmp_path):
    assert main(["metrics", "--tokenizer", "cl100k_base", "--corpus", "sample:lee", "--json",
                 "--alpha", "2.5"]) == 0  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert set(got) >= {"vocab_size", "renyi_efficiency", "shannon_efficiency", "fertility",
                        "chars_per_token", "bytes_per_token", "single_token_words"}  # fmt: skip
    t = tokenize_with(registry.pretrained("cl100k_base"), corpus.load_lines("sample:lee"))
    want = tokenization_scorer.score(stream(t), metric="renyi", power=2.5, vocab=got["vocab_size"])
    assert got["renyi_efficiency"] == pytest.approx(want, abs=1e-9)
    assert main(["metrics", "--tokenizer", "cl100k_base", "--corpus", "toy:low-lower",
                 "--alpha", "-2"]) == 2  # fmt: skip
    assert "Rényi order" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    assert main(["metrics", "--tokenizer", "cl100k_base", "--corpus", str(empty)]) == 2
    assert "empty" in capsys.readouterr().err
