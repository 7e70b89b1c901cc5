"""Widget keys: every key not bound to the URL starts with its page, and no two widgets
share one.

Two walks, because each sees what the other cannot. The source of every page file is
read whole, every branch included, also those no test runs (the two "seed size" inputs
of /unigram were never shown together, so no run could make them collide). And every
page is run by AppTest where it shows the most widgets, which sees the keys the source
only computes (a loop over settings, a key passed in) and a collision Streamlit raises.
"""

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

import pytest
from apptools import APP, broken
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))  # lessons/, as the app imports it
from lessons.ui.compat import element_tree, key_of_element  # noqa: E402

# the modules of helpers every page shares (each by its job)
SHARED = (
    "ui/chips.py",
    "ui/tables.py",
    "ui/merge_lesson.py",
    "ui/keys.py",
    "ui/address.py",
    "ui/corpus.py",
    "ui/steps.py",
    "ui/store.py",
    "ui/view_memory.py",
    "ui/present.py",
    "ui/guard.py",
)
PAGE_OF = {  # file -> the page its widgets belong to; None: a helper shared by every page
    **dict.fromkeys(SHARED),
    "ui/cached.py": None,  # page caches: no widgets
    "ui/shipped.py": None,  # a shipped corpus's lines, cached: no widgets
    "ui/compat.py": None,  # Streamlit internals: no widgets
    "warm.py": None,  # `subtok warm`'s headless page runner: no widgets
    "bpe/page.py": "bpe",
    "bytebpe/page.py": "bytebpe",
    "bytebpe/views.py": "bytebpe",
    "bytebpe/replay.py": "bytebpe",
    "picky/page.py": "picky",
    "picky/views.py": "picky",
    "superbpe/page.py": "superbpe",
    "superbpe/views.py": None,  # what /superbpe and /boundless share, keyed by the page it gets
    "boundless/page.py": "boundless",
    "wordpiece/page.py": "wordpiece",
    "wordpiece/encode.py": "wordpiece",
    "unigram/page.py": "unigram",
    "unigram/controls.py": "unigram",
    "unigram/views.py": "unigram",
    "unigram/lattice.py": "unigram",
    "unigram/seed.py": "unigram",
    "compare/page.py": "compare",
    "compare/views.py": "compare",
    "compare/languages.py": "compare",
    "compare/paper.py": "compare",
    "compare/models.py": "compare",
    "compare/measures.py": "compare",
    "compare/information.py": "compare",
    "sage/page.py": "sage",
    "sage/views.py": "sage",
    "sage/results.py": "sage",
    "sage/paper.py": "sage",
    "sage/runs.py": "sage",
    "sage/latest.py": "sage",
    "sage/controls.py": "sage",
    "sage/closeup.py": "sage",
    "home/page.py": "home",
    "poll/page.py": "join",
    "check/page.py": "check",
    "check/views.py": "check",
    "check/classwork.py": "check",  # the class exercise, the teacher's side
    "poll/exercise.py": "join",  # the class exercise, the students' side
    "poll/student.py": "join",  # the student's anonymous id of /join (no widgets)
    "poll/panel.py": None,  # the class poll panel of the lessons, keyed by the page it gets
    "poll/results.py": None,  # the poll's tally and reveal, keyed by the page it gets
    "poll/room.py": None,  # the room on the projector (code, link, QR), keyed by the page it gets
    "poll/cookie.py": None,  # the class's cookies written: no widgets
    "poll/record.py": None,  # the class's controls and record, keyed by the page it gets
    "poll/teacher.py": None,  # the teacher's key and room, every page: no widgets
    "notes/page.py": "notes",
    "ui/regularize.py": None,  # panels of /bpe and /unigram, keyed by the prefix they get
    "ui/export.py": None,  # the tokenizer.json export, keyed by the page it gets
    "ui/upload.py": None,  # an uploaded file read once per server: no widgets
    "ui/estimate.py": None,  # an upload's time estimate and slices, keyed by the page it gets
    "ui/a11y.py": None,  # contrast CSS and chart sentences: no widgets
    "ui/escape.py": None,  # escaping a user's text: no widgets
    "ui/client.py": None,  # the client's address, for the limits: no widgets
    "ui/sessions.py": None,  # the sweep of closed sessions: no widgets
    "ui/inspector.py": "compare",  # Compare's inspector conventions (whitespace, hover, text)
    "vocab/page.py": "vocab",
    "vocab/card.py": "vocab",
    "vocab/chat.py": "vocab",
    "vocab/data.py": "vocab",
    "vocab/health.py": "vocab",
    "parity/page.py": "parity",
    "parity/views.py": "parity",
}
# every file: each key not bound to the address is made by widget_key (a session key too
# keeps its exact string that way: widget_key("sage", "upload") is "sage_upload")
MADE_BY_HELPER = set(PAGE_OF)
ANY = "{}"  # a part of a key computed when the page runs


