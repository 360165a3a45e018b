"""A scheduled event moved to a new clock time ("Daily standup moved to 10:30", "The weekly
review was rescheduled to 4pm"): the event's time is now that time, as the line "Standup time:
10:30" states it.

FrameNet frame Change_event_time (lexical units *move*, *reschedule*, *shift*, *push*,
*bring*): an Event is moved to a new Time. Only a plain report of the move is read; a move for
one occasion ("moved to 10:30 today only"), a proposal ("should move to 10:30?"), a move with
any further phrase, a possessed or another event ("Ana's standup", "another standup") and a
move to a place ("moved to Room 4") state no new time of the event and give nothing here.
"""

from __future__ import annotations

import re

from spacy.tokens import Token

from extractors.constructions.preferences import _CHANGED
from extractors.syntax import USER, _is_time, _lemma, _phrase
from extractors.types import Triple


EVENT_TIME_VERBS = frozenset({"move", "reschedule", "shift", "push", "bring"})
"""Verbs of FrameNet Change_event_time whose "to" phrase gives an event's new time (*push*
and *bring* as in "pushed to 11:00", "brought forward to 8:45")."""

_TIME_PARTICLES = frozenset({"back", "forward", "up"})
"""Particles of the frame's phrasal verbs ("pushed back to", "brought forward to")."""

FREQUENCY_ADJECTIVES = frozenset({"hourly", "daily", "nightly", "weekly", "fortnightly",
                                  "biweekly", "monthly", "quarterly", "yearly", "annual"})
"""Adjectives of recurrence (WordNet 3.1: daily.s.01 "occurring or done each day", weekly.s.01,
monthly.s.01, nightly.s.01, hourly.s.01, quarterly.s.01, yearly.s.01, fortnightly.s.01): how
often the event recurs. The line "Standup time: 09:15 daily" writes it with the time."""

_CLOCK = re.compile(r"^(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.|h)?$|^noon$",
                    re.IGNORECASE)
"""A clock time: "10:30", "16:00", "4pm", "9 am", "noon" (a bare number needs "am"/"pm" or
minutes)."""

_PLAIN_ADVERBS = frozenset({"now", "permanently"})
"""Adverbs that leave the move a plain report of the event's new standing time."""


def _clock_time(value: Token) -> str | None:
    """The clock time a "to" phrase's object names ("10:30", "4 pm"), or None."""
    text = _phrase(t for t in value.subtree)
    if not _CLOCK.match(text.strip()):
        return None
    if ":" not in text and "." not in text and not re.search(r"[ap]\.?m\.?$|noon", text, re.I):
        return None  # "moved to 10": a bare number is no clock time for sure
    return text.strip().lower()


class EventTimeRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_make``)."""

    def _event_time_change(self, verb: Token, event: Token | None, neg: bool) -> list[Triple]:
        """"Daily standup moved to 10:30", "The weekly review was rescheduled to 4pm": the
        event's time (relation ``"<event> time"``, subject the user, rule ``attribute``) is the
        new clock time, marked as a change. A leading recurrence adjective
        (:data:`FREQUENCY_ADJECTIVES`) is also read into the value, as a key-value line writes
        it ("standup time" = "10:30 daily"). Nothing unless the clause is a plain report of
        the move (see the module's docstring)."""
        if event is None or neg or event.pos_ != "NOUN" or _lemma(verb) not in EVENT_TIME_VERBS:
            return []
        if verb.tag_ not in ("VBD", "VBN") or any(t.text == "?" for t in verb.sent):
            return []
        value = None
        for child in verb.children:
            if child is event or child.dep_ in ("punct", "auxpass") or (
                    child.dep_ == "aux" and _lemma(child) == "have"):
                continue
            if child.dep_ in ("prt", "advmod") and child.lower_ in _TIME_PARTICLES:
                continue
            if child.dep_ == "advmod" and child.lower_ in _PLAIN_ADVERBS:
                continue
            if child.dep_ == "prep" and child.lower_ == "to" and value is None:
                objects = [p for p in child.children if p.dep_ == "pobj"]
                if len(objects) == 1 and len(list(child.children)) == 1:
                    value = objects[0]
                    continue
            return []  # any other phrase: a one-off, a condition, a place, a second value
        if value is None or any(c.dep_ in ("cc", "conj", "prep") for c in value.children):
            return []
        clock = _clock_time(value)
        if clock is None:
            return []
        frequency = None
        name = []
        for mod in (c for c in event.children if c.i < event.i):
            if mod.dep_ == "det" and mod.lower_ == "the":
                continue
            if mod.dep_ in ("amod", "compound") and mod.lower_ in FREQUENCY_ADJECTIVES \
                    and frequency is None and not name:
                frequency = mod.lower_
                continue
            if mod.dep_ in ("amod", "compound") and mod.pos_ in ("NOUN", "ADJ", "PROPN") \
                    and not _is_time(mod) and not any(mod.children):
                name.append(mod.lower_)
                continue
            return []  # "another standup", "Ana's standup", "Friday's standup"
        if any(c.i > event.i for c in event.children):
            return []  # "the standup for the launch team": a particular event
        head = " ".join([*name, event.lower_])
        out = [self._make(USER, f"{' '.join([frequency, head]) if frequency else head} time",
                          clock, clock, negated=False, clause=verb, rule="attribute",
                          qualifiers=(_CHANGED,))]
        if frequency:
            value_text = f"{clock} {frequency}"
            out.append(self._make(USER, f"{head} time", value_text, value_text,
                                  negated=False, clause=verb, rule="attribute",
                                  qualifiers=(_CHANGED,)))
        return out
