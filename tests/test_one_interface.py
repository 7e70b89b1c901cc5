"""One tokenizer interface and one registry (issue 28): read from the source with ast, no
module of the core or the pages tells a pretrained tokenizer from a trained model with
``isinstance(..., Pretrained)`` except subtok_core/tokenizer.py, which makes either a
records.Tokenizer."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
ALLOWED = {Path("subtok_core/tokenizer.py")}


def pretrained_checks(source: str) -> list[int]:
    """The lines of every isinstance(x, Pretrained) (or a tuple naming Pretrained)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance"):
            continue
        if len(node.args) != 2:
            continue
        kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        names = {getattr(k, "id", None) or getattr(k, "attr", None) for k in kinds}
        if "Pretrained" in names:
            lines.append(node.lineno)
    return lines


def test_no_pretrained_check_outside_the_interface():
    found = {
        str(path.relative_to(ROOT)): pretrained_checks(path.read_text(encoding="utf-8"))
        for folder in ("subtok_core", "lessons")
        for path in (ROOT / folder).rglob("*.py")
        if path.relative_to(ROOT) not in ALLOWED
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_scan_sees_a_pretrained_check():
    source = "if isinstance(m, Pretrained):\n    pass\nok = isinstance(m, (int, base.Pretrained))\n"
    assert pretrained_checks(source) == [1, 3]
    assert pretrained_checks("isinstance(m, Trained)") == []


def test_the_interface_serves_both_kinds():
    from subtok_core import bpe, registry
    from subtok_core.corpus import load
    from subtok_core.tokenizer import tokenizer

    trained = tokenizer(bpe.train_bpe(load("toy:low-lower"), merges=4, marker="sow"))
    cl100k = tokenizer(registry.pretrained("cl100k_base"))
    assert (trained.trained, cl100k.trained) == (True, False)
    assert trained.label == "BPE" and cl100k.label == "cl100k_base (GPT-4)"
    # 'hello world' is 15339, 1917 in cl100k_base (tiktoken's own README example ids)
    assert cl100k.encode("hello world").ids == (15339, 1917)
    assert cl100k.vocabulary(("▁a", "b")) == ("▁a", "b")
    assert trained.vocabulary(()) == tuple(trained.model.vocab)
    # low-lower with sow: every character of "low" is a symbol, so each piece is in the vocab
    coded = trained.encode("low")
    assert "".join(s.text for s in coded.spans).replace("▁", "") == "low"
    assert all(trained.model.vocab[i] == s.text for i, s in zip(coded.ids, coded.spans))
