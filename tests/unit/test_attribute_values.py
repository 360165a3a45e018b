"""Typed values on named attributes (extractors/constructions/attribute_values.py, issue 37
kind 2): sentence -> the (owner, attribute, value) triples of rule ``attribute_value``."""

from __future__ import annotations

import pytest

from extractors.constructions.attribute_values import RULE, attribute_values, complement
from extractors.parsed import parsed


def _read(extractor, sentence):
    """The construction's own readings (the extractor keeps them only where no attribute
    reading of the other rules covers the clause: :func:`test_no_second_reading`)."""
    return {(t.subject, t.relation, t.object) for t in
            attribute_values(parsed(extractor.nlp(sentence)))}


@pytest.mark.parametrize("sentence, expected", [
    ("The snack budget was adjusted to $75.", ("user", "snack budget (amount)", "75 usd")),
    ("The snack budget was increased to $85 last week.",
     ("user", "snack budget (amount)", "85 usd")),
    ("I recently adjusted my budget ceiling to $750 after receiving a bonus.",
     ("user", "budget ceiling (amount)", "750 usd")),
    ("I set a $700 budget ceiling for the new phone.",
     ("user", "budget ceiling for phone (amount)", "700 usd")),
    ("The booked session with the immigration consultant was moved to May 22.",
     ("user", "session with immigration consultant (date)", "--05-22")),
    ("Security Audit deadline moved to January 20.",
     ("user", "security audit deadline (date)", "--01-20")),
    ("The Zotero library now includes 52 sources.",
     ("user", "number of source of zotero library (number)", "52")),
    ("The build server's SSH port is now 49222.",
     ("user", "build server ssh port (number)", "49222")),
    ("The login API response time has decreased to 120ms.",
     ("user", "login api response time (s)", "0.12 s")),
    ("Improved integrated problem-solving accuracy from 70% to 90% after practice.",
     ("user", "integrated problem solving accuracy (percentage)", "90 percent")),
    ("Scott's recent math test score improved to 72%.",
     ("scott", "math test score (percentage)", "72 percent")),
    ("The scheduled Zoom call was moved to 4:30 PM.", ("user", "zoom call (time)", "16:30")),
    # a date after a change's new value says when it changed, not when the value holds
    ("I increased my shooting accuracy to 60% by April 12 after daily drills.",
     ("user", "shooting accuracy (percentage)", "60 percent")),
    ("My confidence in operator theory is at 79%.",
     ("user", "confidence in operator theory (percentage)", "79 percent")),
    # the phrasal forms of a change: "up to" / "down to" after a verb of direction
    ("My rent has gone up to £515 a month.", ("user", "rent (amount)", "515 gbp")),
    ("The gym has put my membership up to £41 a month.",
     ("user", "membership (amount)", "41 gbp")),
    ("Food budget is down to £35 a week.", ("user", "food budget (amount)", "35 gbp")),
    ("Rosie's pocket money went up to £6 a week.",
     ("rosie", "pocket money (amount)", "6 gbp")),
])
def test_a_typed_value_names_its_attribute(extractor, sentence, expected):
    assert expected in _read(extractor, sentence)


@pytest.mark.parametrize("sentence", [
    "Is the snack budget $75?",                                   # a question
    "Using a $20 aromatherapy kit from the pharmacy.",            # a thing of that price
    "Educating my team, focusing on cutting latency to 50ms.",    # a goal, not a value
    "Completed 8 probability problems on Monday.",                # a step done, not a count held
    "The budget might be raised to $90.",                         # a possibility
    "The budget was not raised to $90.",                          # a denial
    "Shipped the release on April 28.",                           # a time adjunct
    "Improved accuracy from 60% to 85%.",                         # 60% is the value left behind
    "Alarm time changed to 9am on Sundays.",                      # restricted to Sundays
    "The response time dropped to 120ms under 20 concurrent requests.",  # under a load
    "If I move to Lisbon, my rent budget is 900 euros.",          # a condition
    "The venue holds up to 200 guests.",                          # "up to": a bound
])
def test_no_attribute_value_is_read(extractor, sentence):
    found = _read(extractor, sentence)
    assert not [t for t in found if t[2] in ("20 usd", "0.05 s", "8", "90 usd", "60 percent",
                                             "09:00", "0.12 s", "900 eur", "200")
                or t[1].endswith("(date)")], found


@pytest.mark.parametrize("sentence, rule_reading", [
    ("The snack budget was adjusted to $75.", ("snack", "budget", "75 usd")),
    ("In summer the budget is $500.", None),
])
def test_no_second_reading(extractor, sentence, rule_reading):
    """Where another rule reads the clause as an attribute, that reading stands alone: it
    knows the clause's restrictions."""
    found = extractor.extract(sentence)
    assert not [t for t in found if t.rule == RULE], found
    if rule_reading:
        assert rule_reading in {(t.subject, t.relation, t.object) for t in found}


@pytest.mark.parametrize("relation, text, expected", [
    ("prefer", "I prefer JWT over session cookies for stateless auth.", "over session cookies"),
    ("confidence", "My confidence in self-adjoint spectra is at 79%", "in self-adjoint spectra"),
    ("cost", "the cost of the storytelling course is $200", "of the storytelling course"),
    ("prefer", "Prefer monthly billing payment terms", None),
])
def test_the_complement_that_names_the_attribute(relation, text, expected):
    assert complement(relation, text) == expected


@pytest.mark.parametrize("sentence, marked", [
    ("The snack budget was adjusted to $75.", True),            # a change verb
    ("The build server's SSH port is now 49222.", True),        # "now"
    ("Redis memory usage has reached 200MB.", True),            # a reaching verb
    ("Improved problem-solving accuracy from 70% to 90%.", True),  # "from A to B"
    ("I set a $700 budget ceiling for the new phone.", True),   # setting is a change
    ("Stressing ingestion, I'm noting a 10% failure rate.", False),  # one episode noted
])
def test_a_value_stated_as_a_change_is_marked(extractor, sentence, marked):
    """Qualifier ``change`` on the reading: a later typed value decides only when it is so
    marked (scanner.core.detect._later_changed)."""
    found = attribute_values(parsed(extractor.nlp(sentence)))
    assert found, sentence
    assert any(t.qualifier("change") for t in found) is marked, found


def test_an_owner_the_phrase_does_not_name_gives_no_reading(extractor):
    """ "its success rate": whose rate is not said (a pronoun possessor other than the user's)."""
    assert _read(extractor, "Considering Vagrant, I'm noting its 99.5% success rate.") == set()
