"""Detection: which records of one key cannot both be true, and which are restatements.

SPEC §2 decides what is a contradiction:

* ``polarity``: the same ``(subject, relation, object)`` asserted by one record and denied by
  the other ("likes coffee" / "doesn't like coffee anymore"), whatever the relation's
  cardinality;
* ``value_mismatch``: two disjoint sets of values for a *functional* relation; for a relation of
  unknown cardinality stated as an attribute noun ("Joanna's favourite genres are ...") or
  matched by similarity the pair is a ``possible`` conflict (never auto-resolved); a verb
  outside the tables ("finds", "appreciates") and a multi-valued relation give nothing;
* restatements (equal canonical triples, or equal normalised text) are duplicates; a proper
  name and its short form are one value ("Lena" / "Lena Fischer": :mod:`scanner.core.names`).

Pairs are found through per-object indexes inside each key group, so the cost follows the
number of conflicting pairs, not the square of the group size. Embedding similarity plays no
part in any of these decisions (SPEC §2, last line).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from extractors import DEFAULT_TABLE, Cardinality, RelationTable
from extractors.change_cues import marks_change
from extractors.constructions.attribute_values import (COMPLEMENT_RELATIONS, NOUN_ATTRIBUTES,
                                                       complement)
from extractors.clause_frames import CONDITIONED, FUTURE
from extractors.constructions.settings import RESTRICTION_OPENINGS
from extractors.relations import HYPERNYMS, is_kind_of
from extractors.referents import (GROUP_NOUNS, INSTITUTION_HEADS, INSTITUTION_WORDS,
                                  institution_name, same_group_name, same_referent)
from extractors.state_changes import CARRIER_NOUNS
from scanner.core.circumstance_names import named_by_circumstance
from scanner.core.experience import ever_denied
from scanner.core.keys import Assertion, GroupKey
from scanner.core.named_referents import make_of_model, model_of, workplace_of
from scanner.core.names import agree_by_name, contested_names, name_denials
from scanner.core.quantities import one_amount, written_values
from scanner.core.refinements import refined_kind, refined_name
from scanner.core.routines import lapsed_routine
from scanner.core.stances import Stance, stances  # noqa: F401 - stances: re-exported
from scanner.core.judgment import Judgment


@dataclass(frozen=True, slots=True)
class CandidatePair:
    """Two records of one key that conflict, before any policy is applied."""

    key: GroupKey
    kind: str  # "value_mismatch" | "polarity"
    a: Stance
    b: Stance
    cardinality: Cardinality
    subject_unconfirmed: bool = False
    other_key: GroupKey | None = field(default=None)
    found_by: str = "key"
    """What put the pair together: ``key`` (one key's stances), ``never`` (a denial of any
    time and a report of the same thing, :mod:`scanner.core.never`), ``named`` (a named thing
    changed, :mod:`scanner.core.named_changes`) ``valued`` (a typed value changed in other
    words, :mod:`scanner.core.value_changes`) or ``noted`` (a note's value given again,
    :mod:`scanner.core.value_notes`)."""
    evidence: float = 0.0
    """How much the finder's structure ties the two memories, for choosing among a finder's
    pairs of one memory: for ``never``, the inverse document frequencies of the words both
    memories say, plus :data:`scanner.core.never.SAME_ACT` when the report is of the denied act
    (:func:`scanner.core.never.never_pairs`)."""
    judgment: Judgment | None = field(default=None)
    """The pair judge's reading of the two memories (:mod:`scanner.pair_judge`), filled in by
    :func:`scanner.scan.scan_records` when a judge is configured; None = not judged."""

    @property
    def similarity_matched(self) -> bool:
        """True when either side's relation came from embedding similarity alone."""
        return self.a.similar or self.b.similar

    @property
    def ids(self) -> tuple[str, str]:
        """Member ids, sorted."""
        return (self.a.record.id, self.b.record.id)


PAST = "past"
"""The time qualifier of a completed past state ("worked at X for three years before ..."); with
the times that bound it, it is their prefix ("past 2015 2018")."""


def _past(time: str | None) -> bool:
    return time is not None and (time == PAST or time.startswith(PAST + " "))


def _future(time: str | None) -> bool:
    return time is not None and (time == FUTURE or time.startswith(FUTURE + " "))




