"""A value asserted in addition to others ("I also work at a bar on weekends", "works at a
pharmacy too": an additive focusing adverb, Quirk et al. 1985 §8.116) replaces no value of
its key: the triple carries the qualifier ``additive`` and no mismatch is decided. An ending
said with "also" still ends ("also quit the choir")."""

from __future__ import annotations

import pytest

from extractors.types import ADDITIVE
from tests.unit.test_state_changes import pair_tables


@pytest.mark.parametrize(("text", "additive"), [
    ("I also work at a bar on weekends.", True),
    ("Also works part-time at Pell & Rowe on Saturdays.", True),
    ("I work at a pharmacy too.", True),
    ("I work at a pharmacy.", False),
])
def test_qualifier(extractor, text, additive):
    found = [t for t in extractor.extract(text) if t.relation == "work at"]
    assert found and all((t.qualifier(ADDITIVE) is not None) is additive for t in found)


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables([
    ("I work at Brennock Mills.", "I left Brennock Mills and now work at Castell Print."),
    ("I sing in the Larchfield choir.", "I also quit the Larchfield choir."),
], [
    ("I work at Brennock Mills.", "I also work at a bar on weekends."),
    ("Works at Brennock Mills.", "Also works part-time at Castell Print on Saturdays."),
    ("I work at Brennock Mills.", "I work at a pharmacy too."),
])
