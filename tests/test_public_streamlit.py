"""Public Streamlit only: outside lessons/ui/compat.py (and its test), no source file of the
app, the core, the tests or the benchmarks imports Streamlit's internals
(`streamlit.runtime`, `streamlit.elements`, ... anything but its public modules), a
`_`-prefixed Streamlit name, or reaches a private member of a Streamlit object (AppTest's
`_tree`, a class's `_run_script_thread`). The source is read with ast, every branch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).parents[1]
ALLOWED = {Path("lessons/ui/compat.py"), Path("tests/test_compat.py")}
# Streamlit's public modules: `st`, AppTest, the exceptions and element type it documents,
# and the protobuf messages of its wire protocol (the load benchmark speaks it)
PUBLIC = {
    "streamlit",
    "streamlit.testing.v1",
    "streamlit.errors",
    "streamlit.delta_generator",
    "streamlit.components.v1",
    "streamlit.column_config",
}
PUBLIC_PREFIXES = ("streamlit.proto.",)
PRIVATE_APPTEST = {
    name
    for name in {*dir(AppTest), *vars(AppTest.from_string(""))}
    if name.startswith("_") and not name.startswith("__")
}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def public_module(module: str) -> bool:
    if module != "streamlit" and not module.startswith("streamlit."):
        return True
    if any(private(part) for part in module.split(".")):
        return False
    return module in PUBLIC or module.startswith(PUBLIC_PREFIXES)


def violations(source: str) -> list[str]:
    """What in `source` reaches past Streamlit's public API, one line each."""
    tree = ast.parse(source)
    found, streamlit_names = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not public_module(alias.name):
                    found.append(f"{node.lineno}: import {alias.name}")
                if alias.name.split(".")[0] == "streamlit":
                    streamlit_names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not public_module(node.module):
                found.append(f"{node.lineno}: from {node.module} import ...")
            elif node.module.split(".")[0] == "streamlit":
                for alias in node.names:
                    if private(alias.name):
                        found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                    streamlit_names.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in streamlit_names:
            if private(node.attr) or node.attr in ("runtime", "elements"):
                found.append(f"{node.lineno}: {base.id}.{node.attr}")
        elif node.attr in PRIVATE_APPTEST:
            found.append(f"{node.lineno}: .{node.attr} (a private member of AppTest)")
    return found


def sources() -> list[Path]:
    files = [ROOT / "app.py"]
    for folder in ("lessons", "subtok_core", "tests", "bench"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return [f for f in files if f.relative_to(ROOT) not in ALLOWED]


def test_nothing_outside_the_compatibility_module_reaches_streamlit_internals():
    found = {str(f.relative_to(ROOT)): v for f in sources() if (v := violations(f.read_text()))}
    assert not found, f"private Streamlit outside lessons/ui/compat.py: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "from streamlit.runtime.scriptrunner import get_script_run_ctx",
        "import streamlit.runtime.scriptrunner as sr",
        "from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec",
        "from streamlit import _bottom",
        "import streamlit as st\nst._main",
        "import streamlit as st\nctx = st.runtime.get_instance()",
        "from streamlit.testing.v1.local_script_runner import LocalScriptRunner",
        "def f(at):\n    return at._tree",
    ],
)
def test_the_scan_finds_each_kind_of_private_use(source):
    assert violations(source)


def test_the_scan_lets_public_uses_through():
    source = (
        "import streamlit as st\nfrom streamlit.testing.v1 import AppTest\n"
        "from streamlit.errors import StreamlitAPIException\n"
        "from streamlit.proto.ForwardMsg_pb2 import ForwardMsg\n"
        "st.write(st.session_state.__class__)\nat = AppTest.from_file('app.py')\nat.run()\n"
    )
    assert violations(source) == []
