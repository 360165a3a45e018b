"""Role nouns of a copula's complement and what they say of their holder: a member of a group
("a member / part of the hiking club"), an occupation at a named workplace ("the head chef at
Trattoria Luce"), a resident of a place ("a Manchester resident"), and the marks of a role
that is over ("was an intern at …", "a former … resident"). Read by
:class:`extractors.constructions.copula.CopulaRules`.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.constructions.studies import _named_object
from extractors.syntax import _PLACE_NOUNS, _of_object

__all__ = ["OCCUPATION_NOUNS", "RESIDENT_NOUNS"]

OCCUPATION_NOUNS = frozenset("""
    accountant actor administrator analyst architect assistant associate attorney baker
    barber barista bartender bookkeeper butcher carpenter cashier chef clerk coach consultant
    cook coordinator counselor designer developer dentist director dishwasher doctor driver
    economist editor electrician employee engineer hairdresser hygienist instructor intern
    janitor journalist lawyer lecturer librarian machinist manager mechanic nanny nurse
    officer paralegal paramedic pharmacist photographer physician physiotherapist pilot
    plumber producer professor programmer receptionist recruiter reporter researcher
    salesperson scientist secretary server specialist staffer supervisor surgeon teacher
    technician therapist trainer tutor veterinarian waiter waitress welder
    """.split())
"""Occupations (common job titles, as in the US Standard Occupational Classification's
titles): such a noun with "at" and a name says where its holder works ("is the head chef at
Trattoria Luce" -> work at). Roles that are no employment ("a customer / member / regular /
speaker at X") are left out."""


def _group_of(noun: Token) -> Token | None:
    """The group of a membership noun ("a member / part of the hiking club"), else None. A part
    of a place ("a part of the continent of Europe", "part of the city") is where a thing
    lies, no membership: the whole relation is "part of the continent of", never the
    "member of" the two share (issue 33, kind 1)."""
    if noun.lemma_.lower() not in ("member", "part"):
        return None
    group = _of_object(noun)
    if group is not None and noun.lemma_.lower() == "part" and \
            group.lemma_.lower() in _PLACE_NOUNS:
        return None
    return group


def _workplace_of(noun: Token, cop: Token | None = None) -> Token | None:
    """The named workplace of an occupation noun ("the head chef at Trattoria Luce"), else
    None (:data:`OCCUPATION_NOUNS`). With the copula ``cop`` whose complement the noun is,
    an "at" phrase the parser hung on the copula after the noun counts too ("I'm a paralegal
    at Voss & Kline": the coordinated name draws the phrase up to the verb)."""
    if noun.lemma_.lower() not in OCCUPATION_NOUNS:
        return None
    found = _named_object(noun, ("at",))
    if found is None and cop is not None:
        found = next((p for c in cop.children if c.dep_ == "prep" and c.lower_ == "at"
                      and c.i > noun.i for p in c.children if p.dep_ == "pobj" and (
                          p.pos_ == "PROPN" or p.pos_ == "NOUN" and p.text[:1].isupper())),
                     None)
    return found


RESIDENT_NOUNS = frozenset({"resident", "inhabitant"})
"""Nouns of a person who lives where their name modifier or "of" object names ("a
Manchester resident", "a resident of Leeds")."""


def _residence_of(noun: Token) -> Token | None:
    """The named place of a resident noun ("officially a Manchester resident now"), else
    None."""
    if noun.lemma_.lower() not in RESIDENT_NOUNS:
        return None
    named = next((c for c in noun.children if c.dep_ in ("compound", "nmod") and c.i < noun.i
                  and c.pos_ == "PROPN"), None)
    return named if named is not None else _named_object(noun, ("of",))


_FORMER = frozenset({"former", "ex", "previous", "old", "past", "one-time"})


def _former(cop: Token, noun: Token) -> bool:
    """Whether a copula's role is over: a past-tense copula ("was an intern at Meta") or a
    modifier that says so ("a former Manchester resident")."""
    return cop.tag_ == "VBD" or any(c.dep_ == "amod" and c.lower_ in _FORMER
                                    for c in noun.children)
