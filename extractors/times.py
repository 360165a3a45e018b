"""Time expressions, read lexically: which token heads a date or a time of day, and which
prepositional object says when rather than what (the pipeline leaves out NER for speed)."""

from __future__ import annotations

import re

from spacy.tokens import Token

from extractors.pipeline import ISO_DATE
from extractors.doc_cache import per_token

_YEAR = re.compile(r"^(1[5-9]|20)\d\d$")
_TIME_WORDS = frozenset("""
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday today yesterday tomorrow tonight morning evening afternoon night day week
    weekend weekday weeknight month year quarter q1 q2 q3 q4 spring summer autumn fall winter
    holiday holidays
    """.split())
RECURRENCE = frozenset({"every", "each"})
"""Determiners of a recurring time ("every Saturday morning"; Quirk et al. 1985 ch. 8 on
frequency adjuncts)."""
_CLOCK = re.compile(r"^\d{1,2}(?::\d{2})?(?:am|pm)$")
"""A time of day kept as one token by the pipeline ("6am", "10:30pm")."""
_ISO_DATE = re.compile(r"^(?:\d{4}-\d{2}|" + ISO_DATE.pattern + r")$", re.IGNORECASE)
"""A year and month, or a whole ISO 8601 date or date-time, which the pipeline's tokenizer keeps
as one token."""


_WHEN_NOUNS = frozenset("""
    age time moment point stage period while decade century childhood youth adulthood
    beginning start end
    """.split())
"""Nouns whose phrase says when, not what: "at the age of ten", "at that point"."""
AGE_DECADES = frozenset("""
    teens twenties thirties forties fifties sixties seventies eighties nineties
    """.split())
"""Decades of a life or a century ("in my twenties", "in the sixties"), spelt as the
tagger leaves them (their lemma is the number): a time, never a place or a value."""


def _no_value(pobj: Token) -> bool:
    """True for a prepositional object that is a time, an age, a duration or a bare number:
    it qualifies the predicate and is never the value of an entity-valued relation ("started
    working on cars at the age of ten" names no employer)."""
    return (_is_time(pobj) or pobj.lemma_.lower() in _WHEN_NOUNS or pobj.pos_ == "NUM"
            or pobj.lower_ in AGE_DECADES
            or any(c.dep_ == "nummod" for c in pobj.children) and _is_time(pobj))


_DECADE = re.compile(r"^(1[5-9]|20)\d0s$")
MONTHS = frozenset("""
    january february march april june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    """.split())
"""Month names and their abbreviations ("may" left out: it is a modal verb as often)."""


def calendar_date(token: Token) -> bool:
    """True for a phrase headed by ``token`` that names a calendar date: a year, a decade, a
    month or an ISO 8601 date anywhere in it ("2015", "the 1990s", "March 2015", "2015-03")."""
    return any(_YEAR.match(t.lower_) or _DECADE.match(t.lower_) or _ISO_DATE.match(t.lower_)
               or t.lower_ in MONTHS or elided_year(t) for t in token.subtree)


_APOSTROPHES = frozenset({"'", "\u2019"})


def elided_year(token: Token) -> str | None:
    """The year a two-digit number written after an apostrophe names ("in '19": the
    apostrophe stands for the century's digits, which the tokenizer splits off), in four
    digits: 69-99 in the 1900s, 00-68 in the 2000s (the pivot of POSIX.1-2017 ``strptime``
    ``%y``); None for any other token."""
    if len(token.text) != 2 or not token.text.isdigit() or token.i == 0:
        return None
    mark = token.doc[token.i - 1]
    if mark.text not in _APOSTROPHES or mark.whitespace_:
        return None
    return ("19" if int(token.text) >= 69 else "20") + token.text


@per_token
def _is_time(token: Token) -> bool:
    """True for a date or time expression head ("2021", "March", "2026-03-02", "Monday").

    A lexical test rather than the NER component, which the pipeline leaves out for speed.
    """
    low = token.lower_
    return bool(_YEAR.match(low) or _DECADE.match(low) or _ISO_DATE.match(low) or _CLOCK.match(low)
                or low in _TIME_WORDS or elided_year(token)
                or token.lemma_.lower() in _TIME_WORDS
                or (low.endswith("s") and low[:-1] in _TIME_WORDS))
