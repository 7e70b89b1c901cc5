"""`subtok warm`'s other half of a restart: the app's and the core's Python sources compiled
to bytecode (``__pycache__``), so that a restarted server imports them instead of compiling
each one again. A server whose environment writes no bytecode (``PYTHONDONTWRITEBYTECODE``,
as many container images set) compiled some 150 modules of ours on its first page, 0.2-0.3 s
of CPU before the page could draw; it still reads bytecode that exists. Python checks each
file against its source's time and size, so a changed source is compiled again, never served
stale."""

from __future__ import annotations

import compileall
from pathlib import Path

CORE = Path(__file__).resolve().parent


def compile_sources(app: Path) -> bool:
    """Compile app.py, the app's lessons/ and this package; False when some source could
    not be (a folder not writable, as an installed package's may be: Python then compiles
    it at import as before, so nothing breaks)."""
    folders = [app.parent / "lessons", CORE]
    done = [compileall.compile_file(app, quiet=2)]
    done += [compileall.compile_dir(folder, quiet=2) for folder in folders if folder.is_dir()]
    return all(done)
