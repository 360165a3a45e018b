"""A pet's death (extractors.constructions.pet_deaths, scanner.core.pet_endings): sentence ->
triples, and earlier/later pairs -> verdict, with look-alikes that must decide nothing."""

from __future__ import annotations

import pytest

from extractors import Triple
from scanner.core.keys import group_by_key
from scanner.core.pet_endings import with_pet_endings
from scanner.models import MemoryRecord
from tests.unit.test_state_changes import pair_tables

U = "user"

HAS = [
    # a name said before "the" and the pet noun is the one that died (Quirk et al. §17.65)
    ("Noodle the corgi passed away.", ("noodle", "pass away", "", False)),
    ("Unfortunately, Pebble the tortoise died over the winter.", ("pebble", "die", "", False)),
    # a possessed pet whose name the parser made the head ("the user's rabbit Dot")
    ("The user's rabbit Dot died last spring and they have no pets now.",
     (U, "have", "dot", True)),
    ("The user's rabbit Dot died last spring and they have no pets now.",
     (U, "have", "rabbit", True)),
    # euthanasia: the animal's state, and its owner's loss when the owner is said
    ("We had to put Mango down on Thursday.", ("mango", "be euthanize", "", False)),
    ("we had to put mango down on thursday", ("mango", "be euthanize", "", False)),
    ("We had Mango put to sleep last week.", ("mango", "be euthanize", "", False)),
    ("The vet euthanized Mango in May.", ("mango", "be euthanize", "", False)),
    ("I had to put my old beagle down.", (U, "have", "old beagle", True)),
    ("My hamster was put to sleep.", (U, "have", "hamster", True)),
    # "our" pet is the household's, the user's too
    ("Our old spaniel died last week.", (U, "have", "old spaniel", True)),
    ("We had to put our cat to sleep.", (U, "have", "cat", True)),
]

HAS_NOT = [
    ("Noodle the corgi passed away.", "corgi"),  # the noun is no subject of its own
    ("I put down the phone.", "phone"),
    ("I put the kettle down on the stove.", "kettle"),
    ("My manager keeps putting Ines down.", "ines"),
    ("Ines was put down by her classmates.", "ines"),
    ("I picked Mango up and put Mango down.", "mango"),
    ("We might have to put Mango down.", "mango"),
    ("I put the toddler to sleep.", "toddler"),
    ("I put Mango down for the night.", "mango"),
    ("I put Mango to sleep at 8pm.", "mango"),
    ("I always put Mango down after dinner.", "mango"),
]
"""(sentence, subject that must have no death or euthanasia triple)."""

def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "fact"), HAS)
def test_reading(extractor, text, fact):
    assert fact in facts(extractor, text)


@pytest.mark.parametrize(("text", "subject"), HAS_NOT)
def test_no_death_read(extractor, text, subject):
    assert not [f for f in facts(extractor, text) if f[0] == subject and f[1] in (
        "die", "pass away", "be euthanize")]


RESOLVED = [
    ("Has a corgi named Noodle.", "Noodle the corgi passed away."),
    ("I have a tortoise called Pebble.", "Sadly, Pebble the tortoise died over the winter."),
    ("I have a beagle named Mango.", "We had to put Mango down on Thursday."),
    ("I have a beagle named Mango.", "We had Mango put to sleep last week."),
    ("My beagle Mango is 13 and slowing down.", "had to put Mango down this morning, so quiet"),
    ("my beagle Mango is 13 and slowing down", "we had to put mango down on thursday."),
    ("The user has a cocker spaniel named Fern.", "The user's dog Fern died in the summer."),
    ("I have a ginger cat.", "The vet put our cat down on Friday."),
]

LOOK_ALIKES = [
    # the name may be a person's: only a memory that says the animal ends the pet
    ("Has a corgi named Noodle.", "Noodle passed away last week."),
    ("Has a nephew named Noodle.", "Noodle the corgi passed away."),
    ("I have a beagle named Mango.", "I put Mango down on the sofa."),
    ("I have a beagle named Mango.", "My boss always puts Mango down."),
    ("I have a beagle named Mango.", "We may have to put Mango down soon."),
    ("I have a phone.", "I put down the phone."),
    ("I have a ginger cat.", "Our neighbour's cat died."),
    ("I have a ginger cat.", "Our cat might have to be put down."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


def rec(rid: str, text: str, user: str = "u1") -> MemoryRecord:
    return MemoryRecord(id=rid, text=text, user_id=user)


def test_a_death_reaches_the_one_owner_of_a_pet_of_that_name():
    has = [Triple(U, "have", "ferret", rule="svo"), Triple(U, "have", "nugget", rule="svo")]
    death = Triple("nugget", "die", "", rule="state", qualifiers=(("pet", "ferret"),))
    groups = group_by_key([(rec("a", "Has a ferret named Nugget."), has),
                           (rec("b", "Nugget the ferret died."), [death]),
                           (rec("c", "Has a ferret named Nugget.", "u2"), has)])
    out = with_pet_endings(groups)
    mine = next(k for k in out if k.relation == "have" and k.scope.user_id == "u1")
    added = {(a.triple.object, a.triple.negated, a.triple.rule) for a in out[mine][2:]}
    assert added == {("nugget", True, "state_change"), ("ferret", True, "state_change")}
    theirs = next(k for k in out if k.relation == "have" and k.scope.user_id == "u2")
    assert len(out[theirs]) == 2 and len(groups[mine]) == 2  # other users, input unchanged


@pytest.mark.parametrize(("old", "death"), [
    # no pet qualifier: "Nugget died" may be a person's death
    ("Has a ferret named Nugget.", Triple("nugget", "die", "", rule="state")),
    # the name given to no pet
    ("Has a friend named Nugget.", Triple("nugget", "die", "", rule="state",
                                          qualifiers=(("pet", "ferret"),))),
])
def test_a_death_not_known_as_a_pets_ends_nothing(old, death):
    has = [Triple(U, "have", "friend" if "friend" in old else "ferret", rule="svo"),
           Triple(U, "have", "nugget", rule="svo")]
    groups = group_by_key([(rec("a", old), has), (rec("b", "…"), [death])])
    assert with_pet_endings(groups) == groups


def test_two_owners_of_one_name_end_nothing():
    has = [Triple(U, "have", "ferret", rule="svo"), Triple(U, "have", "nugget", rule="svo")]
    hers = [Triple("ada", "have", "ferret", rule="svo"),
            Triple("ada", "have", "nugget", rule="svo")]
    death = Triple("nugget", "be euthanize", "", rule="state")
    groups = group_by_key([(rec("a", "Has a ferret named Nugget."), has),
                           (rec("b", "Ada has a ferret named Nugget."), hers),
                           (rec("c", "We had to put Nugget down."), [death])])
    assert with_pet_endings(groups) == groups
