"""A scheduled event moved to a new clock time (FrameNet Change_event_time) states the event's
new time, keyed as the line "<event> time: <value>" keys it; a one-off move, a proposal, a move
of another event and a move to a place decide nothing. Pairs are scanned as two memories of
one user, the later a day after the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

MOVED = [
    ("Huddle time: 08:45 daily", "Daily huddle moved to 09:20."),
    ("Design review time: 13:00", "The design review was moved to 15:30."),
    ("Weekly planning time: 11:00", "The weekly planning was rescheduled to 14:15."),
    ("Sprint demo time = 16:00", "Sprint demo moved to 17:45."),
]
"""The later memory gives the event's new time: resolved for the later."""

KEPT = [
    # a one-off move, a proposal, another event, a move to a room, a possessed event
    ("Huddle time: 08:45 daily", "Daily huddle moved to 09:20 today only."),
    ("Huddle time: 08:45 daily", "Daily huddle moved to 09:20 for tomorrow."),
    ("Huddle time: 08:45 daily", "Should the daily huddle move to 09:20?"),
    ("Huddle time: 08:45 daily", "Maybe the huddle should be moved to 09:20."),
    ("Huddle time: 08:45 daily", "The budget review moved to 09:20."),
    ("Huddle time: 08:45 daily", "Another huddle moved to 09:20."),
    ("Huddle time: 08:45 daily", "The daily huddle moved to Room 12."),
    ("Huddle time: 08:45 daily", "Tomasz's huddle moved to 09:20."),
    ("Huddle time: 08:45 daily", "The huddle was not moved to 09:20."),
    ("Weekly huddle time: 08:45", "Daily huddle moved to 09:20."),
]
"""Look-alikes: nothing decided."""

test_event_time_resolves, test_look_alike_decides_nothing = pair_tables(MOVED, KEPT)


@pytest.mark.parametrize(("sentence", "facts"), [
    ("Daily huddle moved to 09:20.", [(U, "daily huddle time", "09:20"),
                                      (U, "huddle time", "09:20 daily")]),
    ("The design review was moved to 15:30.", [(U, "design review time", "15:30")]),
    ("The weekly planning was rescheduled to 14:15.",
     [(U, "weekly planning time", "14:15"), (U, "planning time", "14:15 weekly")]),
    ("Sprint demo has now moved to 17:45.", [(U, "sprint demo time", "17:45")]),
])
def test_event_time_triples(extractor, sentence, facts):
    found = {(t.subject, t.relation, t.object) for t in extractor.extract(sentence)
             if not t.negated}
    for fact in facts:
        assert fact in found, sorted(found)


@pytest.mark.parametrize("sentence", [
    "Daily huddle moved to 09:20 today only.",
    "Daily huddle moved to 09:20 for tomorrow.",
    "Should the daily huddle move to 09:20?",
    "The huddle will move to 09:20.",
    "Another huddle moved to 09:20.",
    "The daily huddle moved to Room 12.",
    "The huddle moved to 10.",
    "The huddle was not moved to 09:20.",
    "Leilani moved to Hilo.",
])
def test_no_event_time(extractor, sentence):
    found = [t for t in extractor.extract(sentence) if t.relation.endswith(" time")]
    assert found == [], found
