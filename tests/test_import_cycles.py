"""No import cycle in the core (issue 28): every import of a subtok_core module by another,
at the top of a file or inside a function (an import inside a function only hides a cycle),
read from the source with ast; the graph must have no strongly connected component."""

from __future__ import annotations

import ast
from pathlib import Path

from subtok_core import registry

CORE = Path(__file__).parents[1] / "subtok_core"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The core modules `path` imports (a name imported from a package: its module, if the
    name is one, else the package)."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target)
    return (found & known) - {name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_core_has_no_import_cycle():
    paths = {module_name(p): p for p in CORE.rglob("*.py")}
    graph = {name: imports(path, set(paths)) for name, path in paths.items()}
    # the registry imports each algorithm's package by its name, when first asked for
    graph["subtok_core.registry"] |= {f"subtok_core.{name}" for name in registry.NAMES}
    assert "subtok_core.registry" in graph["subtok_core.export"]  # the scan sees imports
    assert cycles(graph) == []


def test_the_scan_finds_a_cycle_hidden_inside_a_function():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
