"""Every path the README and docs/*.md name exists in the repository: a path that starts
with one of the repository's folders (lessons/..., subtok_core/..., tests/..., bench/...,
deploy/..., .ci/..., docs/...), anywhere in the text, and a file name ending in .py inside
a code span or a code block. In a tree (a code block whose first line is a folder, its
entries indented under it) an entry counts from its folder: `  bpe/` under `subtok_core/`
is subtok_core/bpe/. A placeholder (`lessons/<lesson>/page.py`, `NAME`) stands for any
name; a bare file name (`plaindata.py`) must be some file of the repository."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
DOCS = ("README.md", *sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("docs/*.md")))
FOLDERS = ("lessons", "subtok_core", "tests", "bench", "deploy", r"\.ci", "docs")
ROOTED = re.compile(rf"(?<![\w./~-])(?:{'|'.join(FOLDERS)})/[\w./<>*-]*")
PY_NAME = re.compile(r"(?<![\w./<>*-])[\w<>*-]+(?:/[\w<>*-]+)*\.py\b")
SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
ENTRY = re.compile(r"^( *)((?:[\w.<>*-]+/?)(?: [\w.<>*-]+/?)*)(?: {2,}(.*))?$")


def tree_paths(block: str) -> list[str] | None:
    """The paths of a tree block, each counted from its folder (None: not a tree). Its
    first line is a folder (`subtok_core/`) or an entry at indent 0; a line is an entry when
    it is names (a file with a dot, a folder with /) separated by single spaces, then two
    spaces and a description; other lines continue the description above."""
    lines = [line for line in block.splitlines() if line.strip()]
    first = ENTRY.match(lines[0]) if lines else None
    if not first or first.group(1) or not _names(first.group(2)):
        return None
    found: list[str] = []
    folders: list[tuple[int, str]] = []  # (indent, path) of the open folders
    for line in lines:
        entry = ENTRY.match(line)
        names = _names(entry.group(2)) if entry else None
        if not names:
            found += code_names(line)
            continue
        indent = len(entry.group(1))
        while folders and folders[-1][0] >= indent:
            folders.pop()
        parent = folders[-1][1] if folders else ""
        for name in names:
            found.append(parent + name)
            if name.endswith("/") and len(names) == 1:
                folders.append((indent, parent + name))
        found += code_names(entry.group(3) or "")
    return found


def _names(text: str) -> list[str] | None:
    """The file and folder names of an entry, or None when one of its words is no name."""
    words = text.split(" ")
    ok = all(w.endswith("/") or re.search(r"\w\.\w+$", w) for w in words)
    return words if ok else None


def prose_paths(text: str) -> list[str]:
    """The rooted paths of a stretch of text."""
    return [m.group(0) for m in ROOTED.finditer(text)]


def code_names(text: str) -> list[str]:
    """The rooted paths and the other .py names of a code span or a code block (a name
    with a folder, `bpe/reference.py`, is some file's path inside the repository)."""
    rooted = prose_paths(text)
    bare = [m.group(0) for m in PY_NAME.finditer(ROOTED.sub(" ", text))]
    return rooted + bare


def named_paths(text: str) -> list[str]:
    """Every path a markdown text names: trees counted from their folders, code blocks,
    code spans, and rooted paths in the prose."""
    found: list[str] = []
    for block in FENCE.findall(text):
        tree = tree_paths(block)
        found += code_names(block) if tree is None else tree
    prose = FENCE.sub("", text)
    for span in SPAN.findall(prose):
        found += code_names(span)
    found += prose_paths(SPAN.sub(" ", prose))
    return [clean(p) for p in found if clean(p)]


def clean(path: str) -> str:
    """A path without the punctuation of the sentence around it (`bench/scaling.py).`);
    nothing for an example of the reader's own (`path/to/app.py`)."""
    path = path.split("::")[0]
    if path.startswith("path/to/"):
        return ""
    return path.rstrip(".,;:)") if not path.endswith("/.") else path[:-1]


def exists(path: str, root: Path = ROOT) -> bool:
    """Whether `path` names something of the repository: a placeholder (<...>, *, an
    all-capitals segment) matches any name, a bare file name any file of that name."""
    pattern = "/".join(
        "*" if ("<" in part or "*" in part or re.fullmatch(r"[A-Z][A-Z_]+", part)) else part
        for part in path.rstrip("/").split("/")
    )
    if not path.startswith(tuple(f.replace("\\", "") + "/" for f in FOLDERS)):
        return any(_repo_files(root, pattern))  # a bare name: somewhere in the repository
    return any(p for p in root.glob(pattern) if not path.endswith("/") or p.is_dir())


def _repo_files(root: Path, pattern: str):
    """The repository's files whose path ends with `pattern` (one name or name/name)."""
    skip = {".git", ".venv", "node_modules", "__pycache__"}
    return (p for p in root.rglob(pattern) if not skip & set(p.relative_to(root).parts))


def missing(doc: str, root: Path = ROOT) -> list[str]:
    text = (root / doc).read_text(encoding="utf-8")
    return sorted({p for p in named_paths(text) if not exists(p, root)})


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_a_doc_names_exists(doc):
    named = named_paths((ROOT / doc).read_text(encoding="utf-8"))
    assert named, f"{doc} names no path: the scan reads nothing"
    assert missing(doc) == [], f"{doc} names paths the repository does not have"


def test_a_tree_counts_its_entries_from_their_folder():
    block = (
        "subtok_core/\n"
        "  corpus.py           text -> words (bench/scaling.py)\n"
        "  store.py diskcache.py   the store\n"
        "  bpe/ unigram/       one package per algorithm, each with\n"
        "      records.py (its steps), train.py; bpe/reference.py\n"
        "  check/\n"
        "    diagnose.py       the cause\n"
        "  data/               toys\n"
    )
    assert tree_paths(block) == [
        "subtok_core/", "subtok_core/corpus.py", "bench/scaling.py", "subtok_core/store.py",
        "subtok_core/diskcache.py", "subtok_core/bpe/", "subtok_core/unigram/", "records.py",
        "train.py", "bpe/reference.py", "subtok_core/check/", "subtok_core/check/diagnose.py",
        "subtok_core/data/",
    ]  # fmt: skip
    assert tree_paths("subtok warm --readme\npython bench/bpe.py\n") is None


def test_the_scan_finds_paths_in_prose_spans_and_commands_and_reads_placeholders():
    text = (
        "See [the design](docs/DESIGN.md) and `lessons/ui/guard.py`, `_url.py` (parses).\n"
        "A page is `lessons/<lesson>/page.py`; tests/test_x.py::test_y fails.\n"
        "```bash\npython bench/nowhere.py --n 3\n```\n"
        "Not paths: https://example.org/docs/x, `/usr/bin/chromium`, `subtok_core.store`,\n"
        "`--app path/to/app.py`.\n"
    )
    assert named_paths(text) == [
        "bench/nowhere.py", "lessons/ui/guard.py", "_url.py", "lessons/<lesson>/page.py",
        "docs/DESIGN.md", "tests/test_x.py",
    ]  # fmt: skip
    assert exists("lessons/<lesson>/page.py") and exists("lessons/NAME/page.py")
    assert exists("plaindata.py") and exists("docs/") and exists(".ci/run")
    assert exists("bpe/reference.py") and not exists("wordpiece/reference.py")
    assert not exists("_url.py") and not exists("bench/nowhere.py")
    assert not exists("tests/test_docs_paths.py/")  # a file named as a folder


def parts_of(folder: str) -> set[str]:
    """The modules and packages at the top of `folder` (no __init__.py, no caches)."""
    found = set()
    for p in (ROOT / folder).iterdir():
        if p.is_dir() and not p.name.startswith(("_", ".")):
            found.add(f"{folder}/{p.name}/")
        elif p.suffix == ".py" and p.name != "__init__.py":
            found.add(f"{folder}/{p.name}")
    return found


def test_the_readme_tree_names_every_part_of_the_core_and_the_app():
    """The README's "How it is built" trees leave out no module or package at the top of
    subtok_core/ and lessons/ (a module added later is added there too)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## How it is built", 1)[1].split("\n## ", 1)[0]
    named = {p for block in FENCE.findall(section) for p in tree_paths(block) or []}
    assert parts_of("subtok_core") - named == set()
    assert parts_of("lessons") - named == set()
    assert "app.py" in named


def algorithm_importers() -> set[str]:
    """The modules of lessons/ that import an algorithm's package (or a module of it)
    themselves, at the top or inside a function, read with ast."""
    from subtok_core import registry

    packages = {f"subtok_core.{name}" for name in registry.NAMES}
    found = set()
    for path in (ROOT / "lessons").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            if any(n == p or n.startswith(p + ".") for n in names for p in packages):
                found.add(path.relative_to(ROOT).as_posix())
    return found


@pytest.mark.slow  # scans the imports of every page
def test_architecture_names_the_pages_that_import_an_algorithm_directly():
    text = (ROOT / "docs/ARCHITECTURE.md").read_text(encoding="utf-8")
    listed = re.split(r"import an algorithm\s+package directly", text)[1].split("\n## ")[0]
    named = {p for p in SPAN.findall(listed) if p.startswith("lessons/") and p.endswith(".py")}
    assert len(algorithm_importers()) > 5  # the scan reads the imports
    assert named == algorithm_importers()
