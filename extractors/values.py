"""Canonical forms of object values: dates, money, physical quantities and numbers (SPEC §1).

Issue 3 asks for values "normalised with well-kept libraries ... so "$2,000,000" == "2M USD" and
"30s" == "30 seconds"; dates to ISO". Each kind of value is read by one library:

* **dates** by python-dateutil, written as ISO 8601: ``"March 3, 2026"``, ``"3 March 2026"`` and
  ``"2026-03-03"`` -> ``"2026-03-03"``; ``"March 2026"`` -> ``"2026-03"``; ``"March 3"`` ->
  ``"--03-03"`` (ISO 8601:2000's truncated form, XML Schema's ``gMonthDay``); a date with a time
  -> ``"2026-03-03T10:00"`` (``Z`` or ``±hh:mm`` appended when the text gives a zone); a time
  of day alone -> ``"15:00"``. Rules: a text is read as a date only when it names a month or has
  a numeric date shape (``2026-03-03``, ``3/4/2026``, ``3.4.2026``, ``3-4-2026``, always with a
  four-digit year); bare years and plain numbers are numbers, never dates. Numeric day/month
  order follows dateutil's default (``dayfirst=False``): **month first**, so ``03/04/2026`` is
  ``2026-03-04``, unless the first field cannot be a month (``13/04/2026`` is ``2026-04-13``).
* **money** by price-parser (its amount parser and its ISO 4217 currency table): ``"$2,000,000"``,
  ``"2M USD"``, ``"$2 million"`` and ``"2 million dollars"`` -> ``"2000000 usd"``; ``"€3.5bn"`` ->
  ``"3500000000 eur"``. Scale words after the amount (k, m/mm/mn, b/bn, t/tn, thousand, million,
  billion, trillion; case-insensitive next to a currency) multiply it. A symbol that several
  currencies share means the most traded one (``$`` USD, ``£`` GBP, ``₩`` KRW) or, failing
  that, nothing (``kr`` is not read as money). Bare words (dollars, bucks, euros, quid, yen,
  rupees, francs, yuan) mean USD, USD, EUR, GBP, JPY, INR, CHF, CNY; "pounds" alone is a mass.
  Lower-case ISO codes are read only for the most traded currencies (``"5 eur"``), so
  ``"2 cup"`` is two cups (a volume), not Cuban pesos.
* **units and durations** by pint: the quantity in base SI units, then — for a single unit
  (not a product, quotient or power of units), except durations (seconds) and temperatures
  (kelvin) — one SI prefix chosen from that base magnitude alone
  (pint's ``to_compact``), so equal quantities still give equal text and people read ``"5 mg"``,
  not ``"0.000005 kg"`` (``"2 km"`` == ``"2000 m"`` -> ``"2 km"``; ``"1.5 hours"`` ==
  ``"90 min"`` -> ``"5400 s"``; ``"30 km/h"`` -> ``"8.33333333333 m/s"``; ``"20 °C"`` ->
  ``"293.15 K"``; ``"5 GB"`` -> ``"40 Gbit"``), magnitudes to 12 significant digits; several amounts of one
  dimension add up (``"1 hour 30 minutes"`` -> ``"5400 s"``). Percentages stay percentages
  (``"50%"`` -> ``"50 percent"``). Pint's registry is liberal, so a unit is accepted only when
  its dimension is built from length, mass, time, temperature and current (or it counts bits
  or bytes, which pint keeps dimensionless), an SI prefix sits only on an SI or data unit
  ("pinch" is not a pico-inch), and it is none of the everyday words or lone letters pint also
  defines (point, hand, bar, chain, link, rod, league, degree of angle; ``a``, ``am``, ``pm``,
  ``in``, ``us``, ``k``, ``K``, ``M``, ``B``, ...). ``C`` and ``F`` after a number are degrees
  Celsius and Fahrenheit.
* **numbers** by text2num for words (``"twenty-five"`` -> ``"25"``, ``"two hours"`` ->
  ``"7200 s"``); a count is written without thousands separators (``"2,000"`` -> ``"2000"``),
  scale words and K/M/B/bn suffixes multiply it (``"2M"`` -> ``"2000000"``; a lone lower-case
  ``m`` after a number is metres, not millions), decimals keep the digits as written
  (``"3.10"`` stays ``"3.10"``: versions are values too), and digits with a leading zero are
  identifiers (``"02139"`` stays text). A leading decimal point is the number's, not
  punctuation: ``".5 mg"`` == ``"0.5 mg"`` -> ``"500 µg"``, and ``".5"`` -> ``"0.5"``.

Anything else is lower-cased, with leading articles and surrounding punctuation removed; its
number words stay words (``"One Direction"`` is a band, not ``"1 direction"``), and plural
folding is the rules' job (they lemmatise the tokens, see ``extractors.rules``).

Speed: only a text with a digit, a currency sign or a number word reaches a library (a regular
expression decides), results are memoised per text (``functools.lru_cache``), and pint's unit
registry is built once, on first use, from the definitions shipped with pint (no network, no
disk cache).
"""

