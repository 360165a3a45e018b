"""A present clause that says a dated change's result still holds: "I moved to Lisbon in 2018
and still live there", "…, and I live there now". The dated change alone tells what held then
(backstory, :func:`scanner.core.detect._backstory`); the present clause says it holds at the
time of speaking, so its reading, marked :data:`HOLDS_NOW`, stands for both
(:func:`prefer_present`).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.clause_frames import CONDITIONED
from extractors.syntax import _is_time
from extractors.types import Triple


HOLDS_NOW = ("holds", "now")
"""The qualifier of a present-tense restatement of what a coordinated dated change left behind
("and still live there"): it holds at the time of speaking."""

RESIDENCE_VERBS = frozenset({"live", "reside", "dwell"})
"""Verbs of residing (FrameNet Residence: live, reside, dwell) whose place "there" can name."""

_PRESENT_MARKERS = frozenset({"still", "now", "currently", "nowadays"})
"""Adverbs of the time of speaking (Quirk et al. 1985 §8.57 "now", §8.89 "still" of
continuing)."""

_PLACE_PREPS = ("to", "in", "into")
"""Prepositions of the coordinated change's goal or place ("moved to Lisbon")."""


def _present(verb: Token) -> bool:
    """Whether a clause is in the present: a present-tense verb, or a bare verb coordinated
    with a past one that a present adverb marks ("and still live there")."""
    if verb.tag_ in ("VBP", "VBZ"):
        return True
    return verb.tag_ == "VB" and verb.dep_ == "conj" and not any(
        c.dep_ in ("aux", "nsubj") for c in verb.children) and any(
        c.dep_ == "advmod" and c.lower_ in _PRESENT_MARKERS for c in verb.children)


def _antecedent_place(verb: Token) -> Token | None:
    """The one place the clause a "there" clause is coordinated with names ("moved [to
    Lisbon] in 2018"): the locative pro-form refers back to it (Halliday & Hasan 1976,
    Cohesion in English, ch. 2 on demonstrative reference by "there")."""
    if verb.dep_ != "conj":
        return None
    places = [p for c in verb.head.children if c.dep_ == "prep" and c.lower_ in _PLACE_PREPS
              for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN" and not _is_time(p)]
    return places[0] if len(places) == 1 else None


class StillHoldsRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_value`` and ``_make``)."""

    def _still_holds(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` with a present residence clause coordinated with a dated change read
        out: "…and still live there" -> (user, live in, lisbon) marked :data:`HOLDS_NOW`
        ("there" resolved to the other clause's place); "…and I live in Lisbon now" -> its
        triple so marked."""
        if head.pos_ != "VERB" or head.lemma_.lower() not in RESIDENCE_VERBS or \
                head.dep_ != "conj" or not _present(head) or any(
                c.dep_ == "neg" for c in head.children):
            return found
        if not any(c.dep_ == "prep" and any(_is_time(p) for p in c.children)
                   for c in head.head.children):
            return found  # (only beside a dated change, whose date would hide it)
        there = any(c.dep_ == "advmod" and c.lower_ == "there" for c in head.children)
        if there and not any(c.dep_ == "prep" for c in head.children):
            place = _antecedent_place(head)
            stated = next((t for t in found if t.rule == "state" and not t.negated
                           and not t.object), None)
            if place is None or stated is None:
                return found
            value, surface = self._value(place)
            if not value:
                return found
            return [t for t in found if t is not stated] + [self._make(
                stated.subject, "live in", value, surface, negated=False, clause=head,
                rule="prep_object", qualifiers=[HOLDS_NOW])]
        return [Triple(**{**t.to_dict(), "qualifiers": tuple(sorted({*t.qualifiers, HOLDS_NOW}))})
                if t.relation == "live in" and not t.negated and not t.qualifier("time")
                else t for t in found]


def prefer_present(first: Triple, repeat: Triple) -> bool:
    """Whether ``repeat``, a restatement of ``first``'s fact, stands for both: ``first``
    dates a change ("moved to Lisbon in 2018": time ``2018``) and ``repeat`` says its result
    holds now (:data:`HOLDS_NOW`)."""
    time = first.qualifier("time") if first.qualifiers else None
    return bool(time) and not time.startswith((CONDITIONED, "past", "future")) and \
        bool(repeat.qualifiers) and repeat.qualifier("holds") == HOLDS_NOW[1] and \
        not repeat.qualifier("time")