def _conditioned(time: str | None) -> bool:
    return time is not None and time.startswith(CONDITIONED + " ")


_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


def _backstory(later: Stance, earlier: Stance) -> bool:
    """Whether ``later``, observed after ``earlier``, only asserts what a dated event left
    behind in a year before ``earlier`` was observed ("Back in 2009 I moved to Chicago", told
    after "I live in Portland" was stored in 2026): it tells what held then, not what holds
    since; the later observation of the other state is the newer fact. A dated ending still
    denies ("left Acme in 2024": a denial, the stance is not only asserting)."""
    seen, before = later.record.observed_at, earlier.record.observed_at
    if (later.time is None or seen is None or before is None or seen <= before
            or later.denied or not later.asserted):
        return False
    years = [int(y) for y in _YEAR.findall(later.time)]
    return bool(years) and max(years) < before.year


_WORD = re.compile(r"[^\W_]+")


def _stated_under(restricted: Stance, other: Stance) -> bool:
    """Whether ``other``'s memory, which carries no time, says every word of the
    circumstance of ``restricted``'s denial (``"when on friday"``) itself: "I eat meat on
    Fridays" is stated under the circumstance that "I don't eat meat on Fridays anymore"
    denies (the extractor keeps a restriction as a qualifier on denials only,
    :mod:`extractors.negation_focus`; an asserted spell, "lived in Tokyo for a year", is no
    such denial)."""
    time = restricted.time
    if not _conditioned(time) or restricted.asserted or not restricted.denied:
        return False
    words = set(_WORD.findall(other.record.text.lower()))
    words |= {w[:-1] for w in words if w.endswith("s")}
    wanted = time.removeprefix(CONDITIONED + " ").split()
    return bool(wanted) and all(w in words for w in wanted)


def picked_out(denier: Stance, obj: str, holder: Stance) -> bool:
    """Whether ``holder``'s memory can be about the thing ``denier`` ended as ``obj``: always,
    unless a restrictive modifier picked that thing out of its kind ("sold the laptop I used
    at university", "got rid of my racing bike": :mod:`extractors.constructions.particulars`);
    then only when the memory says the modifier's words too ("has a trophy from a dance
    contest" / "gave her dance contest trophy away"), never a statement of the kind as such
    ("has a laptop")."""
    if not denier.particular:
        return True
    wanted = next((w for o, w in denier.particular if o == obj), None)
    if wanted is None:
        return True
    words = set(_WORD.findall(_phrase_of(holder.record.text.lower(), obj)))
    words |= {w[:-1] for w in words if w.endswith("s")}
    return all(w in words or w.removesuffix("s") in words for w in wanted.split())


_PHRASE_BREAKS = re.compile(r"[,;.!?:()]|\b(?:and|but|or|plus|as well as)\b")
"""Where a coordinated or separate phrase begins (Quirk et al. 1985 §13.1 on coordination):
"a laptop and a college degree" holds two things, each with its own modifiers."""


def _phrase_of(text: str, obj: str) -> str:
    """The stretch of ``text`` between coordinators and punctuation that names ``obj``'s head
    noun ("I have a gaming chair and a laptop" -> "a laptop"): a modifier stated of another
    coordinated thing is none of this one's. The whole text when no stretch names it."""
    head = obj.rsplit(" ", 1)[-1]
    stretches = [p for p in _PHRASE_BREAKS.split(text) if p and any(
        w in (head, head + "s", head + "es") for w in _WORD.findall(p))]
    return " ".join(stretches) if stretches else text


def _one_circumstance(p: str, q: str) -> bool:
    """Whether a restricted statement (``"when on saturdays"``: a "when" clause, or a denial
    whose focus is a time, :mod:`extractors.negation_focus`) and a plain time (``"saturday
    morning"``) name one circumstance: the words of one are among the other's ("no longer
    volunteers there on Saturdays" / "volunteers there every Saturday morning"): the
    restricted one's words are among the plain time's ("didn't swim this week" names one
    week, not "every week")."""
    if _conditioned(p) == _conditioned(q) or _past(p) or _past(q) or _future(p) or _future(q):
        return False
    restricted, plain = (p, q) if _conditioned(p) else (q, p)
    return set(restricted.removeprefix(CONDITIONED + " ").split()) <= set(plain.split())


