"""Odd punctuation never makes a denial surer than its plain words (extractors.negation_focus):
a restriction in brackets or quotes stays a restriction ("I don't drink beer (at parties)"),
a bracketed reason or time of the change leaves the denial whole."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("text", "fact"), [
    ("I don't drink beer (at parties).", (U, "drink", "beer")),
    ('"I don\'t" bake "bread" (on) [Sundays]...', (U, "bake", "bread")),
    ("I don't cook fish [on weekdays].", (U, "cook", "fish")),
])
def test_bracketed_restriction_stays(extractor, text, fact):
    found = {(t.subject, t.relation, t.object): t for t in extractor.extract(text) if t.negated}
    assert fact in found, found
    assert (found[fact].qualifier("time") or "").startswith("when ")


RESOLVED = [
    ("I drink beer.", "I don't drink beer anymore (since the new year)."),
    ("I bake bread.", "I don't bake bread anymore."),
]

LOOK_ALIKES = [
    ("I drink beer.", "I don't drink beer (at parties)."),
    ("I bake bread.", '"I don\'t" bake "bread" (on) [Sundays]...'),
    ("I cook fish.", "I don't cook fish [on weekdays]."),
    ("I cook fish.", "I don't cook \"fish\" (on weekdays)"),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
