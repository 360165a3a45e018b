"""A routine that a negated perfect says has lapsed ("eats meat every day", then "hasn't
eaten meat since January"): the two memories name two times, which otherwise keep them apart
(:func:`scanner.core.detect._comparable`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scanner.core.stances import Stance

_ROUTINE_WORDS = frozenset("""
    day morning afternoon evening night weekday weeknight weekend week monday tuesday wednesday
    thursday friday saturday sunday
    """.split())
"""Times of a routine that recurs at least weekly ("every day", "on Fridays", "every Saturday
morning": frequency adjuncts, Quirk et al. 1985 ch. 8)."""
_LONG_SPELL = re.compile(r"\b(?:january|february|march|april|may|june|july|august|september"
                         r"|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct"
                         r"|nov|dec|spring|summer|autumn|fall|winter|month|year"
                         r"|(?:1[5-9]|20)\d\d)\b")
"""Words of a "since" time that reach back a month or more ("since January", "since 2023",
"since last spring"); "since Tuesday" or "since last week" may be a pause of a few days."""


def lapsed_routine(x: Stance, y: Stance) -> bool:
    """Whether one stance only denies under a negated perfect's "since" time ("hasn't eaten meat
    since January") and the other only asserts a routine of at least weekly recurrence ("eats meat
    every day", "plays tennis on weekends"): the perfect denies every occurrence from that time to
    now (Quirk et al. 1985 ch. 4 on the perfective: a state or habit "leading up to the present"),
    so a weekly routine cannot have held over a spell of a month or more. A routine of a longer
    period ("every winter", "every year") may simply not have come round again, and a short spell
    ("since Tuesday") may be a pause: both stay apart."""
    for spell, routine in ((x, y), (y, x)):
        since, times = spell.time, routine.time
        if since is None or times is None:
            continue
        if (since.startswith("since ") and spell.denied and not spell.asserted
                and routine.asserted and not routine.denied
                and _LONG_SPELL.search(since) is not None
                and all(w in _ROUTINE_WORDS for w in times.split())):
            return True
    return False