def denies(denier: Stance, obj: str, holder: Stance, held: str) -> bool:
    """Whether ``denier``'s denial of ``obj`` denies ``holder``'s assertion of ``held``.

    * equal objects;
    * an outright denial of an intransitive predicate denies every object of the key:
      "doesn't smoke anymore" / "smokes half a pack a day" (not a light verb's, whose missing
      object is more likely an object the extractor could not read);
    * an object a state change ended, with a stated object of the same referent
      (:func:`extractors.referents.same_referent`);
    * otherwise a denial of the more general thing denies the more specific one (same head
      noun, the denied words among the stated ones, an "of" phrase read before its noun:
      :func:`_of_phrase_first`): "doesn't take the bus" denies "takes the
      14 bus", but "doesn't like red wine" does not deny "likes wine"; the thing may be
      named by its hypernym ("doesn't drink alcohol" denies "drinks red wine":
      :data:`extractors.relations.HYPERNYMS`).
    """
    if not picked_out(denier, obj, holder):
        return False  # "sold the laptop I used at university" / "has a laptop"
    if obj == held:
        return True
    if not held:
        return False
    if not obj:
        return denier.bare
    if obj in denier.ended:  # (or a make alone: "sold the kia" / "a 2016 kia rio")
        return same_referent(obj, held, stated_plural=held in holder.plural,
                             ended_plural=obj in denier.plural, ended_name=obj in denier.named
                             ) or make_of_model(obj, held, holder.asserted) or model_of(
                                 obj, held, holder.asserted) or (
                                 obj in denier.quits and workplace_of(obj, held)
                                 ) or named_by_circumstance(  # "the tuesday footy"
                                     obj, held, _phrase_of(holder.record.text, held))
    if same_group_name(obj, held):  # "the Riverside Runners club" / "Riverside Runners"
        return True
    if is_kind_of(obj, held):  # "not adopt another dog" / "adopting a new pup"
        return True
    a, b = obj.split(), _of_phrase_first(held).split()
    return a[-1] == b[-1] and set(a) <= set(b)


def _of_phrase_first(value: str) -> str:
    """A noun with one "of" phrase written with the phrase before it ("treasurer of book
    club" -> "book club treasurer"): the postmodifying of-phrase and the premodifying noun
    name one thing (Quirk et al. 1985, §17.108), so a denial of the one meets the other."""
    head, sep, rest = value.partition(" of ")
    if not sep or " of " in rest or not head or len(head.split()) > 2:
        return value
    return f"{rest} {head}"


def contested(x: Stance, y: Stance) -> set[str]:
    """The objects one stance denies of what the other asserts (:func:`denies`), named by the
    denied object."""
    out = {o for o in x.asserted & y.denied if picked_out(y, o, x)} | {
        o for o in x.denied & y.asserted if picked_out(x, o, y)}
    for denier, holder in ((x, y), (y, x)):
        for obj in denier.denied:
            if obj not in out and any(denies(denier, obj, holder, held)
                                      for held in holder.asserted):
                out.add(obj)
    out |= contested_names(x, y)  # "is no longer Lena" / "is Lena Fischer"
    return out


