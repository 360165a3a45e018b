"""Wishes: "would like to" read as "want to", and the places of one's life a wish can name.

The words are ``extractors/data/wishes.toml`` with their sources. A wish states no fact of
now; what it wants is compared only with another wish of the same kind, and two that differ
are at most a ``possible`` conflict (rule :data:`WISH_RULE`, unknown cardinality).
"""

from __future__ import annotations

import tomllib
from importlib import resources

from spacy.tokens import Token

with resources.files("extractors.data").joinpath("wishes.toml").open("rb") as _f:
    _TABLE = tomllib.load(_f)

VOLITION_VERBS: frozenset[str] = frozenset(_TABLE["volition"]["verbs"])
"""Verbs that "would" turns into a wish now ("would like to", "'d love to")."""
WISHED_PLACES: frozenset[str] = frozenset(_TABLE["places"]["relations"])
"""Relations of a place of one's life that a wish can name one of."""
WISH_RULE = "wish"
"""The rule of a triple ``(subject, "want <relation>", value)`` read from a wish."""
_VOLITION_MODALS = {"would", "'d"}


def polite_volition(head: Token) -> bool:
    """Whether ``head`` is "like"/"love"/"prefer" under "would" with an infinitive complement
    ("Keanu would like to work in Norway"): a wish now, not a hypothesis. "would have liked
    to" is a wish of the past that was not met, and stays a hypothesis."""
    auxes = [c.lower_ for c in head.children if c.dep_ == "aux"]
    return (head.lemma_.lower() in VOLITION_VERBS and head.tag_ == "VB"
            and any(a in _VOLITION_MODALS for a in auxes)
            and any(c.dep_ == "xcomp" and c.pos_ in ("VERB", "AUX") for c in head.children))
