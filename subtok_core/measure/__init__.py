"""Measures of a tokenization."""

from .basic import *  # noqa: F403
from .names import COLUMN_NAMES, readable  # noqa: F401
