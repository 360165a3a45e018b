"""A description of a related person is not who the person is (look-alike precision): a
capitalised value of a relationship noun made of common words ("Episcopalian"), a generation
label ("Gen Y") or a clipped identity adjective ("Cis") describes the person and never
replaces a name; a real name still does."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import LATER_WINS, decided


@pytest.mark.parametrize(("old", "new"), [
    ("My wife is Priyanka", "My wife is Gen Y"),
    ("My mentor is Dmitri", "My mentor is Generation X"),
    ("My husband is Tobias", "My husband is Episcopalian"),
    ("My girlfriend is Priyanka", "My girlfriend is Lactose Intolerant"),
    ("My spouse is Dmitri", "My spouse is Cis"),
    ("My boyfriend is Tobias", "My boyfriend is Bi"),
    ("My fiancee is Priyanka", "My fiancee is Millennial"),
    ("Husband: Tobias", "Husband: Episcopalian"),
    # a name English also knows as a common noun is read as one: precision first
    ("My wife is Hazel", "My wife is now Priyanka"),
])
def test_a_description_of_the_person_decides_nothing(engine, old, new):
    assert decided(engine, old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("My husband is Tobias", "My husband is now Dmitri"),
    ("My mentor is Dmitri", "My mentor is Priyanka these days"),
    ("Husband: Tobias", "Husband: Dmitri"),
])
def test_a_new_name_still_decides(engine, old, new):
    assert decided(engine, old, new) == LATER_WINS


@pytest.mark.parametrize(("sentence", "value"), [
    ("My wife is Gen Y", None),
    ("My husband is Episcopalian", None),
    ("My spouse is Cis", None),
    ("My wife is Priyanka", "priyanka"),
])
def test_the_named_relation_holds_only_a_name(extractor, sentence, value):
    named = [t.object for t in extractor.extract(sentence) if t.relation in ("wife", "husband",
                                                                              "spouse")]
    assert named == ([value] if value else [])
