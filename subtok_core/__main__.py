"""`python -m subtok_core ...` runs the command line (see cli.py)."""

from .cli import main

raise SystemExit(main())
