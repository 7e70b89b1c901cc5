"""Text -> words -> WordCounts; the built-in corpora; input validation.

A corpus reaches every trainer as a :class:`WordCounts`: the distinct words in the
order they first appear, each with its count. First-appearance order matters, because
the default tie rule ("first") picks the candidate seen first in the corpus.

>>> wc = from_text("the cat and the hat")
>>> list(zip(wc.words, wc.counts))
[('the', 2), ('cat', 1), ('and', 1), ('hat', 1)]
"""

from __future__ import annotations

import bz2
import codecs
import functools
import importlib.util
import math
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from . import limits

DATA_DIR = Path(__file__).resolve().parent / "data"  # shipped in the package (wheel too)
MAX_BYTES = 20 * 1024 * 1024  # uploads and files above 20 MB are refused

_PUNCT = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”»)\]]*\s+")


@dataclass(frozen=True, slots=True)
class WordCounts:
    """Distinct words in first-appearance order with their counts; ``line_ends``, when the
    corpus came as text (:func:`count_lines`, :func:`from_text`, the samples), how many
    times each word ends a line (empty: a word table has no lines). Unigram's EM seed reads
    them (unigram/em_seed.py)."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    name: str = ""
    line_ends: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.words)

    @property
    def total(self) -> int:
        """Number of running words (the sum of the counts)."""
        return sum(self.counts)

    def items(self) -> list[tuple[str, int]]:
        return list(zip(self.words, self.counts, strict=True))


@dataclass(frozen=True, slots=True)
class CorpusInfo:
    name: str
    title: str
    source: str


def split_words(text: str, split_punct: bool = False) -> list[str]:
    """Pre-tokenize: split on whitespace; optionally split punctuation off as its own word.

    >>> split_words("Hello, world!", split_punct=True)
    ['Hello', ',', 'world', '!']
    """
    if split_punct:
        return _PUNCT.findall(text)
    return text.split()


def encode_words(text: str, split_punct: bool = False) -> list[str]:
    """split_words for an encoder: a word over limits.WORD_MAX_CHARS characters is refused
    with a sentence, whatever the model (a crafted Unigram piece of 5,000 characters and
    one word of 50,000 ran past a minute; WordPiece with max_word_chars 10**12, 1.3 GB).

    >>> encode_words("x" * 201)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The word 'xxxxxxxxxxxxxxxxxxxx…' has 201 characters; words of at most 200 ...
    """
    words = split_words(text, split_punct)
    limits.check_words(words)
    return words


def split_sentences(lines) -> list[str]:
    """Lines (paragraphs) -> sentences: a cut after . ! ? or … and the spaces that follow,
    where the next sentence starts with a capital letter, a digit or an opening quote.

    >>> split_sentences(["It rained. Then it stopped! e.g. not here", "Second line."])
    ['It rained.', 'Then it stopped! e.g. not here', 'Second line.']
    """
    sentences: list[str] = []
    for line in lines:
        start = 0
        for cut in _SENTENCE_END.finditer(line):
            head = line[cut.end() : cut.end() + 2].lstrip("\"'“«([")
            if head[:1].isupper() or head[:1].isdigit():
                sentences.append(line[start : cut.end()].strip())
                start = cut.end()
        if line[start:].strip():
            sentences.append(line[start:].strip())
    return [s for s in sentences if s]


def count_words(words: list[str] | tuple[str, ...], name: str = "") -> WordCounts:
    """Count words, keeping the order in which they first appear (a Counter is a dict:
    it keeps that order, and counts in C).

    >>> count_words("the cat saw the dog".split()).items()
    [('the', 2), ('cat', 1), ('saw', 1), ('dog', 1)]
    """
    counts = Counter(words)
    if not counts:
        raise ValueError("The corpus is empty: give it at least one word.")
    return WordCounts(tuple(counts), tuple(counts.values()), name)


def count_lines(lines: list[str], split_punct: bool = False, name: str = "") -> WordCounts:
    """Count the words of `lines`, and how many times each ends a line.

    >>> wc = count_lines(["the cat saw the dog", "the dog"])
    >>> wc.items(), wc.line_ends
    ([('the', 3), ('cat', 1), ('saw', 1), ('dog', 2)], (0, 0, 0, 2))
    """
    per_line = [split_words(line, split_punct) for line in lines]
    wc = count_words([w for words in per_line for w in words], name)
    last = Counter(words[-1] for words in per_line if words)
    return WordCounts(wc.words, wc.counts, name, tuple(last.get(w, 0) for w in wc.words))


def from_text(text: str, split_punct: bool = False, name: str = "") -> WordCounts:
    """Running text -> WordCounts (whitespace split, optionally punctuation split), with
    how many times each word ends a line."""
    if not text.strip():
        raise ValueError("The text is empty: type or upload some words first.")
    return count_lines(text.splitlines(), split_punct, name)


def from_pairs(pairs, name: str = "") -> WordCounts:
    """A word/frequency table -> WordCounts. Repeated words are added up, a row without a
    word is skipped (the blank row a table editor adds, a word cleared), and a row that
    cannot be used raises ValueError naming it (counted from 1, as the table shows them).

    >>> from_pairs([("low", 5), ("lower", "2"), (None, float("nan"))]).counts
    (5, 2)
    >>> from_pairs([("low", 5), ("bat", "abc")])
    Traceback (most recent call last):
    ...
    ValueError: Row 2: the count of 'bat' is 'abc', not a whole number.
    """
    return _from_rows(((f"Row {i}", *pair) for i, pair in enumerate(pairs, start=1)), name)


def _from_rows(rows, name: str) -> WordCounts:
    """(where, word, count) rows -> WordCounts; `where` ("Row 6", "Line 3") starts the
    sentence about a row that cannot be used."""
    counts: dict[str, int] = {}
    for where, word, count in rows:
        word = "" if _blank(word) else str(word).strip()
        if not word:
            continue  # nothing to count: a blank row, or a word cleared
        if any(ch.isspace() for ch in word):
            raise ValueError(f"{where}: the word {word!r} contains a space; one word per row.")
        counts[word] = counts.get(word, 0) + _as_count(count, word, where)
    counts = {w: c for w, c in counts.items() if c > 0}
    if not counts:
        raise ValueError("The table has no word with a count above 0.")
    return WordCounts(tuple(counts), tuple(counts.values()), name)


def _blank(value) -> bool:
    """Whether a table cell is empty: None, blank text, or a missing number (NaN, pandas'
    NA, which cannot even be compared)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return True
    try:
        return bool(value != value)  # only NaN differs from itself
    except TypeError:
        return True


