"""Exceptions and contrasts that take part of a denial back (Quirk et al. 1985 §§9.58–9.59 on
prepositions of exception, §8.116 on "only", §§12.22–12.25 on the pro-form "do"): "besides",
"save for", "with the exception of", a next fragment opening with "except", a set-off phrase
with "only", a "but" clause that affirms it under an adjunct. Such a denial is restricted and
decides nothing against the plain habit; a whole denial still does. Pairs are scanned as two
memories of one user, a day apart (:func:`tests.unit.test_state_changes.pair_tables`)."""

import pytest

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("I eat fish.", "I don't eat fish anymore."),
    ("I eat fish.", "I don't eat fish anymore. I went vegan in May."),
    ("Priya drives to work.", "Priya no longer drives to work."),
    ("I play golf.", "I don't play golf anymore, but I do watch it."),
]
"""A whole denial, also with a next sentence or a contrast about something else."""

EXCEPTED = [
    ("I eat fish.", "I don't eat fish, besides the occasional sardine."),
    ("I eat fish.", "I don't eat fish anymore, save for Easter."),
    ("I eat fish.", "I don't eat fish anymore, with the exception of sushi nights."),
    ("I eat fish.", "I don't eat fish anymore. Except at my aunt's."),
    ("I eat fish.", "I don't eat fish anymore, only at weddings."),
    ("I eat fish.", "I don't eat fish anymore, but I do at restaurants."),
    ("Priya drives to work.", "Priya doesn't drive to work anymore, but she does on Fridays."),
    ("I play golf.", "I don't play golf anymore. Only on holidays."),
]
"""A denial with an exception: the earlier habit still holds sometimes, nothing decided."""

test_whole_denial_resolves, test_excepted_denial_decides_nothing = pair_tables(
    RESOLVED, EXCEPTED)


@pytest.mark.parametrize(("sentence", "time"), [
    ("I don't eat fish anymore, only on Fridays.", "when except friday"),
    ("I don't eat fish anymore, but I do on Fridays.", "when except on fridays"),
    ("I don't eat fish anymore. Except on Fridays.", "when except on fridays"),
])
def test_exception_is_worded_as_one(sentence, time):
    """The exception's time is kept as an exception, never as the time the denial holds
    ("only on Fridays" is no denial on Fridays)."""
    from extractors import extract
    denials = [t for t in extract(sentence) if t.negated and t.relation == "eat"]
    assert denials and all(t.qualifier("time") == time for t in denials)
