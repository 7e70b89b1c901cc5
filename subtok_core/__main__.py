"""`python -m subtok_core ...` runs the command line (see cli.py)."""

from .cli import main

if __name__ == "__main__":  # importing this module (e.g. a doctest run) runs nothing
    raise SystemExit(main())
