"""The word lists that tell what a short note's value is of (``extractors/data/note_words.toml``,
with their sources), for :mod:`scanner.core.value_notes`."""

from __future__ import annotations

import re
import tomllib
from importlib import resources

with resources.files("extractors.data").joinpath("note_words.toml").open("rb") as _f:
    _TABLE = tomllib.load(_f)

WHICH: frozenset[str] = frozenset(_TABLE["which"]["words"])
"""Adjectives that say which instance, not which attribute ("new", "next", "last")."""
DEICTIC: frozenset[str] = frozenset(_TABLE["deictic"]["words"])
"""Deictic time adverbs: a note that says one reports that day's episode ("today")."""
DEICTIC_WORDS = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, DEICTIC), key=len,
                                                        reverse=True)) + r")\b", re.IGNORECASE)
"""Any of :data:`DEICTIC` as whole words, in any case ("Dinner tonight", "last night")."""
PERIODS: frozenset[str] = frozenset(_TABLE["periods"]["words"])
"""Recurring periods that restrict a value written beside them ("on weekends")."""
INTENTION: frozenset[str] = frozenset(_TABLE["intention"]["words"])
"""Words that make a value a plan, an offer or an expectation ("target", "offer")."""
PREFERENCE_VERBS: tuple[str, ...] = tuple(sorted(_TABLE["preference"]["words"], key=len,
                                                 reverse=True))
"""Verbs that open a preference note, longest first (:mod:`scanner.core.preferences`)."""