def pairs_in_group(key: GroupKey, assertions: Sequence[Assertion], table: RelationTable,
                   *, other: Sequence[Assertion] = (), other_key: GroupKey | None = None
                   ) -> list[CandidatePair]:
    """Conflicting pairs among the records of one key group.

    Args:
        key: the group's key.
        assertions: the group's assertions.
        table: relation cardinalities.
        other: assertions of a short-form key (:mod:`scanner.short_forms`); when given, only
            pairs that cross the two groups are returned and each is marked
            ``subject_unconfirmed``.
        other_key: the key of ``other``.

    Returns:
        Candidate pairs sorted by member ids; at most one per record pair (a pair that is
        both a value mismatch and a polarity conflict is reported as ``value_mismatch``).
    """
    left = stances(assertions)
    crossing = bool(other)
    side: dict[str, int] = {}
    everyone = left
    if crossing:
        right = stances(other)
        side = {s.record.id: 0 for s in left}
        everyone = left + [s for s in right if s.record.id not in side]
        side.update({s.record.id: 1 for s in right if s.record.id not in side})
    cardinality = _group_cardinality(key, everyone, table)
    found: dict[tuple[str, str], CandidatePair] = {}

    def add(x: Stance, y: Stance, kind: str) -> None:
        if not _comparable(x, y) or (crossing and side[x.record.id] == side[y.record.id]):
            return
        if key.relation in COMPLEMENT_RELATIONS:
            named = complement(key.relation, x.record.text), complement(key.relation,
                                                                        y.record.text)
            if named[0] != named[1]:
                return  # "prefer JWT over cookies" / "prefer Socket.io over channels"
            if named[0] is None and kind == "value_mismatch" and not (
                    x.attribute or y.attribute or _one_kind(x, y)) and \
                    not _later_marks_change(x, y):
                return  # "I prefer fiction" / "I prefer audiobooks": which choice, unsaid
        if kind == "value_mismatch" and _TYPED.search(key.relation) and \
                not _later_changed(x, y):
            return  # "noting a 10% failure rate" / "observing 7%": two episodes
        a, b = (x, y) if x.record.id < y.record.id else (y, x)
        pair_id = (a.record.id, b.record.id)
        prev = found.get(pair_id)
        if prev is not None and (prev.kind == "value_mismatch" or kind == "polarity"):
            return
        found[pair_id] = CandidatePair(key, kind, a, b, cardinality, crossing, other_key)

    for denier, holder in _polarity_pairs(everyone):
        add(denier, holder, "polarity")
    if cardinality is not Cardinality.multi_valued:
        for x, y in _mismatch_pairs(everyone):
            add(x, y, "value_mismatch")
    return [found[k] for k in sorted(found)]


_TYPED = re.compile(r" \((?:amount|percentage|date|time|number|[^()\s]+)\)$")
"""The spelling of a typed value's relation (rule ``attribute_value``: "snack budget
(amount)"), which no other rule uses."""


def _later(x: Stance, y: Stance) -> Stance | None:
    """The stance observed later, or None when the time of either is unknown or equal."""
    p, q = x.record.observed_at, y.record.observed_at
    if p is None or q is None or p == q:
        return None
    return y if q > p else x


def _one_kind(x: Stance, y: Stance) -> bool:
    """Whether the two stances' objects name one kind of thing by a shared head noun that a
    value modifies ("monthly billing payment terms" / "milestone-based payment terms"): the
    head names the attribute the choice is of (Quirk et al. 1985 §17.4 on the head of a noun
    phrase and its premodifiers)."""
    heads = [{v.rsplit(" ", 1)[-1] for v in s.asserted if " " in v} | _closing_noun(s)
             for s in (x, y)]
    if heads[0] & heads[1]:
        return True
    ends = [_PURPOSE.search(s.record.text) for s in (x, y)]
    return all(ends) and ends[0].group(1).lower() == ends[1].group(1).lower()


def _closing_noun(stance: Stance) -> set[str]:
    """The last word of a short memory (ten words or fewer), singular: the head of the object
    when a preference is the whole memory ("Prefer remote with monthly onsite work
    arrangement"), whatever the parse made of its premodifiers."""
    words = re.findall(r"[A-Za-z][\w-]*", stance.record.text)
    if not words or len(words) > 10:
        return set()
    last = words[-1].lower()
    return {last[:-1] if last.endswith("s") and not last.endswith("ss") else last}


_PURPOSE = re.compile(r"\bfor\s+((?:this|that|the|my|our|all|every)?\s*[\w-]+(?:\s+[\w-]+)?)"
                      r"\s*[.!]?\s*$", re.IGNORECASE)
"""A closing "for ..." adjunct that says what a choice is for ("… for this project", "… for
code reviews"; FrameNet 1.7 Preference, non-core FE Purpose): two choices for one purpose
name one attribute."""


def _later_marks_change(x: Stance, y: Stance) -> bool:
    """Whether the later memory says that something changed (:mod:`extractors.change_cues`),
    or its reading marks a change (issue 37: an attribute the key cannot name decides only
    on a marked change)."""
    later = _later(x, y)
    return later is not None and (later.changed or marks_change(later.record.text))


