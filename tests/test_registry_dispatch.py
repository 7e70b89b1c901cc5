"""No dispatch on an algorithm's name outside the registry (issue 38), read with ast.

What a part of the lab needs of an algorithm is a field or verb of its registry entry
(``entry.Algorithm``): a caller asks the entry, it does not test the name. The scan reads
every module of ``subtok_core/`` and ``lessons/`` and flags a string literal spelled as a
registered algorithm name (``registry.NAMES``) where it selects behaviour:

- an operand of ``==``, ``!=``, ``in``, ``not in`` (``algo == "bpe"``, ``"sage" in kinds``),
  also as an element of a tuple, list or set literal there (``name in ("bpe", "bytebpe")``)
  or through a name the module binds to such a literal (``kind in CARD_TRAINED``);
- a key of a dict literal (a table by name), an index (``encoded["wordpiece"]``), a
  ``case`` pattern.

Not flagged, by rule rather than by a list of lines:

- the registry itself and an algorithm's own packages (``subtok_core/bpe/``,
  ``lessons/bpe/``): a package may name itself;
- a name passed as an argument or assigned (``registry.get("bpe")``, ``PAGE = "bpe"``, a
  ``Page(..., "bpe")`` URL path, a cache key's parts): asking by name is what the registry
  is for, and a page's URL path that happens to equal an algorithm's name is an address;
- a comparison whose other side is a page or a marker style, by its identifier (one that
  contains ``page`` or ``style``), and a dict bound to such a name (``STYLE_TEXT``): URL
  paths and ``markers.STYLES`` ("wordpiece", the ## style) are other namespaces that
  share the spelling;
- strings in docstrings and comments (they are not in any of the positions above).
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from subtok_core import registry

ROOT = Path(__file__).parents[1]
NAMES = frozenset(registry.NAMES)
OTHER_NAMESPACES = ("page", "style")  # identifiers whose comparisons are not on algorithms


def own(path: Path) -> bool:
    """The registry and each algorithm's own packages, core and lesson."""
    parts = path.parts
    return path == Path("subtok_core/registry.py") or (
        len(parts) > 2 and parts[0] in ("subtok_core", "lessons") and parts[1] in NAMES
    )


def sources():
    """(path relative to the repository, its text) of every module scanned."""
    for folder in ("subtok_core", "lessons"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if not own(rel):
                yield rel, path.read_text(encoding="utf-8")


def _constants(tree: ast.Module) -> dict[str, set[str]]:
    """Names bound (anywhere in the module) to a literal holding algorithm names."""
    found = {}
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        value = getattr(node, "value", None)
        for target in targets:
            if isinstance(target, ast.Name) and value is not None:
                names = _literal_names(value, {})
                if names:
                    found[target.id] = names
    return found


def _literal_names(node: ast.AST, constants: dict[str, set[str]]) -> set[str]:
    """The algorithm names `node` spells: a string, a collection literal of them (also
    inside set()/frozenset()/tuple()), or a module constant bound to one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return {n for elt in node.elts for n in _literal_names(elt, constants)}
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
        "set",
        "frozenset",
        "tuple",
    ):
        return {n for arg in node.args for n in _literal_names(arg, constants)}
    if isinstance(node, ast.Name):
        return constants.get(node.id, set())
    if isinstance(node, ast.IfExp):
        return _literal_names(node.body, constants) | _literal_names(node.orelse, constants)
    return set()


def _other_namespace(node: ast.AST) -> bool:
    """Whether `node` is a page or a marker style by its identifier (or a collection of
    them): what it is compared with is a URL path or a marker style, not an algorithm."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_other_namespace(e) for e in node.elts)
    name = getattr(node, "id", None) or getattr(node, "attr", None) or ""
    return any(word in name.lower() for word in OTHER_NAMESPACES)


def dispatches(source: str) -> list[tuple[int, str]]:
    """(line, what) of every place `source` selects behaviour by an algorithm's name."""
    tree = ast.parse(source)
    constants = _constants(tree)
    other = {  # dict literals bound to a page's or a marker style's name (STYLE_TEXT)
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and all(_other_namespace(t) for t in node.targets)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_other_namespace(o) for o in operands):
                continue
            names = set().union(*(_literal_names(o, constants) for o in operands))
            if names:
                found.append((node.lineno, f"compares with {sorted(names)}"))
        elif isinstance(node, ast.Dict) and id(node) not in other:
            names = {n for k in node.keys if k is not None for n in _literal_names(k, {})}
            if names:
                found.append((node.lineno, f"a table keyed by {sorted(names)}"))
        elif isinstance(node, ast.Subscript):
            key = node.slice
            names = _literal_names(key, {}) if isinstance(key, ast.Constant) else set()
            if names:
                found.append((node.lineno, f"looks up {sorted(names)}"))
        elif isinstance(node, ast.MatchValue):
            names = _literal_names(node.value, {})
            if names:
                found.append((node.lineno, f"matches {sorted(names)}"))
    return sorted(found)


def report(files) -> list[str]:
    return [f"{path}:{line}: {what}" for path, text in files for line, what in dispatches(text)]


def test_nothing_outside_the_registry_dispatches_on_an_algorithm_name():
    assert report(sources()) == []


def test_the_scan_sees_each_kind_of_dispatch():
    source = (
        'CARD = ("bpe", "wordpiece")\n'
        'if algo == "unigram": pass\n'
        "if kind in CARD: pass\n"
        'x = name in ("bpe", "bytebpe")\n'
        'TABLE = {"sage": 1}\n'
        'y = encoded["wordpiece"]\n'
        'match algo:\n    case "bytebpe": pass\n'
        'needed = ("bpe",) if dropout else ("unigram",)\n'
        "ok = algo.name in needed\n"
    )
    assert [line for line, _ in dispatches(source)] == [2, 3, 4, 5, 6, 8, 10]


def test_the_scan_leaves_other_namespaces_and_asking_by_name():
    source = (
        'PAGE = "bpe"\n'
        'algo = registry.get("bpe")\n'
        'if page == "unigram": pass\n'
        'if {style_a, style_b} != {"sow", "wordpiece"}: pass\n'
        'key = fingerprint("bpe", corpus)\n'
        '"""a docstring saying algo == "bpe" """\n'
        'if name == "cl100k_base": pass\n'
        'STYLE_TEXT = {"sow": "▁", "wordpiece": "##"}\n'
    )
    assert dispatches(source) == []


def test_the_scan_fails_on_the_code_before_issue_38():
    """The dispatch issue 38 names, read from the commit before it (2f71613), is found in
    each file it names, so the test above could fail."""
    named = ("subtok_core/vocab/trained.py", "subtok_core/vocab/card.py",
             "subtok_core/regularize_cli.py")  # fmt: skip
    texts = {}
    for path in named:
        done = subprocess.run(
            ["git", "show", f"2f71613:{path}"], cwd=ROOT, capture_output=True, text=True
        )
        if done.returncode != 0:
            pytest.skip("the repository's history is not here (git show failed)")
        texts[path] = done.stdout
    assert {path for path, text in texts.items() if dispatches(text)} == set(named)
    # the lines a reader finds by hand: `model.algorithm == "unigram"` (vocab_of),
    # `model.algorithm == "bpe"` (tree_of), `algo.name not in needed` (run)
    assert 33 in dict(dispatches(texts["subtok_core/vocab/trained.py"]))
    assert 63 in dict(dispatches(texts["subtok_core/vocab/card.py"]))
    assert 93 in dict(dispatches(texts["subtok_core/regularize_cli.py"]))
