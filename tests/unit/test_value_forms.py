"""Two values that differ only in an "-s" ending of their last word are one value
(scanner.core.detect._one_word_form): a name read as a plural in lower case ("queens" for
Queens) or a noun in its two numbers is no change. Earlier/later pairs -> verdict."""

from __future__ import annotations

import pytest

from scanner.core.detect import _one_word_form
from tests.unit.test_state_changes import pair_tables


@pytest.mark.parametrize(("a", "b", "same"), [
    ("queens", "queen", True),
    ("the hamptons", "the hampton", True),
    ("berry", "berries", True),
    ("box", "boxes", True),
    ("leeds", "leed", True),
    ("queens", "brooklyn", False),
    ("as", "a", False),  # too short to be an ending
    ("red car", "blue cars", False),
    ("bus", "buses stop", False),
])
def test_one_word_form(a, b, same):
    assert _one_word_form(a, b) is same and _one_word_form(b, a) is same


RESOLVED = [
    ("i live in queens", "moved to Brooklyn last month"),
]

LOOK_ALIKES = [
    ("I live in Queens.", "i live in queens now"),
    ("Lives in Queens.", "still living in queens, love it"),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
