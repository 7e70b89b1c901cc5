"""``subtok warm URL...``: train a lesson's runs before the class, into the disk cache.

Each URL is a page's address as a teacher will share it, the host left out or not:
``/compare?corpus=sample:enwiki&size=8000&tok=bpe,wordpiece,unigram``. The command opens
the page headlessly (Streamlit's AppTest runs app.py and the page as a browser's request
would), so exactly the runs the page asks for are trained and kept on disk
(subtok_core.diskcache), and with them the tables the page derives (measures, chart specs,
a vocabulary's health: lessons.ui.store.derived); a server started afterwards with the same
cache setting reads them instead of computing them. Per page it says which runs it trained
and read, and how many tables of each kind it computed and read.

This module is the command's core half and imports no Streamlit: its arguments, the
addresses to open, what the store says it trained, the report. Opening a page is the app's
half, lessons/warm.py beside app.py, loaded from the app the command was given (which pages
train runs comes from there too, the app's lessons/pages.py).

>>> lessons = ("bpe", "compare")
>>> page_and_query("/bpe?corpus=toy:low-lower&marker=eow&merges=4", lessons)
('bpe', {'corpus': 'toy:low-lower', 'marker': 'eow', 'merges': '4'})
>>> page_and_query("http://localhost:8501/notes", lessons)
Traceback (most recent call last):
ValueError: /notes trains nothing to keep; subtok warm opens /bpe and /compare.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from urllib.parse import parse_qsl, urlsplit

TRAINS_NOTHING = ("", "home", "notes", "join")  # the app's pages with no run to warm
DEFAULT_TIMEOUT = 3600.0  # seconds one page may take (the paper's SaGe settings: minutes)
HELP = (
    "open pages headlessly so that their runs are trained and kept in the disk cache (needs "
    "the app: a clone of the repository, or --app PATH; a wheel installs no app)"
)


def add(commands) -> None:
    """The `warm` subcommand of `subtok`."""
    warm = commands.add_parser("warm", help=HELP, description=__doc__.split("\n\n")[0])
    warm.add_argument("urls", nargs="*", metavar="URL", help="a page's address, e.g. /bpe?...")
    warm.add_argument(
        "--readme",
        action="store_true",
        help="also every deep link of the README's 'Share a view' section (the shared ones)",
    )
    warm.add_argument(
        "--from",
        dest="listed",
        metavar="FILE",
        help="also the addresses in FILE, one per line (# starts a comment)",
    )
    warm.add_argument(
        "--app", metavar="PATH", help="the app's app.py (default: found beside the package)"
    )
    warm.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long one page may take (default {DEFAULT_TIMEOUT:g})",
    )
    warm.set_defaults(run=run)


RUNNER = Path("lessons") / "warm.py"  # the app's half, relative to app.py
_RUNNERS: dict[Path, ModuleType] = {}  # loaded once per app


def runner(app: Path) -> ModuleType:
    """The app's half of the command (lessons/warm.py beside `app`), loaded from that file;
    the app's own directory goes on sys.path (once), as app.py imports lessons/ from it."""
    if str(app.parent) not in sys.path:
        sys.path.insert(0, str(app.parent))
    path = app.parent / RUNNER
    if not path.is_file():
        raise ValueError(f"The app at {app} has no {RUNNER.as_posix()} to open its pages with.")
    if path not in _RUNNERS:
        spec = importlib.util.spec_from_file_location("_subtok_warm_runner", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _RUNNERS[path] = module
    return _RUNNERS[path]


def lesson_pages(app: Path) -> tuple[str, ...]:
    """The addresses of the pages beside `app` that train runs (the app's list of pages,
    read by its runner); home, notes and the poll's join page train nothing."""
    return tuple(sorted(runner(app).lesson_pages()))


def page_and_query(url: str, lessons: tuple[str, ...]) -> tuple[str, dict[str, str | list[str]]]:
    """The page (one of `lessons`) and the query parameters of an address (a parameter
    given twice: a list)."""
    parts = urlsplit(url.strip())
    page = parts.path.strip("/")
    if page not in lessons:
        shown = ", ".join(f"/{p}" for p in lessons[:-1]) + f" and /{lessons[-1]}"
        if page in TRAINS_NOTHING:
            raise ValueError(f"/{page} trains nothing to keep; subtok warm opens {shown}.")
        raise ValueError(f"The app has no page /{page}; subtok warm opens {shown}.")
    query: dict[str, str | list[str]] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        old = query.get(key)
        query[key] = value if old is None else [*([old] if isinstance(old, str) else old), value]
    return page, query


def find_app(given: str | None) -> Path:
    """app.py: the path given, else the one beside the installed package (an install from
    the repository: `pip install -e .`)."""
    if given is not None:
        path = Path(given).expanduser()
        path = path / "app.py" if path.is_dir() else path
        if not path.is_file():
            raise ValueError(f"There is no app at {given}: give the path of app.py with --app.")
        return path.resolve()
    path = Path(__file__).resolve().parents[1] / "app.py"
    if not path.is_file():
        raise ValueError(
            "subtok warm runs the app's pages, and there is no app.py beside the installed "
            "package: give its path with --app PATH."
        )
    return path


@dataclass
class Outcome:
    """What opening one page did: runs trained and read (the store's log lines), the
    tables derived from them computed and read, per kind, the page's warnings and errors,
    and how long it took."""

    trained: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    computed_tables: Counter = field(default_factory=Counter)
    read_tables: Counter = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


class _StoreLog(logging.Handler):
    """Collects the store's lines about runs trained and read; prints warnings (a cache
    file ignored, a run over the budget) on stderr."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.outcome = Outcome()

    def emit(self, record: logging.LogRecord) -> None:
        from . import store

        kind = getattr(record, "run_kind", "run")
        table = kind.removeprefix(store.TABLE) if kind.startswith(store.TABLE) else None
        if record.msg == store.TRAINED and table:
            self.outcome.computed_tables[table] += 1
        elif record.msg == store.READ and table:
            self.outcome.read_tables[table] += 1
        elif record.msg == store.TRAINED:
            self.outcome.trained.append(record.getMessage())
        elif record.msg == store.READ:
            self.outcome.read.append(record.getMessage())
        elif record.levelno >= logging.WARNING:
            print(f"  note: {record.getMessage()}", file=sys.stderr)


def open_page(app: Path, page: str, query: dict, timeout: float, collected: _StoreLog) -> Outcome:
    """Open the page (the app's runner does), collecting what the store says meanwhile."""
    collected.outcome = outcome = Outcome()
    began = time.perf_counter()
    warnings, errors = runner(app).open_page(app, page, query, timeout)
    outcome.seconds = time.perf_counter() - began
    outcome.warnings += warnings
    outcome.errors += errors
    return outcome


def wanted(args: argparse.Namespace, app: Path) -> list[str]:
    """The addresses to open: those typed, then the README's shared links (--readme), then
    a file's (--from), each once in that order."""
    from . import warm_links

    urls = list(args.urls)
    if args.readme:
        urls += warm_links.readme_of(app)
    if args.listed:
        urls += warm_links.from_file(args.listed)
    if not urls:
        raise ValueError(
            "Name the pages to warm: addresses (/bpe?...), --readme for the README's shared "
            "links, or --from FILE."
        )
    return list(dict.fromkeys(urls))


def run(args: argparse.Namespace) -> None:
    """Open every page; say per page what was trained and what the page showed; then
    compile the app's and the core's sources (warm_compile: a restarted server imports
    them instead of compiling them)."""
    from . import diskcache, warm_compile

    cache = diskcache.from_env()
    if cache is None:
        raise ValueError(
            "SUBTOK_CACHE_DIR is off, so nothing would be kept: unset it or name a directory."
        )
    app = find_app(args.app)
    lessons = lesson_pages(app)
    urls = wanted(args, app)
    pages = [(url, *page_and_query(url, lessons)) for url in urls]  # a bad one: refused
    print(f"Cache: {cache.directory} (at most {cache.max_bytes / 2**20:,.0f} MB)")
    logger = logging.getLogger("subtok_core")
    collected, level = _StoreLog(), logger.level
    logger.addHandler(collected)  # the app then adds no handler of its own (trace_store)
    logger.setLevel(logging.INFO)
    failed = 0
    try:
        with runner(app).quiet():  # AppTest's own chatter, which is no news here
            for url, page, query in pages:
                print(url)
                outcome = open_page(app, page, query, args.timeout, collected)
                report(outcome)
                failed += bool(outcome.errors)
    finally:
        logger.removeHandler(collected)
        logger.setLevel(level)
    if not warm_compile.compile_sources(app):
        print("Some sources could not be compiled to bytecode (a folder not writable).")
    if failed:
        raise ValueError(f"{failed} of {len(pages)} pages showed an error (see above).")


def report(outcome: Outcome) -> None:
    """Print what one page did, indented under its address."""
    for line in outcome.trained:
        print(f"  {line}")
    for line in outcome.read:
        print(f"  {line}")
    for text in outcome.warnings:
        print(f"  warning on the page: {text}")
    for text in outcome.errors:
        print(f"  error on the page: {text}")
    runs = len(outcome.trained)
    kept = "" if not outcome.read else f", {len(outcome.read)} read from the cache"
    runs_done = f"{runs} run{'s' * (runs != 1)} trained{kept}"
    print(f"  ready in {outcome.seconds:.1f} s: {runs_done}{tables_line(outcome)}")


def tables_line(outcome: Outcome) -> str:
    """What the page derived from its runs, one line: '; tables: 9 computed (compare
    measures 3, ...), 0 read' (nothing when the page derived no table)."""
    parts = []
    for how, counts in (("computed", outcome.computed_tables), ("read", outcome.read_tables)):
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
        parts.append(f"{sum(counts.values())} {how}" + (f" ({kinds})" if kinds else ""))
    if not (outcome.computed_tables or outcome.read_tables):
        return ""
    return "; tables derived from them: " + ", ".join(parts)
