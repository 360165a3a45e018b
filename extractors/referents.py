"""Whether an ended object names the thing a stated object names (:func:`same_referent`).

An ending usually names its thing more fully than the statement it ends ("sold her
LeBron-signed basketball" / "owns a basketball"), or by another of its names: a group with or
without its group noun ("the Riverside Runners club"), an institution by one of its schools
("Carrow Law" / "Carrow"), a maker's name for its product ("the old Honda" / "a 2009 Honda
Civic"), a hypernym ("another dog" / "a new pup"). This module holds that match and its
vocabularies (group, faculty and institution words, descriptive and contrastive modifiers);
detection (:mod:`scanner.core.detect`) uses it to pair a ``state_change`` triple of
:mod:`extractors.state_changes` with the statements it ends.
"""

from __future__ import annotations

from extractors.relations import RELATIONSHIP_NOUNS, is_kind_of
from extractors.state_changes import CARRIER_NOUNS


GROUP_NOUNS = frozenset("""
    group team club band society association organization organisation company firm
    community network collective choir league crew circle chapter committee
    """.split())
"""Nouns that classify a named group after its name ("the Riverside Runners club"): the name
with or without them names one group."""


WORKPLACE_HEADS = frozenset("""
    warehouse store shop office factory plant mill depot branch outlet workshop site
    center centre headquarters hq lab laboratory bakery restaurant cafe
    """.split())
"""Nouns of a place of work that follow the name of the firm that runs it ("the Harbour Mills
depot", "the Brightline call centre"): words of WordNet 3.1's workplace ("a place where work
is done": factory, mill, plant, office, workshop, depot, laboratory, headquarters) and
mercantile establishment (store, shop, outlet, branch, restaurant) synsets and of warehouse."""


def same_group_name(x: str, y: str) -> bool:
    """Whether one canonical object is the other followed by a group noun: "riverside
    runners club" / "riverside runners" (:data:`GROUP_NOUNS`)."""
    a, b = (x, y) if len(x) > len(y) else (y, x)
    head, _, last = a.rpartition(" ")
    return head == b and last in GROUP_NOUNS


FACULTY_WORDS = frozenset("""
    law medicine medical nursing pharmacy dental dentistry veterinary vet business management
    engineering architecture education divinity theology music art arts design journalism
    """.split())
"""Fields that name a school or faculty of an institution after its name ("Carrow Law",
"UCSD pharmacy", "Brookfield Medical School"): the professional schools of a university,
after the broad fields of UNESCO's ISCED-F 2013 (law; health: medicine, nursing, pharmacy,
dentistry, veterinary; business; engineering; architecture; education; arts)."""

_SCHOOL_HEADS = frozenset({"school", "faculty", "college", "program", "programme",
                           "department"})
INSTITUTION_WORDS = frozenset({"university", "uni", "univ", "institute", "polytechnic"})
"""Words after an institution's name that name the whole of it ("Brookfield University"); a
"college" or a "school" may be one of its schools ("Harvard College")."""
SCHOOL_STATES = frozenset({"study at", "attend", "be enrolled at", "be enrolled in",
                           "enroll at", "enroll in"})
"""States whose object is a school: an acronym ends them as a name does ("done at EPFL" / "a
PhD student at EPFL Lausanne"), as a school is often called by its initials."""
INSTITUTION_HEADS = INSTITUTION_WORDS | {"school", "college", "academy", "conservatory"}
"""Head nouns of a school's name, often left out ("Ridgeway High" for Ridgeway High School,
"Ohio State" for Ohio State University)."""


def institution_name(named: str) -> list[str]:
    """The words of an institution's own name before the school or faculty it is named with
    ("carrow law" -> ["carrow"], "ucsd pharmacy school" -> ["ucsd"]), else [] (no field
    word after a name: :data:`FACULTY_WORDS`)."""
    a = named.split()
    while len(a) > 2 and a[-1] in _SCHOOL_HEADS and a[-2] in FACULTY_WORDS:
        a = a[:-1]
    field = 0
    while len(a) - field > 1 and a[len(a) - 1 - field] in FACULTY_WORDS:
        field += 1
    return a[:len(a) - field] if field else []


def same_institution(ended: str, stated: str) -> bool:
    """Whether an ended institution named with one of its schools is the stated institution
    named alone: "carrow law" / "carrow", "ucsd pharmacy" / "ucsd", "brookfield medical
    school" / "brookfield university" (:func:`institution_name`), or the stated name is the
    ended one with its head noun ("ridgeway high" / "ridgeway high school":
    :data:`INSTITUTION_HEADS`). Only where that is safe: a
    stated name of another school of it ("carrow medical school", "harvard college") is
    another school."""
    a, b = ended.split(), stated.split()
    heads = INSTITUTION_HEADS if len(a) > 1 else INSTITUTION_WORDS
    if len(b) > len(a) and b[:len(a)] == a and all(w in heads for w in b[len(a):]):
        # a school's name without its head: "ridgeway high" / "… high school", "halden" /
        # "halden uni" (a one-word name only before a word of a whole institution: "law" /
        # "law school" are a field and a school)
        return True
    name = institution_name(ended)
    if not name or set(b) & (FACULTY_WORDS | _SCHOOL_HEADS - INSTITUTION_WORDS):
        return False
    return b[:len(name)] == name and all(w in INSTITUTION_WORDS for w in b[len(name):])


