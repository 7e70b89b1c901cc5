"""The real samples that ship with gensim (Wikipedia, Lee, Crime and Punishment): their lines
read from the package, the Wikipedia dump's markup stripped once and kept on disk."""

from __future__ import annotations

import bz2
import functools
import importlib.util
from pathlib import Path


def _gensim_data() -> Path:
    """gensim's test data folder, found without importing gensim (a second of numpy and
    scipy that reading a sample does not need)."""
    spec = importlib.util.find_spec("gensim")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(
            "The real samples ship with gensim, which is not installed: pip install gensim"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "test" / "test_data"


SAMPLES = {
    "enwiki": (
        "English Wikipedia (shortened dump shipped with gensim), one paragraph per line",
        "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
    ),
    "lee": ("Lee news corpus (lee_background.cor, shipped with gensim)", "lee_background.cor"),
    "crime": (
        "Crime and Punishment, Russian excerpt (shipped with gensim)",
        "crime-and-punishment.txt",
    ),
}


@functools.lru_cache(maxsize=8)
def sample_lines(key: str) -> tuple[str, ...]:
    """The lines (paragraphs or sentences) of a real sample, read from the gensim package."""
    if key not in SAMPLES:
        raise ValueError(f"Unknown sample {key!r}; the samples are {', '.join(SAMPLES)}.")
    path = _gensim_data() / SAMPLES[key][1]
    if key == "enwiki":
        return tuple(_wiki_paragraphs_kept(path))
    text = path.read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


WIKI_TEXT_VERSION = 1  # change when _wiki_paragraphs changes what it makes
MAX_TEXT_BYTES = 64 * 1024 * 1024  # a kept text bigger than this is not read


def _wiki_paragraphs_kept(path: Path) -> list[str]:
    """_wiki_paragraphs, kept in the disk cache (SUBTOK_CACHE_DIR) like a run: the next
    process reads one file instead of importing gensim and parsing the dump again (about
    2 s of a CLI run). Keyed by the dump's name, size and time and by WIKI_TEXT_VERSION;
    read as the cache reads a run (a file of this user, never through a link, its body
    sealed to its key) and counted in the cache's budget (SUBTOK_CACHE_MB). A paragraph
    never holds a line break, so one is one line."""
    from .. import plaindata
    from ..diskcache import DEFAULT_LIMIT_MB, DiskCache, directory_from_env, megabytes_from_env

    directory = directory_from_env()
    if directory is None:
        return _wiki_paragraphs(path)
    stat = path.stat()
    key = ("gensim sample text", path.name, stat.st_size, stat.st_mtime_ns)
    limit = megabytes_from_env("SUBTOK_CACHE_MB", DEFAULT_LIMIT_MB)
    disk = DiskCache(directory, limit, version=f"sample text {WIKI_TEXT_VERSION}")
    kept = disk.load(key, max_bytes=MAX_TEXT_BYTES)
    if isinstance(kept, str):
        return kept.split("\n")
    if kept is not None:
        disk.forget(key, f"it holds a {type(kept).__name__}, not the sample's text")
    lines = _wiki_paragraphs(path)
    disk.save(key, plaindata.encode("\n".join(lines)))
    return lines


def _wiki_paragraphs(path: Path) -> list[str]:
    """Strip MediaWiki markup with gensim's own utilities; one paragraph per line."""
    from gensim.corpora.wikicorpus import extract_pages, filter_wiki

    lines: list[str] = []
    with bz2.open(path, "rb") as fh:
        for _title, markup, _pageid in extract_pages(fh):
            for para in filter_wiki(markup).split("\n"):
                para = " ".join(para.split())
                if para and len(para.split()) > 2:  # drop headings and list stubs
                    lines.append(para)
    return lines
