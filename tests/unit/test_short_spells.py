"""An ending bounded to a short spell ends nothing ("split up for, like, ten minutes"): the
short units of time (WordNet time_unit.n.01: hour, minute, second) bound a spell after "for"
as the calendar words do; an ending dated by them ("an hour ago") is still decided."""

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("I'm dating Lucien.", "Lucien and I broke up an hour ago."),
    ("My boyfriend is Oskar.", "Oskar and I split up last night."),
]
SAME = [
    ("I'm dating Lucien.", "Lucien and I broke up for like an hour yesterday."),
    ("My boyfriend is Oskar.", "Oskar and I split up for, like, ten minutes."),
    ("I'm dating Lucien.", "Lucien and I broke up for about a second, lol."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, SAME)
