"""A present clause that says a dated change's result still holds: "I moved to Lisbon in 2018
and still live there", "…, and I live there now". The dated change alone tells what held then
(backstory, :func:`scanner.core.detect._backstory`); the present clause says it holds at the
time of speaking, so its reading, marked :data:`HOLDS_NOW`, stands for both
(:func:`prefer_present`).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.clause_frames import CONDITIONED, with_time
from extractors.constructions.verb_words import _extent
from extractors.syntax import _is_time
from extractors.times import RECURRENCE, _TIME_WORDS
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


PARTIAL_ADVERBS = frozenset("""
    sometimes occasionally rarely seldom sporadically intermittently periodically usually
    mostly mainly largely often partly partially half hardly barely scarcely technically
    """.split())
"""Adverbs by which a residence holds only some of the time or in part: frequency adjuncts
(Quirk et al. 1985 §§8.62–8.65: "sometimes", "occasionally", "seldom", "usually"), downtoning
and minimizing subjuncts (§§8.104–8.112: "partly", "mostly", "hardly", "barely") and the
viewpoint subjunct "technically" (§8.88), which concedes the fact only in name."""

_PARTIAL_PHRASES = (("now", "then"), ("on", "off"), ("from", "time"), ("off", "on"))
"""Frequency phrases of occasional time (Quirk et al. 1985 §8.64: "now and then", "on and
off", "from time to time"), by their first and another word."""


def partial_words(verb: Token) -> str | None:
    """The words of the adjunct by which a residence clause holds only part of the time or in
    part ("live there sometimes", "part-time", "half the year", "every other week", "on
    weekends", "now and then", "only partly"), else None. Such a clause restricts the
    residence: it is compared only with one under the same restriction (as a "when" clause
    is, :func:`extractors.clause_frames.conditioned`)."""
    for child in verb.children:
        extent = next((t for t in child.subtree if _extent(t)), None)
        if extent is not None:  # (the parser may hang it in the place's phrase)
            return " ".join(w.lower_ for w in extent.subtree if w.is_alpha)
        words = [t.lower_ for t in child.subtree]
        if child.dep_ in ("advmod", "npadvmod", "prep", "dobj") and (
                any(w in PARTIAL_ADVERBS for w in words) or any(
                words[0] == a and b in words[1:] for a, b in _PARTIAL_PHRASES)):
            return " ".join(w for w in words if w.isalpha())
        if child.dep_ in ("npadvmod", "prep") and any(
                w in RECURRENCE or w == "other" for w in words):
            return " ".join(w for w in words if w.isalpha())  # "every other week"
        pobj = next((c for c in child.children if c.dep_ == "pobj"), None)
        if child.dep_ == "prep" and child.lower_ in ("on", "at", "in", "during") and \
                pobj is not None and pobj.tag_ == "NNS" and pobj.lemma_.lower() in _TIME_WORDS:
            return " ".join(words)  # "on weekends", "at weekends": a recurring time
    return None


def _finite_past(verb: Token) -> bool:
    """Whether ``verb`` is a finite past ("moved", "have moved"), not an infinitive under
    "want", "plan", "would like" (a planned move has no result that holds)."""
    if verb.tag_ == "VBD":
        return True
    return verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_.lower() == "have"
                                      and c.tag_ in ("VBP", "VBZ", "VBD") for c in verb.children)


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
        triple so marked. A residence restricted to part of the time ("live there
        sometimes", "I live in Lisbon part-time": :func:`partial_words`) gets time ``"when
        <words>"`` and never stands for the change; a residence coordinated with a planned
        move ("want to move to Lisbon and still live there") is none."""
        if head.pos_ == "VERB" and head.lemma_.lower() in RESIDENCE_VERBS:
            partial = partial_words(head)
            if partial:
                return [with_time(t, f"{CONDITIONED} {partial}")
                        if t.relation == "live in" and not t.negated else t for t in found
                        if not (head.dep_ == "conj" and t.rule == "state" and not t.object)]
        if head.pos_ != "VERB" or head.lemma_.lower() not in RESIDENCE_VERBS or \
                head.dep_ != "conj" or not _present(head) or any(
                c.dep_ == "neg" for c in head.children):
            return found
        if not _finite_past(head.head) or not any(
                c.dep_ == "prep" and any(_is_time(p) for p in c.children)
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
