"""Leaving a named place for an errand is a trip, not a move (extractors/aspect.py, `_trip`;
a newcomer's probes of the fifth stop of issue 37): it ends no "lives in". Sentence -> the
ending it gives or not, and the scan of "I live in X" before it."""

from __future__ import annotations

import pytest

from tests.unit.test_pair_judge import FixedJudge, scan

U = "user"


def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize("text", [
    "Left Leeds on Friday to visit Mum",
    "I left Leeds on Friday to visit Mum",
    "left leeds at 7 for the airport",
    "Left York on Friday for the conference",
    "Left Berlin on 4 June for a two-week trip",
])
def test_a_departure_for_an_errand_ends_no_residence(extractor, text):
    place = next(w for w in ("leeds", "york", "berlin") if w in text.lower())
    assert (U, "live in", place, True) not in facts(extractor, text)


@pytest.mark.parametrize(("text", "ended"), [
    ("I left Leeds for London in 2019", (U, "live in", "leeds", True)),  # a named destination
    ("Left Globex to join Initech", (U, "work at", "globex", True)),  # a job, not a place
])
def test_leaving_for_good_still_ends_the_state(extractor, text, ended):
    assert ended in facts(extractor, text)


def test_a_trip_decides_nothing_against_where_one_lives(extractor):
    report = scan(extractor, FixedJudge(update=0.95, compatible=0.05),
                  "I live in Leeds", "Left Leeds on Friday to visit Mum")
    assert [c.verdict for c in report.conflicts if c.verdict != "possible"] == []
