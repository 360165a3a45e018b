"""One amount written in two units or per two periods is no change (scanner.core.quantities):
a value with a unit is compared in its own unit, or after an exact conversion (NIST SP 811
App. B) whose rounding intervals do not meet; amounts that cannot be converted exactly (two
currencies, a month and a week) decide nothing. Changes written in one unit, or in two units
whose exact conversions lie apart, are still decided."""

import pytest

from scanner.core.quantities import amount, one_amount
from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("Height: 6'1\"", "Height: 5'9\""),
    ("Height: 5'7\"", "Height: 191 cm"),
    ("- Weight: 82 kg", "- Weight: 76 kg"),
    ("Weight: 150 lbs", "Weight: 90 kg"),
    ("Monthly rent: $1,250", "Monthly rent: $1,475"),
    ("My rent is $900 a month.", "My rent is $1,100 a month."),
    ("My salary is $70,000 a year.", "My salary is $95,000 a year."),
    ("Commute: 20 minutes", "Commute: 75 minutes"),
]
"""Changes of an amount: the later memory wins."""

SAME = [
    ("Height: 6'1\"", "Height: 185 cm"),
    ("- Height: 5 ft 4 in", "- Height: 163 cm"),
    ("Weight: 143 lbs", "Weight: 65 kg"),
    ("Weight: 11 st", "Weight: 70 kg"),
    ("Commute: 1 hour 15 minutes", "Commute: 75 minutes"),
    ("Long run: 10 miles", "Long run: 16 km"),
    ("Thermostat: 70F", "Thermostat: 21C"),
    ("My rent is $950 a month.", "My rent is $11,400 a year."),
    ("Rent: $2,100 per month", "Rent: $25,200 per year"),
    ("I pay $30 a day for parking.", "I pay $210 a week for parking."),
    # no exact conversion: nothing is decided from the difference
    ("Salary: $80,000", "Salary: \u00a362,000"),
    ("I pay $400 a week for childcare.", "I pay $1,700 a month for childcare."),
]
"""One amount written twice, or two that cannot be compared: nothing is decided."""

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, SAME)


@pytest.mark.parametrize(("written", "context", "dimension", "period"), [
    ("5'10\"", "", "length", None),
    ("5'10", "", "length", None),
    ("5 feet 10 inches", "", "length", None),
    ("178 cm", "", "length", None),
    ("165 lbs", "", "mass", None),
    ("1 hour 30 minutes", "", "time", None),
    ("68F", "", "temperature", None),
    ("$1,500", "Rent is $1,500 a month.", "money", "month"),
    ("$1,500", "Rent: $1,500/mo", "money", "month"),
    ("$60,000", "Salary: $60,000 annually", "money", "year"),
])
def test_amounts_as_written(written, context, dimension, period):
    from extractors import normalize_value
    found = amount(normalize_value(written), written, context or written)
    assert found is not None and (found.dimension, found.period) == (dimension, period)


@pytest.mark.parametrize("written", ["10 in stock", "5k", "3 of them", "Flat 4B", "2 cats"])
def test_no_amount(written):
    from extractors import normalize_value
    assert amount(normalize_value(written), written, written) is None


@pytest.mark.parametrize(("a", "b", "same"), [
    ("180 cm", "5'11\"", True),     # 175-185 cm and 179.1-181.6 cm meet
    ("6 ft", "190 cm", True),       # a whole foot rounds 6 in either way
    ("6'0\"", "190 cm", False),     # 182.1-184.2 cm and 189.5-190.5 cm do not meet
    ("75 kg", "165 lbs", True),
    ("75 kg", "180 lbs", False),
    ("20C", "68F", True),
    ("20C", "80F", False),
])
def test_exact_conversions(a, b, same):
    from extractors import normalize_value
    assert one_amount([(normalize_value(a), a)], [(normalize_value(b), b)], a, b) is same


BARE_RESOLVED = [
    ("Weight: 68 kg", "Weight: 71 kg"),
    ("- Mileage goal: 20 km", "- Mileage goal: 35 km"),
    ("Age: 41", "Age: 42"),
    ("Savings target: 5000", "Savings target: 8000"),
]
"""Two numbers both bare, or both with a unit: still a change the later memory wins."""

BARE_SAME = [
    ("Weight: 68", "Weight: 150 lbs"),
    ("- Weight: 160 lbs", "- Weight: 73"),
    ("Grocery budget: 900", "Grocery budget: \u20ac900 a month"),
    ("Rent: $1,350 a month", "Rent: 1600"),
    ("Long run: 12", "Long run: 18 km"),
    ("Commute: 40", "Commute: 1 hour"),
]
"""A bare number against a number with a unit: the bare number's unit is unknown, so the
pair is never compared and nothing is decided."""

test_bare_numbers_resolve, test_bare_number_against_unit_decides_nothing = pair_tables(
    BARE_RESOLVED, BARE_SAME)


@pytest.mark.parametrize(("value", "written", "bare"), [
    ("72", "72", True), ("1200", "1,200", True), ("3.5", "3.5", True),
    ("72 kg", "72 kg", False), ("1200 gbp", "\u00a31,200", False), ("v2", "v2", False),
])
def test_bare_number(value, written, bare):
    from scanner.core.quantities import bare_number
    assert bare_number(value, written) is bare


@pytest.mark.parametrize("line, value, where", [
    ("Node f2 read throughput ceiling: 3,300 ops/s at 128 agents.", "3300 ops/s", "at 128 agents"),
    ("Node f2 read throughput ceiling: 3.3k ops/s at 128 agents.", "3300 ops/s", "at 128 agents"),
    ("Ingest rate limit: 120 req/min", "120 req/min", None),
])
def test_a_rate_in_an_unregistered_unit_is_one_value(extractor, line, value, where):
    """A ``key: value`` line whose value is a rate ("<thing>/<time>") is one amount: its
    thousands comma splits no list, a magnitude suffix is read ("3.3k" = 3,300), and a
    trailing circumstance is its place (extractors/constructions/key_values.py)."""
    found = [t for t in extractor.extract(line) if t.rule == "key_value"]
    assert [(t.object, t.qualifier("place")) for t in found] == [(value, where)]


def test_one_labelled_line_said_twice_in_other_numerals_is_a_duplicate(engine):
    """scanner/core/duplicates.py: a record that is one ``key: value`` line says its key's
    value only; a verb reading of its words does not make two restatements differ."""
    from scanner.models import MemoryRecord

    records = [MemoryRecord(id=f"m{i}", text=f"Node f2 read throughput ceiling: {v} ops/s.",
                            user_id="u1") for i, v in ((1, "3,300"), (2, "3.3k"))]
    assert engine.scan(records).duplicates == [["m1", "m2"]]