def _later_changed(x: Stance, y: Stance) -> bool:
    """Whether the later stance's reading is the result of a change or the state now (a
    typed value under a change or reaching verb, or with "now": qualifier ``change``); True
    when neither is later (two sources at one time: the policy quarantines them)."""
    later = _later(x, y)
    return later is None or later.changed


def _group_cardinality(key: GroupKey, everyone: Sequence[Stance],
                       table: RelationTable) -> Cardinality:
    """The key's cardinality as the table gives it; a verb outside the tables ("find",
    "appreciate", "explore") holds many values: only an attribute noun presupposes one value
    (the definite description of the module docstring of extractors.relations), and a
    similarity match asks for a look."""
    attribute = any(s.attribute for s in everyone)
    if key.relation in NOUN_ATTRIBUTES and not attribute and key.relation not in \
            table.functional - DEFAULT_TABLE.functional:
        return Cardinality.multi_valued  # "limiting containers to 2GB": no attribute named
    if table.all_functional and all(s.inverse for s in everyone):
        # every relation declared one-valued declares the stated ones, not their inverse
        # readings ("Vienna is the capital of" two territories; a developer of two products)
        table = replace(table, all_functional=False)
    cardinality = table.cardinality(key.relation, attribute=attribute)
    if cardinality is Cardinality.unknown and not any(s.shaped or s.similar for s in everyone):
        return Cardinality.multi_valued
    return cardinality


def _comparable(x: Stance, y: Stance) -> bool:
    """Whether two stances can conflict at all. Statements about two different places ("on
    rack 4" / "on rack 5") or two different times ("on Fridays" / "on Mondays") never
    conflict, nor a completed past with the present, nor records of two scopes (compared as
    the scope's fields, user, group and properties: no Scope objects for the 4,568 calls of
    a 10k re-scan)."""
    rx, ry = x.record, y.record
    if rx.id == ry.id:
        return False
    if (x.generic or y.generic) and not _generic_meets(x, y):
        return False
    p, q = x.place, y.place
    if p is not None and q is not None and p != q:
        return False
    if (p is None) != (q is None) and _later_exception(x, y):
        return False
    p, q = x.time, y.time
    if (p is not None and q is not None and p != q and not _one_circumstance(p, q)
            and not lapsed_routine(x, y)):
        return False
    if _past(p) != _past(q) and not (ever_denied(x, _past(q)) or ever_denied(y, _past(p))):
        return False  # "worked at Amazon for three years before joining Shopify"
    if _future(p) != _future(q):
        return False  # "will work at Globex" leaves "works at Acme" standing
    if _conditioned(p) != _conditioned(q) and (p is None or q is None) and not (
            _stated_under(x, y) if q is None else _stated_under(y, x)):
        return False  # "prefers larger fonts when reading on mobile" / "prefers dark mode"
    if _backstory(x, y) or _backstory(y, x):
        return False  # "Back in 2009 I moved to Chicago", said after "I live in Portland"
    return rx.user_id == ry.user_id and rx.group == ry.group and rx.properties == ry.properties


def _later_exception(x: Stance, y: Stance) -> bool:
    """Whether the one of two stances that a phrase after its value restricts ("was set to
    English for the demo account", "is 14 in the editor": place ``"for …"``, ``"in …"``,
    ``"on …"`` from ``SettingRules._restrictions``) is observed
    after the unrestricted one: a later exception leaves the general value standing, while a
    later general value replaces an earlier restricted one ("the preferred glaze is celadon
    for everyday bowls", then "the preferred glaze is tenmoku")."""
    restricted, general = (x, y) if x.place is not None else (y, x)
    if not restricted.place.startswith(tuple(f"{p} " for p in RESTRICTION_OPENINGS)):
        return False
    seen, before = restricted.record.observed_at, general.record.observed_at
    return seen is not None and before is not None and seen > before


