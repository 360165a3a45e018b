"""A thing stated by model year, make and model ("drives a 2016 Kia Rio") and ended by its
make alone, however written ("sold the kia"): the ending ends it
(:func:`scanner.core.named_referents.make_of_model`). Pairs are two memories of one user."""

import pytest

from scanner.core.named_referents import make_of_model
from tests.unit.test_state_changes import pair_tables

U = "user"

SOLD = [
    ("I drive a 2016 Kia Rio.", "sold the kia"),
    ("I drive a 2016 Kia Rio.", "I sold the Kia last week."),
    ("Lucia drives a 2011 subaru forester.", "Lucia sold the subaru."),
    ("I ride a 2019 Yamaha MT-07.", "traded in the yamaha"),
    ("I have a 2013 toyota prius.", "sold the toyota!!"),
    ("I have a 1972 Gibson Les Paul.", "I sold the gibson."),
]
"""The later ending ends the thing stated by year, make and model."""

NOT_SOLD = [
    # another thing of the make: its head noun names another kind
    ("I drive a 2016 Kia Rio.", "sold my old Kia van"),
    # another make, another owner
    ("I drive a 2016 Kia Rio.", "sold the fiat"),
    ("I drive a 2016 Kia Rio.", "my cousin sold his kia"),
    # two of the make in one memory: the make alone names neither
    ("I have a 2016 Kia Rio and a 2009 Kia Sorento.", "sold the kia"),
    # a particular one picked out by a modifier
    ("I drive a 2016 Kia Rio.", "sold the kia I had at university"),
    ("I have a laptop.", "sold the laptop I used in college"),
    # a plan or a question
    ("I drive a 2016 Kia Rio.", "might sell the kia"),
    ("I drive a 2016 Kia Rio.", "should I sell the kia?"),
]
"""Look-alikes: nothing decided."""

test_make_ends_model, test_look_alike_decides_nothing = pair_tables(SOLD, NOT_SOLD)


@pytest.mark.parametrize(("sentence", "fact"), [
    ("I drive a 2016 Kia Rio.", (U, "drive", "2016 kia rio", False)),
    ("sold the kia", (U, "drive", "kia", True)),
    ("Lucia sold the subaru.", ("lucia", "have", "subaru", True)),
])
def test_triples(extractor, sentence, fact):
    assert fact in {(t.subject, t.relation, t.object, t.negated)
                    for t in extractor.extract(sentence)}


@pytest.mark.parametrize(("ended", "stated", "others", "same"), [
    ("kia", "2016 kia rio", frozenset(), True),
    ("rio", "2016 kia rio", frozenset(), False),  # (the model: same_referent's head match)
    ("kia", "kia rio", frozenset(), False),
    ("kia", "2016 kia", frozenset(), False),
    ("kia", "2016 kia rio 2009 kia sorento", frozenset(), False),
    ("kia", "2016 kia rio", frozenset({"2016 kia rio", "2009 kia sorento"}), False),
    ("kia van", "2016 kia rio", frozenset(), False),
])
def test_make_of_model(ended, stated, others, same):
    assert make_of_model(ended, stated, others) is same