from __future__ import annotations

import datetime as _dt
import re
import tokenize
import unicodedata
from decimal import Decimal
from functools import lru_cache
from typing import Any

_PUNCT = ".,;:!?\"'()"
_ARTICLES = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)

_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand million billion trillion").split()
"""English cardinal words: the cheap gate in front of text2num, which does the conversion."""

_CURRENCY_SIGNS = "".join(chr(c) for c in [*range(0x20, 0x20D0), 0xFE69, 0xFF04, 0xFFE0, 0xFFE1,
                                          0xFFE5, 0xFFE6] if unicodedata.category(chr(c)) == "Sc")
"""Unicode's currency symbols (category ``Sc``: ``$ £ ¥ € ₹ ₩`` ...)."""

_MAYBE_VALUE = re.compile(
    r"\d|[" + re.escape(_CURRENCY_SIGNS) + r"]|\b(?:" + "|".join(_NUMBER_WORDS) + r")\b",
    re.IGNORECASE)
"""The pre-check: only a text this matches is handed to a library."""

_LEADING_NUMBER_WORD = re.compile(
    r"^(?:" + "|".join(_NUMBER_WORDS) + r")(?:\b|-)", re.IGNORECASE)

# -- numbers ---------------------------------------------------------------------------------
_NUM = r"[-−+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
_SCALES = {"thousand": 10**3, "k": 10**3, "million": 10**6, "m": 10**6, "mm": 10**6,
           "mn": 10**6, "billion": 10**9, "b": 10**9, "bn": 10**9, "trillion": 10**12,
           "t": 10**12, "tn": 10**12}
"""Scale words after an amount (finance usage: "$2M", "€3.5bn", "10k")."""
_COUNT_SCALE = (r"(?:thousand|million|billion|trillion|Thousand|Million|Billion|Trillion"
                r"|k|K|M|B|bn|mn|tn)")
"""Scales of a bare count: as ``_SCALES`` less the letters that are also units (m metre,
t tonne, b barn) in lower case."""
_COUNT = re.compile(r"^(?P<num>" + _NUM + r")(?:\s*(?P<scale>" + _COUNT_SCALE + r"))?$")

# -- money -----------------------------------------------------------------------------------
_MONEY = re.compile(
    r"^(?:(?P<pre>[^\d\s.,+−-][^\d\s]*)\s*)?(?P<sign>[-−])?(?P<num>\d[\d.,']*\d|\d|\.\d+)"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion|mm|mn|bn|tn|k|m|b|t)\b\.?)?"
    r"(?:\s*(?P<post>[^\d\s][^\d]*?))?$", re.IGNORECASE)
_MAJOR_CODES = frozenset(
    "usd eur gbp jpy chf cad aud nzd cny hkd sgd inr krw sek nok dkk pln mxn brl zar".split())
