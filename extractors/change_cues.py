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
    _TABLE = tomllib.load(_f)


def _pattern(words) -> re.Pattern:
    return re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+")
                                          for w in sorted(words, key=len, reverse=True))
                      + r")\b", re.IGNORECASE)


CHANGE_WORDS: tuple[str, ...] = tuple(_TABLE["words"])
"""The change cues as written in the data file (words and phrases)."""
CHANGE_CUES = _pattern(CHANGE_WORDS)
"""One pattern over every cue word, longest first."""
ENDING_CUES = _pattern(_TABLE["endings"]["words"])
"""The cues that say a state ended or a plan is off (the data file's ``endings``)."""


CORRECTION_CUES = _pattern(_TABLE["corrections"]["words"])
"""The cues that say an earlier statement was wrong (the data file's ``corrections``)."""


def marks_correction(text: str) -> bool:
    """Whether ``text`` says that an earlier statement was wrong (:data:`CORRECTION_CUES`):
    "Actually, I have never been to Japan" retracts; "I have never been to Japan" denies."""
    return CORRECTION_CUES.search(text) is not None


def marks_ending(text: str) -> bool:
    """Whether ``text`` says that a state ended or a plan is off (:data:`ENDING_CUES`)."""
    return ENDING_CUES.search(text) is not None


def marks_change(text: str) -> bool:
    """Whether ``text`` carries a change cue (case-insensitive, whole words)."""
    return CHANGE_CUES.search(text) is not None


REVOCATION_CUES = _pattern(_TABLE["revocations"]["words"])
"""The cues that revoke an approval, an order or a plan (the data file's ``revocations``):
"purchase of Server Upgrade cancelled", "discount for Acme Corp revoked"."""


CHANGED_LABEL = re.compile(r"\s+(?:" + "|".join(map(re.escape, _TABLE["label_participles"]["words"]))
                           + r")\s*$", re.IGNORECASE)
"""A change participle closing a line's label ("Travel Policy updated"): the line gives the
labelled thing's value now (the data file's ``label_participles``)."""


AGAIN_VERBS: frozenset[str] = frozenset(_TABLE["again"]["words"])
"""Verbs whose "re-" says the act is done again (the data file's ``again``): "reassigned"."""
