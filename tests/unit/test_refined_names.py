"""A name and the same name narrowed name one thing (scanner.core.refinements): "Climbing gym:
Boulderhaus" / "Climbing gym: Boulderhaus Westend" restate one value more precisely, so
nothing is decided; two narrowings of one name, two names, or a model number made longer
are still changes."""

import pytest

from scanner.core.refinements import narrows
from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("Climbing gym: Boulderhaus Westend", "Climbing gym: Boulderhaus Nordpark"),
    ("Climbing gym: Boulderhaus", "Climbing gym: Kletterwerk"),
    ("Bank: Harlow Savings", "Bank: Meridian Trust"),
    ("Phone: Lumo 7", "Phone: Lumo 7 Max"),
]
"""Another place of one name, another name, another model: the later memory wins."""

SAME = [
    ("Climbing gym: Boulderhaus Westend", "Climbing gym: Boulderhaus, the Westend one"),
    ("Climbing gym: Boulderhaus", "Climbing gym: Boulderhaus Westend"),
    ("Library: Northgate Library Eastside", "Library: Northgate Library"),
    ("The user's bank is Harlow.", "The user's bank is Harlow Savings."),
]
"""One name and the same name narrowed (or the narrowing dropped): nothing is decided."""

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, SAME)


@pytest.mark.parametrize(("short", "long_", "expected"), [
    ("boulderhaus", "boulderhaus westend", True),
    ("northgate library", "northgate library eastside", True),
    ("lumo 7", "lumo 7 max", False),
    ("boulderhaus westend", "boulderhaus nordpark", False),
    ("westend", "boulderhaus westend", False),
])
def test_narrows(short, long_, expected):
    assert narrows(short, long_) is expected