"""ISO 4217 codes also read in lower case: the most traded currencies (BIS Triennial Survey)."""
_PREFERRED = {"$": "USD", "US$": "USD", "£": "GBP", "₩": "KRW", "원": "KRW", "CN¥": "CNY",
              "NT$": "TWD"}
"""A symbol several currencies share means the most traded of them."""
_CURRENCY_WORDS = {
    "dollar": "USD", "dollars": "USD", "buck": "USD", "bucks": "USD", "euro": "EUR",
    "euros": "EUR", "pounds sterling": "GBP", "quid": "GBP", "yen": "JPY", "rupee": "INR",
    "rupees": "INR", "franc": "CHF", "francs": "CHF", "yuan": "CNY", "renminbi": "CNY"}
"""Bare currency words, read as the currency they most often mean in English text. "Pounds"
alone is left to pint (a mass: "weighs 150 pounds"); sterling is "£", "GBP" or "quid"."""

# -- units -----------------------------------------------------------------------------------
_QUANTITY_PART = re.compile(r"(?P<num>" + _NUM + r")\s*(?P<unit>[^\d]*)")
_UNIT_WORD = r"(?:[°º%]|[^\W\d_]+\.?)"
_UNIT_SHAPE = re.compile(
    r"^" + _UNIT_WORD + r"(?:(?:\s+|\s*/\s*|·|\*)" + _UNIT_WORD + r"|\^?[23]|\*\*[23]|[²³])*$")
"""Unit words and symbols joined by spaces, "/", "·" or "*", with exponents 2 and 3: all that
is handed to pint's expression parser."""
_UNIT_SEPARATOR = re.compile(r"(?:\s*,|\s+and)\s*$", re.IGNORECASE)
_TEMPERATURE = re.compile(
    r"^(?:(?:°|º|deg(?:ree)?s?\.?)\s*)?(?P<scale>C|F|celsius|centigrade|fahrenheit)$",
    re.IGNORECASE)
_PERCENT = re.compile(r"^(?:%|percent|per\s*cent|pct)$", re.IGNORECASE)
_NOT_UNITS = frozenset("a am pm in at on or as it is to of us k K M B b G T P R E N Z Y".split())
"""Words and letters pint defines that, after a number in English text, are something else:
articles and prepositions (``a`` is pint's annum, ``in`` the inch), times of day (``am``/``pm``
are atto- and picometres), scale letters (``K``/``M``/``B``), physical constants and rare
units (``k`` Boltzmann, ``G`` gauss, ``R`` gas constant)."""
_NOT_UNIT_NAMES = frozenset(
    "point hand bar league chain link rod barn degree turn count mil thou nit lambda bushel "
    "pica".split())
"""Units pint knows whose names are mostly everyday nouns ("2 points", "3 bars", "2 degrees")."""
_PREFIXABLE = frozenset(
    "meter gram second liter byte bit watt hertz joule volt ampere pascal newton "
    "watt_hour calorie baud".split())
"""Units an SI or binary prefix may sit on ("km", "mg", "GB"); elsewhere a prefix is a misreading
("pinch" is not a pico-inch)."""
_PREFIXES = frozenset("kilo mega giga tera peta milli micro nano centi kibi mebi gibi tebi".split())
_DIMENSIONS = frozenset(["[length]", "[mass]", "[time]", "[temperature]", "[current]"])
"""Base dimensions a quantity may be built from; bits and bytes, which pint keeps
dimensionless, are read as well."""
_UNIT_WORDS = frozenset("per square squared cubic cubed sq".split())


def count_in_digits(text: str) -> str:
    """A count of things written with digits, as a number alone is: ``"two dog"`` ->
    ``"2 dog"``, ``"twenty five cat"`` -> ``"25 cat"``; unchanged when ``text`` does not start
    with a number word. The rules call it only for a number word that counts a common noun
    (``"One Direction"`` is a band and keeps its words)."""
    return _digits(text)