def _generic_meets(x: Stance, y: Stance) -> bool:
    """Whether a generic reading meets the other stance: only a literal statement of the
    generic attribute that marks its value as a change and is observed later ("Caroline's
    favourite guiding book is X", then "Actually, Caroline's favourite book is now Y"). Two
    generic readings never meet ("favourite sci-fi book" / "favourite fantasy book"), nor an
    unmarked one ("favourite Italian restaurant is Lupo" / "favourite restaurant is Nobu" can
    both hold). A reading that drops a classifier noun ("favourite movie genres" as
    "favourite movies") meets only a set of kinds ("her favourite films these days are
    documentaries"), never one title."""
    if x.generic == y.generic:
        return False
    literal, generic = (y, x) if x.generic else (x, y)
    if generic.kinds and not literal.in_set:
        return False  # "favourite movie genre: drama" / "favourite movie is now Heat"
    seen, before = literal.record.observed_at, generic.record.observed_at
    return literal.changed and seen is not None and before is not None and seen > before


HYPONYMS: dict[str, tuple[str, ...]] = {
    general: tuple(sorted(k for k, g in HYPERNYMS.items() if g == general))
    for general in set(HYPERNYMS.values())}
"""The kinds :data:`extractors.relations.HYPERNYMS` names under each hypernym."""


def _polarity_pairs(everyone: Sequence[Stance]) -> Iterator[tuple[Stance, Stance]]:
    """``(denier, holder)``: one asserts what the other denies (index by object), then the
    denials that name their thing more or less fully than the statement they deny (see
    :func:`denies`)."""
    asserting: dict[str, list[Stance]] = defaultdict(list)
    for s in everyone:
        for obj in s.asserted:
            asserting[obj].append(s)
    for s in everyone:
        for obj in s.denied:
            for t in asserting.get(obj, ()):
                if picked_out(s, obj, t):
                    yield s, t
    if not any(s.denied for s in everyone):
        return
    yield from name_denials(everyone, asserting)  # "is no longer Lena" / "is Lena Fischer"
    # "doesn't take the bus" / "takes the 14 bus", "sold her LeBron-signed basketball" /
    # "owns a basketball", "doesn't smoke" / "smokes half a pack"
    by_head: dict[str, list[str]] = defaultdict(list)
    for held in asserting:
        if held:
            by_head[held.rsplit(" ", 1)[-1]].append(held)
            if " of " in held:  # "secretary of the allotment society": a role's head too
                by_head[held.split(" of ", 1)[0].rsplit(" ", 1)[-1]].append(held)
    for s in everyone:
        for obj in s.denied:
            for held in _denial_candidates(s, obj, asserting, by_head):
                if held == obj:
                    continue
                for t in asserting[held]:
                    if denies(s, obj, t, held):
                        yield s, t


def _denial_candidates(denier: Stance, obj: str, asserting: Mapping[str, list[Stance]],
                       by_head: Mapping[str, list[str]]) -> list[str]:
    """Asserted objects a denial of ``obj`` may deny (:func:`denies` decides): those of the
    same head; for a group name, the name without its group noun ("the X club" / "X"); a
    stated object whose head is a carrier noun after the denied head ("dropped pottery" /
    "goes to a pottery class"); for a denied name, the objects it qualifies ("decided against
    Marley" / "Marley flooring"). A bare denial may deny every object."""
    if not obj:
        return [h for hs in by_head.values() for h in hs]
    words = obj.split()
    candidates = list(by_head.get(words[-1], ()))
    candidates += [h for kind in HYPONYMS.get(words[-1], ()) for h in by_head.get(kind, ())]
    if len(words) > 1 and words[-1] in GROUP_NOUNS:
        candidates += by_head.get(words[-2], ())
    candidates += [h for noun in CARRIER_NOUNS for h in by_head.get(noun, ())
                   if h.split()[-2:-1] == words[-1:]]
    name = institution_name(obj)
    if name:
        # an institution named with its school: "graduated from Carrow Law" / "studies at
        # Carrow", "… at Carrow University"
        candidates += [h for w in (name[-1], *INSTITUTION_WORDS) for h in by_head.get(w, ())]
    # a school's name without its head noun: "graduated from Ridgeway High" / "goes to
    # Ridgeway High School"
    candidates += [h for w in INSTITUTION_HEADS for h in by_head.get(w, ())
                   if h.startswith(obj + " ")]
    if obj in denier.named:
        # (the name is the last word: "sold the old Honda" / "drives a 2009 Honda Civic")
        candidates += [h for h in asserting if words[-1] in h.split()[:-1]]
    elif obj in denier.ended and len(words) == 1:  # a make: "sold the kia" / "2016 kia rio"
        candidates += [h for h in asserting if h.split()[1:2] == words]
    if obj in denier.quits:  # a firm and its site: "quit Harbour Mills" / "… Mills depot"
        candidates += [h for h in asserting if workplace_of(obj, h)]
    return candidates


