"""Support-verb constructions: a light verb whose object noun names the relation; and the
ensemble a player plays in ("plays second violin in the Freiburg community orchestra": a
member of it).

"Emmanuelle holds a citizenship from France" says (emmanuelle, citizenship, france), as "is a
citizen of France" does; "Pierre spoke the language French" says (pierre, speak, french), the
type noun "language" naming the kind of its appositive value (support verbs and their
predicate nouns: Grimshaw & Mester 1988, "Light verbs and theta-marking"; FrameNet's support
annotation). Without these rules the noun itself becomes the value ("citizenship",
"language"), and every two such statements look alike.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _lemma, _negated
from extractors.types import Triple

SUPPORT_VERBS = frozenset({"have", "hold", "follow", "practice", "practise", "profess",
                           "possess", "speak", "play", "use"})
"""Light verbs whose object may be a relation noun or a type noun."""
RELATION_NOUNS = {"citizenship": "citizenship", "nationality": "citizenship",
                  "religion": "religion", "faith": "religion", "membership": "member of",
                  "subscription": "subscribe to", "partnership": "partner with",
                  "collaboration": "collaborate with", "mentorship": "mentor",
                  "internship": "intern at"}
"""Nouns that name the relation ("holds a citizenship from France" -> citizenship; "has a
membership at Urban Boulder" -> member of)."""
TYPE_NOUNS = frozenset({"language", "instrument", "sport", "game"})
"""Nouns that name the kind of the verb's value ("speaks the language French" -> speak)."""
_COMPLEMENT_PREPS = ("of", "from", "in", "at", "to", "with")
ENSEMBLE_VERBS = frozenset({"play", "sing", "perform", "row", "dance", "compete", "race",
                            "swim", "run", "skate", "drum"})
"""Verbs whose "in"/"for"/"with"/"on" group is one the subject belongs to."""
ENSEMBLE_NOUNS = frozenset({"orchestra", "band", "team", "choir", "club", "ensemble", "squad",
                            "quartet", "trio", "crew", "league", "troupe", "side"})
"""Groups one plays, sings or competes in (FrameNet Membership, Performers_and_roles)."""


class SupportVerbRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_subject_token``, ``_entity``, ``_value`` and ``_make``)."""

    def _ensemble_membership(self, verb: Token) -> list[Triple]:
        """(player, member of, group) for the group a player plays in (:func:`ensemble`)."""
        group = ensemble(verb)
        subj = self._subject_token(verb) if group is not None else None
        subject = self._entity(subj) if subj is not None else None
        if not subject or _negated(verb):
            return []
        value, surface = self._value(group)
        return [self._make(subject, "member of", value, surface, negated=False, clause=verb,
                           rule="prep_object")] if value else []

    def _support_verb(self, verb: Token) -> tuple[list[Triple], str | None]:
        """The triples of a support-verb clause and the noun they replace as a value
        (``([], None)`` when the clause is none)."""
        if _lemma(verb) not in SUPPORT_VERBS:
            return [], None
        noun = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if noun is None or noun.pos_ != "NOUN":
            return [], None
        kind = noun.lemma_.lower()
        typed = next((c for c in noun.children if c.dep_ in ("compound", "amod") and c.i < noun.i
                      and c.lemma_.lower() in TYPE_NOUNS), None)
        if typed is None and kind not in RELATION_NOUNS.keys() | TYPE_NOUNS:
            return [], None
        subj = self._subject_token(verb)
        subject = self._entity(subj) if subj is not None else None
        if typed is not None and kind not in RELATION_NOUNS.keys() | TYPE_NOUNS:
            # "plays the instrument piano": the parser compounds the type noun with the value
            value, surface = self._value(noun)
            prefix = typed.lemma_.lower() + " "
            if not subject or not value.startswith(prefix):
                return [], None
            return [self._make(subject, _lemma(verb), value[len(prefix):],
                               surface[len(typed.text) + 1:], negated=_negated(verb),
                               clause=verb, rule="svo")], value
        if not subject:
            return [], None
        values = _complements(noun, verb, of_phrase=kind in RELATION_NOUNS)
        relation = RELATION_NOUNS.get(kind) or _lemma(verb)
        out = []
        for value_token in values:
            value, surface = self._value(value_token)
            if value and value != kind:
                out.append(self._make(subject, relation, value, surface,
                                      negated=_negated(verb), clause=verb, rule="svo"))
        return out, (kind if out else None)


def ensemble(verb: Token) -> Token | None:
    """The group a player plays in: "plays second violin in the orchestra", "sings with a
    choir", "plays goalkeeper for a five-a-side team"; None otherwise."""
    if _lemma(verb) not in ENSEMBLE_VERBS:
        return None
    holders = [verb] + [c for c in verb.children if c.dep_ in ("dobj", "obj")]
    return next((p for h in holders for c in h.children
                 if c.dep_ == "prep" and c.lower_ in ("in", "for", "with", "on")
                 for p in c.children if p.dep_ == "pobj"
                 and p.lemma_.lower() in ENSEMBLE_NOUNS), None)


def _complements(noun: Token, verb: Token, *, of_phrase: bool) -> list[Token]:
    """What the relation or type noun is completed by: a relation noun's "of"/"from"/"in"
    object (or the verb's, where the parser hung it there), or the name written right after
    it ("the language French"; a type noun's "of" phrase is no value: "the language of
    love")."""
    found = []
    if of_phrase:
        found = [p for c in noun.children if c.dep_ == "prep" and c.lower_ in _COMPLEMENT_PREPS
                 for p in c.children if p.dep_ == "pobj"]
        found += [p for c in verb.children if c.dep_ == "prep" and c.lower_ in _COMPLEMENT_PREPS
                  and c.i == noun.i + 1 for p in c.children if p.dep_ == "pobj"]
    if not found and noun.i + 1 < len(noun.doc):
        after = noun.doc[noun.i + 1]
        if after.pos_ == "PROPN" and after.dep_ in ("appos", "advmod", "npadvmod", "dobj",
                                                     "compound", "attr", "oprd"):
            found.append(after)
    return found