# -- dates -----------------------------------------------------------------------------------
_MONTH = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_WEEKDAY = (r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
            r"|sat(?:urday)?|sun(?:day)?")
_TIME = r"\d{1,2}(?::\d{2}(?::\d{2})?)?\s*(?:[ap]\.?m\.?)?"
_NUMERIC_DATE = re.compile(
    r"^(?:\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
    r"(?:\s*(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?)?"
    r"|\d{1,2}([/.-])\d{1,2}\1\d{4}(?:,?\s+(?:at\s+)?" + _TIME + r")?)$", re.IGNORECASE)
_WORD_DATE = re.compile(
    r"^(?:(?:" + _WEEKDAY + r")\.?,?\s+)?(?:the\s+)?"
    r"(?:(?P<md>(?:" + _MONTH + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)"
    r"|(?P<dm>\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:" + _MONTH + r")\.?(?:,?\s+\d{4})?)"
    r"|(?P<my>(?:" + _MONTH + r")\.?,?\s+\d{4}))"
    r"(?:,?\s+(?:at\s+)?" + _TIME + r")?$", re.IGNORECASE)
_TIME_OF_DAY = re.compile(
    r"^(?:\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?)$", re.IGNORECASE)
_DEFAULTS = (_dt.datetime(2000, 1, 1, 0, 0, 0), _dt.datetime(2004, 2, 2, 1, 1, 1))
"""Two defaults that differ in every field (both leap years): a field the text gives is the same
in both parses, a field it leaves out is not."""


def _fold(text: str) -> str:
    """Surrounding punctuation and runs of spaces removed (case kept). A lone decimal point
    before a digit is part of the number, not punctuation: ``".5 mg"`` keeps its point
    (half a milligram, not five), ``"'.5'"`` folds to ``".5"``."""
    text = text.strip().rstrip(_PUNCT)
    body = text.lstrip(_PUNCT)
    lead = text[:len(text) - len(body)]
    if body[:1].isdigit() and lead.endswith(".") and not lead.endswith(".."):
        body = "." + body
    return " ".join(body.split())


def _plain(number: str) -> str:
    """A number as matched by ``_NUM`` in Python's syntax: "−2,000" -> "-2000", "+5" -> "5"."""
    return number.replace(",", "").replace("−", "-").lstrip("+")


