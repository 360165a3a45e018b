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
state as an affirmed triple with rule ``state_result``. This module holds the table (its rows,
their loading and merging, :class:`StateChanges`) and the derivation; detection matches a
``state_change`` object with a stated object of the same referent
(:func:`extractors.referents.same_referent`), and the denials a diet or abstinence state
implies are :mod:`extractors.implied_denials`.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from extractors.errors import ExtractorError
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

DENIED_RULE = "svo"
"""The rule of an ending of a kind (:data:`KIND_STATES`): a plain negated statement."""


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
