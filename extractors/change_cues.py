"""Change cues: does a memory say that something is different from before?

The words are ``extractors/data/change_cues.toml`` with their sources. A later memory that
carries one marks a change or states the state now ("was moved to", "has grown to", "no
longer", "now"); one that carries none reports an episode or says a fact again. Used by the
scan to let a bare reading decide only when a change is marked (:mod:`scanner.core.detect`)
and to find candidate pairs in other words (:mod:`scanner.core.named_changes`,
:mod:`scanner.core.value_changes`).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources

with resources.files("extractors.data").joinpath("change_cues.toml").open("rb") as _f:
    _WORDS: tuple[str, ...] = tuple(tomllib.load(_f)["words"])

CHANGE_CUES = re.compile(
    r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+")
                        for w in sorted(_WORDS, key=len, reverse=True)) + r")\b",
    re.IGNORECASE)
"""One pattern over every cue word, longest first."""


def marks_change(text: str) -> bool:
    """Whether ``text`` carries a change cue (case-insensitive, whole words)."""
    return CHANGE_CUES.search(text) is not None
