"""Someone else's value, and a second value in its own situation, decide nothing (look-alike
precision): a profile value whose comment is an independent genitive ("(my son's)") is that
owner's; listed values each restricted to a situation ("on my phone") hold together."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import LATER_WINS, decided


@pytest.mark.parametrize(("old", "new"), [
    ("Bike: Cannondale Synapse", "Bike: Brompton C Line (my son's)"),
    ("Phone: Pixel 8", "Phone: iPhone 13 (husband's)"),
    ("Laptop: ThinkPad X1", "Laptop: MacBook Air (the twins')"),
    ("Browser: Firefox 120 on my phone", "Browser: Firefox 120 on my phone, Safari 17 on my iPad"),
    ("Editor: Helix on my server", "Editor: Helix on my server, Zed on my laptop"),
])
def test_another_owner_or_another_situation_decides_nothing(engine, old, new):
    assert decided(engine, old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("Bike: Cannondale Synapse", "Bike: Brompton C Line"),
    ("Phone: Pixel 8", "Phone: iPhone 15 (bought in March)"),
    ("Browser: Firefox 120 on my phone", "Browser: Safari 17 on my phone"),
])
def test_the_subjects_own_new_value_still_decides(engine, old, new):
    assert decided(engine, old, new) == LATER_WINS


@pytest.mark.parametrize(("line", "values"), [
    ("Bike: Brompton C Line (my son's)", []),
    ("Editor: Helix on my server, Zed on my laptop",
     [("helix", (("place", "on server"),)), ("zed", (("place", "on laptop"),))]),
])
def test_profile_line_values(extractor, line, values):
    got = [(t.object, t.qualifiers) for t in extractor.extract(line)
           if t.rule in ("key_value", "attribute_set")]
    assert got == values
