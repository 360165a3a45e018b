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
]
"""Pairs whose later memory says where one lives now: resolved for the later memory."""

THEN = [
    # a dated move alone tells what held then
    ("I live in Cardiff now.", "I moved to Valencia in 2017."),
    # a spell there in the past, or someone else who still lives there
    ("I live in Cardiff now.", "I moved to Valencia in 2017 and lived there for three years."),
    ("I live in Cardiff now.", "I moved to Valencia in 2017 and my cousin still lives there."),
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
