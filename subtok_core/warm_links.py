"""The addresses `subtok warm` opens when none are typed: the deep links of the README's
"Share a view" section (``--readme``), or a teacher's own list (``--from FILE``).

A deep link in the README is a code span that starts with a page's path and has a query:
`` `/bpe?corpus=toy:low-lower&marker=eow&step=3` ``. A fragment of one (`` `&remove=un` ``)
is not a link.

>>> text = "## Share a view\\n`/bpe?corpus=toy:low-lower&step=3`, `&remove=un`\\n## Next\\n`/x?y=1`"
>>> readme_links(text)
['/bpe?corpus=toy:low-lower&step=3']
>>> addresses("# before Monday\\n/bpe?merges=2\\n\\n  /compare?tok=bpe,unigram  \\n")
['/bpe?merges=2', '/compare?tok=bpe,unigram']
"""

from __future__ import annotations

import re
from pathlib import Path

SECTION = "Share a view"  # the README's heading whose links are the shared ones
LINK = re.compile(r"`(/[a-z][a-z0-9_-]*\?[^`\s]+)`")


def readme_links(text: str, section: str = SECTION) -> list[str]:
    """The deep links of the README `text`'s section `section` (a `## ` heading), in the
    order written, each once; ValueError when the section is missing or has none."""
    lines = text.splitlines()
    heading = f"## {section}"
    if heading not in (line.strip() for line in lines):
        raise ValueError(f"The README has no section '{section}' to take the links from.")
    start = [line.strip() for line in lines].index(heading) + 1
    body = []
    for line in lines[start:]:
        if line.startswith("## "):
            break
        body.append(line)
    links = list(dict.fromkeys(LINK.findall("\n".join(body))))
    if not links:
        raise ValueError(f"The README's section '{section}' names no deep link.")
    return links


def addresses(text: str) -> list[str]:
    """The addresses of a list file: one per line, blank lines and lines starting with #
    left out."""
    found = (line.strip() for line in text.splitlines())
    return [line for line in found if line and not line.startswith("#")]


def read_text(path: Path, what: str) -> str:
    """The text of `path`, or ValueError with a sentence (`what`: the file, for it)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"There is no {what} at {path}.") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"The {what} at {path} cannot be read ({err}).") from None


def readme_of(app: Path) -> list[str]:
    """The shared links of the README beside the app's app.py."""
    return readme_links(read_text(app.parent / "README.md", "README (beside app.py)"))


def from_file(path: str) -> list[str]:
    """The addresses listed in the file `path`; ValueError when it lists none."""
    listed = addresses(read_text(Path(path).expanduser(), "list of addresses"))
    if not listed:
        raise ValueError(f"{path} lists no address (one per line, # for a comment).")
    return listed
