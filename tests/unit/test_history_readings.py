"""What history lists of a memory (scanner.history.readings): an ending's derived states once,
not one line per relation it ends; and quantities as the memory says them (an approximator
dropped, a fraction kept)."""

from __future__ import annotations

from scanner.history import readings
from scanner.models import MemoryRecord


def _readings(engine, text):
    return readings(engine.extract([MemoryRecord(id="m", text=text, user_id="u")])[0])


def test_an_ending_is_listed_once_not_once_per_relation(engine):
    found = _readings(engine, "I quit smoking in March.")
    assert len(found) < 10, found
    assert any(r.startswith("user · ended (") and r.endswith(" relations) · smoke")
               for r in found), found


def test_a_quantity_keeps_its_fraction_and_drops_its_approximator(engine):
    assert "user · smoke · half pack" in _readings(engine, "I smoke about half a pack a day.")
    assert "user · run · 5 km" in _readings(engine, "I run about 5 km a day.")
