"""The focus of a denial (extractors.negation_focus): a restricting adjunct or modifier in the
negation's scope restricts the denial to it; a focusing subjunct or a corrective clause takes
the denial back; aspect, emphasis and reasons leave it whole. Sentence -> denial, and
earlier/later pairs -> verdict, with look-alikes that must decide nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

RESTRICTED = [
    # (sentence, denied fact, time qualifier of the restricted denial)
    ("I don't take the bus on Sundays.", (U, "take", "bus"), "when sunday"),
    ("Mira doesn't eat cheese that smells strong.", ("mira", "eat", "cheese"), None),
    ("I don't play chess online.", (U, "play", "chess"), "when online"),
    ("I'm not a nurse at the children's hospital.", (U, "be", "nurse"), None),
    ("The user doesn't cook at home during the week.", (U, "cook at", "home"), "when week"),
    ("I don't swim in the lake after dark.", (U, "swim in", "lake"), "when after dark"),
    ("Ravi doesn't sing loudly.", ("ravi", "sing", ""), "when loudly"),
    ("I don't wear glasses for reading.", (U, "wear", "glass"), None),
    ("Doesn't drink tea with milk.", (U, "drink", "tea"), "when with milk"),
    ("Tomas doesn't write Python professionally.", ("tomas", "write", "python"),
     "when professionally"),
    ("I don't usually cycle to the office.", (U, "cycle to", "office"), "when usually"),
    ("I don't work at the brewery as a driver.", (U, "work at", "brewery"), "when as driver"),
    # coordinated verbs share the negator and the object said after the last of them
    ("I have never reviewed or shared any trip photos with Jenna.",
     (U, "share", "trip photo"), "when with jenna"),
    ("I have never reviewed or shared any trip photos with Jenna.",
     (U, "review", "trip photo"), "when with jenna"),
    ("Nia never washed or ironed shirts on Fridays.", ("nia", "iron", "shirt"), "when friday"),
]
"""Denials whose focus is an adjunct (place, time, manner, instrument, degree, frequency) or
a modifier of the object (a relative clause, a prepositional phrase): each keeps its
restriction as a ``when`` time qualifier (None: only that it has one)."""

WHOLE = [
    ("I don't live in Leeds anymore.", (U, "live in", "leeds")),
    ("I no longer work at the bakery.", (U, "work at", "bakery")),
    ("Is no longer a member of the book club.", (U, "member of", "book club")),
    ("I honestly don't eat pork at all these days.", (U, "eat", "pork")),
    ("I don't drink coffee because it keeps me awake.", (U, "drink", "coffee")),
    ("Priya is not my landlord anymore.", (U, "landlord", "priya")),
    ("Turns out Omar isn't allergic to nuts after all.", ("omar", "be allergic to", "nut")),
    ("Leo no longer plays tennis since the knee surgery.", ("leo", "play", "tennis")),
    # reasons, comments and what is set off by a comma or a dash stand outside the focus
    ("I don't drink cola anymore because of my teeth.", (U, "drink", "cola")),
    ("Nell doesn't eat veal for ethical reasons.", ("nell", "eat", "veal")),
    ("I don't lift weights anymore on my physio's advice.", (U, "lift", "weight")),
    ("I don't own a scooter anymore, which is a relief.", (U, "own", "scooter")),
    ("I don't drink whisky anymore, not even at weddings.", (U, "drink", "whisky")),
    ("I don't play the cello anymore, sadly.", (U, "play", "cello")),
    ("I don't eat beef anymore in any form.", (U, "eat", "beef")),
    ("I don't live in Graz anymore \u2014 bin umgezogen.", (U, "live in", "graz")),
    ("I don't bake bread anymore \U0001F642", (U, "bake", "bread")),
    # after a change of state, the time it changed is no restriction
    ("Ilse doesn't like horses anymore after the fall last spring.", ("ilse", "like", "horse")),
]
"""Denials left whole: aspect ("anymore", "no longer"), emphasis ("at all", "honestly"), the
present ("these days"), a reason, a stated change's cause; the value in the subject."""

