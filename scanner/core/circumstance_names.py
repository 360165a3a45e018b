"""A regular session or group named by the day or the venue its memory states elsewhere:
"gave up the tuesday footy" ends "plays 5-a-side footy every tuesday night", "dropped out of
the crux league" ends "is in the thursday night bouldering league at Crux".

A noun premodifier may stand for a postmodifying prepositional phrase of time or place
("the Tuesday game" = "the game on Tuesday", "the Crux league" = "the league at Crux":
Quirk et al. 1985, §17.104-17.108 on premodification by nouns and its prepositional
paraphrases). An ended object so named meets a stated object of the same head only when the
stated memory itself says each such word of the same phrase, as a weekday or part of the day
of its routine or as a name written with a capital; every other word of the ended object must
be among the stated object's words (the general-denies-specific rule of
:func:`scanner.core.detect.denies`). "Gave up the monday footy" thus ends no Tuesday footy,
and "left the Summit league" no league at Crux.
"""

from __future__ import annotations

import re

_DAY_WORDS = frozenset("""
    monday tuesday wednesday thursday friday saturday sunday weekday weeknight weekend
    morning afternoon evening night lunchtime
    """.split())
"""Weekdays and parts of the day: the times of a weekly routine (Quirk et al. 1985 §8.55 on
time nouns; "every Tuesday night", "on Saturday mornings")."""

_WORD = re.compile(r"[^\W_]+")
_NAME = re.compile(r"(?<![.!?]\s)(?<=\s)([A-Z][\w'-]*)")


def _stated_words(phrase: str) -> tuple[set[str], set[str]]:
    """The day words of ``phrase`` (lower case, plural "-s" dropped) and the lower-cased words
    it writes capitalised, not at the opening of a sentence."""
    days = set()
    for w in _WORD.findall(phrase.lower()):
        w = w[:-1] if w.endswith("s") and w[:-1] in _DAY_WORDS else w
        if w in _DAY_WORDS:
            days.add(w)
    names = {m.lower() for m in _NAME.findall(phrase)}
    return days, names


def named_by_circumstance(ended: str, stated: str, phrase: str) -> bool:
    """Whether ``ended`` (an object a state change ended) names the thing ``stated`` names,
    its extra premodifiers being the day or venue the stated memory's ``phrase`` (the stretch
    of its text that names the head) gives outside the stated object.

    Args:
        ended: canonical ended object ("tuesday footy", "crux league").
        stated: canonical stated object of the same key ("5 side footy").
        phrase: the stated memory's text naming the head ("I play 5-a-side footy every
            tuesday night").
    """
    a, b = ended.split(), stated.split()
    if len(a) < 2 or not b or a[-1] != b[-1]:
        return False
    days, names = _stated_words(phrase)
    dropped = 0
    for w in a[:-1]:
        if w in b:
            continue
        elif w in days or w in names:
            dropped += 1
        else:
            return False
    return dropped > 0
