"""Canonical forms of object values: numbers, money and durations (SPEC §1).

``"$2,000,000"``, ``"2M USD"`` and ``"2 million dollars"`` all become ``"2000000 usd"``;
``"30s"``, ``"30 sec"`` and ``"30 seconds"`` become ``"30 s"`` (durations in seconds, SI).
A bare ``m`` is read as a scale (million) next to money and never as minutes or metres.
Anything that is not a quantity is lower-cased with articles and surrounding punctuation
removed; lemmatisation of nouns happens in the rules, which see the tokens.
"""

from __future__ import annotations

import re

_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "million": 1e6,
          "b": 1e9, "bn": 1e9, "billion": 1e9, "t": 1e12, "tn": 1e12, "trillion": 1e12}
_CURRENCY_SYMBOL = {"$": "usd", "us$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr"}
_CURRENCY_WORD = {
    "usd": "usd", "dollar": "usd", "dollars": "usd", "us dollars": "usd", "bucks": "usd",
    "eur": "eur", "euro": "eur", "euros": "eur", "gbp": "gbp", "pound": "gbp",
    "pounds": "gbp", "pounds sterling": "gbp", "jpy": "jpy", "yen": "jpy", "inr": "inr",
    "rupees": "inr", "chf": "chf", "francs": "chf", "cad": "cad", "aud": "aud",
}
_DURATION_SECONDS = {
    "ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3,
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "d": 86400.0, "day": 86400.0, "days": 86400.0,
    "w": 604800.0, "wk": 604800.0, "week": 604800.0, "weeks": 604800.0,
}
_WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90,
    "hundred": 100, "a hundred": 100,
}

_NUM = r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|" + "|".join(
    sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")"
_SCALE_RE = r"(?:\s*(?P<scale>" + "|".join(sorted(_SCALE, key=len, reverse=True)) + r")\b)?"
_MONEY_PREFIX = re.compile(
    r"^(?P<cur>us\$|\$|€|£|¥|₹)\s*" + _NUM + _SCALE_RE + r"(?:\s*(?P<cur2>usd|eur|gbp))?$")
_MONEY_SUFFIX = re.compile(
    r"^" + _NUM + _SCALE_RE + r"\s*(?P<cur>" + "|".join(
        sorted(_CURRENCY_WORD, key=len, reverse=True)) + r")$")
_DURATION = re.compile(
    r"^" + _NUM + r"\s*(?P<unit>" + "|".join(
        sorted(_DURATION_SECONDS, key=len, reverse=True)) + r")$")
_PLAIN = re.compile(r"^" + _NUM + _SCALE_RE + r"$")
_ARTICLES = re.compile(r"^(?:the|a|an)\s+")


def _number(text: str, scale: str | None) -> float:
    text = text.replace(",", "")
    value = float(_WORD_NUMBERS[text]) if text in _WORD_NUMBERS else float(text)
    return value * _SCALE.get(scale or "", 1.0)


def _fmt(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def normalize_value(text: str) -> str:
    """Canonical form of an object value.

    Args:
        text: the object as written ("$2,000,000", "2M USD", "30s", "The Beatles").

    Returns:
        ``"<number> <iso currency>"`` for money, ``"<seconds> s"`` for durations, a plain
        number for counts ("2,000" -> "2000"), otherwise the lower-cased text without leading
        articles and surrounding punctuation.
    """
    t = " ".join(text.lower().strip().strip(".,;:!?\"'()").split())
    t = _ARTICLES.sub("", t)
    m = _MONEY_PREFIX.match(t)
    if m:
        return f"{_fmt(_number(m['num'], m['scale']))} {_CURRENCY_SYMBOL[m['cur']]}"
    m = _MONEY_SUFFIX.match(t)
    if m:
        return f"{_fmt(_number(m['num'], m['scale']))} {_CURRENCY_WORD[m['cur']]}"
    m = _DURATION.match(t)
    if m:
        return f"{_fmt(_number(m['num'], None) * _DURATION_SECONDS[m['unit']])} s"
    m = _PLAIN.match(t)
    if m:
        return _fmt(_number(m["num"], m["scale"]))
    return t


def is_quantity(text: str) -> bool:
    """True when ``normalize_value`` recognises ``text`` as money, a duration or a number."""
    t = " ".join(text.lower().strip().strip(".,;:!?\"'()").split())
    return any(p.match(t) for p in (_MONEY_PREFIX, _MONEY_SUFFIX, _DURATION, _PLAIN))
