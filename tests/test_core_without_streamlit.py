"""The core never imports Streamlit (README, docs/ARCHITECTURE.md): no module under
subtok_core/ imports it, at the top of a file or inside a function (`subtok warm`'s
headless page runner is the app's, lessons/warm.py). Read from the source with ast, so an
import that only runs in one command is seen too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).parents[1] / "subtok_core"


def streamlit_imports(source: str) -> list[int]:
    """The lines of `source` that import streamlit or one of its modules: `import x`,
    `from x import y` (anywhere in the tree, functions included) and
    importlib.import_module("x") / __import__("x") with the name written out."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if not node.level else []
        elif isinstance(node, ast.Call) and node.args:
            func, first = node.func, node.args[0]
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            names = [first.value] if called in ("import_module", "__import__") and literal else []
        else:
            continue
        if any(name == "streamlit" or name.startswith("streamlit.") for name in names):
            lines.append(node.lineno)
    return lines


def test_no_core_module_imports_streamlit():
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) > 20  # the scan reads the core, not an empty folder
    found = {
        str(path.relative_to(CORE.parent)): lines
        for path in modules
        if (lines := streamlit_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"the core imports streamlit (file: lines): {found}"


@pytest.mark.parametrize(
    "source",
    [
        "import streamlit as st",
        "import os, streamlit.components.v1",
        "from streamlit.testing.v1 import AppTest",
        "def run():\n    if True:\n        from streamlit import cache_data\n",
        "class A:\n    def f(self):\n        import streamlit\n",
        "import importlib\nst = importlib.import_module('streamlit')",
        "st = __import__('streamlit.runtime')",
    ],
)
def test_the_scan_finds_each_way_of_importing_streamlit(source):
    assert streamlit_imports(source)


@pytest.mark.parametrize(
    "source",
    [
        "import streamlitish",
        "from .streamlit import x",  # a module of our own by that name, relative
        "LOGGER = 'streamlit.runtime.scriptrunner'",  # a name, not an import
        "# import streamlit",
    ],
)
def test_the_scan_lets_other_names_through(source):
    assert not streamlit_imports(source)