NAME_ADJECTIVES = frozenset({"old", "new", "little", "big", "trusty", "beloved", "beat-up"})
"""Adjectives that describe a named thing without picking another one out ("the old Honda"
is the Honda): an ended name may carry them."""


CONTRASTIVE_MODIFIERS = frozenset({"old", "older", "previous", "former", "spare", "second",
                                   "other", "extra", "backup", "first"})
"""Premodifiers that pick one thing out against another of its kind ("my old bike", "the
spare car"; restrictive premodification, Quirk et al. 1985 ch. 17): ending that one ends
no statement of the kind as such. A name keeps them as description (:data:`NAME_ADJECTIVES`:
"sold the old Honda")."""


_PEOPLE = RELATIONSHIP_NOUNS - {"dog", "cat", "pet", "horse"}
"""Kinship and social nouns: a name beside one of them names a person."""


def same_referent(ended: str, stated: str, *, stated_plural: bool = False,
                  ended_plural: bool = False, ended_name: bool = False) -> bool:
    """Whether an ended object can name the thing a stated object names.

    Both have the same head (last word) and one's words contain the other's: "basketball" /
    "lebron signed basketball", "dance contest trophy" / "trophy"; or one is the other's
    name followed by a group noun (:data:`GROUP_NOUNS`); a stated object is also tried without
    its carrier noun (:data:`CARRIER_NOUNS`: "pottery class" -> "pottery"); the ended object
    may name the stated one's hypernym (:data:`extractors.relations.HYPERNYMS`); an ended name
    of several words may open the stated one ("St. Mary's" / "St. Mary's Hospital"). A more
    specific ending of a
    plural statement is no match: giving away "his third turtle" does not end "has turtles"
    (throwing out "his lucky basketball shoes" does end "has basketball shoes").

    Args:
        ended: canonical object of a ``state_change`` triple.
        stated: canonical object of an affirmed triple of the same key.
        stated_plural: the stated object was written in the plural.
        ended_plural: the ended object was written in the plural.
        ended_name: the ended object was written as one capitalised name, which also names
            a thing it qualifies as a modifier of the stated object ("decided against Marley"
            / "looking for Marley flooring", "traded the Volvo in" / "drives a diesel Volvo
            estate"; a brand or maker's name used for its product).
    """
    if ended == stated:
        return True
    a, b = ended.split(), stated.split()
    if _PEOPLE & set(a[:-1]) and not _PEOPLE & set(b):
        return False  # "my aunt Juniper passed away" is no cat named Juniper
    if ended_name and len(b) > 1 and a and a[-1] in b[:-1] and all(
            w in NAME_ADJECTIVES for w in a[:-1]) and b[-1] not in WORKPLACE_HEADS:
        # ("sold the old Honda" / "drives a 2009 Honda Civic"; a name before a site's noun
        # may be its town's: leaving Leeds is no leaving "the Leeds office")
        return True
    if ended_name and len(a) > 1 and len(b) > len(a) and b[:len(a)] == a:
        # a name's opening words name it: "left St. Mary's" / "St. Mary's Hospital" (of
        # several words, scanner.core.stances._named marks only a local genitive)
        return True
    if same_group_name(ended, stated):
        return True
    if same_institution(ended, stated):
        return True
    if len(b) > 1 and b[-1] in CARRIER_NOUNS and ended != stated:
        # "dropped out of pottery" / "goes to a weekly pottery class"
        return same_referent(ended, " ".join(b[:-1]), stated_plural=stated_plural,
                             ended_plural=ended_plural, ended_name=ended_name)
    if " of " in stated and " of " not in ended:
        # "stepped down as secretary" / "is the secretary of the allotment society": a
        # relational noun's role, named without what it is of
        role = stated.split(" of ", 1)[0]
        if role.split()[-1:] == a[-1:] and set(a) <= set(role.split()):
            return True
    if is_kind_of(ended, stated):
        # the ended thing named by its hypernym: "decided not to adopt another dog" / "is
        # considering adopting a new pup" (never the other way round)
        return True
    if not a or not b or a[-1] != b[-1]:
        return False
    wa, wb = set(a), set(b)
    if wa <= wb:
        return True
    if not ended_name and (wa - wb) & CONTRASTIVE_MODIFIERS:
        return False  # "gave my old bike away" leaves the new one: "owns a bike" stands
    return wb <= wa and (ended_plural or not stated_plural)
