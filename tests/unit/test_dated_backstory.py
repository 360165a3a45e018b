"""A dated change told later is backstory (scanner.core.detect._backstory): the extractor must
keep its year as the time qualifier, also when the year is written with an apostrophe
("in '17") or hangs on a gerund the parser read as a noun ("took up painting in 2014").
Sentence -> time, and earlier/later pairs -> verdict: a change dated in a year before the
earlier memory decides nothing; one without a past year still ends the earlier state."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("text", "fact", "time"), [
    ("I relocated to Dublin in '17.", (U, "live in", "dublin"), "2017"),
    ("Ines moved to Porto in \u201998.", ("ines", "live in", "porto"), "1998"),
    ("Bea took up painting in 2014.", ("bea", "paint", ""), "2014"),
    ("I took up rowing in '09.", (U, "row", ""), "2009"),
])
def test_the_year_of_a_change_is_kept(extractor, text, fact, time):
    found = {(t.subject, t.relation, t.object): t for t in extractor.extract(text)}
    assert fact in found, found
    # (a completed past keeps it after "past": "past 2014")
    assert time in (found[fact].qualifier("time") or "").split()


def test_a_number_after_a_spaced_quote_is_no_year(extractor):
    assert all(t.qualifier("time") is None for t in extractor.extract("I own ' 12 mugs."))


RESOLVED = [
    ("I live in Cork.", "I moved to Dublin in June."),
    ("I don't paint.", "I took up painting."),
    ("I live in Cork.", "I moved to Dublin last week."),
]

LOOK_ALIKES = [
    ("I live in Cork.", "I relocated to Dublin in '17."),
    ("I don't paint.", "I took up painting in 2014."),
    ("I don't row.", "I took up rowing in '09."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