def _as_count(value, word: str, where: str) -> int:
    """A count must be a whole number >= 0; say which row and word is wrong otherwise."""
    said = f"{where}: the count of {word!r} is"
    if _blank(value):
        raise ValueError(f"{said} empty, not a whole number.")
    try:
        number = float(str(value).strip()) if not isinstance(value, bool) else math.nan
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number != int(number):
        raise ValueError(f"{said} {value!r}, not a whole number.")
    if number < 0:
        raise ValueError(f"{said} {int(number)}; counts cannot be negative.")
    return int(number)


def decode_upload(data: bytes, filename: str = "the file") -> str:
    """Bytes of an uploaded or opened file -> text, refusing what is not UTF-8 text.

    UTF-16 (and UTF-32) text is refused by name rather than decoded: a file without a
    byte order mark cannot be told apart from binary data for sure, and the lab reads
    every file one way.

    >>> decode_upload("low".encode("utf-16"), "notes.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: notes.txt is UTF-16 text, not UTF-8. Save it as UTF-8 (in most editors: ...
    """
    if len(data) > MAX_BYTES:
        size = len(data) / 1024 / 1024
        raise ValueError(f"{filename} is {size:.1f} MB; the limit is 20 MB. Use a shorter sample.")
    encoding = _wide_encoding(data)
    if encoding:
        raise ValueError(
            f"{filename} is {encoding} text, not UTF-8. Save it as UTF-8 (in most editors: "
            "Save as, encoding UTF-8) and use that file."
        )
    if b"\x00" in data:
        raise ValueError(
            f"{filename} looks like a binary file, not text. Upload a UTF-8 .txt file."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{filename} is not UTF-8 text (byte {err.start} cannot be read). Save it as UTF-8."
        ) from None
    if not text.strip():
        raise ValueError(f"{filename} is empty: it has no words.")
    return text


