"""A profile line's comment that says a value of its key has ended ("Hobbies: pottery
(stopped running)", extractors.constructions.key_values): the ended value is denied for the
block's person, the listed values stand. Sentence -> triples, and earlier/later pairs ->
verdict, with look-alikes that must decide nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

HAS = [
    ("Name: Odile | Hobbies: pottery (stopped running)", ("odile", "hobbies", "run", True)),
    ("Hobbies: chess (gave up sailing)", (U, "hobbies", "sailing", True)),
    ("Diet: flexible (dropped keto in March)", (U, "diet", "keto", True)),
    ("Employer: Vantor (left Brightwell last year)", (U, "employer", "brightwell", True)),
]

NOT_ENDED = [
    "Hobbies: pottery (stopped running for the winter)",  # a spell, not an ending
    "Hobbies: pottery (stopped for now)",
    "Diet: flexible (dropped keto until the wedding)",
    "Hobbies: pottery (running too, when the knee allows)",
]


def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "fact"), HAS)
def test_reading(extractor, text, fact):
    found = facts(extractor, text)
    assert fact in found
    assert (fact[0], fact[1], fact[2], False) not in found


@pytest.mark.parametrize("text", NOT_ENDED)
def test_no_ending(extractor, text):
    assert not [f for f in facts(extractor, text) if f[3] and f[1] in ("hobbies", "diet")]


RESOLVED = [
    ("Name: Odile | Hobbies: running, pottery", "Name: Odile | Hobbies: pottery (stopped running)"),
    ("Diet: keto", "Diet: flexible (dropped keto in March)"),
]

LOOK_ALIKES = [
    ("Name: Odile | Hobbies: running, pottery",
     "Name: Odile | Hobbies: pottery (stopped running for the winter)"),
    ("Name: Odile | Hobbies: running, pottery",
     "Name: Bettina | Hobbies: pottery (stopped running)"),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


@pytest.mark.parametrize(("text", "fact"), [
    # a verb's third person as a profile key reads as the clause does
    ("Name: Mirela. Lives in: Graz.", ("mirela", "live in", "graz", False)),
    ("Works at: Hollis Bakery", (U, "work at", "hollis bakery", False)),
    # a bracketed comment is no part of a setting's value
    ("batch_size is 64 (set in v3)", (U, "batch size", "64", False)),
])
def test_profile_keys_and_setting_values(extractor, text, fact):
    assert fact in facts(extractor, text)


def test_a_profile_key_meets_the_clause(engine):
    from tests.unit.test_state_changes import LATER_WINS, decided
    assert decided(engine, "Name: Mirela. Lives in: Graz.", "Mirela lives in Linz now.") \
        == LATER_WINS


@pytest.mark.parametrize("text", ["Dinner tonight: lasagne", "Mood today: 7/10",
                                  "Lunch yesterday: ramen"])
def test_a_key_of_one_day_is_an_episode_not_an_attribute(extractor, text):
    """A deictic time word in the key ("tonight", "today") reports that day's episode: the
    next evening's line is another episode, never a new value (a newcomer's probes of the
    fifth stop of issue 37: "Dinner tonight: lasagne" / "Dinner tonight: curry" decided)."""
    assert facts(extractor, text) == set()
    assert ("user", "dinner", "lasagne", False) in facts(extractor, "Dinner: lasagne")
