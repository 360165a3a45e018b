"""Look-alikes that name another thing, a narrower one, or another dimension decide nothing:
a named animal placed in a film or a
book is not the speaker's pet; moving a restricted part of one's things leaves the tool in
use for the rest; an evaluative adjective grades an attribute without naming its value."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import LATER_WINS, decided


@pytest.mark.parametrize(("old", "new"), [
    ("I have a horse called Jasper.", "Jasper the horse from the film passed away."),
    ("I have a horse called Jasper.", "Jasper the horse in the novel passed away."),
    ("Uses Evernote for work", "Moved all my family recipes from Evernote to Bear"),
    ("My diet is relaxed.", "My diet is pescatarian."),
    ("My diet is healthy.", "My diet is keto."),
    ("The user's painting style is loose.", "The user's painting style is impressionist."),
    ("The user's gardening style is casual.", "The user's gardening style is organic."),
])
def test_another_referent_or_dimension_decides_nothing(engine, old, new):
    assert decided(engine, old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("I have a horse called Jasper.", "Jasper the horse passed away."),
    ("Uses Evernote", "Moved all my notes from Evernote to Bear"),
    ("My diet is vegan.", "My diet is pescatarian."),
])
def test_the_same_referent_still_decides(engine, old, new):
    assert decided(engine, old, new) == LATER_WINS