_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _wide_encoding(data: bytes) -> str | None:
    """'UTF-16' or 'UTF-32' when the bytes start with that byte order mark, or are UTF-16
    without one (a NUL byte in every other place, as Latin text in UTF-16 has); else None.

    >>> _wide_encoding("abc".encode("utf-16-le")), _wide_encoding(b"abc")
    ('UTF-16', None)
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if len(head) >= 4 and len(head) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        for nuls, rest in ((even, odd), (odd, even)):
            if nuls.count(0) >= 0.9 * len(nuls) and b"\x00" not in rest:
                return "UTF-16"
    return None


@functools.cache
def _toys() -> dict[str, dict]:
    with open(DATA_DIR / "toys.toml", "rb") as fh:
        return tomllib.load(fh)


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


def list_corpora() -> list[CorpusInfo]:
    """Every built-in corpus and sample, toys first, then the samples and the exercises."""
    infos = [CorpusInfo(f"toy:{k}", v["title"], v["source"]) for k, v in _toys().items()]
    for key, (title, filename) in SAMPLES.items():
        infos.append(CorpusInfo(f"sample:{key}", title, f"gensim/test/test_data/{filename}"))
    for key in exercise_names():
        head, _ = exercise(key)
        title = f"exercise for the cause '{head['cause']}' of a difference (subtok check)"
        infos.append(CorpusInfo(f"{EXERCISE}{key}", title, f"ours: data/exercises/{key}.txt"))
    return infos


EXERCISE = "exercise:"
EXERCISE_DIR = DATA_DIR / "exercises"
EXERCISE_HEAD = ("cause", "about", "settings")  # the comment lines each exercise starts with


def exercise_names() -> list[str]:
    """The exercise corpora (data/exercises/NAME.txt), each written for one cause of a
    difference that ``subtok check`` names."""
    return sorted(path.stem for path in EXERCISE_DIR.glob("*.txt"))


@functools.cache
def exercise(name: str) -> tuple[dict[str, str], str]:
    """An exercise's head (``# cause:``, ``# about:``, ``# settings:``) and its text as it
    is, line breaks included.

    >>> head, text = exercise("exercise:runs")
    >>> head["cause"], text.split()[:2]
    ('overlap', ['aaaa', 'aaa'])
    """
    key = name.removeprefix(EXERCISE)
    if key not in exercise_names():
        known = ", ".join(EXERCISE + n for n in exercise_names())
        raise ValueError(f"There is no exercise {name!r}; the exercises are {known}.")
    raw = (EXERCISE_DIR / f"{key}.txt").read_text(encoding="utf-8")
    *lines, text = raw.split("\n", len(EXERCISE_HEAD))
    head = dict(line.removeprefix("# ").split(": ", 1) for line in lines)
    if tuple(head) != EXERCISE_HEAD:
        raise ValueError(
            f"data/exercises/{key}.txt should start with # cause, # about, # settings."
        )
    return head, text


def file_lines(text: str) -> tuple[str, ...]:
    """A file's text cut after each line break (\\n), the breaks kept: the lines as
    Hugging Face's trainer reads a file, so the pattern never reaches across a line end.

    >>> file_lines("a \\nb\\n\\nc")
    ('a \\n', 'b\\n', '\\n', 'c')
    """
    pieces = text.split("\n")
    return (*(piece + "\n" for piece in pieces[:-1]), *([pieces[-1]] if pieces[-1] else []))


def is_exercise(name: str) -> bool:
    return name.startswith(EXERCISE)


def toy_names() -> list[str]:
    return [f"toy:{k}" for k in _toys()]


def is_toy(name: str) -> bool:
    return name.startswith("toy:")


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


def _wiki_paragraphs_kept(path: Path) -> list[str]:
    """_wiki_paragraphs, kept as plain text in the disk cache (SUBTOK_CACHE_DIR): the next
    process reads one text file instead of importing gensim and parsing the dump again
    (about 2 s of a CLI run). Keyed by the dump's name, size and time and by
    WIKI_TEXT_VERSION; a paragraph never holds a line break, so one is one line."""
    import hashlib
    import os
    import tempfile

    from .diskcache import TEMP_PREFIX, directory_from_env

    directory = directory_from_env()
    if directory is None:
        return _wiki_paragraphs(path)
    stat = path.stat()
    key = f"{path.name} {stat.st_size} {stat.st_mtime_ns} {WIKI_TEXT_VERSION}"
    kept = directory / f"sample-{hashlib.sha256(key.encode()).hexdigest()[:24]}.txt"
    try:
        return kept.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        pass
    lines = _wiki_paragraphs(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=directory, prefix=TEMP_PREFIX, delete=False
        ) as fh:
            fh.write("\n".join(lines))
        os.replace(fh.name, kept)  # whole or not at all, for a process reading at once
    except OSError:  # a read-only or full disk: the text is used, not kept (a half-written
        pass  # file left behind is removed by the disk cache's sweep of stale temp files)
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


def load_lines(name: str, *, allow_paths: bool = False) -> list[str]:
    """A corpus name -> its lines of text (toy word tables repeat each word count times).
    A file path is read only with `allow_paths` (the command line), see :func:`load`."""
    if name.startswith("sample:"):
        return list(sample_lines(name.removeprefix("sample:")))
    if is_toy(name):
        entry = toy_entry(name)
        if "text" in entry:
            return [entry["text"]]
        return [" ".join([w] * c) for w, c in entry["counts"]]
    if is_exercise(name):  # each line with its break: byte-level BPE learns them
        return list(file_lines(exercise(name)[1]))
    return _read_path(name, allow_paths).splitlines()


def toy_entry(name: str) -> dict:
    """The entry of toy corpus `name` in subtok_core/data/toys.toml, as read (see
    subtok_core.toys for its settings)."""
    key = name.removeprefix("toy:")
    if key not in _toys():
        known = ", ".join(toy_names())
        raise ValueError(f"There is no toy corpus {name!r}; the toy corpora are {known}.")
    return _toys()[key]


def toy_seed(name: str) -> tuple[tuple[tuple[str, int], ...], str] | None:
    """The seed vocabulary (piece, frequency) a toy's source gives for Unigram, and where
    it comes from; None when the toy has none.

    >>> pieces, source = toy_seed("toy:hug-pug")
    >>> pieces[:3], sum(f for _, f in pieces)
    ((('h', 15), ('u', 36), ('g', 20)), 210)
    """
    if not is_toy(name) or "seed" not in toy_entry(name):
        return None
    entry = toy_entry(name)
    return tuple((str(p), int(f)) for p, f in entry["seed"]), entry["seed_source"]


def read_file(path: str, allow_paths: bool = False) -> str:
    """The text of a .txt file as it is, line breaks included (a path only with
    `allow_paths`: the command line); a name that is no file raises ValueError."""
    return _read_path(path, allow_paths)


def _read_path(path_str: str, allow_paths: bool) -> str:
    if not allow_paths:  # the web app: nothing on the server's disk is named by a request
        raise ValueError(
            f"Unknown corpus {path_str[:80]!r}: choose toy:NAME or sample:NAME here, or upload "
            "a .txt file to use your own text."
        )
    path = Path(path_str)
    if not path.is_file():
        raise ValueError(
            f"Unknown corpus {path_str!r}: use toy:NAME, sample:NAME or the path of a .txt file."
        )
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path.name} is larger than 20 MB; use a shorter sample.")
    return decode_upload(path.read_bytes(), path.name)


def load(name: str, split_punct: bool = False, *, allow_paths: bool = False) -> WordCounts:
    """A corpus name (toy:NAME, sample:NAME, or with `allow_paths` a .txt path) -> WordCounts.

    Paths are off by default: the web app passes on names from requests, and must never
    open a file on the server; the command line, on the user's own machine, allows them.

    >>> load("toy:cat-bat").items()[:2]
    [('cat', 10), ('bat', 5)]
    >>> load("/etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown corpus '/etc/passwd': choose toy:NAME or sample:NAME here, or upload ...
    """
    if is_toy(name):
        entry = toy_entry(name)
        if "counts" in entry:
            return from_pairs(entry["counts"], name)
        return from_text(entry["text"], split_punct, name)
    if name.startswith("sample:"):
        return count_lines(load_lines(name), split_punct, name)
    if is_exercise(name):
        return from_text(exercise(name)[1], split_punct, name)
    return from_text(_read_path(name, allow_paths), split_punct, name)
