"""One tokenizer interface and one registry (issue 28), read from the source with ast:

- no module of the core or the pages tells a pretrained tokenizer from a trained model with
  ``isinstance(..., Pretrained)`` except subtok_core/tokenizer.py, which makes either a
  records.Tokenizer;
- no module keeps a table keyed by algorithm names (a dict literal with two or more of
  them as keys) beside the registry: what a part of the lab needs of an algorithm is a
  field of its registry entry (entry.Algorithm)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
ALLOWED = {Path("subtok_core/tokenizer.py")}
# side tables not moved into the registry yet (issue 28), each to go: none may be added
TABLES_LEFT: dict[str, list[int]] = {}


def sources():
    """(path relative to the repository, its text) of every module of the core and pages."""
    for folder in ("subtok_core", "lessons"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT), path.read_text(encoding="utf-8")


def name_tables(source: str, names: set[str]) -> list[int]:
    """The lines of every dict literal with two or more algorithm names as keys."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Dict)
        and len({k.value for k in node.keys if isinstance(k, ast.Constant)} & names) >= 2
    ]


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


@pytest.mark.slow  # scans the sources
def test_no_pretrained_check_outside_the_interface():
    found = {str(path): pretrained_checks(text) for path, text in sources() if path not in ALLOWED}
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_scan_sees_a_pretrained_check():
    source = "if isinstance(m, Pretrained):\n    pass\nok = isinstance(m, (int, base.Pretrained))\n"
    assert pretrained_checks(source) == [1, 3]
    assert pretrained_checks("isinstance(m, Trained)") == []


def test_no_table_keyed_by_algorithm_names_beside_the_registry():
    from subtok_core.registry import ALGORITHMS

    found = {str(path): name_tables(text, set(ALGORITHMS)) for path, text in sources()}
    assert {name: lines for name, lines in found.items() if lines} == TABLES_LEFT


def test_the_scan_sees_a_table_keyed_by_algorithm_names():
    names = {"bpe", "wordpiece", "unigram"}
    source = 'A = {"bpe": 1, "unigram": 2}\nB = {"wordpiece": 3, "x": 4}\nC = {**A, "bpe": 5}\n'
    assert name_tables(source, names) == [1]
    assert name_tables('T = {\n  "x": 0,\n  "bpe": f, "wordpiece": g}', names) == [1]


def test_every_registry_entry_says_what_the_lab_needs_of_it():
    from subtok_core import compare, hf_export, rooms
    from subtok_core.registry import ALGORITHMS

    for name in compare.KINDS:  # Compare writes the command line of each kind it trains
        assert ALGORITHMS[name].compare_options is not None, name
    for algo in ALGORITHMS.values():
        if algo.export:  # the exporter's functions, those of hf_export's modules
            for function in filter(None, algo.export()):
                assert callable(function) and function.__module__.startswith(hf_export.__name__)
        assert algo.poll in (None, *rooms.QUESTIONS), algo.name
    # byte-level BPE and Picky BPE have no tokenizer.json exporter yet (hf_export's
    # docstring lists them), nor have SuperBPE and BoundlessBPE (a tokenizer.json cannot
    # merge across pre-tokens)
    no_export = {"bytebpe", "picky", "superbpe", "boundless"}
    assert {n for n, a in ALGORITHMS.items() if a.export} == set(ALGORITHMS) - no_export
    # the poll's merge question reads the corpus after a step: the merge lessons show it
    merge_lessons = {"bpe", "bytebpe", "wordpiece", "picky", "superbpe", "boundless", "parity"}
    assert {n for n, a in ALGORITHMS.items() if a.corpus_at} == merge_lessons
    # vocabulary health reads every model trained here but SaGe's
    assert {n for n, a in ALGORITHMS.items() if a.vocabulary} == set(ALGORITHMS) - {"sage"}
    # subtok encode's help: --dropout with a BPE or byte-level BPE model, --nbest and
    # --alpha with a Unigram model
    for mode, names in (("dropout", {"bpe", "bytebpe"}), ("nbest", {"unigram"}),
                        ("alpha", {"unigram"})):  # fmt: skip
        assert {n for n, a in ALGORITHMS.items() if getattr(a.sampling, mode)} == names, mode


