"""Clauses that report no deed (extractors.unrealised): a to-infinitive of purpose, an
infinitive under a verb of wanting or under another such infinitive, and the "when" clause of
an instruction give no triple of the act; a denial that the act was ever done is not
contradicted by them. Implicative verbs ("managed to fix") still report it."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import decided

U = "user"

NO_DEED = [
    # (sentence, the act it must not report)
    ("I went to the shelter to adopt a dog.", (U, "adopt", "dog")),
    ("I want to review my notes to solve the practice problems.",
     (U, "solve", "practice problem")),
    ("Deferred the unused scripts to keep the bundle small.", (U, "keep", "bundle")),
    ("Always specify the event duration when I ask about family gatherings.",
     (U, "ask about", "family gathering")),
    ("Please include code samples whenever I ask about Flask routes.",
     (U, "ask about", "flask route")),
]

DEEDS = [
    ("I managed to fix the login bug.", (U, "fix", "login bug")),
    ("I eat salad when I visit my mom.", (U, "visit", "mom")),
    ("When I ask about Flask, I get confused.", (U, "ask about", "flask")),
]


def facts(extractor, text):
    return {(t.subject, t.relation, t.object) for t in extractor.extract(text)
            if not t.negated}


@pytest.mark.parametrize(("text", "fact"), NO_DEED)
def test_no_deed_is_reported(extractor, text, fact):
    assert fact not in facts(extractor, text)


@pytest.mark.parametrize(("text", "fact"), DEEDS)
def test_a_deed_is_still_reported(extractor, text, fact):
    assert fact in facts(extractor, text)


@pytest.mark.parametrize(("old", "new"), [
    ("I want to review my notes to solve more probability problems.",
     "I have never solved any probability problems."),
    ("Always specify the event duration when I ask about family gatherings.",
     "I have never asked about any family gatherings."),
    ("I will attend the robotics meetup on Friday.",
     "I have never attended any robotics meetup."),
])
def test_a_purpose_condition_or_plan_does_not_meet_a_never_denial(engine, old, new):
    assert decided(engine, old, new) == []


def test_a_report_still_meets_a_never_denial(engine):
    assert decided(engine, "Solved twelve probability problems last week.",
                   "I have never solved any probability problems.")
