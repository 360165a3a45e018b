"""A negated perfect with "since" a month, a season or a year ("hasn't eaten meat since
January") denies every occurrence from then to now, so a routine of at least weekly recurrence
("eats meat every day", "plays badminton every Thursday") no longer holds
(:func:`scanner.core.routines.lapsed_routine`); "hasn't been to the pool since January" is
the perfect of "go to" (:mod:`extractors.constructions.visits`). Pairs are two memories of one
user."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

LAPSED = [
    ("I eat fish every day.", "I haven't eaten fish since February."),
    ("I have espresso every morning.", "I haven't had espresso since last autumn."),
    ("Priya plays badminton every Thursday.", "Priya hasn't played badminton since 2024."),
    ("I cycle every weekday.", "I haven't cycled since October."),
    ("Tomasz swims every evening.", "Tomasz hasn't been swimming since last summer."),
    ("I jog every Sunday morning.", "I haven't jogged since last month."),
    # a weekly routine of seeing someone lapses like any other: the perfect denies every
    # meeting over months
    ("I see Lotte every Saturday afternoon.", "I haven't seen Lotte since March."),
    # the visit perfect: "hasn't been to" the place is "hasn't gone to" it
    ("I go to the pool every Tuesday.", "I haven't been to the pool since January."),
    ("Goes to the library on Saturdays.", "Hasn't been to the library since 2023."),
    # no routine time: already met before this rule
    ("Smokes.", "Hasn't smoked since 2022."),
    ("I eat lamb.", "I haven't eaten lamb since December."),
]
"""The later negated perfect ends the routine."""

NOT_LAPSED = [
    # the routine recurs less often than the spell: it may not have come round again
    ("I see my optician every year.", "I haven't seen my optician since April."),
    ("I go snowboarding every winter.", "I haven't snowboarded since last spring."),
    # a spell of days may be a pause
    ("I eat fish every day.", "I haven't eaten fish since Wednesday."),
    ("I jog every Sunday morning.", "I haven't jogged since last week."),
    # hedged or asked
    ("I eat fish every day.", "I might not have eaten fish since February."),
    ("I eat fish every day.", "I don't think I've eaten fish since February."),
    ("I eat fish every day.", "Have you eaten fish since February?"),
    # a visit is not a residence; a yearly visit may not have come round; an affirmed or
    # never-ever visit perfect tells no lapse of a routine
    ("I live in Bruges.", "I haven't been to Bruges since 2018."),
    ("I go to Bruges every summer.", "I haven't been to Bruges since 2018."),
    ("I go to the pool every Tuesday.", "I have never been to the pool."),
    ("I go to the pool every Tuesday.", "My cousin hasn't been to the pool since January."),
    ("I go to the pool every Tuesday.", "I haven't been to the pool since Sunday."),
    # another thing, or another routine's circumstance
    ("I eat fish every day.", "I haven't eaten beef since February."),
    ("Priya plays badminton every Thursday.",
     "Priya hasn't played badminton on a Monday since 2024."),
    # the later memory asserts: no denial of the routine
    ("I eat fish every day.", "I have eaten fish since February."),
]
"""Look-alikes: nothing decided."""

test_perfect_ends_routine, test_look_alike_decides_nothing = pair_tables(LAPSED, NOT_LAPSED)


@pytest.mark.parametrize(("sentence", "fact", "time"), [
    ("I haven't eaten fish since February.", (U, "eat", "fish", True), "since february"),
    ("Priya hasn't played badminton since 2024.", ("priya", "play", "badminton", True),
     "since 2024"),
    ("I eat fish every day.", (U, "eat", "fish", False), "day"),
    ("I haven't been to the pool since January.", (U, "go to", "pool", True), "since january"),
    ("Priya plays badminton every Thursday.", ("priya", "play", "badminton", False), "thursday"),
])
def test_times_of_routine_and_spell(extractor, sentence, fact, time):
    found = [t for t in extractor.extract(sentence)
             if (t.subject, t.relation, t.object, t.negated) == fact]
    assert found and found[0].qualifier("time") == time
