"""A weekly activity given up in chat, named by its day or its venue ("gave up the monday
hockey" / "I play ice hockey every monday night", "dropped outta the Vantage league" / "I'm in
the friday night climbing league at Vantage"): the premodifying day or name stands for the
stated memory's time or place (:mod:`scanner.core.circumstance_names`). Pairs are two
memories of one user."""

import pytest

from scanner.core.circumstance_names import named_by_circumstance
from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("sentence", "fact"), [
    ("gave up the monday hockey, my back hates it", (U, "play", "monday hockey", True)),
    ("dropped outta the vantage league", (U, "be in", "vantage league", True)),
    ("I dropped outta the choir last month", (U, "sing in", "choir", True)),
])
def test_ending_read(extractor, sentence, fact):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert fact in found


@pytest.mark.parametrize(("ended", "stated", "phrase", "same"), [
    ("monday hockey", "ice hockey", "I play ice hockey every monday night", True),
    ("wednesday hockey", "ice hockey", "I play ice hockey on Wednesdays", True),
    ("vantage league", "friday night climbing league",
     "I'm in the friday night climbing league at Vantage", True),
    ("maple street cafe", "cafe", "Omar runs a small cafe on Maple Street", True),
    # another day, a venue not written as a name, a word of neither kind
    ("tuesday hockey", "ice hockey", "I play ice hockey every monday night", False),
    ("vantage league", "climbing league", "I'm in the climbing league at vantage", False),
    ("pub hockey", "ice hockey", "I play ice hockey every monday night", False),
    # another head, or no premodifier to account for
    ("monday football", "ice hockey", "I play ice hockey every monday night", False),
    ("hockey", "ice hockey", "I play ice hockey every monday night", False),
])
def test_named_by_circumstance(ended, stated, phrase, same):
    assert named_by_circumstance(ended, stated, phrase) is same


GIVEN_UP = [
    ("I play ice hockey every monday night", "gave up the monday hockey, my back hates it"),
    ("I play pickup basketball every friday evening", "quit the friday basketball, too tired"),
    ("I'm in the friday night climbing league at Vantage",
     "dropped outta the vantage league, fridays got too busy"),
    ("I'm in the friday night climbing league at Vantage",
     "I dropped out of the Vantage league."),
]
"""The later ending ends the weekly activity."""

NOT_GIVEN_UP = [
    # a one-off session skipped, a session moved to another day
    ("I play ice hockey every monday night", "skipped the monday hockey this week"),
    ("I play ice hockey every monday night", "the monday hockey moved to thursdays"),
    # another day's session, another venue's league
    ("I play ice hockey every monday night", "gave up the tuesday hockey, mondays are enough"),
    ("I'm in the friday night climbing league at Vantage", "dropped out of the summit league"),
    # someone else gave it up; a plan not yet carried out
    ("I play ice hockey every monday night", "my brother gave up the monday hockey"),
    ("I play ice hockey every monday night", "might give up the monday hockey soon"),
    # two activities: the day belongs to the other one
    ("I play ice hockey every monday and basketball on fridays",
     "gave up the friday hockey"),
]
"""Look-alikes: nothing decided."""

test_weekly_activity_given_up, test_look_alike_decides_nothing = pair_tables(
    GIVEN_UP, NOT_GIVEN_UP)
