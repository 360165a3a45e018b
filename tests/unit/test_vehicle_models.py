"""A vehicle stated by model year, make and model ("a 2014 Hyundai Kona"), then ended by its
model alone with a describing adjective ("traded in the old kona", "sold the trusty
kona"): :func:`scanner.core.named_referents.model_of`. A model that is also an English noun
("polo", "soul") is no such name alone. Pairs are two memories of one user."""

import pytest

from scanner.core.named_referents import model_of
from tests.unit.test_state_changes import pair_tables

ENDED = [
    ("I drive a 2014 Hyundai Kona.", "traded in the old kona for a hatchback last week"),
    ("i drive a 2014 hyundai kona", "sold the trusty kona yesterday"),
]
"""The later ending ends driving the vehicle."""

NOT_ENDED = [
    ("I drive a 2014 Hyundai Kona.", "traded in the old tucson for a hatchback last week"),
    ("I drive a 2014 Hyundai Kona.", "my cousin sold the old kona"),
    ("I drive a 2014 Hyundai Kona.", "might sell the old kona"),
    ("I drive a 2016 Volkswagen Polo.", "gave away the old polo, it had a stain on the collar"),
]
"""Look-alikes: nothing decided."""

test_model_ends_vehicle, test_look_alike_decides_nothing = pair_tables(ENDED, NOT_ENDED)


@pytest.mark.parametrize(("ended", "stated", "others", "same"), [
    ("old kona", "2014 hyundai kona", frozenset(), True),
    ("kona", "2014 hyundai kona", frozenset(), True),
    ("old tucson", "2014 hyundai kona", frozenset(), False),
    ("old kona", "2014 kona", frozenset(), False),  # (no make written)
    ("old kona", "2014 hyundai kona", frozenset({"2014 hyundai kona", "2009 ford kona"}),
     False),  # (two vehicles of that model)
    ("old laptop", "laptop", frozenset(), False),
    ("old polo", "2016 volkswagen polo", frozenset(), False),  # (an English noun)
])
def test_model_of(extractor, ended, stated, others, same):  # (the extractor fills NOUN_INDEX)
    assert model_of(ended, stated, others) is same
