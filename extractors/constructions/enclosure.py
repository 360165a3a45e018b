"""Enclosure: "X is within Y" and "X is inside Y" locate X in Y.

"within" and "inside" are prepositions of enclosure, positional like "in" with a place as their
object (Quirk et al. 1985, *A Comprehensive Grammar of the English Language*, §9.17–9.18: "in",
"inside", "within" of a three-dimensional or area location). "Lake Tana is within Ethiopia"
says what "Lake Tana is in Ethiopia" says, ``(lake tana, located in, ethiopia)``; the clause rules
gave a relation of its own ("be within") that never met "located in". Only with a proper-noun
object: "the file is within the limit" locates nothing.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _negated
from extractors.types import Triple

ENCLOSURE_PREPS = frozenset({"within", "inside"})
"""Prepositions of enclosure read as "in" (Quirk et al. 1985 §9.17)."""
LOCATED_IN = "located in"


class EnclosureRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_subject_token``, ``_entity``, ``_value`` and ``_make``)."""

    def _enclosure(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` with a copula's "within / inside PLACE" read as ``located in``."""
        if not (head.lemma_ == "be" and head.pos_ == "AUX"):
            return found
        place = next((p for c in head.children if c.dep_ == "prep"
                      and c.lower_ in ENCLOSURE_PREPS for p in c.children
                      if p.dep_ == "pobj" and p.pos_ == "PROPN"), None)
        subj = self._subject_token(head) if place is not None else None
        subject = self._entity(subj) if subj is not None else None
        value, surface = self._value(place) if subject else ("", "")
        if not value:
            return found
        stated = {f"be {p}" for p in ENCLOSURE_PREPS}
        return [t for t in found if not (t.subject == subject and t.relation in stated)] + [
            self._make(subject, LOCATED_IN, value, surface, negated=_negated(head), clause=head,
                       rule="prep_object")]
