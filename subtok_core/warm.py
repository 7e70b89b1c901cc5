"""``subtok warm URL...``: train a lesson's runs before the class, into the disk cache.

Each URL is a page's address as a teacher will share it, the host left out or not:
``/compare?corpus=sample:enwiki&size=8000&tok=bpe,wordpiece,unigram``. The command opens
the page headlessly (Streamlit's AppTest runs app.py and the page as a browser's request
would), so exactly the runs the page asks for are trained and kept on disk
(subtok_core.diskcache), and with them the tables the page derives (measures, chart specs,
a vocabulary's health: lessons.ui.store.derived); a server started afterwards with the same
cache setting reads them instead of computing them. Per page it says which runs it trained
and read, and how many tables of each kind it computed and read. Streamlit is imported
only when the command runs: the rest of the core never needs it.

>>> lessons = ("bpe", "compare")
>>> page_and_query("/bpe?corpus=toy:low-lower&marker=eow&merges=4", lessons)
('bpe', {'corpus': 'toy:low-lower', 'marker': 'eow', 'merges': '4'})
>>> page_and_query("http://localhost:8501/notes", lessons)
Traceback (most recent call last):
ValueError: /notes trains nothing to keep; subtok warm opens /bpe and /compare.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

TRAINS_NOTHING = ("", "home", "notes", "join")  # the app's pages with no run to warm
DEFAULT_TIMEOUT = 3600.0  # seconds one page may take (the paper's SaGe settings: minutes)
BARE_MODE_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"
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


def app_pages(app: Path) -> dict[str, str]:
    """The pages beside `app` that train runs, by address: /NAME -> its file
    (lessons/NAME/page.py), from the app's own list of pages (lessons/pages.py, plain
    data); home, notes and the poll's join page train nothing."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_app_pages", app.parent / "lessons" / "pages.py")
    listed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(listed)
    return {p.url_path: p.file for p in listed.PAGES if p.trains}


def lesson_pages(app: Path) -> tuple[str, ...]:
    """The addresses of the pages beside `app` that train runs (see app_pages)."""
    return tuple(sorted(app_pages(app)))


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


def _errors_only(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.ERROR


def open_page(app: Path, page: str, query: dict, timeout: float, collected: _StoreLog) -> Outcome:
    """Run app.py with the address's parameters, then the page, as a first request does."""
    from streamlit.testing.v1 import AppTest

    collected.outcome = outcome = Outcome()
    began = time.perf_counter()
    at = AppTest.from_file(str(app), default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    try:
        at.run()
        at.switch_page(app_pages(app)[page]).run()
    except RuntimeError:  # AppTest's timeout: it has stopped the page
        outcome.errors.append(f"the page did not finish within {timeout:g} s (see --timeout)")
    outcome.seconds = time.perf_counter() - began
    outcome.warnings += [element.value for element in at.warning]
    outcome.errors += [element.value for element in at.error]
    outcome.errors += [str(element.value) for element in at.exception]
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
    """Open every page; say per page what was trained and what the page showed."""
    from . import diskcache

    cache = diskcache.from_env()
    if cache is None:
        raise ValueError(
            "SUBTOK_CACHE_DIR is off, so nothing would be kept: unset it or name a directory."
        )
    app = find_app(args.app)
    lessons = lesson_pages(app)
    urls = wanted(args, app)
    pages = [(url, *page_and_query(url, lessons)) for url in urls]  # a bad one: refused
    if str(app.parent) not in sys.path:  # app.py imports lessons/ from its own directory
        sys.path.insert(0, str(app.parent))
    print(f"Cache: {cache.directory} (at most {cache.max_bytes / 2**20:,.0f} MB)")
    logger = logging.getLogger("subtok_core")
    collected, level = _StoreLog(), logger.level
    logger.addHandler(collected)  # the app then adds no handler of its own (trace_store)
    logger.setLevel(logging.INFO)
    # AppTest's bare mode warns of a missing script context on every page: no news here
    # (a filter: Streamlit sets its loggers' levels again when it loads its config)
    bare = logging.getLogger(BARE_MODE_LOGGER)
    bare.addFilter(_errors_only)
    failed = 0
    try:
        for url, page, query in pages:
            print(url)
            outcome = open_page(app, page, query, args.timeout, collected)
            report(outcome)
            failed += bool(outcome.errors)
    finally:
        logger.removeHandler(collected)
        logger.setLevel(level)
        bare.removeFilter(_errors_only)
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