def _decimal_text(value: Decimal) -> str:
    """Plain positional notation without trailing zeros: Decimal("7.2E+3") -> "7200"."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "+0") else text


def _float_text(value: float) -> str:
    """A float to 12 significant digits in plain notation (absorbs binary rounding:
    20 °C and 68 °F both give 293.15 K)."""
    return _decimal_text(Decimal(f"{value:.12g}"))


def _digits(text: str) -> str:
    """``text`` with a leading number written in words turned into digits by text2num
    ("twenty-five km" -> "25 km", "two million dollars" -> "2000000 dollars"); unchanged when it
    does not start with one."""
    if not _LEADING_NUMBER_WORD.match(text):
        return text
    from text_to_num import text2num

    words = text.split()
    for n in range(len(words), 0, -1):
        try:
            number = text2num(" ".join(words[:n]), "en")
        except ValueError:
            continue
        return " ".join([str(number), *words[n:]])
    return text


# -- dates -----------------------------------------------------------------------------------
def _date(text: str) -> str | None:
    """ISO 8601 form of a date, a date and time, or a time of day; None for anything else."""
    time_only = bool(_TIME_OF_DAY.match(text))
    if not (time_only or _NUMERIC_DATE.match(text) or _WORD_DATE.match(text)):
        return None
    from dateutil import parser

    try:
        a, b = (parser.parse(text, default=d) for d in _DEFAULTS)
    except (parser.ParserError, ValueError, OverflowError):
        return None
    has = {f: getattr(a, f) == getattr(b, f)
           for f in ("year", "month", "day", "hour", "minute", "second")}
    clock = ""
    if has["hour"] or has["minute"]:
        clock = f"{a.hour:02d}:{a.minute:02d}" + (f":{a.second:02d}" if has["second"] else "")
        offset = a.utcoffset()
        if offset is not None:
            minutes = int(offset.total_seconds() // 60)
            sign = "-" if minutes < 0 else "+"
            hours, rest = divmod(abs(minutes), 60)
            clock += "Z" if minutes == 0 else f"{sign}{hours:02d}:{rest:02d}"
    if time_only:
        return clock or None
    if has["year"] and has["month"] and has["day"]:
        day = f"{a.year:04d}-{a.month:02d}-{a.day:02d}"
    elif has["year"] and has["month"]:
        day = f"{a.year:04d}-{a.month:02d}"
    elif has["month"] and has["day"]:
        day = f"--{a.month:02d}-{a.day:02d}"
    else:
        return None
    if clock:  # a time belongs to a full date only
        return f"{day}T{clock}" if len(day) == 10 else None
    return day


# -- money -----------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _currency_tables() -> tuple[dict[str, str], dict[str, str]]:
    """(symbols and upper-case codes as written, lower-case words and codes) -> ISO 4217 code.

    Built from price-parser's currency table (ISO 4217 and xe.com's symbol list). A symbol is
    kept when it has a currency sign or a non-ASCII letter, or mixes case ("Rs", "Ft"); one
    that several currencies share only when ``_PREFERRED`` names one. All-capital letter
    symbols that are not codes ("KM", "MT") are left out, as price-parser's own parser leaves
    single capitals out: they are too often something else.
    """
    from price_parser._currencies import CURRENCIES

    owners: dict[str, set[str]] = {}
    for code, info in CURRENCIES.items():
        for symbol in {info["s"], info["sn"], *info.get("sn2", [])}:
            if len(symbol) > 1 and symbol.isascii() and symbol.replace(".", "").isalpha() and (
                    symbol.isupper() or symbol.islower()):
                continue
            if len(symbol) == 1 and unicodedata.category(symbol) != "Sc":
                continue
            owners.setdefault(symbol, set()).add(code)
    symbols = {s: next(iter(codes)) for s, codes in owners.items() if len(codes) == 1}
    symbols.update(_PREFERRED)
    symbols.update({code: code for code in CURRENCIES if len(code) == 3 and code.isalpha()})
    words = {code: code.upper() for code in _MAJOR_CODES} | _CURRENCY_WORDS
    for code, info in CURRENCIES.items():  # "us dollars", "japanese yen"
        words.setdefault(info["np"].lower(), code)
        words.setdefault(info["n"].lower(), code)
    return symbols, words


def _currency(token: str | None) -> str | None:
    """ISO 4217 code of a currency symbol, code or word; None when ``token`` is none of them."""
    if not token:
        return None
    symbols, words = _currency_tables()
    token = token.strip()
    return symbols.get(token) or words.get(" ".join(token.lower().split()))


def _money(text: str) -> str | None:
    """``"<amount> <iso code, lower-case>"`` for an amount of money; None otherwise."""
    m = _MONEY.match(text)
    if not m or not (m["pre"] or m["post"]):
        return None
    pre, post = _currency(m["pre"]), _currency(m["post"])
    if (m["pre"] and not pre) or (m["post"] and not post) or (pre and post and pre != post):
        return None
    from price_parser import Price

    amount = Price.fromstring(m["num"]).amount
    if amount is None:
        return None
    if m["sign"]:
        amount = -amount
    scale = _SCALES[m["scale"].lower()] if m["scale"] else 1
    return f"{_decimal_text(amount * scale)} {(pre or post).lower()}"


# -- units -----------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _registry() -> Any:
    """Pint's unit registry, built once from the definitions pint ships (no file cache)."""
    import pint

    return pint.UnitRegistry(cache_folder=None, autoconvert_offset_to_baseunit=True)


