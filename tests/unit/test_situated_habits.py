"""A present habit restricted to its time ("works at a bakery on weekends", "lives in Lisbon
during the winter") holds in that time only: two values of two times both stand, and a plain
later value still replaces a plain earlier one (extractors.constructions.clause_times)."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("text", "time"), [
    ("I work at a pottery studio on weekends.", "weekend"),  # the time hung on the place
    ("The user lives in Faro during the winter.", "winter"),  # a present habit's "during"
    ("Volunteers at the food bank on Saturdays.", "saturday"),
])
def test_time_of_a_habit(extractor, text, time):
    assert any(("time", time) in t.qualifiers for t in extractor.extract(text))


def test_a_past_spell_stays_a_duration(extractor):
    found = extractor.extract("I worked at a pottery studio during the summer.")
    assert not any(q[0] == "time" and q[1] == "summer" for t in found for q in t.qualifiers)


RESOLVED = [
    ("I live in Faro.", "I live in Porto now."),
]

LOOK_ALIKES = [
    ("I work at Nordbank on weekdays.", "I work at a pottery studio on weekends."),
    ("The user lives in Faro during the winter.", "The user lives in Tromsø during the summer."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


@pytest.mark.parametrize(("text", "affirmed", "denied"), [
    # contrastive negation denies only what follows "not" (Quirk et al. 1985 §10.55)
    ("My manager is Priya, not Owen.", "priya", "owen"),
    ("ugh my team lead is Priya now, not Owen", "priya", "owen"),
])
def test_contrastive_negation(extractor, text, affirmed, denied):
    facts = {(t.object, t.negated) for t in extractor.extract(text)}
    assert (affirmed, False) in facts and (denied, True) in facts
    assert (affirmed, True) not in facts


def test_a_contrast_agrees_with_its_affirmation(engine):
    from tests.unit.test_state_changes import decided
    assert decided(engine, "ugh my manager is Priya now, not Owen", "My manager is Priya.") == []
