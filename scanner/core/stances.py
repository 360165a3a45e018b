"""Stances: what one record says under one key, folded from its triples.

Pure: a stance holds a record's asserted, denied and ended objects of one key with what
decides whether two stances can meet (place, time, generic and set readings, written names);
:mod:`scanner.core.detect` pairs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from extractors import Triple
from extractors.types import ADDITIVE
from extractors.constructions.attribute_values import RULE as ATTRIBUTE_VALUE_RULE
from extractors.constructions.changes import QUIT_QUALIFIER
from extractors.constructions.particulars import PARTICULAR
from extractors.lexicon import INVERSE_RELATIONS
from extractors.constructions.preferences import GENERIC_RULE, KIND_READING
from extractors.referents import NAME_ADJECTIVES, SCHOOL_STATES
from extractors.state_changes import ENDED_RULE, PARTY_QUALIFIER
from extractors.wishes import WISH_RULE
from scanner.core.keys import Assertion
from scanner.core.names import written_name
from scanner.models import MemoryRecord


@dataclass(frozen=True, slots=True)
class Stance:
    """What one record says under one key: asserted and denied objects, and its place."""

    record: MemoryRecord
    asserted: frozenset[str]
    denied: frozenset[str]
    shown: Mapping[str, str]
    place: str | None
    attribute: bool
    time: str | None = None
    similar: bool = False
    """True when a triple of this stance got its relation by embedding similarity only."""
    shaped: bool = False
    """True when a triple of this stance states its relation as an attribute noun, singular
    or plural ("Joanna's favourite genres are …"), or as a ``key: value`` line."""
    ended: frozenset[str] = frozenset()
    """Denied objects that a state change implies ("sold her car" ends having it), matched
    with stated objects of the same referent (:func:`extractors.referents.same_referent`)."""
    plural: frozenset[str] = frozenset()
    """Asserted and ended objects written in the plural ("has turtles")."""
    bare: bool = False
    """True when the stance denies an intransitive predicate outright ("doesn't smoke
    anymore"; rule ``state``, no object), which denies every object of it."""
    named: frozenset[str] = frozenset()
    """Ended objects written as one capitalised name ("decided against Marley"), which can
    stand for a thing the name qualifies ("Marley flooring")."""
    generic: bool = False
    """True when every triple of the stance is the generic reading of a more specific
    attribute (rule ``attribute_generic``: "favourite guiding book" read as "favourite
    book"): it meets only a later statement of the generic attribute that marks a change
    (:func:`_generic_meets`)."""
    changed: bool = False
    """True when a triple of the stance marks its value as a change ("is now", "these
    days", "new favourite": qualifier ``change``)."""
    kinds: bool = False
    """True when the stance's generic reading drops a classifier noun ("favourite movie
    genres" read as "favourite movies": qualifier ``reading`` = ``kind``), which names kinds
    of the thing, and meets only a literal set of kinds (:func:`_generic_meets`)."""
    in_set: bool = False
    """True when every triple of the stance states a plural attribute's set ("her
    favourite films these days are documentaries": rule ``attribute_set``)."""
    names: frozenset[str] = frozenset()
    """Asserted and denied objects written as proper names ("Lena Fischer"), which meet
    their short forms ("Lena": :mod:`scanner.core.names`)."""
    particular: frozenset[tuple[str, str]] = frozenset()
    """``(ended object, words)``: an ended thing a restrictive modifier picks out ("the laptop
    I used at university": qualifier ``particular``), which meets only a statement naming
    those words too (:func:`scanner.core.detect.picked_out`)."""
    quits: frozenset[str] = frozenset()
    """Ended objects written as proper names whose ending quits work there ("quit Harbour
    Mills": qualifier ``quit``), which also end work at a site the firm names ("the Harbour
    Mills depot": :func:`scanner.core.named_referents.workplace_of`)."""
    written: Mapping[str, str] = None  # type: ignore[assignment]
    """Object -> the object as written ("1.78 m" -> "178 cm"), so that an amount is compared
    in the unit it was written in (:mod:`scanner.core.quantities`)."""
    additive: bool = False
    """True when a triple of the stance asserts its value in addition to others ("also works
    at a bar": qualifier ``additive``), which replaces no value of the key."""
    inverse: bool = False
    """True when every triple of the stance is an inverse reading of what its sentence states
    of its subject: a passive's agent made the subject ("Google Ads was developed by Google"
    read as Google developing it; rule ``passive``) or an inverse relation
    (:data:`extractors.lexicon.INVERSE_RELATIONS`)."""

    def value_text(self, relation: str) -> str:
        """A readable value: "celadon", "not thai food", "be allowed" / "not be allowed".
        Each reading is written once: a bare denial shows the relation, which may be the
        object another triple of the same record names ("quit smoking": ``""`` and
        ``"smoke"`` of the key ``smoke``, both "not smoke")."""
        parts = [self.shown.get(o, o) or relation for o in sorted(self.asserted)]
        parts += ["not " + (self.shown.get(o, o) or relation) for o in sorted(self.denied)]
        return ", ".join(dict.fromkeys(parts))


_ATTRIBUTE_RULES = ("attribute", "key_value", GENERIC_RULE, ATTRIBUTE_VALUE_RULE)
"""Extraction rules whose relation is a singular attribute noun ("the preferred glaze is ...")
or a ``key: value`` line: functional by default (:meth:`RelationTable.cardinality`)."""
_SHAPED_RULES = ("attribute", "key_value", "attribute_set", GENERIC_RULE, ATTRIBUTE_VALUE_RULE,
                 WISH_RULE)
"""Extraction rules that state a relation as an attribute, singular or plural ("my favourite
genres are ..."), or as a wish of a place of one's life: the only relations of unknown
cardinality that may give ``possible``."""


def _shown(triple: Triple) -> str:
    return triple.object if triple.object else ""


_LIGHT = frozenset({"be", "have", "do", "get", "make", "take", "go", "like", "use", "find",
                    "feel", "say", "give", "keep"})
"""Verbs whose bare denial says too little to deny a stated object ("did not have any")."""


def _bare(triple: Triple) -> bool:
    """A denial of an intransitive predicate outright: "doesn't smoke anymore" (not an
    ending that named its other party: "Jordan and I broke up")."""
    return (triple.negated and not triple.object and triple.rule in ("state", ENDED_RULE)
            and triple.relation not in _LIGHT
            and not (triple.qualifiers and triple.qualifier(PARTY_QUALIFIER)))


def _named(triple: Triple) -> bool:
    """An ended object written as one capitalised word ("Marley"), not an acronym (but a
    school's: "done at EPFL" / "a PhD student at EPFL Lausanne", :data:`SCHOOL_STATES`), after
    any describing adjectives ("the old Honda": :data:`NAME_ADJECTIVES`) or other
    capitalised words of a local genitive ("St. Mary's")."""
    # (or a local genitive of several capitalised words, its head left out: "left St.
    # Mary's" for St. Mary's Hospital, Quirk et al. 1985 §5.120; "New York" is no such name)
    text = triple.object_text.removesuffix("'s").removesuffix("\u2019s")
    genitive = text != triple.object_text
    *before, written = text.split(" ") or [""]
    return (triple.rule == ENDED_RULE and written[:1].isupper()
            and (not written.isupper() or triple.relation in SCHOOL_STATES)
            and (all(w in NAME_ADJECTIVES for w in before)
                 or genitive and all(w[:1].isupper() for w in before))
            and text.lower() == triple.object)


def _plural(triple: Triple) -> bool:
    """The object was written in the plural: its last written word is not its canonical one
    and ends in "s" ("turtles" -> "turtle")."""
    written = triple.object_text.rsplit(" ", 1)[-1].lower()
    return written.endswith("s") and written != triple.object.rsplit(" ", 1)[-1]


_NONE: frozenset[str] = frozenset()


def stances(assertions: Iterable[Assertion]) -> list[Stance]:
    """Fold the assertions of one key into one stance per record, sorted by record id."""
    per: dict[str, Assertion | list[Assertion]] = {}
    for item in assertions:
        rid = item.record.id
        found = per.get(rid)
        if found is None:
            per[rid] = item
        elif found.__class__ is list:
            found.append(item)
        else:
            per[rid] = [found, item]
    out = []
    for rid in sorted(per):
        found = per[rid]
        if found.__class__ is not list:  # one triple, the common case: the fold below, unrolled
            t = found.triple
            obj, rule = t.object, t.rule
            place = time = None
            if t.qualifiers:
                place, time = t.qualifier("place") or None, t.qualifier("time") or None
            held = frozenset((obj,))
            out.append(Stance(found.record, _NONE if t.negated else held,
                              held if t.negated else _NONE, {obj: _shown(t)}, place,
                              rule in _ATTRIBUTE_RULES, time, rule.startswith("similar:"),
                              rule in _SHAPED_RULES,
                              held if rule == ENDED_RULE else _NONE,
                              held if (not t.negated or rule == ENDED_RULE) and _plural(t)
                              else _NONE, _bare(t), held if _named(t) else _NONE,
                              rule == GENERIC_RULE,
                              bool(t.qualifiers) and t.qualifier("change") is not None,
                              bool(t.qualifiers) and t.qualifier("reading") == KIND_READING,
                              rule == "attribute_set", held if written_name(t) else _NONE,
                              _particular(t), held if _quit(t) else _NONE,
                              {obj: t.object_text},
                              bool(t.qualifiers) and t.qualifier(ADDITIVE) is not None,
                              _inverse(t)))
            continue
        asserted, denied, shown, places, times = set(), set(), {}, set(), set()
        written: dict[str, str] = {}
        ended, plural, named, names, quits = set(), set(), set(), set(), set()
        particular: frozenset[tuple[str, str]] = _NONE
        attribute = similar = shaped = bare = changed = additive = False
        generic = in_set = inverse = True
        kinds = False
        for item in found:
            t = item.triple
            generic = generic and t.rule == GENERIC_RULE
            inverse = inverse and _inverse(t)
            in_set = in_set and t.rule == "attribute_set"
            kinds = kinds or bool(t.qualifiers) and t.qualifier("reading") == KIND_READING
            changed = changed or (bool(t.qualifiers) and t.qualifier("change") is not None)
            additive = additive or (bool(t.qualifiers) and t.qualifier(ADDITIVE) is not None)
            (denied if t.negated else asserted).add(t.object)
            if t.rule == ENDED_RULE:
                ended.add(t.object)
                particular |= _particular(t)
                if _named(t):
                    named.add(t.object)
                if _quit(t):
                    quits.add(t.object)
            if (not t.negated or t.rule == ENDED_RULE) and _plural(t):
                plural.add(t.object)
            bare = bare or _bare(t)
            if written_name(t):
                names.add(t.object)
            shown.setdefault(t.object, _shown(t))
            written.setdefault(t.object, t.object_text)
            if t.qualifiers:
                place, time = t.qualifier("place"), t.qualifier("time")
                if place:
                    places.add(place)
                if time:
                    times.add(time)
            attribute = attribute or t.rule in _ATTRIBUTE_RULES
            similar = similar or t.rule.startswith("similar:")
            shaped = shaped or t.rule in _SHAPED_RULES
        out.append(Stance(found[0].record, frozenset(asserted), frozenset(denied), shown,
                          min(places) if len(places) == 1 else None, attribute,
                          min(times) if len(times) == 1 else None, similar, shaped,
                          frozenset(ended), frozenset(plural), bare, frozenset(named),
                          generic, changed, kinds, in_set, frozenset(names), particular,
                          frozenset(quits), written, additive, inverse))
    return out


def _inverse(triple: Triple) -> bool:
    """An inverse reading of what the sentence states (:attr:`Stance.inverse`)."""
    return triple.rule == "passive" or triple.relation in INVERSE_RELATIONS


def _quit(triple: Triple) -> bool:
    """An ending of work at an employer by quitting it, the employer written as a proper name
    ("quit Harbour Mills", "resigned from Brightline"). A firm quit in chat's lower case ("quit
    amazon", "quit netflix") is more often a service given up than a job, so it is no such
    ending."""
    return (triple.rule == ENDED_RULE and bool(triple.qualifiers)
            and triple.qualifier(QUIT_QUALIFIER) is not None and written_name(triple))


def _particular(triple: Triple) -> frozenset[tuple[str, str]]:
    """``{(object, words)}`` for an ending whose object a restrictive modifier picks out."""
    words = triple.qualifier(PARTICULAR) if triple.qualifiers else None
    return frozenset({(triple.object, words)}) if words else _NONE
