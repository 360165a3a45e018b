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


# a common noun and the same noun premodified restate one value (refined_kind); a name
# premodified is another name, and two modifiers of one head still differ
test_kind_change_resolves, test_kind_refinement_decides_nothing = pair_tables([
    ("I live in York.", "I live in New York now."),
    ("My favourite snack is salted almonds.", "My favourite snack is smoked almonds now."),
    ("My favourite drink is tea.", "My favourite drink is coffee now."),
    ("My favourite drink is tea.", "Actually, my favourite drink is iced tea now."),  # a change
], [
    ("My favourite snack is almonds.", "My favourite snack is salted almonds."),
    ("My favourite drink is tea.", "My favourite drink is iced tea."),
    ("Diet: vegetarian", "Diet: strict vegetarian"),
])


@pytest.mark.parametrize(("short", "long_", "expected"), [
    ("almond", "salted almond", True),
    ("tea", "iced green tea", True),
    ("tea", "very fine iced green tea", False),  # (more than two modifiers: another thing)
    ("iced tea", "tea", False),
    ("v2", "beta v2", False),
])
def test_premodifies(short, long_, expected):
    from scanner.core.refinements import premodifies
    assert premodifies(short, long_) is expected
