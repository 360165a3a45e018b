"""An attribute placed at the time of speaking ("my present address", "current employer") is the
attribute itself (extractors.relations._NOW_MODIFIERS, time deixis): its value is compared with
the attribute's earlier value; "new" is not such a word ("new hobby" may add one, "new phone"
name a handset), and a lexicalised compound ("current account") keeps its adjective. One placed
in the past ("my old address") is another attribute.
Sentence -> triples, and earlier/later pairs -> verdict, with look-alikes that must decide
nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

HAS = [
    ("My present address is 4 Quarry Row.", (U, "address", "4 quarry row", False)),
    ("Current employer: Halvorsen Freight", (U, "employer", "halvorsen freight", False)),
    ("my latest phone number is 555-0148", (U, "phone", "5550148", False)),
    ("Updated email: ilse.brandt@example.org", (U, "email", "ilse.brandt@example.org", False)),
]

KEPT = [
    ("My old address was 9 Mill Lane.", "old address"),
    ("Previous employer: Dunmore Mills", "previous employer"),
    ("Former employer: Dunmore Mills", "former employer"),
    # "new" may add a value or name another thing: a new hobby, a new pup, a new handset
    ("New hobby: birdwatching", "new hobby"),
    ("My new pup is Biscuit.", "new pup"),
    ("My new phone is a Pixel 9.", "new phone"),
    # a compound that names a kind of its own
    ("My current account number is 87654321.", "current account number"),
]


@pytest.mark.parametrize(("text", "fact"), HAS)
def test_reading(extractor, text, fact):
    assert fact in {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "relation"), KEPT)
def test_past_attribute_is_another(extractor, text, relation):
    assert relation in {t.relation for t in extractor.extract(text)}


RESOLVED = [
    ("My address is 9 Mill Lane.", "My present address is 4 Quarry Row."),
    ("Employer: Dunmore Mills", "Current employer: Halvorsen Freight"),
]

LOOK_ALIKES = [
    ("My address is 9 Mill Lane.", "My old address was 4 Quarry Row."),
    ("My address is 9 Mill Lane.", "My sister's current address is 4 Quarry Row."),
    ("My account number is 12345678.", "My current account number is 87654321."),
    ("My pup is Biscuit.", "My new pup is Nutmeg."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)