@lru_cache(maxsize=4096)
def _unit(text: str) -> Any:
    """The pint unit a unit text names, or None when it is not one this module accepts."""
    text = _UNIT_SEPARATOR.sub("", text).strip()
    t = _TEMPERATURE.match(text)
    if t:
        return _registry().parse_units(
            "degF" if t["scale"].lower().startswith("f") else "degC")
    if not text or len(text) > 40 or not _UNIT_SHAPE.match(text):
        return None
    ureg = _registry()
    for word in re.findall(r"[^\W\d_]+", text):
        if word in _NOT_UNITS:
            return None
        if word.lower() in _UNIT_WORDS:
            continue
        readings = ureg.parse_unit_name(word)  # pint, as parse_units, prefers no prefix
        if not readings:
            return None
        prefix, name, _ = next((r for r in readings if not r[0]), readings[0])
        if name in _NOT_UNIT_NAMES or (prefix and (prefix not in _PREFIXES
                                                   or name not in _PREFIXABLE)):
            return None
    import pint

    try:
        units = ureg.parse_units(text.replace("º", "°"))
    except (pint.PintError, ValueError, TypeError, AssertionError, tokenize.TokenError):
        return None
    dims = units.dimensionality
    if any(d not in _DIMENSIONS or v != int(v) for d, v in dims.items()):
        return None
    if not dims and f"{ureg.Quantity(1, units).to_base_units().units:~C}" != "bit":
        return None  # pint's information units are its only dimensionless ones we read
    return units


def _measure(text: str) -> str | None:
    """``"<magnitude> <base SI unit symbol>"`` of one quantity or several of one dimension
    ("1 hour 30 minutes"); ``"<n> percent"`` for a percentage; None otherwise."""
    parts = list(_QUANTITY_PART.finditer(text))
    if not parts or parts[0].start() != 0 or not parts[-1]["unit"].strip():
        return None
    if len(parts) == 1 and _PERCENT.match(parts[0]["unit"].strip()):
        return f"{_decimal_text(Decimal(_plain(parts[0]['num'])))} percent"
    ureg = _registry()
    total = None
    for part in parts:
        units = _unit(part["unit"])
        if units is None:
            return None
        value = ureg.Quantity(float(_plain(part["num"])), units)
        value = value.to_base_units()
        if total is not None and value.dimensionality != total.dimensionality:
            return None
        total = value if total is None else total + value
    total = ureg.Quantity(float(_float_text(float(total.magnitude))), total.units)
    items = list(total.unit_items())
    if len(items) == 1 and items[0][1] == 1 and \
            str(total.dimensionality) not in ("[time]", "[temperature]"):
        # one SI prefix chosen from the base magnitude alone (pint's to_compact), so equal
        # quantities still give equal text and people read "5 mg", not "0.000005 kg"
        total = total.to_compact()
    return f"{_float_text(float(total.magnitude))} {total.units:~C}"


def _count(text: str) -> str | None:
    """A plain number: digits without thousands separators, times its scale; None otherwise."""
    m = _COUNT.match(text)
    if not m:
        return None
    digits = re.sub(r"^(-?)\.", r"\g<1>0.", _plain(m["num"]))  # ".5" is written "0.5"
    if re.match(r"^-?0\d", digits):  # "02139": an identifier, not a number
        return None
    if not m["scale"]:
        return digits if "." in digits else _decimal_text(Decimal(digits))
    return _decimal_text(Decimal(digits) * _SCALES[m["scale"].lower()])


