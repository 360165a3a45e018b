"""Roles and states a memory states without a verb of doing (extractors.constructions.copula,
extractors.memory_forms) and the endings that meet them: an occupation "at" a workplace the
parser hung on the copula, a memory writer's statal passive ("Married to …", "Engaged to …"),
teaching at a school ended by retiring from it, a course ended by completing it. Sentence ->
triples, and earlier/later pairs -> verdict, with look-alikes that must decide nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

HAS = [
    # a coordinated name draws the "at" phrase up to the copula
    ("I'm a bookkeeper at Hale & Sons.", (U, "work at", "hale & sons", False)),
    ("Priya is an electrician at Dunne & Ward.", ("priya", "work at", "dunne & ward", False)),
    # the statal passive of a memory writer, its copula and subject left out (Quirk §3.77)
    ("Married to Teodor.", (U, "spouse", "teodor", False)),
    ("Engaged to Marisol since the summer.", (U, "be engaged to", "marisol", False)),
    ("Employed as a welder at Brannock Steel.", (U, "work at", "brannock steel", False)),
    # "enrol" is spelled one way
    ("Enrolled in a UX design bootcamp.", (U, "enroll in", "ux design bootcamp", False)),
    # retiring from a school ends teaching there; completing a course ends being enrolled
    ("Ravi retired from Kingsmead Academy last summer.",
     ("ravi", "teach at", "kingsmead academy", True)),
    ("Completed the UX design bootcamp.", (U, "enroll in", "ux design bootcamp", True)),
    # a role said with its verb is the role its agent noun names
    ("Imogen chairs the parish council.", ("imogen", "be", "parish council chair", False)),
    ("Captains the Thursday darts team.", (U, "be", "thursday dart team captain", False)),
    ("Oskar manages the bakery section.", ("oskar", "be", "bakery section manager", False)),
]

HAS_NOT = [
    ("I'm a regular at Fox & Hound.", "work at"),  # a regular is no occupation
    ("I'm a nurse at heart.", "work at"),
    ("Married to my job, honestly.", "spouse"),  # devotion, no partner
    ("Married to the idea of a van life.", "spouse"),
    ("Married Teodor in 2015.", "spouse"),  # the wedding, an event with its own reading
    ("Imogen chaired the parish council in 2019.", "be"),  # over: no role of now
    ("Imogen doesn't chair the parish council.", "be"),
]


def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "fact"), HAS)
def test_reading(extractor, text, fact):
    assert fact in facts(extractor, text)


@pytest.mark.parametrize(("text", "relation"), HAS_NOT)
def test_no_reading(extractor, text, relation):
    assert not [f for f in facts(extractor, text) if f[1] == relation]


RESOLVED = [
    ("I'm a bookkeeper at Hale & Sons.", "I quit Hale & Sons last week."),
    ("Married to Teodor.", "Divorced Teodor in the spring."),
    ("Ravi teaches maths at Kingsmead Academy.", "Ravi retired from Kingsmead Academy last summer."),
    ("Enrolled in a UX design bootcamp.", "Completed the UX design bootcamp."),
    # the role's verb meets its ending; "X of Y" meets "Y X" (Quirk §17.108)
    ("Imogen chairs the parish council.", "Imogen stepped down as council chair in May."),
    ("Captains the Thursday darts team.", "Handed the darts team captaincy to Joel."),
    ("I'm the secretary of the allotment society.",
     "I handed the allotment society secretary job over to Wen."),
    ("Coaches the under-9 netball squad.", "Handed the under-9 coaching role to Pilar."),
]

LOOK_ALIKES = [
    ("Ravi teaches maths at Kingsmead Academy.", "Ravi's wife retired from Kingsmead Academy."),
    ("I'm a bookkeeper at Hale & Sons.", "I quit the Hale & Sons football team."),
    ("Enrolled in a UX design bootcamp.",
     "Completed the first module of the UX design bootcamp."),
    ("Married to Teodor.", "Teodor's sister divorced her husband."),
    ("Imogen chairs the parish council.", "Imogen stepped down as treasurer."),
    ("I'm the captain of the rugby team.", "I handed the chess team captaincy over to Ola."),
    ("Coaches the under-9 netball squad.", "Handed the under-11 coaching role to Pilar."),
    ("Oskar teaches chemistry.", "Oskar's wife is no longer a teacher."),
    # a partner's other party, a spell, a pupil's or a patient's leaving
    ("Married to Teodor.", "Divorced from my first husband Kemal in 2009."),
    ("Married to Teodor.", "Separated from Teodor's family firm last year."),
    ("Imogen chairs the parish council.",
     "Imogen stepped down as council chair for the summer recess."),
    ("Ravi teaches maths at Kingsmead Academy.", "Ravi left Kingsmead Academy as a pupil in 1994."),
    ("Ravi teaches maths at Kingsmead Academy.", "Ravi left Kingsmead Academy for a sabbatical."),
    # a town's name before a site's noun: leaving the town is no leaving the site
    ("I work at the Leeds office.", "I left Leeds last year."),
    ("Works at the Bristol branch.", "Moved away from Bristol in May."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
