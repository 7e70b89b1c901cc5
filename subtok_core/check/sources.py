"""The text a check reads: a built-in corpus, an exercise, or a file on the command line.

Byte-level BPE reads a file or an exercise as it is, line breaks included (they are bytes
like any other), line by line as Hugging Face's trainer reads a file; the built-in toys and
samples are their lines without breaks, as the lessons train on them.

>>> corpus_lines("exercise:whitespace", True)[:2]
('def f(x):\\n', '    return x\\n')
>>> corpus_lines("toy:cat-bat", False)[:2]
('cat cat cat cat cat cat cat cat cat cat', 'bat bat bat bat bat')
"""

from __future__ import annotations

from .. import corpus


def corpus_lines(name: str, bytelevel: bool, *, allow_paths: bool = False) -> tuple[str, ...]:
    """The corpus as the reference run reads it (see the module docstring)."""
    if corpus.is_exercise(name):
        text = corpus.exercises.exercise(name)[1]
        return corpus.file_lines(text) if bytelevel else tuple(text.splitlines())
    if corpus.is_toy(name) or name.startswith("sample:"):
        return tuple(corpus.load_lines(name))
    text = corpus.files.read_file(name, allow_paths)
    return corpus.file_lines(text) if bytelevel else tuple(text.splitlines())


def corpus_text(name: str, *, allow_paths: bool = False) -> str:
    """The corpus as one text, for a student's trainer that reads a file."""
    if corpus.is_exercise(name):
        return corpus.exercises.exercise(name)[1]
    if corpus.is_toy(name) or name.startswith("sample:"):
        return "\n".join(corpus.load_lines(name)) + "\n"
    return corpus.files.read_file(name, allow_paths)
