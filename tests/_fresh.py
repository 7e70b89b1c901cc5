"""What a fresh interpreter has imported after running some code: a test process has
imported everything already, so a light start is checked in a new one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def modules_after(code: str, timeout: float) -> set[str]:
    """sys.modules of a fresh `python -c code` run in the repository (the code's exit
    status must be 0)."""
    code += "\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys\n" + code],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stderr.strip().splitlines()[-1]))
