"""A possessed pet named beside its noun says its owner has it, whatever the small parser made
of it ("Leontyne's gecko Pesto is 9 years old": the pet noun tagged an adjective; "Leontyne's
gecko, Pesto, is 9"), and its death ends having it ("Leontyne's gecko Pesto passed away": the
name the parser made the subject of a clause under the pet noun). Pairs are scanned as two
memories of one user, the later a day after the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

ENDED = [
    ("Leontyne's gecko Pesto is 9 years old and very tame.",
     "Leontyne's gecko Pesto died on Sunday."),
    ("Leontyne's gecko, Pesto, is 9 years old.",
     "Leontyne's gecko Pesto passed away over the holidays."),
]
"""The pet's death ends having it: resolved for the later."""

KEPT = [
    # another owner's pet, or food
    ("Leontyne's gecko Pesto is 9 years old.", "Bartholomew's gecko Pesto died on Sunday."),
    ("Leontyne's chicken is delicious.", "Leontyne's chicken was eaten by the fox."),
]
"""Look-alikes: nothing decided."""

test_pet_death_resolves, test_look_alike_decides_nothing = pair_tables(ENDED, KEPT)


@pytest.mark.parametrize(("sentence", "fact"), [
    ("Leontyne's gecko Pesto is 9 years old and very tame.", ("leontyne", "have", "gecko", False)),
    ("Leontyne's parrot Pesto is 9 years old.", ("leontyne", "have", "parrot pesto", False)),
    ("Leontyne's gecko, Pesto, is 9 years old.", ("leontyne", "have", "gecko", False)),
    ("Leontyne's gecko Pesto passed away over the holidays.",
     ("leontyne", "have", "gecko", True)),
])
def test_named_pet_triples(extractor, sentence, fact):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert fact in found, sorted(found)


@pytest.mark.parametrize("sentence", [
    "Leontyne's chicken is delicious.",
    "Leontyne's fish was overcooked.",
])
def test_food_is_no_pet(extractor, sentence):
    found = [t for t in extractor.extract(sentence) if t.relation == "have"]
    assert found == [], found
