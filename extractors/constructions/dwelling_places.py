"""The place of a dwelling one lives in: "I live in a flat in Leeds" also says one lives in
Leeds.

A residence whose value is a dwelling ("live in a flat", read as the kind of home by
:func:`extractors.relations.dwelling_reading`) may name the dwelling's own place in a
prepositional postmodifier (Quirk et al. 1985, §17.37: "a flat in Leeds", "a cottage near
Bath" — only "in" locates the dwelling inside the place). In FrameNet's Residence frame
(1.7) that place is the Location of the residence, so the resident lives there too.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from extractors.relations import AREA_NOUNS, DWELLING_KINDS, PLACE_NOUNS
from extractors.types import Triple

__all__ = ["dwelling_places"]

_RESIDENCE = frozenset({"live in", "move into", "move back into", "move to", "move back to",
                        "relocate to"})
_NOT_A_NAMED_PLACE = frozenset(AREA_NOUNS | PLACE_NOUNS | set(DWELLING_KINDS) | {
    "centre", "center", "halls", "hall", "campus", "college", "school", "uni", "university",
    "area", "block", "building", "street", "road", "neighbourhood", "neighborhood",
    "district", "part", "middle", "heart", "east", "west", "north", "south", "end"})
"""Common nouns of a part of a place ("a flat in town", "in halls", "in the centre"): only a
named place is where one lives, never a part of some place left unsaid."""


def _named_place(noun: Token) -> bool:
    """A bare name of a place: a proper noun, or a lower-case chat spelling of one ("in
    leeds"), without a determiner or modifier, that is no common noun of a part of a place."""
    if any(c.dep_ in ("det", "poss", "amod", "nummod") for c in noun.children):
        return False
    if noun.pos_ == "PROPN":
        return noun.text[:1].isupper()
    return (noun.pos_ == "NOUN" and noun.is_alpha and noun.text.islower()
            and noun.lower_ not in _NOT_A_NAMED_PLACE and noun.lemma_.lower() not in _NOT_A_NAMED_PLACE)


def dwelling_places(doc: Doc, triple: Triple, relation: str) -> list[Triple]:
    """``(subject, live in, PLACE)`` for a residence ``triple`` (relation as read,
    ``relation``) whose dwelling noun has an "in" postmodifier naming a place; else []."""
    if relation not in _RESIDENCE or not triple.object_text:
        return []
    head_word = triple.object_text.split(",")[0].split()[-1].lower()
    if head_word not in DWELLING_KINDS:
        return []
    span: Span = doc.char_span(triple.start, triple.end, alignment_mode="expand") or doc[:]
    for token in span:
        if token.lower_ != head_word:
            continue
        for prep in token.children:
            if prep.dep_ != "prep" or prep.lower_ != "in":
                continue
            place = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if place is not None and _named_place(place):
                return [Triple(**{**triple.to_dict(), "relation": "live in",
                                  "object": place.lower_, "object_text": place.text,
                                  "qualifiers": triple.qualifiers})]
    return []
