"""A dated change whose result a present clause says still holds is no backstory: the present
clause states where one lives now. Pairs are scanned as two memories of one user, the later a
day after the earlier (stored in 2026, so a move dated before 2026 alone is backstory)."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

NOW = [
    ("I live in Cardiff now.", "I moved to Valencia in 2017 and still live there."),
    ("I live in Cardiff now.", "I moved to Valencia in 2021, and I live there now."),
    ("I live in Cardiff now.", "I moved to Valencia in 2021 and I live in Valencia now."),
    ("Omar lives in Ghent.", "Omar moved to Porto in 2016 and still lives there."),
    ("I live in Leeds.", "I've moved to Bilbao in 2019 and still live there."),
    ("I live in Leeds.", "I live in Bilbao now."),
    ("Nadia lives in Lyon.", "Nadia moved to Gdansk in 2015 and lives there now."),
]
"""Pairs whose later memory says where one lives now: resolved for the later memory."""

THEN = [
    # a dated move alone tells what held then
    ("I live in Cardiff now.", "I moved to Valencia in 2017."),
    # a spell there in the past, or someone else who still lives there
    ("I live in Cardiff now.", "I moved to Valencia in 2017 and lived there for three years."),
    ("I live in Cardiff now.", "I moved to Valencia in 2017 and my cousin still lives there."),
    # a planned move: the verb the present clause joins is no finite past
    ("I live in Leeds.", "I hope to move to Bilbao in 2030 and still live there at eighty."),
    ("I live in Leeds.", "We intend to relocate to Bilbao in 2029 and live there now and then."),
    ("I live in Leeds.", "I would love to move to Bilbao in 2028 and still live there later."),
    # the present clause holds part of the time or in part only
    ("I live in Leeds.", "I moved to Bilbao in 2019 and still live there occasionally."),
    ("I live in Leeds.", "I moved to Bilbao in 2019 and still live there part-time."),
    ("I live in Leeds.", "I moved to Bilbao in 2019 and still live there half the year."),
    ("I live in Leeds.", "I moved to Bilbao in 2019 and still live there every other month."),
    ("I live in Leeds.", "I moved to Bilbao in 2019 and barely live there now."),
    ("I live in Leeds.", "I moved to Bilbao in 2019 and live there on and off."),
    ("I live in Leeds.", "I moved to Bilbao in 2019 and technically still live there."),
    # a plain residence so restricted
    ("I live in Leeds now.", "I live in Bilbao sometimes."),
    ("I live in Leeds now.", "I partially live in Bilbao."),
    ("I live in Leeds now.", "I live in Bilbao only partly."),
    ("I live in Leeds now.", "I live in Bilbao from time to time."),
    ("I live in Leeds now.", "I live in Bilbao on weekends."),
    ("Nadia lives in Lyon.", "Nadia lives in Gdansk part-time."),
]
"""Look-alikes: nothing decided."""

test_present_clause_resolves, test_look_alike_decides_nothing = pair_tables(NOW, THEN)


@pytest.mark.parametrize(("sentence", "time"), [
    ("I moved to Valencia in 2017 and still live there.", None),
    ("I moved to Valencia in 2017.", "2017"),
    ("I moved to Valencia in 2017 and lived there for three years.", "2017"),
])
def test_the_present_clause_stands_for_the_dated_move(extractor, sentence, time):
    found = [t for t in extractor.extract(sentence)
             if (t.subject, t.relation, t.object, t.negated) == (U, "live in", "valencia", False)]
    assert [t.qualifier("time") for t in found] == [time], found


@pytest.mark.parametrize(("sentence", "time"), [
    ("I live in Bilbao sometimes.", "when sometimes"),
    ("I live in Bilbao part-time.", "when part time"),
    ("I moved to Bilbao in 2019 and still live there rarely.", "2019"),
    ("I live in Bilbao.", None),
])
def test_a_partial_residence_is_restricted(extractor, sentence, time):
    found = [t for t in extractor.extract(sentence)
             if (t.subject, t.relation, t.object, t.negated) == (U, "live in", "bilbao", False)]
    assert [t.qualifier("time") for t in found] == [time], found
