"""A habit given up, said without a negated verb (extractors.constructions.abstinence): a
"-free" said of the person, "sober" for a spell, "without" the habit up to now. Sentence ->
triples, and earlier/later pairs -> verdict, with look-alikes that must decide nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

HAS = [
    # a habit given up: "-free" said of the person, "sober" for a spell, "without" up to now
    ("I've been nicotine-free for five weeks.", (U, "smoke", "", True)),
    ("Has been alcohol-free since the new year.", (U, "drink", "alcohol", True)),
    ("Four months smoke free today!", (U, "smoke", "", True)),
    ("Tobacco free for sixty days.", (U, "smoke", "", True)),
    ("Has stayed sober for two years.", (U, "drink", "alcohol", True)),
    ("I have been sober since the spring.", (U, "drink", "alcohol", True)),
    ("Ten weeks without a drink now.", (U, "drink", "alcohol", True)),
    ("Sober since the spring; no longer goes to the pub.", (U, "drink", "alcohol", True)),
    ("I've gone three months without a cigarette.", (U, "smoke", "", True)),
    # a memory writer's line may open with the perfect, its subject left out
    ("Has been vegetarian since 2019.", (U, "eat", "meat", True)),
    # a diet's "-free" said of the person (one token: "gluten" is no verb)
    ("Karin is dairy-free.", ("karin", "eat", "dairy", True)),
    ("Has been gluten-free since the spring.", (U, "eat", "gluten", True)),
    # a perfect spell "for the past …" reaches now and bounds nothing
    ("The user has cut out lemonade for the past three weeks.", (U, "drink", "lemonade", True)),
]

NO_HABIT = [
    "The museum is smoke-free.",
    "We bought dairy-free ice cream for the party.",
    "The bakery on Elm Street is gluten-free.",
    "I ordered a caffeine free latte.",
    "We baked a gluten-free cake for the party.",
    "I was smoke-free during my pregnancy.",
    "I went a day without coffee.",
    "I went six weeks without a cigarette last year.",
    "I am sober tonight because I'm driving.",
    "Two weeks without rain now.",
    "I have gone three hours without a drink of water.",
    "I've gone two weeks without a drink of water.",
    "Six months alcohol-free challenge starts on Monday.",
    "My dad has been sober for ten years.",
    "Sober for the interview, then drinks at the party.",
    "The user gave up lemonade for the last week of the holiday.",
]
"""Sentences that deny no habit of the user's (a thing's "-free", one occasion, a moment's
sobriety, a past spell, a bounded one)."""


def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "fact"), HAS)
def test_reading(extractor, text, fact):
    assert fact in facts(extractor, text)


@pytest.mark.parametrize("text", NO_HABIT)
def test_no_habit_denied(extractor, text):
    assert not [f for f in facts(extractor, text) if f[0] == U and f[3]
                and f[1] in ("smoke", "drink", "eat")]


RESOLVED = [
    ("Smokes around fifteen cigarettes a day.", "Four months smoke free today!"),
    ("I smoke a few cigarettes after dinner.", "I've gone three months without a cigarette."),
    ("Drinks beer with friends on Fridays.", "Has been sober since the new year."),
    ("Drinks beer with friends on Fridays.", "Ten weeks without a drink now."),
    ("The user drinks three lemonades a day.",
     "The user has cut out lemonade for the past three weeks."),
    ("I eat dairy most days.", "I've been dairy-free since March."),
    ("Karin is dairy-free.", "Karin eats dairy again."),
]

LOOK_ALIKES = [
    # a thing's "-free", one occasion, a moment's sobriety, a past or bounded spell
    ("Smokes around fifteen cigarettes a day.", "My hotel room is smoke-free."),
    ("I eat dairy most days.", "I bought a dairy-free yoghurt for my niece."),
    ("Karin is dairy-free.", "Karin's son eats dairy."),
    # a "-free" bounded to a time, a meal, a place, an occasion or a condition
    ("I eat dairy most days.", "I'm dairy-free on weekdays only."),
    ("I eat dairy most days.", "I'm dairy-free at breakfast."),
    ("I eat meat.", "I'm meat-free for Lent."),
    ("Karin eats dairy.", "Karin is dairy-free when her asthma flares up."),
    ("Smokes around fifteen cigarettes a day.", "I'm smoke-free at work."),
    ("I drink coffee every morning.", "I went a day without coffee."),
    ("I drink coffee every morning.", "I like caffeine free tea at night."),
    ("Drinks beer with friends on Fridays.", "I am sober tonight because I'm driving."),
    ("Smokes around fifteen cigarettes a day.", "I was smoke-free during my pregnancy."),
    ("The user drinks three lemonades a day.",
     "The user gave up lemonade for the last week of the holiday."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