# --- the source ---------------------------------------------------------------------------


class Key(NamedTuple):
    file: str
    line: int
    page: str
    text: str  # the key, its computed parts as {}
    bound: bool  # bind="query-params": the key is the URL parameter's name
    by_helper: bool  # made by widget_key


def template(node: ast.expr) -> str:
    """A key's text with every computed part as {}."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "(").replace("}", ")")
    if isinstance(node, ast.JoinedStr):
        return "".join(
            template(part) if isinstance(part, ast.Constant) else ANY for part in node.values
        )
    return ANY


def called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def module_constants(tree: ast.Module) -> dict[str, str]:
    """NAME = "text" at the top of a module (PAGE = "unigram")."""
    return {
        target.id: stmt.value.value
        for stmt in tree.body
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant)
        for target in stmt.targets
        if isinstance(target, ast.Name) and isinstance(stmt.value.value, str)
    }


def keys_in(tree: ast.AST, file: str, page: str, names: dict, skip: set) -> list[Key]:
    """The key= arguments of widget calls under `tree` (not those of calls to `skip`)."""
    keys = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or called(node) in skip:
            continue
        kwargs = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        if "key" not in kwargs:
            continue
        value = kwargs["key"]
        bound = getattr(kwargs.get("bind"), "value", None) == "query-params"
        by_helper = isinstance(value, ast.Call) and called(value) == "widget_key"
        if by_helper:  # widget_key(PAGE or "bpe" or a helper's prefix, name)
            page_arg, name_arg = value.args
            own = names.get(getattr(page_arg, "id", ""), getattr(page_arg, "value", page))
            text = f"{own}_{template(name_arg)}"
        else:
            text = template(value)
        keys.append(Key(file, node.lineno, page, text, bound, by_helper))
    return keys


def source_keys() -> list[Key]:
    """Every key= argument in lessons/; a shared helper's keys once for each page that
    calls the helper (directly or through another helper), with that page's prefix."""
    helpers, home = {}, {}  # a helper's definition, and its file
    for file in SHARED:
        for f in ast.parse((ROOT / "lessons" / file).read_text()).body:
            if isinstance(f, ast.FunctionDef):
                helpers[f.name], home[f.name] = f, file
    calls = {
        name: {called(n) for n in ast.walk(f) if isinstance(n, ast.Call)} & set(helpers)
        for name, f in helpers.items()
    }
    skip = set(helpers) - {"widget_key"} | {"min", "max", "sorted", "sort"}
    found = []
    for path in sorted((ROOT / "lessons").rglob("*.py")):
        file = path.relative_to(ROOT / "lessons").as_posix()
        if file in SHARED or path.name == "__init__.py" or file == "pages.py":
            continue
        tree, page = ast.parse(path.read_text()), PAGE_OF[file]
        found += keys_in(tree, file, page, module_constants(tree), skip)
        used = {called(n) for n in ast.walk(tree) if isinstance(n, ast.Call)} & set(helpers)
        while True:  # the helpers those helpers call
            more = set().union(*(calls[name] for name in used)) - used
            if not more:
                break
            used |= more
        for name in sorted(used):
            found += keys_in(helpers[name], home[name], page, {}, skip)
    return found


def pattern(text: str) -> re.Pattern:
    return re.compile(".+".join(re.escape(part) for part in text.split(ANY)))


def can_meet(a: str, b: str) -> bool:
    """Whether two key templates can make the same key (each tried on the other written
    out, its computed parts as 'x')."""
    return bool(
        pattern(a).fullmatch(b.replace(ANY, "x")) or pattern(b).fullmatch(a.replace(ANY, "x"))
    )


def test_every_key_not_bound_to_the_url_is_made_by_widget_key_and_starts_with_its_page():
    wrong = set()
    for key in source_keys():
        if key.bound:
            continue
        where = f"{key.file}:{key.line} {key.text} (/{key.page})"
        if key.file in MADE_BY_HELPER and not key.by_helper:
            wrong.add(f"{where}: not made by widget_key")
        elif not key.text.startswith(f"{key.page}_"):
            wrong.add(f"{where}: does not start with {key.page}_")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_two_places_in_the_source_make_the_same_key():
    keys = [key for key in source_keys() if not key.bound]
    clashes = set()
    for n, a in enumerate(keys):
        for b in keys[n + 1 :]:
            if (
                a.page == b.page
                and (a.file, a.line) != (b.file, b.line)
                and can_meet(a.text, b.text)
            ):
                clashes.add(
                    f"/{a.page}: {a.text} ({a.file}:{a.line}), {b.text} ({b.file}:{b.line})"
                )
    assert not clashes, "\n".join(sorted(clashes))


