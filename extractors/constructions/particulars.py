"""A possessed thing picked out from others of its kind: "the laptop I used at university",
"my bike from school", "my racing bike".

A restrictive modifier (Quirk et al. 1985 ch. 17: restrictive relative clauses §17.3,
prepositional postmodifiers §17.37, noun premodifiers that name a subclass §17.104) picks one
thing out of its kind; ending that one ("sold the laptop I used at university") says nothing
about having another of the kind now ("has a laptop"), as "my old bike" does not
(:data:`extractors.referents.CONTRASTIVE_MODIFIERS`). The ending keeps the modifier's
words as qualifier :data:`PARTICULAR`; detection lets it meet only a statement that names them
too (:func:`scanner.core.detect.picked_out`: "has a trophy from a dance contest" is the
"dance contest trophy" given away).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.times import _is_time
from extractors.types import Triple

PARTICULAR = "particular"
"""Qualifier of a possession ending whose object a restrictive modifier picks out: its words."""
_ORIGIN_PREPS = frozenset({"from", "since"})
"""Prepositions of a postmodifier of origin or period ("my bike from school"): a verb of giving
or selling has no source of its own (FrameNet Giving, Commerce_sell), so after its object
the phrase is the object's even when the parser hangs it on the verb."""
_CONTENT = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})
"""Words of a modifier that name what picks the thing out: its nouns, names, adjectives and
numbers; a relative clause's verb often restates the possession itself ("the figure he
kept in his room": the room picks it out)."""
_OBJECT_DEPS = frozenset({"dobj", "obj", "pobj"})
_POSTMODIFIER_PREPS = frozenset({"with", "without", "in", "at", "on", "near", "by", "under",
                                 "outside", "inside", "behind"})
"""Prepositions of a place or feature postmodifier ("the house in Spain", "the laptop with the
broken screen"; Quirk et al. 1985 §17.37): after an ended thing's noun they pick it out,
also when the parser hangs the phrase on the verb right after the object; a time is no such
phrase ("sold my car in March")."""
UNNAMED = "_modifier"
"""The words of a restrictive modifier with no content word ("the laptop I never used", "the
house where I grew up"): the thing is picked out, but no statement can name how
(:func:`scanner.core.detect.picked_out` never finds this word in a text)."""


def _content(token: Token) -> list[str]:
    return [t.lower_ for t in token.subtree if t.pos_ in _CONTENT]


def _restricting(prep: Token) -> bool:
    """Whether a prepositional phrase after an ended thing's noun picks it out: a phrase of
    origin or period (:data:`_ORIGIN_PREPS`), or of place or feature whose object is no time
    or occasion (:data:`_POSTMODIFIER_PREPS`)."""
    if prep.lower_ in _ORIGIN_PREPS:
        return True
    pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
    return prep.lower_ in _POSTMODIFIER_PREPS and pobj is not None and not _is_time(pobj) \
        and not any(_is_time(t) for t in pobj.subtree)


def _label(token: Token) -> bool:
    """A name or a number-label premodifier that names a subclass ("my Dell laptop", "my 2015
    laptop"; Quirk et al. 1985 §17.104, §17.108), not a count ("my two laptops")."""
    if token.dep_ == "compound" and token.pos_ == "PROPN":
        return True
    return token.dep_ == "nummod" and token.text.isalnum() and len(token.text) >= 3 and any(
        ch.isdigit() for ch in token.text)


def particular_words(obj: Token) -> list[str]:
    """The words of the restrictive modifiers of ``obj``: noun premodifiers ("racing bike"),
    name and number labels ("Dell laptop", "2015 laptop"), a relative clause not set off by a
    comma ("the laptop I used at university"), a phrase of origin, period, place or feature
    ("from school", "in Spain", "with the broken screen", also when hung on the verb right
    after the object). A modifier with no content word ("the laptop I never used") gives
    :data:`UNNAMED`."""
    words: list[str] = []
    for child in obj.children:
        if child.dep_ == "compound" and child.pos_ == "NOUN" and child.i < obj.i:
            words += [t.lower_ for t in child.subtree if t.pos_ == "NOUN"]
        elif _label(child) and child.i < obj.i:
            words += [child.lower_]
        elif child.dep_ in ("relcl", "acl") and child.i > obj.i and not any(
                t.text == "," for t in obj.doc[obj.i:child.left_edge.i]):
            words += _content(child) or [UNNAMED]
        elif child.dep_ == "prep" and child.i > obj.i and _restricting(child):
            words += _content(child) or [UNNAMED]
    if obj.dep_ in ("dobj", "obj"):
        words += [w for c in obj.head.children if c.dep_ == "prep" and _restricting(c)
                  and c.i == obj.right_edge.i + 1 for w in _content(c) or [UNNAMED]]
    return words


def mark_particular(verb: Token, derived: list[Triple], held: set[str]) -> list[Triple]:
    """``derived`` endings of ``verb``, each ending of a possession (relation in ``held``)
    whose object a restrictive modifier picks out qualified with :data:`PARTICULAR`."""
    objects = [t for t in verb.subtree if t.dep_ in _OBJECT_DEPS and t.pos_ == "NOUN"
               and (t.head == verb or t.head.head == verb)]
    out = []
    for triple in derived:
        head = triple.object.rsplit(" ", 1)[-1]
        obj = next((t for t in objects if head in (t.lower_, t.lemma_.lower())), None)
        direct = [t for t in objects if t.dep_ in ("dobj", "obj") and t.head == verb]
        if obj is None and len(direct) == 1 and not any(
                t.dep_ in ("dobj", "obj") and t.head == verb and t.pos_ == "PROPN"
                for t in verb.children):
            obj = direct[0]  # (a value normalized to a synonym: "flat" -> "apartment")
        words = particular_words(obj) if obj is not None and triple.relation in held else []
        if words:
            quals = tuple(sorted({*triple.qualifiers, (PARTICULAR, " ".join(words))}))
            triple = Triple(**{**triple.to_dict(), "qualifiers": quals})
        out.append(triple)
    return out
