"""A move back to a thing after a spell of using another is a switch of tools, not a change of
home (look-alike precision): "after a month on Linux" ties the spell to a thing used, "after a
year in Porto" to a place; only the second move says where one lives."""

from __future__ import annotations

import pytest

from extractors.relations import switched_tool
from tests.unit.test_state_changes import LATER_WINS, decided


@pytest.mark.parametrize(("old", "new"), [
    ("I live in Ghent.", "I moved back to Emacs after two years of VS Code."),
    ("I live in Tromso.", "I moved back to Firefox after a month on Chrome."),
    ("I live in Bilbao.", "I switched and moved to Kotlin after a year with Scala."),
])
def test_a_switch_of_tools_decides_no_residence(engine, old, new):
    assert decided(engine, old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("I live in Ghent.", "I moved back to Antwerp after two years in Lyon."),
    ("I live in Tromso.", "I moved to Bergen."),
    ("I live in Bilbao.", "I moved back to Seville after a year at Cambridge."),
])
def test_a_move_home_still_decides(engine, old, new):
    assert decided(engine, old, new) == LATER_WINS


@pytest.mark.parametrize(("spell", "switch"), [
    ("after year of rust", True), ("after month on pixel", True),
    ("after years with vim", True), ("after year in porto", False),
    ("after decade at harvard", False), (None, False), ("in 2021", False),
])
def test_a_spell_tied_to_a_thing_used(spell, switch):
    assert switched_tool(spell) is switch
