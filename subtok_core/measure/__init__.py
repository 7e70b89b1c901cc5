"""Measures of a tokenization."""

from .basic import *  # noqa: F403
