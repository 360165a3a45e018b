"""Quantities written in two units: when two values may be one amount.

A value with a unit is compared with another only in the unit it was written in, or after an
*exact* conversion from the curated table below; a value is a measurement, so it is read as the
interval its written digits round (ISO 80000-1:2009 Annex B, rounding of numbers: "178 cm" is
177.5-178.5 cm; a whole number ending in a zero may be rounded to tens, "180 cm" is 175-185 cm).
Two values in different units differ only when their intervals, converted exactly, do not meet:
"Height: 5'10\"" and "Height: 178 cm" may be one height (nothing to decide), "5'10\"" and
"190 cm" may not. Where no exact conversion exists (two currencies; a rent per month and one
per week) the two values are never compared, so no verdict is decided from them.

A rate's period ("$1,500 a month", "per year", "monthly", "/hr") belongs to the amount: two
amounts are compared per the same period, or after an exact calendar factor (12 months a year,
7 days a week, 24 hours a day); "$1,500 a month" and "$18,000 a year" are one rent.

Sources of the factors: NIST Special Publication 811 (2008 edition), *Guide for the Use of the
International System of Units*, Appendix B.8 (factors for units listed alphabetically) and
B.9 (by kind of quantity); those marked exact there (the international inch 0.0254 m, foot
0.3048 m, yard 0.9144 m, mile 1609.344 m, avoirdupois pound 0.45359237 kg, ounce 1/16 lb,
stone 14 lb, US liquid gallon 3.785411784 L, US fluid ounce 1/128 gal, mile per hour
0.44704 m/s, degree Fahrenheit t/°C = (t/°F - 32)/1.8) and the SI prefixes (SI Brochure, 9th
edition, Table 7). Calendar periods: ISO 8601-1:2019 §3.2 (a year of 12 months, a week of 7
days, a day of 24 hours).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

_F = Fraction

# unit word -> (dimension, exact factor to the SI base unit); NIST SP 811 App. B.8/B.9, SI
# Brochure Table 7 for the prefixed SI units
_UNITS: dict[str, tuple[str, Fraction]] = {}


def _add(dimension: str, factor: Fraction, *words: str) -> None:
    for w in words:
        _UNITS[w] = (dimension, factor)


_add("length", _F(1, 1000), "mm", "millimeter", "millimeters", "millimetre", "millimetres")
_add("length", _F(1, 100), "cm", "centimeter", "centimeters", "centimetre", "centimetres")
_add("length", _F(1), "m", "meter", "meters", "metre", "metres")
_add("length", _F(1000), "km", "kilometer", "kilometers", "kilometre", "kilometres")
_add("length", _F(254, 10000), "in", "inch", "inches", '"', "\u201d", "''")
_add("length", _F(3048, 10000), "ft", "foot", "feet", "'", "\u2019")
_add("length", _F(9144, 10000), "yd", "yard", "yards")
_add("length", _F(1609344, 1000), "mi", "mile", "miles")
_add("mass", _F(1, 1000000), "mg", "milligram", "milligrams")
_add("mass", _F(1, 1000), "g", "gram", "grams", "gramme", "grammes")
_add("mass", _F(1), "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms")
_add("mass", _F(1000), "t", "tonne", "tonnes")
_add("mass", _F(45359237, 100000000), "lb", "lbs", "pound", "pounds")
_add("mass", _F(45359237, 1600000000), "oz", "ounce", "ounces")
_add("mass", _F(45359237 * 14, 100000000), "st", "stone", "stones")
_add("time", _F(1), "s", "sec", "secs", "second", "seconds")
_add("time", _F(60), "min", "mins", "minute", "minutes")
_add("time", _F(3600), "h", "hr", "hrs", "hour", "hours")
_add("time", _F(86400), "day", "days")
_add("time", _F(604800), "wk", "wks", "week", "weeks")
_add("volume", _F(1, 1000000), "ml", "milliliter", "milliliters", "millilitre", "millilitres")
_add("volume", _F(1, 1000), "l", "liter", "liters", "litre", "litres")
_add("volume", _F(3785411784, 10 ** 12), "gal", "gallon", "gallons")
_add("volume", _F(3785411784, 128 * 10 ** 12), "fl oz")
_add("speed", _F(1000, 3600), "km/h", "kph", "kmh")
_add("speed", _F(44704, 100000), "mph")
_add("speed", _F(1), "m/s")

_TEMPERATURES = {"c": (_F(1), _F(27315, 100)), "\u00b0c": (_F(1), _F(27315, 100)),
                 "celsius": (_F(1), _F(27315, 100)),
                 "f": (_F(5, 9), _F(27315, 100) - _F(5, 9) * 32),
                 "\u00b0f": (_F(5, 9), _F(27315, 100) - _F(5, 9) * 32),
                 "fahrenheit": (_F(5, 9), _F(27315, 100) - _F(5, 9) * 32),
                 "kelvin": (_F(1), _F(0))}
"""Temperature scales: kelvin = factor * t + offset (NIST SP 811 App. B.9, exact)."""

_PERIODS: dict[str, Fraction] = {}
"""A rate's period -> its length in hours, for the calendar periods whose ratios are exact
(ISO 8601-1:2019 §3.2): hour, day, week; month and year are compared with each other only."""
for _w, _h in (("hour", 1), ("hr", 1), ("h", 1), ("day", 24), ("week", 168), ("wk", 168)):
    _PERIODS[_w] = _F(_h)
_MONTHS = {"month": _F(1), "mo": _F(1), "mth": _F(1), "year": _F(12), "yr": _F(12),
           "annum": _F(12), "quarter": _F(3)}
_ADVERBS = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month",
            "yearly": "year", "annually": "year", "p.a.": "year", "pa": "year",
            "pcm": "month", "pw": "week"}

_NUM = r"\d+(?:[.,]\d+)*"
_PART = re.compile(r"\s*(?P<num>" + _NUM + r")\s*(?P<unit>fl oz|km/h|m/s|\u00b0\s?[cf]|''|"
                   r"[\"'\u2019\u201d]|[a-z]+)\.?", re.IGNORECASE)
_RATE = re.compile(r"^\s*(?:(?:per|a|an|each|every|/)\s*(?P<period>hour|hr|h|day|week|wk|"
                   r"month|mo|mth|year|yr|annum|quarter)\b|(?P<adverb>hourly|daily|weekly|"
                   r"monthly|yearly|annually|p\.a\.|pa|pcm|pw)\b)", re.IGNORECASE)
_MONEY = re.compile(r"^(?P<num>\d+(?:\.\d+)?) (?P<code>[a-z]{3})$")


@dataclass(frozen=True, slots=True)
class Amount:
    """A written amount: its dimension, the unit it was written in, the interval of base-unit
    values its digits round, and the period of a rate (None when it is no rate)."""

    dimension: str
    unit: str
    low: Fraction
    high: Fraction
    period: str | None = None


def _number(text: str, tens: bool = True) -> tuple[Fraction, Fraction] | None:
    """The value of a written number and half the step of its last written digit; a whole
    number of three or more digits ending in zero may be rounded to tens ("180 cm"), unless
    ``tens`` is False (the last part of "5 ft 10 in" counts single inches)."""
    text = text.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text) \
        else text
    if not re.fullmatch(r"\d+(?:\.\d+)?", text):
        return None
    value = _F(text)
    if "." in text:
        return value, _F(1, 2 * 10 ** len(text.split(".")[1]))
    rounded = tens and len(text) >= 3 and text.endswith("0")
    return value, _F(10 if rounded else 1, 2)


def _period(rest: str) -> str | None:
    m = _RATE.match(rest)
    if m is None:
        return None
    word = (m["period"] or _ADVERBS[m["adverb"].lower()]).lower()
    return {"hr": "hour", "h": "hour", "wk": "week", "mo": "month", "mth": "month",
            "yr": "year", "annum": "year"}.get(word, word)


def _physical(text: str) -> Amount | None:
    """A length, mass, duration, volume, speed or temperature written as one amount or as
    amounts of descending units ("5'10\"", "5 ft 10 in", "1 hour 30 minutes"); a number
    after feet written with the foot mark is inches ("5'10")."""
    parts: list[tuple[str, str]] = []
    at = 0
    for m in _PART.finditer(text):
        if m.start() != at:
            break
        parts.append((m["num"], m["unit"].lower()))
        at = m.end()
    if not parts:
        return None
    rest = text[at:]
    inches = re.match(r"\s*(\d+(?:\.\d+)?)\s*$", rest)
    if inches is not None and parts[-1][1] in ("'", "\u2019"):
        parts.append((inches[1], '"'))
        rest = ""
    period = _period(rest)
    if period is None and rest.strip(" .,;)(\"'\u2019\u201d-"):
        return None
    unit = parts[0][1].replace(" ", "")
    if len(parts) == 1 and unit in _TEMPERATURES:
        read = _number(parts[0][0])
        if read is None:
            return None
        factor, offset = _TEMPERATURES[unit]
        value, half = read
        return Amount("temperature", unit.lstrip("\u00b0"), factor * (value - half) + offset,
                      factor * (value + half) + offset, period)
    dimension, total, half, units = None, _F(0), _F(0), []
    for num, word in parts:
        known = _UNITS.get(word)
        read = _number(num, tens=len(parts) == 1)
        if known is None or read is None or (dimension and known[0] != dimension):
            return None
        dimension = known[0]
        total += read[0] * known[1]
        half = read[1] * known[1]
        units.append(_canonical_unit(word))
    return Amount(dimension, "+".join(units), total - half, total + half, period)


def _canonical_unit(word: str) -> str:
    """One spelling per unit, so "5 ft 10 in" and "5'10\"" are written in one unit."""
    dimension, factor = _UNITS[word]
    return f"{dimension}:{factor}"


def amount(value: str, written: str, text: str) -> Amount | None:
    """The amount a value states, from its canonical form, its text as written and the text
    of its record (where a rate's period may follow the written value); None when the value
    is no amount with a unit.

    Args:
        value: the canonical object (``"1500 usd"``, ``"1.78 m"``).
        written: the object as written (``"$1,500"``, ``"178 cm"``).
        text: the record's text.
    """
    written = written.strip()
    at = text.find(written) if written else -1
    after = text[at + len(written):] if at >= 0 else ""
    money = _MONEY.match(value)
    if money is not None:
        period = _rate_in(written) or _period(after)
        number = _F(money["num"])
        return Amount("money", money["code"], number, number, period)
    found = _physical(written) if written else None
    if found is not None and found.period is None:
        period = _period(after)
        if period is not None:
            found = Amount(found.dimension, found.unit, found.low, found.high, period)
    return found


def _rate_in(written: str) -> str | None:
    """The period of a rate written inside a value ("1,500 per month", "$90k annually")."""
    for m in re.finditer(r"(?:\b(?:per|an?|each|every)\s+|/\s*)\w+|\b\w+ly\b|\bp\.a\.",
                         written, re.I):
        period = _period(m.group(0))
        if period:
            return period
    return None


def _per_period(a: Amount, b: Amount) -> tuple[Fraction, Fraction] | None:
    """The factor that brings ``b``'s period to ``a``'s, exactly; None when there is none."""
    if a.period == b.period:
        return _F(1), _F(1)
    if a.period is None or b.period is None:
        return None
    for table in (_PERIODS, _MONTHS):
        if a.period in table and b.period in table:
            return table[a.period], table[b.period]
    return None


def may_be_equal(a: Amount, b: Amount) -> bool | None:
    """Whether two amounts may be one amount: False when they are provably different (the
    same unit and period with other digits, or an exact conversion whose intervals do not
    meet); True when they may be equal or cannot be compared (two currencies, periods
    without an exact ratio, a rate and an amount without one); None for two dimensions."""
    if a.dimension != b.dimension:
        return None
    periods = _per_period(a, b)
    if periods is None or (a.dimension == "money" and a.unit != b.unit):
        return True
    pa, pb = periods
    if a.unit == b.unit and pa == pb:
        return a.low == b.low and a.high == b.high
    # per one period: an amount per year is 12 times the one per month
    return a.low / pa <= b.high / pb and b.low / pb <= a.high / pa


def one_amount(x_values: Iterable[tuple[str, str]], y_values: Iterable[tuple[str, str]],
               x_text: str, y_text: str) -> bool:
    """Whether two records' values may be one amount written in two units or per two
    periods ("5'10\"" / "178 cm", "$1,500 a month" / "$18,000 a year"), or cannot be
    compared at all ("$1,500" / "\u00a31,500"; a bare number and an amount with a unit,
    "72" / "158 lbs"): then their difference decides nothing.
    Values of another kind (not amounts with a unit, or of two dimensions) are left to
    the caller.

    Args:
        x_values: ``(canonical, written)`` values of one record.
        y_values: those of the other.
        x_text: the first record's text.
        y_text: the other record's text.
    """
    x_values, y_values = list(x_values), list(y_values)
    xa = [a for a in (amount(v, w, x_text) for v, w in x_values) if a is not None]
    ya = [a for a in (amount(v, w, y_text) for v, w in y_values) if a is not None]
    x_unit, y_unit = bool(xa) or _currency(x_values), bool(ya) or _currency(y_values)
    if (x_unit and not y_unit and any(bare_number(v, w) for v, w in y_values)) or (
            y_unit and not x_unit and any(bare_number(v, w) for v, w in x_values)):
        return True  # "Weight: 72" / "Weight: 158 lbs": the bare number's unit is unknown
    if not xa:
        return False
    return any(may_be_equal(a, b) for a in xa for b in ya)


def _currency(values: Iterable[tuple[str, str]]) -> bool:
    """Whether a value is written with a currency sign (Unicode General_Category Sc, "Symbol,
    currency": $, \u00a3, \u20ac, \u00a5 ...), a unit even where no amount is read from it."""
    return any(unicodedata.category(c) == "Sc" for v, w in values for c in v + w)


def bare_number(value: str, written: str) -> bool:
    """Whether a value is a number written without a unit ("72", "1,200", "3.5"): a
    measurement's unit is part of its value (ISO 80000-1:2009 §5.2, a quantity value is a
    number times a unit), so a bare number is never compared with an amount in a unit.

    Args:
        value: the canonical object.
        written: the object as written.
    """
    return _number(value.strip(), tens=False) is not None and \
        _number(written.strip(), tens=False) is not None


def written_values(values: Iterable[str], written: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(canonical, written)`` for each value, the written text defaulting to the value."""
    return [(v, written.get(v, v)) for v in values]