TAKEN_BACK = [
    ("I don't like jazz, I love it.", (U, "like", "jazz")),
    ("It's not just a hobby for me.", ("it", "be", "hobby")),
    ("I'm not only a teacher, I'm also a painter.", (U, "be", "teacher")),
    ("Kai isn't merely vegetarian.", ("kai", "be", "vegetarian")),
]
"""Denials taken back: a focusing subjunct ("just", "only", "merely") denies exclusiveness;
a corrective clause restates the thing with a stronger word of its scale."""


def denials(extractor, text):
    return {(t.subject, t.relation, t.object): t for t in extractor.extract(text) if t.negated}


@pytest.mark.parametrize(("text", "fact", "when"), RESTRICTED)
def test_restricted_denial(extractor, text, fact, when):
    found = denials(extractor, text)
    assert fact in found, found
    time = found[fact].qualifier("time")
    assert time is not None and time.startswith("when ")
    if when is not None:
        assert time == when


@pytest.mark.parametrize(("text", "fact"), WHOLE)
def test_whole_denial(extractor, text, fact):
    found = denials(extractor, text)
    assert fact in found, found
    assert not (found[fact].qualifier("time") or "").startswith("when ")


@pytest.mark.parametrize(("text", "fact"), TAKEN_BACK)
def test_denial_taken_back(extractor, text, fact):
    assert fact not in denials(extractor, text)


def test_corrective_needs_a_stronger_word(extractor):
    # another predicate is no correction: both clauses stand
    assert (U, "own", "house") in denials(extractor, "I don't own the house, I rent it.")


RESOLVED = [
    ("I live in Leeds.", "I don't live in Leeds anymore."),
    ("Is a member of the book club.", "Is no longer a member of the book club."),
    ("Nadia eats pork.", "Nadia doesn't eat pork at all these days."),
    ("Leo plays tennis.", "Leo no longer plays tennis since the knee surgery."),
    ("I drink coffee every afternoon.", "I don't drink coffee anymore, green tea only."),
    ("The user goes running every Sunday morning.",
     "The user no longer goes running on Sundays."),
    ("Ships on Thursdays.", "Never ships on Thursdays."),
    # a restriction the earlier memory states too meets it
    ("I use Trello at work.", "I don't use Trello at work anymore."),
    ("I swim on Sundays.", "I don't swim on Sundays anymore."),
    ("I drink cola.", "I don't drink cola anymore because of my teeth."),
    ("I own a scooter.", "I don't own a scooter anymore, which is a relief."),
]

LOOK_ALIKES = [
    ("I take the bus.", "I don't take the bus on Sundays."),
    ("Mira eats cheese.", "Mira doesn't eat cheese that smells strong."),
    ("I'm a nurse.", "I'm not a nurse at the children's hospital."),
    ("The user cooks.", "The user doesn't cook at home during the week."),
    ("Ravi sings.", "Ravi doesn't sing loudly."),
    ("Drinks tea.", "Doesn't drink tea with milk."),
    ("Tomas writes Python.", "Tomas doesn't write Python professionally."),
    ("I cycle to the office.", "I don't usually cycle to the office."),
    ("I like jazz.", "I don't like jazz, I love it."),
    ("Kai is vegetarian.", "Kai isn't merely vegetarian, he is vegan."),
    ("I play chess.", "i don't play chess when i'm tired, i read instead"),
    ("The user goes running every Sunday morning.", "The user doesn't go running on Mondays."),
    # one occasion is no habit: "this week" is not "every week"
    ("Idris cycles to work every day.", "Idris didn't cycle to work this week."),
    ("I practise piano every evening.", "I didn't practise piano this evening."),
    # a restriction on coordinated verbs: another person is not the one denied
    ("Shared three trip photos with Mark last week.",
     "I have never reviewed or shared any trip photos with Jenna."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
