"""A predicate noun the tagger read as a participle: "The profession of Ann Lee is poet."

With a bare singular predicate noun after "is" the small tagger can take the noun for a past
participle and the clause for a passive ("is poet" -> ``auxpass`` + ``VBN`` root), so "the Y
of X is Z" lost its owner and its value: ``(profession, be, poet)``. A word with no verb
reading in the lemmatizer's verb index cannot head a passive (a passive needs a transitive
verb's participle: Quirk et al. 1985, *A Comprehensive Grammar of the English Language*,
§3.63); read as the noun it is, the clause is the copula's "the Y of X is Z" ->
``(ann lee, occupation, poet)``, the relational noun naming the relation (as
:mod:`extractors.constructions.copula` reads it when the parse is right).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _negated
from extractors.types import Triple


class NounPredicateRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_is_verb``, ``_entity``, ``_value`` and ``_make``)."""

    def _noun_predicate(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found``, or the "the Y of X is Z" reading of a misread passive (module doc)."""
        if head.tag_ != "VBN" or not any(c.dep_ == "auxpass" and c.lemma_ == "be"
                                         for c in head.children):
            return found
        if self._is_verb(head.lemma_.lower()) or self._is_verb(head.lower_) or any(
                c.dep_ in ("agent", "dobj", "prep") for c in head.children):
            return found
        noun = next((c for c in head.children if c.dep_ == "nsubjpass" and c.pos_ == "NOUN"),
                    None)
        owner = next((p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
                      for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN"),
                     None) if noun is not None else None
        subject = self._entity(owner) if owner is not None else None
        if not subject:
            return found
        value = head.lower_
        stated = self._make(subject, noun.lemma_.lower(), value, head.text,
                            negated=_negated(head), clause=head, rule="copula")
        return [t for t in found if not (t.relation == "be" and t.object == head.lemma_.lower()
                                         or t.object == value and t.relation == "be")] + [stated]
