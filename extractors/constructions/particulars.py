"""A possessed thing picked out from others of its kind: "the laptop I used at university",
"my bike from school", "my racing bike".

A restrictive modifier (Quirk et al. 1985 ch. 17: restrictive relative clauses §17.3,
prepositional postmodifiers §17.37, noun premodifiers that name a subclass §17.104) picks one
thing out of its kind; ending that one ("sold the laptop I used at university") says nothing
about having another of the kind now ("has a laptop"), as "my old bike" does not
(:data:`extractors.state_changes.CONTRASTIVE_MODIFIERS`). The ending keeps the modifier's
words as qualifier :data:`PARTICULAR`; detection lets it meet only a statement that names them
too (:func:`scanner.core.detect.picked_out`: "has a trophy from a dance contest" is the
"dance contest trophy" given away).
"""

from __future__ import annotations

from spacy.tokens import Token

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


def _content(token: Token) -> list[str]:
    return [t.lower_ for t in token.subtree if t.pos_ in _CONTENT]


def particular_words(obj: Token) -> list[str]:
    """The words of the restrictive modifiers of ``obj``: noun premodifiers ("racing bike"), a
    relative clause not set off by a comma ("the laptop I used at university"), a phrase of
    origin or period ("from school", also when hung on the verb right after the object)."""
    words: list[str] = []
    for child in obj.children:
        if child.dep_ == "compound" and child.pos_ == "NOUN" and child.i < obj.i:
            words += [t.lower_ for t in child.subtree if t.pos_ == "NOUN"]
        elif child.dep_ in ("relcl", "acl") and child.i > obj.i and not any(
                t.text == "," for t in obj.doc[obj.i:child.left_edge.i]):
            words += _content(child)
        elif child.dep_ == "prep" and child.lower_ in _ORIGIN_PREPS:
            words += _content(child)
    if obj.dep_ in ("dobj", "obj"):
        words += [w for c in obj.head.children if c.dep_ == "prep" and c.lower_ in _ORIGIN_PREPS
                  and c.i == obj.right_edge.i + 1 for w in _content(c)]
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
        words = particular_words(obj) if obj is not None and triple.relation in held else []
        if words:
            quals = tuple(sorted({*triple.qualifiers, (PARTICULAR, " ".join(words))}))
            triple = Triple(**{**triple.to_dict(), "qualifiers": quals})
        out.append(triple)
    return out