def test_the_interface_serves_both_kinds():
    from subtok_core import bpe, registry
    from subtok_core.corpus import load
    from subtok_core.records import Tokenizer
    from subtok_core.tokenizer import tokenizer

    trained = tokenizer(bpe.train_bpe(load("toy:low-lower"), merges=4, marker="sow"))
    cl100k = tokenizer(registry.pretrained("cl100k_base"))
    assert (trained.trained, cl100k.trained) == (True, False)
    members = {"name", "label", "provenance", "trained", "style", "encode", "word_segmenter",
               "vocabulary"}  # fmt: skip
    assert members <= set(dir(Tokenizer))  # the protocol names every one of them
    assert all(hasattr(tok, m) for tok in (trained, cl100k) for m in members)
    assert (trained.style, cl100k.style) == ("sow", "sow")
    # low 5, lower 2, newest 6, widest 3 (hand count): (e,s) 9 ties (s,t) 9 and comes first
    # in ▁newest; then (es,t) 9; then (▁,l), (l,o), (o,w) tie at 7 and ▁low is the first
    # word: merges es, est, ▁l, ▁lo
    assert trained.word_segmenter()("low") == ["▁lo", "w"]
    assert trained.label == "BPE" and cl100k.label == "cl100k_base (GPT-4)"
    # 'hello world' is 15339, 1917 in cl100k_base (tiktoken's own README example ids)
    assert cl100k.encode("hello world").ids == (15339, 1917)
    assert cl100k.vocabulary(("▁a", "b")) == ("▁a", "b")
    assert trained.vocabulary(()) == tuple(trained.model.vocab)
    # low-lower with sow: every character of "low" is a symbol, so each piece is in the vocab
    coded = trained.encode("low")
    assert "".join(s.text for s in coded.spans).replace("▁", "") == "low"
    assert all(trained.model.vocab[i] == s.text for i, s in zip(coded.ids, coded.spans))


def private_imports(source: str, inside: str) -> list[str]:
    """The `_`-prefixed names a module imports from a core package other than `inside`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level and node.module:
            if node.level == 1 and not node.module.startswith(inside):
                continue  # within the same package (from .x import _y)
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_byte_level_bpe_drives_the_trainer_through_public_names_only():
    found = {
        str(path): private_imports(text, "bytebpe")
        for path, text in sources()
        if path.parts[:2] == ("subtok_core", "bytebpe")
    }
    assert {name: names for name, names in found.items() if names} == {}
    assert private_imports("from ..bpe.train import _State, run_merges", "bytebpe") == [
        "bpe.train._State"
    ]


def test_the_trainer_hook_orders_lex_ties_by_the_symbol_key():
    from subtok_core.bpe.train import BpeState
    from subtok_core.corpus import WordCounts

    # "ab" and "ba" once each: (a,b) and (b,a) tie at count 1
    wc = WordCounts(("ab", "ba"), (1, 1))
    by_text = BpeState.from_symbols(wc, ["ab", "ba"], ["a", "b"], "lex", False)
    assert by_text.pair_name(by_text.best()[0]) == ("a", "b")  # "a" < "b"
    rank = {"a": 2, "b": 1}.__getitem__  # b sorts first: (b,a) is (1,2) < (a,b)'s (2,1)
    keyed = BpeState.from_symbols(wc, ["ab", "ba"], ["a", "b"], "lex", False, symbol_key=rank)
    assert keyed.pair_name(keyed.best()[0]) == ("b", "a")
    text = WordCounts(("[UNK]",), (1,))
    with pytest.raises(ValueError, match="name of the unknown token"):
        BpeState.from_symbols(text, ["[UNK]"], list("[UNK]"), "first", False)
    learns = BpeState.from_symbols(text, ["[UNK]"], sorted(set("[UNK]")), "first", False,
                                   refuse_unknown=False)  # fmt: skip
    assert learns.pair_name(learns.best()[0]) == ("[", "U")  # the first pair of the word
