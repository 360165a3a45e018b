"""The values a conflict shows for its members: each reading of a record written once."""

import pytest

from tests.unit.test_state_changes import scan_pair


@pytest.mark.parametrize(("old", "new", "shown"), [
    # a bare denial and a denied object that is the relation's own name read alike
    ("I smoke most evenings.", "I gave up smoking in January.", "not smoke"),
    ("I smoke most evenings.", "I have quit smoking.", "not smoke"),
    # two different readings are both shown
    ("I drink tea and coffee.", "I no longer drink tea or coffee.", "not coffee, not tea"),
])
def test_each_reading_is_shown_once(engine, old, new, shown):
    conflicts = scan_pair(engine, old, new).conflicts
    assert conflicts, "no conflict"
    assert conflicts[0].values["m2"] == shown
