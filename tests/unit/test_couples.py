"""A couple said to be together ("Mateo and I have been together four years", chat "me n
Mateo have been together like 4 yrs"): (user, be in relationship with, <name>), which a later
break-up ends (:mod:`extractors.constructions.couples`). Pairs are two memories of one
user."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"
REL = "be in relationship with"


@pytest.mark.parametrize(("sentence", "fact"), [
    ("Mateo and I are together.", (U, REL, "mateo", False)),
    ("Mateo and I have been together for four years.", (U, REL, "mateo", False)),
    ("me and Mateo have been together like 4 yrs now", (U, REL, "mateo", False)),
    ("me n Mateo have been together since 2020", (U, REL, "mateo", False)),
    ("Ines Duarte and I are still together.", (U, REL, "ines duarte", False)),
])
def test_couple_read(extractor, sentence, fact):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert fact in found
    # (no relation of the partner to themself)
    assert not any(t.subject == t.object for t in extractor.extract(sentence))


@pytest.mark.parametrize("sentence", [
    "Mateo and I were together at university.",  # past, and a place: company
    "Mateo and I are together on this.",  # agreement
    "Mateo and I will be together soon.",  # future
    "My sister and I are together this weekend.",  # no name, a spell
    "We have been together for four years.",  # no second party named
    "Mateo and I are not together.",  # a denial reads nothing here
    "Mateo and I are together like family.",  # a likeness
    "Mateo and Lucia are together.",  # not the user
])
def test_no_couple(extractor, sentence):
    assert not any(t.relation == REL and not t.negated for t in extractor.extract(sentence))


SPLIT = [
    ("me and Mateo have been together like 4 yrs now", "mateo and i split up on sunday"),
    ("Mateo and I have been together for four years.", "Mateo and I broke up last month."),
    ("Mateo and I are together.", "I broke up with Mateo."),
]
"""The later break-up ends the relationship."""

NOT_SPLIT = [
    ("Mateo and I have been together for four years.", "Lucia and I broke up last month."),
    ("Mateo and I have been together for four years.", "Mateo and I might break up."),
    ("Mateo and I have been together for four years.", "Mateo and I were at school together."),
    ("Mateo and I are together.", "Mateo and I are still together."),
]
"""Look-alikes: nothing decided."""

test_break_up_ends_couple, test_look_alike_decides_nothing = pair_tables(SPLIT, NOT_SPLIT)


@pytest.mark.parametrize("text", [
    "Me and Dario have been together since 9am.",  # a meeting's start, no relationship's
    "Dario and I have been together since Monday.",
])
def test_a_short_span_is_no_couple(extractor, text):
    assert not [t for t in extractor.extract(text) if t.relation == "be in relationship with"]
