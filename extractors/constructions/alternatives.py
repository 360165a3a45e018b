"""Alternatives: the thing a clause says was not chosen.

"Caroline now volunteers at a crisis hotline instead of the youth center", "I drink tea rather
than coffee", "Joanna backs up to the cloud instead of an external drive": the clause states
its relation with the chosen object and denies it with the alternative, so the alternative is a
negated triple of the same relation ("instead of" and "rather than" as contrastive
coordinators: Huddleston & Pullum, *The Cambridge Grammar of the English Language*, 2002,
ch. 15 §2.3 on "rather than" and "instead of" as markers of replacive coordination).

The parser attaches the marker in three ways, all read here: as a coordinator of the chosen
object with the alternative as its conjunct, as a coordinator carrying the alternative as its
object, or as a preposition of the verb (the alternative then parallels the verb's last object
before it).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.doc_cache import doc_words
from extractors.state_changes import ENDED_RULE
from extractors.types import Triple

_MARKERS = {"of": "instead", "than": "rather"}
"""The marker word and the adverb that must precede it: "instead of", "rather than"."""
_MARKER_ADVERBS = frozenset(_MARKERS.values())

_OBJECT_DEPS = ("dobj", "pobj", "attr", "oprd")


def _is_marker(token: Token) -> bool:
    """"of" of "instead of" / "than" of "rather than"."""
    adverb = _MARKERS.get(token.lower_)
    if adverb is None or token.i == 0:
        return False
    return token.nbor(-1).lower_ == adverb


def after_marker(token: Token) -> bool:
    """Whether ``token`` is in a phrase that "instead of" / "rather than" opens, however the
    parser attached it ("volunteers at the food bank instead of the shelter", with "shelter"
    read as the verb's object)."""
    if _MARKER_ADVERBS.isdisjoint(doc_words(token.doc)):
        return False
    for t in token.doc[token.sent.start: token.i]:
        if _is_marker(t) and not any(v.pos_ in ("VERB", "AUX")
                                     for v in token.doc[t.i + 1: token.i]):
            return True
    return False


def alternatives(head: Token) -> list[tuple[Token, Token]]:
    """``(alternative, chosen)`` object heads of the clause headed by ``head``.

    Returns:
        One pair per alternative the clause denies; ``chosen`` is the object it stands in
        for. Empty when the clause has no "instead of" / "rather than".
    """
    out: list[tuple[Token, Token]] = []
    if _MARKER_ADVERBS.isdisjoint(doc_words(head.doc)):
        return out
    for marker in (t for t in head.subtree if _is_marker(t)):
        if any(c.pos_ in ("VERB", "AUX") for c in marker.children):
            continue  # "rather than join a new one": a clause, not an object
        objects = [c for c in marker.children if c.dep_ in ("pobj", "conj")]
        if marker.dep_ == "cc" and marker.head != head:
            chosen = marker.head
            objects += [c for c in chosen.children if c.dep_ == "conj" and c.i > marker.i]
            # "at the food bank instead of the shelter": the parser may hang the alternative
            # on the chosen object's head, as a second object of the same kind
            objects += [c for c in chosen.head.children if c.dep_ == chosen.dep_
                        and c.i > marker.i and c != chosen]
        elif marker.dep_ in ("prep", "cc") and marker.head == head:
            before = [t for t in head.subtree if t.dep_ in _OBJECT_DEPS and t.i < marker.i
                      and t.head.i != marker.i]
            if not before:
                continue
            chosen = before[-1]
        else:
            continue
        if chosen.dep_ not in _OBJECT_DEPS and chosen.dep_ != "conj":
            continue
        # an adjective of nationality or language is a value too ("Italian")
        objects = [alt for alt in objects if alt.pos_ in ("NOUN", "PROPN", "ADJ")]
        if not objects:
            # the parser lost the alternative's attachment ("instead of the city animal
            # shelter" read as the verb's object): the first noun phrase after the marker
            objects = [next((t for t in marker.doc[marker.i + 1: marker.sent.end]
                             if t.pos_ in ("NOUN", "PROPN") and t.head.i <= t.i), None)]
        out.extend((alt, chosen) for alt in objects if alt is not None)
    return out


class AlternativeRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_value``)."""

    def _with_alternatives(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` with each alternative's triple negated: the chosen object's triples are
        mirrored with the alternative as object, negated, in place of whatever the clause's
        rules read of the alternative (a conjunct, a misattached phrase). The alternative
        names a definite thing given up for the chosen one, so it is matched as an ended
        object is (rule ``state_change``, :func:`extractors.referents.same_referent`)."""
        pairs = alternatives(head)
        if not pairs or not found:
            return found
        out = list(found)
        for alt, chosen in pairs:
            value, surface = self._value(alt)
            chosen_value = self._value(chosen)[0]
            if not value or value == chosen_value:
                continue
            # what the clause's rules read as a second object (a conjunct, or a misattached
            # phrase) is replaced by the chosen object's triples with the alternative denied
            out = [t for t in out if t.object != value or t.negated]
            out.extend(Triple(**{**t.to_dict(), "object": value, "object_text": surface,
                                 "negated": True, "rule": ENDED_RULE,
                                 "qualifiers": t.qualifiers})
                       for t in found if t.object == chosen_value and not t.negated
                       and t.rule != ENDED_RULE)
        return out
