"""State changes stated without "not": which predicates end, or leave behind, which states.

"Dana dropped out of her pottery class" denies "Dana is taking a pottery class" although no
negation appears; "Ravi gave Kiwi, his parrot, to his cousin" ends "Ravi has a parrot";
"Maria got a puppy" leaves "Maria has a puppy" behind. The knowledge is data, not code paths:
``extractors/data/state_changes.toml`` lists, per class of change, the predicates and the
states they end (``[[ends]]``) or result in (``[[results]]``), with the FrameNet frames and
WordNet synsets each row comes from. A configuration may add rows from its own TOML file in
the same format (:func:`load_state_changes`).

:meth:`StateChanges.derive` turns one extracted triple into the triples its predicate implies:
each ended state as a *negated* triple with rule ``state_change`` (the same object, and the
object without a carrier noun: "her gym membership" also ends "joined a gym"), each resulting
state as an affirmed triple with rule ``state_result``. Detection matches a ``state_change``
object with a stated object of the same head noun (:func:`same_referent`), since an ending
usually names its thing more fully than the statement it ends ("sold her LeBron-signed
basketball" / "owns a basketball").
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from extractors.errors import ExtractorError
from extractors.relations import RELATIONSHIP_NOUNS, is_kind_of
from extractors.types import Triple

DATA_FILE = "state_changes.toml"
ENDED_RULE = "state_change"
RESULT_RULE = "state_result"

CARRIER_NOUNS: frozenset[str] = frozenset({
    "membership", "subscription", "lesson", "class", "course", "session", "habit", "routine",
    "practice", "plan", "plans", "ritual", "shift", "shifts", "job", "gig",
})
"""Nouns that carry an activity or a place rather than name a thing of their own: ending "the
gym membership" ends going to the gym, quitting "pottery classes" ends taking pottery (the
support nouns of light-verb constructions, Grimshaw & Mester 1988 "Light verbs and theta-
marking"). The object is also tried without them (for :data:`INSTRUCTION_NOUNS`, only in
:data:`INSTRUCTION_STATES`)."""

INSTRUCTION_NOUNS: frozenset[str] = frozenset({"lesson", "class", "course", "session"})
"""Carrier nouns of instruction: ending the lessons ends being taught and learning through
them, not doing what was taught ("quit tennis lessons but still play with friends"; FrameNet
Education_teaching: a student attends, takes and learns from lessons; playing or practising
the skill is another frame, Practice, that the lessons do not carry)."""

INSTRUCTION_STATES: frozenset[str] = frozenset({
    "take", "attend", "learn", "study", "enroll in", "be enrolled in", "sign up for", "go to", "take part in",
    "participate in", "be in", "join", "member of"})
"""The states that the activity of a lesson, class, course or session names without its
carrier noun and that ending it ends ("stopped piano lessons" ends "takes piano" and "is
learning piano", never "plays piano" or "practises piano")."""


class StateChangeTableError(ExtractorError):
    """A state-change table that cannot be read or has a malformed row.

    Attributes:
        source: the file (or ``"<package>"`` for the shipped table).
        row: the offending row's index in its section, or None.
        reason: what is wrong.
    """

    def __init__(self, source: str, reason: str, row: int | None = None):
        self.source, self.row, self.reason = source, row, reason
        where = f"{source} row {row}" if row is not None else source
        super().__init__(f"state-change table {where}: {reason}")


@dataclass(frozen=True, slots=True)
class Ending:
    """One ``[[ends]]`` row: a predicate that ends ``states`` for its object."""

    predicate: str
    states: tuple[str, ...]
    requires: frozenset[str]
    change_class: str


@dataclass(frozen=True)
class StateChanges:
    """The loaded table: predicate -> the endings and resulting states it implies.

    Attributes:
        endings: canonical predicate -> its ``[[ends]]`` rows.
        results: canonical predicate -> the states its event leaves behind.
    """

    endings: Mapping[str, tuple[Ending, ...]]
    results: Mapping[str, tuple[str, ...]]
    possessed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Intransitive predicate of a possessed subject -> states it ends for the possessor
    (``[[ends_possessed]]``: "Melanie's dog passed away")."""
    states: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Intransitive predicate -> ``(relation, object)`` states it ends for its subject
    (``[[ends_state]]``: "they separated" ends "be married")."""
    idioms: Mapping[str, str] = field(default_factory=dict)
    """"verb noun preposition" -> the predicate the three name together (``[idioms]``:
    "find home for" -> "rehome")."""
    nominals: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Relationship or event noun -> the relations it names (``[[ends_nominal]]``:
    "collaboration" -> "work with", "team up with"; "Gina's collaboration with the artist has
    ended", :mod:`extractors.constructions.nominal_endings`)."""

    def mapped(self, canonical: Callable[[str], str]) -> StateChanges:
        """This table with every predicate and state spelled as ``canonical`` spells a
        relation phrase (the extractor's synonyms: "member of" may be the lexicon's "part
        of"), so rows meet the relations of extracted triples."""
        endings: dict[str, tuple[Ending, ...]] = {}
        for key, rows in self.endings.items():
            endings[canonical(key)] = endings.get(canonical(key), ()) + tuple(
                Ending(canonical(r.predicate), tuple(dict.fromkeys(map(canonical, r.states))),
                       r.requires, r.change_class) for r in rows)
        results: dict[str, tuple[str, ...]] = {}
        for key, states in self.results.items():
            results[canonical(key)] = tuple(dict.fromkeys(
                results.get(canonical(key), ()) + tuple(map(canonical, states))))
        possessed = {k: tuple(dict.fromkeys(map(canonical, v)))
                     for k, v in self.possessed.items()}
        return StateChanges(endings, results, possessed, dict(self.states),
                            {k: canonical(v) for k, v in self.idioms.items()},
                            {k: tuple(dict.fromkeys(map(canonical, v)))
                             for k, v in self.nominals.items()})

    def merged(self, other: StateChanges) -> StateChanges:
        """This table with the rows of ``other`` added."""
        endings = {k: tuple(v) for k, v in self.endings.items()}
        for key, rows in other.endings.items():
            endings[key] = endings.get(key, ()) + tuple(rows)
        results = {k: tuple(v) for k, v in self.results.items()}
        for key, states in other.results.items():
            results[key] = tuple(dict.fromkeys(results.get(key, ()) + tuple(states)))
        possessed = {k: tuple(v) for k, v in self.possessed.items()}
        for key, states in other.possessed.items():
            possessed[key] = tuple(dict.fromkeys(possessed.get(key, ()) + tuple(states)))
        ended_states = {k: tuple(v) for k, v in self.states.items()}
        for key, states in other.states.items():
            ended_states[key] = tuple(dict.fromkeys(ended_states.get(key, ()) + tuple(states)))
        nominals = {k: tuple(v) for k, v in self.nominals.items()}
        for key, states in other.nominals.items():
            nominals[key] = tuple(dict.fromkeys(nominals.get(key, ()) + tuple(states)))
        return StateChanges(endings, results, possessed, ended_states,
                            {**self.idioms, **other.idioms}, nominals)

    def derive(self, triple: Triple, governed: Iterable[str] = (),
               parties: Mapping[str, str] | None = None) -> list[Triple]:
        """The triples ``triple``'s predicate implies (empty when it implies none).

        Args:
            triple: an extracted, affirmed triple; a negated one ("never sold the car")
                implies nothing.
            governed: the prepositions and particles its verb governs, for rows that
                ``require`` one ("give X *to* Y").
            parties: subject -> the other party its clause names ("split up with Sam":
                ``{"": "sam"}`` for any subject; "Jordan and I broke up": ``{"user":
                "jordan", "jordan": "user"}``).

        Returns:
            Negated ``state_change`` triples for every ended state (one per object variant,
            see :data:`CARRIER_NOUNS`), then affirmed ``state_result`` triples.
        """
        # an ending that names the other party ("split up with Sam", "Jordan and I broke
        # up") ends the state with that party only, never every value of it
        party = (parties.get(triple.subject) or parties.get("")) if parties else None
        if not triple.object:
            return self._intransitive(triple, triple.relation, party)
        if triple.rule == "state":  # "has been cancelled": (x, be, cancel)
            return self._intransitive(triple, f"{triple.relation} {triple.object}", party)
        if not triple.negated and f"{triple.relation} {triple.object}" in self.states:
            # "finalised their divorce", "called off her engagement": the object names the
            # state that ends, as "they divorced" does
            return self._intransitive(triple, f"{triple.relation} {triple.object}", party)
        if triple.negated:
            return []
        verb, _, prep = triple.relation.rpartition(" ")
        if prep in _CAUSE_PREPS and (verb in self.possessed or verb in self.states):
            # "passed away last week from kidney failure": the cause is no object; the
            # subject's end is what the predicate says
            return self._intransitive(replace(triple, object="", object_text=""), verb, party)
        out: list[Triple] = []
        rows = self.endings.get(triple.relation, ())
        if rows:
            preps = set(governed)
            objects = object_variants(triple.object)
            taught = triple.object.rsplit(" ", 1)[-1] in INSTRUCTION_NOUNS
            for row in rows:
                if row.requires and not row.requires & preps:
                    continue
                for state in row.states:
                    if state == triple.relation:
                        continue
                    # a habit of consuming a kind ends that kind only: "quit red meat"
                    # denies eating red meat, never "eats meat" (a plain denial, matched from
                    # the general to the specific, not as an ended thing)
                    rule = DENIED_RULE if state in KIND_STATES else ENDED_RULE
                    for obj in objects:
                        if taught and obj != triple.object and state not in INSTRUCTION_STATES:
                            continue  # "quit tennis lessons" ends no playing tennis
                        out.append(replace(triple, relation=state, object=obj, negated=True,
                                           rule=rule, qualifiers=_now(triple)))
        for state in self.results.get(triple.relation, ()):
            out.append(replace(triple, relation=state, rule=RESULT_RULE,
                               qualifiers=_now(triple)))
        return out


    def _intransitive(self, triple: Triple, predicate: str, party: str | None = None
                      ) -> list[Triple]:
        """Endings of a predicate without object: a possessed subject's end ("Melanie's dog
        passed away" -> (melanie, have, dog) negated), a subject's ended state ("they
        separated" -> (they, be, marry) negated); when the clause names the other ``party``
        ("split up with Sam", "Jordan and I broke up"), a state of every value ("date",
        "spouse") ends with that party, and an unspecified one ("is dating") ends, but no
        other party's (qualifier ``party``: no outright denial,
        :func:`scanner.core.stances._bare`)."""
        out: list[Triple] = []
        if triple.negated:  # "the trip is off" is read as the antonym: not "be on"
            predicate = "not " + predicate
        # the last possessor owns the thing: "Tariq's neighbour's cat" is the neighbour's
        owner, _, thing = triple.subject.rpartition("'s ")
        if thing and owner:
            for state in self.possessed.get(predicate, ()):
                out.append(replace(triple, subject=owner, relation=state, object=thing,
                                   negated=True, rule=ENDED_RULE, qualifiers=_now(triple)))
        for relation, obj in self.states.get(predicate, ()):
            if party and not obj:
                out.append(replace(triple, relation=relation, object=party, object_text=party,
                                   negated=True, rule=ENDED_RULE, qualifiers=_now(triple)))
                out.append(replace(triple, relation=relation, object="", negated=True,
                                   rule=ENDED_RULE,
                                   qualifiers=_now(triple) + ((PARTY_QUALIFIER, party),)))
                continue
            out.append(replace(triple, relation=relation, object=obj, negated=True,
                               rule=ENDED_RULE, qualifiers=_now(triple)))
        return out


_CAUSE_PREPS = frozenset({"from", "of", "after", "following"})
"""Prepositions of a cause or occasion after an intransitive ending ("died of cancer", "passed
away from kidney failure", "closed after the fire")."""

_OBJECTLESS = frozenset({"live in", "work at", "spouse", "partner", "member of", "part of",
                         "date", "be engaged to", "be married to", "be in relationship with"})
"""``[[ends_state]]`` states named by their relation alone: every value of it ends."""


PARTY_QUALIFIER = "party"
"""The qualifier of an ending that named its other party: it denies an unspecified state, never
another party's."""


def _now(triple: Triple) -> tuple[tuple[str, str], ...]:
    """The qualifiers of a state an event ended or left behind: "sold her car last week",
    "split up over the summer" are dated events, but the state they end is over now (every
    time qualifier is dropped; a place stays)."""
    return tuple(q for q in triple.qualifiers if q[0] != "time")


def object_variants(value: str) -> list[str]:
    """``value`` and, when it ends in a carrier noun after other words, ``value`` without it
    (and without a time word before it): ``"gym membership"`` -> ``["gym membership",
    "gym"]``; ``"afternoon green tea ritual"`` -> ``[…, "afternoon green tea", "green tea"]``."""
    words = value.split()
    if len(words) > 1 and words[-1] in CARRIER_NOUNS:
        out = [value, " ".join(words[:-1])]
        rest = words[:-1]
        while len(rest) > 1 and rest[0] in _HABIT_TIMES:
            rest = rest[1:]
        if len(rest) < len(words) - 1:
            out.append(" ".join(rest))
        return out
    return [value]


_HABIT_TIMES = frozenset("""
    morning afternoon evening night nightly daily weekly weekend monthly sunday monday tuesday
    wednesday thursday friday saturday
    """.split())
KIND_STATES = frozenset({"drink", "eat", "smoke"})
"""States whose object is a kind of thing consumed, not one thing held."""
IMPLIED_RULE = "implication"
"""The rule of a denial a state implies (:data:`IMPLIED_DENIALS`)."""
IMPLIED_DENIALS: dict[str, tuple[tuple[str, str], ...]] = {
    "vegetarian": (("eat", "meat"),),         # vegetarian.n.01 "eats no meat"
    "pescatarian": (("eat", "meat"),),        # eats fish but no other meat
    "vegan": (("eat", "meat"), ("eat", "fish"), ("eat", "egg"), ("eat", "dairy")),
    "teetotal": (("drink", "alcohol"),),      # teetotaler.n.01 "abstains from alcohol"
    "teetotaler": (("drink", "alcohol"),),
    "teetotaller": (("drink", "alcohol"),),
}
"""What a diet or abstinence state denies (WordNet 3.1 glosses of vegetarian.n.01, vegan.n.01,
teetotaler.n.01): "Is vegetarian" denies "eats meat", and so every kind of meat
(:data:`extractors.relations.HYPERNYMS`: "started eating chicken again")."""


_PAST_STATE = re.compile(r"\b(?:was|were|used to|had been|former(?:ly)?|once)\b", re.IGNORECASE)
"""Words of a state that held before now ("Was vegetarian in her twenties")."""


_DIET_VERBS = frozenset({"follow", "be on", "keep", "stick to", "eat", "maintain", "start"})
"""Verbs of keeping a diet ("follows a vegan diet", "is on a vegetarian diet")."""


_DEGREE_MODIFIERS = frozenset({"strict", "committed", "lifelong", "devout", "full", "complete",
                               "total", "proper", "longtime", "long-time", "dedicated"})
"""Modifiers of a diet noun that keep its kind ("a strict vegetarian", "a lifelong vegan")."""


def implied(triples: Iterable[Triple], text: str) -> list[Triple]:
    """The denials the affirmed, present diet and abstinence states among ``triples`` imply
    (:data:`IMPLIED_DENIALS`), rule ``implication``, on the stating triple's span of
    ``text``; a past state implies nothing now (:data:`_PAST_STATE`)."""
    out = []
    for t in triples:
        if t.relation in _DIET_VERBS and t.object.endswith(" diet") and not t.negated:
            # "follows a strict vegan diet": the diet's adjective is the state
            diet = next((w for w in t.object.split() if w in IMPLIED_DENIALS), None)
            t = replace(t, relation="be", object=diet) if diet else t
        words = t.object.split()
        if len(words) > 1 and words[-1] in IMPLIED_DENIALS and all(
                w in _DEGREE_MODIFIERS for w in words[:-1]):
            t = replace(t, object=words[-1])  # "a strict vegetarian" is a vegetarian
        if t.negated or t.relation != "be" or t.qualifiers or t.object not in IMPLIED_DENIALS:
            continue
        if _PAST_STATE.search(text[t.start:t.end]):
            continue
        for relation, obj in IMPLIED_DENIALS.get(t.object, ()):
            out.append(replace(t, relation=relation, object=obj, object_text=obj,
                               negated=True, rule=IMPLIED_RULE))
    return out


DENIED_RULE = "svo"
"""The rule of an ending of a kind (:data:`KIND_STATES`): a plain negated statement."""


GROUP_NOUNS = frozenset("""
    group team club band society association organization organisation company firm
    community network collective choir league crew circle chapter committee
    """.split())
"""Nouns that classify a named group after its name ("the Riverside Runners club"): the name
with or without them names one group."""


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
            w in NAME_ADJECTIVES for w in a[:-1]):
        return True  # ("sold the old Honda" / "drives a 2009 Honda Civic")
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


def _rows(data: Mapping, source: str) -> StateChanges:
    endings: dict[str, list[Ending]] = {}
    results: dict[str, list[str]] = {}
    for i, row in enumerate(data.get("ends", [])):
        try:
            predicates, states = list(row["predicates"]), tuple(row["states"])
        except (KeyError, TypeError) as err:
            raise StateChangeTableError(source, f"[[ends]] needs predicates and states ({err})",
                                        i) from err
        if not all(isinstance(x, str) and x for x in [*predicates, *states]):
            raise StateChangeTableError(source, "predicates and states must be non-empty "
                                        "strings", i)
        requires = frozenset(row.get("requires", ()))
        for predicate in predicates:
            endings.setdefault(predicate, []).append(
                Ending(predicate, states, requires, str(row.get("class", ""))))
    for i, row in enumerate(data.get("results", [])):
        try:
            predicates, state = list(row["predicates"]), row["state"]
        except (KeyError, TypeError) as err:
            raise StateChangeTableError(source, f"[[results]] needs predicates and state "
                                        f"({err})", i) from err
        if not isinstance(state, str) or not state:
            raise StateChangeTableError(source, "state must be a non-empty string", i)
        for predicate in predicates:
            results.setdefault(predicate, []).append(state)
    possessed: dict[str, list[str]] = {}
    states: dict[str, list[tuple[str, str]]] = {}
    for section, target in (("ends_possessed", possessed), ("ends_state", states)):
        for i, row in enumerate(data.get(section, [])):
            try:
                predicates, ended = list(row["predicates"]), list(row["states"])
            except (KeyError, TypeError) as err:
                raise StateChangeTableError(source, f"[[{section}]] needs predicates and "
                                            f"states ({err})", i) from err
            for predicate in predicates:
                for state in ended:
                    if section == "ends_state":
                        # "be marry" -> ("be", "marry"); a known relation without object
                        # ("live in") ends every value of it
                        relation, obj = (str(state), "") if str(state) in _OBJECTLESS else \
                            str(state).partition(" ")[::2]
                        if not relation:
                            raise StateChangeTableError(
                                source, f"[[ends_state]] state {state!r} is empty", i)
                        target.setdefault(predicate, []).append((relation, obj))
                    else:
                        target.setdefault(predicate, []).append(str(state))
    nominals: dict[str, list[str]] = {}
    for i, row in enumerate(data.get("ends_nominal", [])):
        try:
            nouns, named = list(row["nouns"]), list(row["states"])
        except (KeyError, TypeError) as err:
            raise StateChangeTableError(source, f"[[ends_nominal]] needs nouns and states "
                                        f"({err})", i) from err
        if not all(isinstance(x, str) and x for x in [*nouns, *named]):
            raise StateChangeTableError(source, "nouns and states must be non-empty strings", i)
        for noun in nouns:
            nominals.setdefault(noun, []).extend(named)
    idioms = data.get("idioms", {})
    if not isinstance(idioms, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in idioms.items()):
        raise StateChangeTableError(source, "[idioms] maps phrases to relation names")
    return StateChanges({k: tuple(v) for k, v in endings.items()},
                        {k: tuple(dict.fromkeys(v)) for k, v in results.items()},
                        {k: tuple(dict.fromkeys(v)) for k, v in possessed.items()},
                        {k: tuple(dict.fromkeys(v)) for k, v in states.items()},
                        dict(idioms),
                        {k: tuple(dict.fromkeys(v)) for k, v in nominals.items()})


@functools.lru_cache(maxsize=1)
def default_state_changes() -> StateChanges:
    """The shipped table (``extractors/data/state_changes.toml``)."""
    text = resources.files("extractors.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return _rows(tomllib.loads(text), "<package>/" + DATA_FILE)


def load_state_changes(path: str | Path | None = None) -> StateChanges:
    """The shipped table, plus the rows of ``path`` when given.

    Raises:
        StateChangeTableError: ``path`` cannot be read or parsed, or a row is malformed (the
            message names the file and the row).
    """
    table = default_state_changes()
    if path is None:
        return table
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise StateChangeTableError(str(path), f"cannot read: {err}") from err
    return table.merged(_rows(data, str(path)))