def _mismatch_pairs(everyone: Sequence[Stance]) -> Iterator[tuple[Stance, Stance]]:
    """Pairs whose asserted values are disjoint (for a functional relation, or an unknown
    one whose conflicts are ``possible``), do not name one thing under two spellings of a
    name (:func:`scanner.core.names.agree_by_name`) and are not one amount written in two
    units or per two periods (:func:`scanner.core.quantities.one_amount`), nor one name and
    the same name narrowed (:func:`scanner.core.refinements.refined_name`), nor one common noun
    and the same noun premodified (:func:`scanner.core.refinements.refined_kind`), nor a value
    asserted in addition to others ("also works at a bar": ``Stance.additive``)."""
    by_values: dict[frozenset[str], list[Stance]] = defaultdict(list)
    for s in everyone:
        values = frozenset(v for v in s.asserted if v)
        if values:
            by_values[values].append(s)
    clusters = list(by_values.items())
    for i, (va, sa) in enumerate(clusters):
        for vb, sb in clusters[i + 1:]:
            if va & vb or any(_written_more_fully(a, b) or _one_word_form(a, b)
                              for a in va for b in vb):
                continue
            for x in sa:
                for y in sb:
                    if not agree_by_name(x, y) and not _one_amount(x, va, y, vb) \
                            and not refined_name(x, y) and not refined_kind(x, y) \
                            and not (x.additive or y.additive):  # ("also works at a bar")
                        yield x, y  # ("Lena" / "Lena Fischer": one person)


def _one_amount(x: Stance, va: frozenset[str], y: Stance, vb: frozenset[str]) -> bool:
    """Whether two stances' values may be one amount ("5'10\"" / "178 cm"), compared only
    when a value has a digit (:mod:`scanner.core.quantities`)."""
    if not any(c.isdigit() for v in va for c in v) or not any(
            c.isdigit() for v in vb for c in v):
        return False
    return one_amount(written_values(va, x.written or {}), written_values(vb, y.written or {}),
                      x.record.text, y.record.text)


def _written_more_fully(a: str, b: str) -> bool:
    """Whether one value is the other written out further: a code with a qualifier after a
    separator ("db-stg-02" / "db-stg-02.internal", "gpt-4o" / "gpt-4o-2024-08-06"), or a
    title and surname with the given name added ("dr lloyd jones" / "dr sarah lloyd jones").
    Either may name the same thing, so the two are no value mismatch."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if long_.startswith(short) and long_[len(short):len(short) + 1] in (".", "-", "_", "/", ":"):
        return any(ch.isdigit() for ch in short) or "-" in short or "_" in short
    ws, wl = short.split(), long_.split()
    # (a title and surname, then the title, given name and surname: "Dr Lloyd-Jones")
    return 1 < len(ws) < len(wl) and ws[0] == wl[0] and ws[0].rstrip(".") in _TITLES and \
        wl[len(wl) - len(ws) + 1:] == ws[1:]


def _one_word_form(a: str, b: str) -> bool:
    """Whether two values differ only in an "-s" / "-es" / "-ies" ending of their last word:
    a name the lemmatizer read as a plural in lower case ("queens" / "queen" for Queens), or a
    noun in its two numbers ("cat" / "cats"). Either may name the same thing, so the two are no
    value mismatch (inflectional "-s", Quirk et al. 1985 §5.79)."""
    wa, wb = a.split(), b.split()
    if len(wa) != len(wb) or not wa or wa[:-1] != wb[:-1]:
        return False
    x, y = sorted((wa[-1], wb[-1]), key=len)
    return len(x) >= 3 and (y in (x + "s", x + "es") or x.endswith("y") and y == x[:-1] + "ies")


_TITLES = frozenset({"dr", "doctor", "prof", "professor", "mr", "mrs", "ms", "miss", "mx",
                     "sir", "dame", "rev", "father", "sister", "coach", "judge"})
"""Titles before a surname, which a name written in full keeps."""