NUMBER_CODE = re.compile(r"\d+(?:-\d+){2,}|\d{3}-\d{4}")
"""A number written in hyphenated digit groups, as telephone numbers, codes and account
numbers are ("555-1234", "12-34-56", "020-7946-0018"): one word. spaCy's English infix rules
split a hyphen between digits, which leaves "555" as the whole value and two different numbers
equal. A range stays apart ("3-4 times", "10-15 minutes", "1200-1500 calories", "2019-2021"):
two groups are a code only as a local telephone number is written, three digits and four
(ITU-T E.123 §7.2 groups a national number's digits with spaces or hyphens)."""

_RANGE = re.compile(r"(?P<low>\d[\d,]*(?:\.\d+)?)\s*(?:-|\u2013|\u2014|to)\s*"
                    r"(?P<high>\d[\d,]*(?:\.\d+)?)(?P<unit>(?:\s*(?:[^\W\d_]|[%\u00b0]).*)?)$")
"""A range of two numbers with one unit after the second ("1200-1500 calories", "10 to 15
minutes", "3-4 times"): the unit, a word, belongs to both ends. Read as a range only when the
first end is not above the second ("12345-6789" is a ZIP+4 code, "3-1" a score)."""

_DIGIT_GROUPS = re.compile(r"\d{2,4}(?:([ .\-])\d{2,4})(?:\1\d{2,4})+|\d{3}-\d{4}")
"""A number in groups of digits with one separator throughout ("555-123-4567",
"555 123 4567", "555.123.4567", "555-1234"): compared by its digits ("5551234567"), as a
telephone or account number is the same number however it is grouped (ITU-T E.123 §7)."""


@lru_cache(maxsize=65536)
def _canonical(text: str) -> tuple[str, bool]:
    """(canonical value, whether it is a date, an amount, a quantity or a number)."""
    folded = _ARTICLES.sub("", _fold(text))
    if not _MAYBE_VALUE.search(folded):
        return folded.lower(), False
    if _DIGIT_GROUPS.fullmatch(folded.strip()) and _date(_digits(folded)) is None:
        return re.sub(r"\D", "", folded), True
    value = _digits(folded)
    ranged = _RANGE.match(value) if _date(value) is None else None
    if ranged is not None and _ascending(ranged["low"], ranged["high"]):
        # "1200-1500 calories" == "1200 to 1500 calories": each end read with the unit
        ends = [_canonical(ranged[end] + ranged["unit"]) for end in ("low", "high")]
        if all(quantity for _, quantity in ends):
            return f"{ends[0][0]} to {ends[1][0]}", True
    for read in (_date, _money, _count, _measure):
        out = read(value)
        if out is not None:
            return out, True
    return folded.lower(), False


def normalize_value(text: str) -> str:
    """Canonical form of an object value (rules and sources in the module docstring).

    Args:
        text: the object as written ("$2,000,000", "2M USD", "30s", "March 3, 2026",
            "The Beatles").

    Returns:
        ``"<amount> <iso 4217 code>"`` for money ("2000000 usd"), ``"<magnitude> <SI symbol>"``
        for a physical quantity ("30 s", "2000 m"), ISO 8601 for a date or time
        ("2026-03-03"), digits for a number ("2,000" -> "2000"), otherwise the lower-cased text
        without leading articles and surrounding punctuation, a leading number word in digits.
        Never raises on any string.
    """
    return _canonical(text)[0]


def _ascending(low: str, high: str) -> bool:
    """Whether two numerals read as a range's ends: the first is not above the second."""
    try:
        return Decimal(low.replace(",", "")) <= Decimal(high.replace(",", ""))
    except ArithmeticError:
        return False


def is_number_code(text: str) -> bool:
    """True when ``text`` is one number in hyphenated digit groups (:data:`NUMBER_CODE`): a
    value of what it numbers as a quantity is, though no amount."""
    return NUMBER_CODE.fullmatch(text.strip()) is not None


def is_quantity(text: str) -> bool:
    """True when ``normalize_value`` reads ``text`` as a date or time, an amount of money, a
    physical quantity or a number (the rules then keep the text as written rather than its
    lemmas)."""
    return _canonical(text)[1]
