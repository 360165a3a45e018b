"""Repute: "X is known for V-ing Y" says what X does.

A predicate of fame with a "for" gerund names the behaviour the subject is known by
(FrameNet's "Fame" frame: known, famous, renowned, noted, celebrated, notorious, with the
Behavior element in a "for" phrase): "Odile is known for painting murals" holds that Odile
paints murals, ``(odile, paint, murals)``. The clause rules read only the participle,
``(odile, be, know)``, which says nothing and matched every other such sentence. A negated
predicate ("is not known for") says nothing of what the subject does.

And a domain noun is no place: "Odile works in the field of optics" names her field (the
ParaRel pattern reads it so), never a work location "field" or "optics" (WordNet 3.0:
field.n.04, area.n.02, domain.n.02, "a branch of knowledge or activity").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.doc_cache import doc_words
from extractors.syntax import _lemma, _negated
from extractors.types import Triple

REPUTE_WORDS = frozenset({"known", "famous", "renowned", "noted", "celebrated", "notorious",
                          "famed", "well-known", "recognized", "recognised", "remembered"})
"""The lexical units of FrameNet's "Fame" frame (and "remembered for", "recognized for")."""
DOMAIN_NOUNS = frozenset({"area", "field", "domain", "discipline", "realm", "branch",
                          "sphere", "subject"})
"""Nouns for a branch of knowledge or activity (WordNet 3.0 area.n.02, field.n.04,
domain.n.02, discipline.n.01, branch.n.02, sphere.n.01, subject.n.01)."""
LOCATION_RELATIONS = frozenset({"work location", "located in"})
"""Relations whose value is a place."""


def repute_gerunds(head: Token) -> list[Token]:
    """The gerunds of a "known / famous for V-ing" predicate on ``head`` (the passive
    participle "known" or the copula of "famous"); each coordinated gerund too."""
    if REPUTE_WORDS.isdisjoint(doc_words(head.doc)):
        return []
    if head.lower_ in REPUTE_WORDS and head.tag_ == "VBN":
        word = head
    elif head.lemma_ == "be" and head.pos_ == "AUX":
        word = next((c for c in head.children if c.dep_ in ("acomp", "attr")
                     and c.lower_ in REPUTE_WORDS), None)
        if word is None:
            return []
    else:
        return []
    gerunds = [g for p in word.children if p.dep_ == "prep" and p.lower_ == "for"
               for g in p.children if g.dep_ == "pcomp" and g.tag_ == "VBG"]
    gerunds += [c for g in gerunds for c in g.children if c.dep_ == "conj" and c.tag_ == "VBG"]
    return gerunds


def modifier_gerunds(head: Token) -> list[tuple[Token, Token]]:
    """``(gerund, object)`` where the small parser made a repute predicate's gerund a
    modifier of its object ("renowned for composing hymns": "composing" an ``amod`` of
    "hymns", the object of "for")."""
    if REPUTE_WORDS.isdisjoint(doc_words(head.doc)):
        return []
    words = [head] if head.lower_ in REPUTE_WORDS else [
        c for c in head.children if c.dep_ in ("acomp", "attr") and c.lower_ in REPUTE_WORDS]
    return [(g, p) for w in words for c in w.children if c.dep_ == "prep" and c.lower_ == "for"
            for p in c.children if p.dep_ == "pobj" and p.pos_ == "NOUN"
            for g in p.children if g.dep_ == "amod" and g.tag_ == "VBG" and g.i < p.i]


def domain_phrase(head: Token) -> Token | None:
    """The domain noun of an "in the area / field of X" phrase on the verb ``head``."""
    return next((p for c in head.children if c.dep_ == "prep" and c.lower_ in ("in", "within")
                 for p in c.children if p.dep_ == "pobj" and p.lemma_.lower() in DOMAIN_NOUNS
                 and any(k.dep_ == "prep" and k.lower_ == "of" for k in p.children)), None)


class ReputeRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_subject_token``, ``_entity``, ``_active`` and ``_value``)."""

    def _repute(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` with a repute predicate read as the subject's activity, and a domain
        phrase's noun (or its "of" object) no longer a place."""
        domain = domain_phrase(head) if head.pos_ == "VERB" else None
        if domain is not None:
            values = {self._value(domain)[0]} | {
                self._value(p)[0] for c in domain.children if c.dep_ == "prep"
                and c.lower_ == "of" for p in c.children if p.dep_ == "pobj"}
            found = [t for t in found if not (t.relation in LOCATION_RELATIONS
                                              and t.object in values)]
        gerunds = repute_gerunds(head)
        if not (gerunds or modifier_gerunds(head)) or _negated(head):
            return found
        subj = self._subject_token(head)
        subject = self._entity(subj) if subj is not None else None
        if not subject:
            return found
        done = [t for g in gerunds for t in self._active(g, subject=subject) if t.object]
        for gerund, noun in modifier_gerunds(head):
            value, surface = self._value(noun)
            words = value.split(" ", 1)
            if len(words) == 2 and words[0] in (gerund.lower_, gerund.lemma_.lower()):
                value, surface = words[1], surface.split(" ", 1)[-1]
            if value:
                done.append(self._make(subject, _lemma(gerund), value, surface, negated=False,
                                       clause=head, rule="svo"))
        if not done:
            return found
        stated = {f"be {w} for" for w in REPUTE_WORDS}
        return [t for t in found if not (t.subject == subject and (
            t.relation in stated or t.relation == "be" and t.object in REPUTE_WORDS | {"know"}))
        ] + done
