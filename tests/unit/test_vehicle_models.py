"""A vehicle stated by model year, make and model ("a 2014 Mazda Tribute"), then ended by its
model alone with a describing adjective ("traded in the old tribute", "sold the trusty
tribute"): :func:`scanner.core.named_referents.model_of`. Pairs are two memories of one
user."""

import pytest

from scanner.core.named_referents import model_of
from tests.unit.test_state_changes import pair_tables

ENDED = [
    ("I drive a 2014 Mazda Tribute.", "traded in the old tribute for a hatchback last week"),
    ("i drive a 2014 mazda tribute", "sold the trusty tribute yesterday"),
]
"""The later ending ends driving the vehicle."""

NOT_ENDED = [
    ("I drive a 2014 Mazda Tribute.", "traded in the old escape for a hatchback last week"),
    ("I drive a 2014 Mazda Tribute.", "my cousin sold the old tribute"),
    ("I drive a 2014 Mazda Tribute.", "might sell the old tribute"),
]
"""Look-alikes: nothing decided."""

test_model_ends_vehicle, test_look_alike_decides_nothing = pair_tables(ENDED, NOT_ENDED)


@pytest.mark.parametrize(("ended", "stated", "others", "same"), [
    ("old tribute", "2014 mazda tribute", frozenset(), True),
    ("tribute", "2014 mazda tribute", frozenset(), True),
    ("old escape", "2014 mazda tribute", frozenset(), False),
    ("old tribute", "2014 tribute", frozenset(), False),  # (no make written)
    ("old tribute", "2014 mazda tribute", frozenset({"2014 mazda tribute", "2009 ford tribute"}),
     False),  # (two vehicles of that model)
    ("old laptop", "laptop", frozenset(), False),
])
def test_model_of(ended, stated, others, same):
    assert model_of(ended, stated, others) is same
