"""A partner named beside the partner noun ("my boyfriend Tomas") and a breakup with that
partner (FrameNet Personal_relationship, Forming_relationships)."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

UPDATES = [
    ("my boyfriend Tomas and I are painting the spare room", "Tomas and I broke up in May"),
    ("me and my bf Tomas are repainting the hall lol", "tomas and i split up a few days ago tbh"),
    ("My boyfriend is Tomas.", "I broke up with Tomas last month."),
    ("my wife Ines and I run a bakery", "Ines and I divorced last year"),
]
"""The later memory ends the relationship with the named partner: resolved for it."""

LOOK_ALIKES = [
    # someone else's breakup
    ("my boyfriend Tomas and I are painting the spare room", "my brother and Carla split up"),
    ("my boyfriend Tomas and I are painting the spare room",
     "Tomas's parents split up when he was six"),
    # a sibling is no partner: another sister named is no change
    ("my sister Ana and I share a flat", "my sister Bea is visiting"),
    # a bill split is no breakup
    ("my boyfriend Tomas and I are painting the spare room", "Tomas and I split the bill"),
]
"""Look-alikes: nothing decided."""

test_partner_breakup_resolves, test_look_alike_decides_nothing = pair_tables(UPDATES, LOOK_ALIKES)


@pytest.mark.parametrize(("sentence", "expected"), [
    ("my boyfriend Tomas and I are painting the spare room", ("boyfriend", "tomas")),
    ("me and my girlfriend Noor are moving soon", ("girlfriend", "noor")),
    ("my sister Ana lives in Lyon", None),      # a kinship noun: one of several
    ("Leo's girlfriend Mia is a nurse", None),  # someone else's partner
    ("my girlfriend's dog Pip is old", None),
])
def test_the_partner_is_named(extractor, sentence, expected):
    found = [(t.relation, t.object) for t in extractor.extract(sentence)
             if t.subject == U and t.rule == "appositive"]
    assert found == ([expected] if expected else []), found
