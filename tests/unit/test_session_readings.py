"""Memory pairs for readings of chat and memory-writer text: interjections and openers
(extractors.chat_forms), later subject-less sentences (extractors.memory_forms), a lone noun's setting changed "(back) to" a
value (constructions.descriptions._bare_opening), a progressive move (a plan) and a clause
set in a made-up world (extractors.clause_frames) and an approximated rate
(extractors.approximators): each later memory of ``RESOLVED`` wins; each look-alike pair
decides nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("Now at Blue Door Coffee.", "No longer at Blue Door Coffee. Now at Crumb Bakery."),
    ("my bf tom lives in York", "lol my bf tom moved to Leeds"),  # his home, no setting
    ("Is at Blue Door Coffee.", "Is no longer at Blue Door Coffee, now at Crumb Bakery."),
    ("ugh my team lead is Priya", "ok so my team lead is Owen now"),
    ("Tomás smokes about a pack a day.", "Tomás quit smoking six months ago."),
    ("i live in leeds", "welp officially moved out of leeds"),
    ("Theme: dark", "Theme switched back to light."),
    ("Theme: dark", "Theme switched to light."),
]

LOOK_ALIKES = [
    # (the reviewer's: a board or a list is no value without what it is of or for)
    ("I sit on the board of Acme.", "I stepped down from the board of Initech."),
    ("I'm on medication for my blood pressure.", "I came off medication for my anxiety."),
    ("I'm on the waitlist for daycare.", "I withdrew from the waitlist for the gym class."),
    # (the reviewer's: a later sentence about someone the text named, or the user's kin)
    ("Lives in Chicago.", "Met a new neighbor, Dana. Lives in Denver."),
    ("I live in Boston.", "I visited my brother last month. Lives in Seattle now."),
    ("I'm married to Sam.", "I went to my cousin's wedding. Now married to Jess."),
    ("The user lives in Queens.", "The user's mom moved to Florida. Now lives in Tampa."),
    ("Lives in Ohio.", "Called mom, now living in Florida."),
    ("Lives in Ohio.", "Has two sons, now living in Texas."),
    ("I'm a vegetarian.", "I cooked for my brother. Now eats only meat."),
    ("No longer at Globex. Now at Initech.", "Dana works at Initech."),
    ("Dana quit pottery.", "Dana quit pottery. Now does yoga."),
    ("Mia talks about two books a week.", "Mia stopped talking about books."),
    ("Mom drinks coffee.", "Mom switched to decaf."),          # a person's switch, no setting
    ("Theme: dark", "Editor theme switched to light."),        # another setting
    # (the newcomer's: a move arranged for the future, a made-up world's fact)
    ("I live in Austin.", "I'm moving to Portland next month."),
    ("The user lives in Austin.", "The user is moving to Portland in June."),
    ("Lives in Austin.", "Moving to Portland next month."),
    ("I live in Denver.", "in my D&D campaign i live in Waterdeep"),
    ("I like coffee.", "In the game I don't like coffee."),
    ("The user lives in Boston.", "In the user's novel, the user lives in Rome."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


@pytest.mark.parametrize(("sentence", "fact"), [
    # (the approximator is no part of the value: Quirk et al. 1985 §7.56)
    ("Tomás smokes about a pack a day.", ("tomás", "smoke", "pack", False)),
    ("Dev sleeps around 6 hours a night.", ("dev", "sleep", "21600 s", False)),
])
def test_an_approximated_rate_is_the_object(extractor, sentence, fact):
    assert fact in {t.fact for t in extractor.extract(sentence)}


def test_a_topic_verb_keeps_about(extractor):
    assert not any(t.relation == "talk" and t.object.startswith("about two")
                   for t in extractor.extract("Mia talked about two books a week at dinner."))


@pytest.mark.parametrize(("sentence", "fact", "time"), [
    ("I'm moving to Portland next month.", ("user", "live in", "portland", False), "future"),
    ("I moved to Portland.", ("user", "live in", "portland", False), None),
    ("In the winter I live in Faro.", ("user", "live in", "faro", False), "winter"),
])
def test_a_progressive_move_is_a_plan(extractor, sentence, fact, time):
    found = [t for t in extractor.extract(sentence) if t.fact == fact]
    assert found and found[0].qualifier("time") == time
