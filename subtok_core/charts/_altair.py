"""Altair, imported where a chart is first built, not where a chart module is imported.

Importing Altair (and jsonschema with it) costs some 0.3 s. A page whose charts are all
kept as Vega-Lite specs (lessons/ui/cached.py) builds none after a restart, yet it imports
the chart modules for their sentences (HOW_TO_READ) and tables; with ``alt`` from here,
those imports leave Altair alone until a builder runs.

>>> from subtok_core.charts._altair import alt
>>> alt.Chart.__module__.startswith("altair")
True
"""

from __future__ import annotations

import importlib
from typing import Any


class _Altair:
    """Stands for the altair module: the first attribute read imports it."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module("altair"), name)


alt: Any = _Altair()