# --- the pages, run ------------------------------------------------------------------------

TINY_SAGE = {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"}
VIEWS = [  # page, URL, what to choose after: the views that show the most widgets
    ("bpe", {}, {}),
    ("bpe", {"corpus": "text:your own"}, {}),
    ("bytebpe", {"corpus": "toy:emoji-cjk", "step": "2"}, {}),
    ("bytebpe", {"corpus": "text:your own"}, {}),
    ("picky", {"corpus": "toy:low-lower", "step": "25"}, {}),
    ("wordpiece", {"corpus": "toy:sunflower", "step": "2"}, {}),
    ("wordpiece", {"corpus": "text:your own"}, {}),
    ("unigram", {"corpus": "toy:run-bug", "step": "2"}, {"unigram_pick_1": "un"}),
    ("unigram", {"corpus": "toy:hug-pug", "seed": "frequent"}, {}),
    ("unigram", {"corpus": "toy:hug-pug", "variant": "em", "step": "1"}, {}),
    ("compare", {"corpus": "toy:cat-bat", "size": "12", "tok": "bpe,unigram"}, {}),
    ("compare", {"corpus": "text:your own", "size": "30", "tok": "bpe,wordpiece"}, {}),
    ("compare", {"corpus": "upload:a .txt file", "tok": "bpe,unigram"}, {}),
    ("sage", TINY_SAGE, {}),
    ("sage", {"corpus": "upload"}, {}),
]


def run_page(page: str, **query) -> AppTest:
    """Open `page` with these URL parameters; an exception stays in at.exception."""
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    return at.switch_page(f"lessons/{page}/page.py").run()


def walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from walk(child)


def shown_keys(at: AppTest) -> list[tuple[str, str, bool]]:
    """(key, kind of widget, bound to the URL) of every keyed element on the page."""
    keys = []
    for node in walk(element_tree(at)):
        element_id = getattr(getattr(node, "proto", None), "id", "")
        key = key_of_element(element_id) if element_id else None
        if key:
            keys.append((key, node.type, bool(getattr(node.proto, "query_param_key", ""))))
    return keys


@pytest.fixture(scope="module")
def every_view():
    """page -> the keyed widgets of each view; and what each view raised, if it did."""
    shown, raised = defaultdict(list), []
    for page, query, choices in VIEWS:
        at = run_page(page, **query)
        for key, value in choices.items():
            at.selectbox(key=key).set_value(value).run()
        raised += [(page, query, e.message) for e in at.exception]
        raised += [(page, query, message) for message in broken(at)]  # app.py's guard
        shown[page] += shown_keys(at)
    return shown, raised


@pytest.mark.slow  # every page at its widest, SaGe on the crime sample
def test_no_page_raises_a_duplicate_key(every_view):
    _, raised = every_view
    clashes = [view for view in raised if "same `key=" in view[2] or "DuplicateElement" in view[2]]
    assert not clashes, clashes


@pytest.mark.slow  # every page at its widest, SaGe on the crime sample
def test_every_view_runs_to_its_end_so_every_widget_is_seen(every_view):
    _, raised = every_view
    assert not raised, raised


@pytest.mark.slow  # every page at its widest, SaGe on the crime sample
def test_every_key_shown_not_bound_to_the_url_starts_with_its_page(every_view):
    shown, _ = every_view
    wrong = {
        f"/{page}: {key}"
        for page, keys in shown.items()
        for key, _, bound in keys
        if not bound and not key.startswith(f"{page}_")
    }
    assert not wrong, sorted(wrong)


@pytest.mark.slow  # every page at its widest, SaGe on the crime sample
def test_a_url_parameter_two_pages_bind_is_the_same_kind_of_widget(every_view):
    """Bound to the URL, a value follows the student to the next page: ?seed=3 of SaGe's
    number box must not land in a select box of seed vocabularies."""
    shown, _ = every_view
    kinds = defaultdict(set)
    for page, keys in shown.items():
        for key, kind, bound in keys:
            if bound:
                kinds[key].add((kind, page))
    mixed = {k: sorted(v) for k, v in kinds.items() if len({kind for kind, _ in v}) > 1}
    assert not mixed, mixed
