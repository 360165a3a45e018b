"""The place of a dwelling one lives in ("a flat in Leeds": one lives in Leeds), also spelt in
lower case in chat (:mod:`extractors.constructions.dwelling_places`)."""

import pytest

from tests.unit.test_state_changes import pair_tables

UPDATES = [
    ("i live in a small flat in hull w/ my brother",
     "finally moved out of hull!! im in york now"),
    ("I live in a cottage in Wexford near the harbour", "Moved out of Wexford last month."),
    ("Jonas lives in a studio in Graz.", "Jonas moved out of Graz and lives in Linz now."),
]
"""The later memory ends the residence in the dwelling's place: resolved for it."""

LOOK_ALIKES = [
    # a temporary stay, a visit, a trip: no residence ended
    ("I live in a flat in Derby", "staying in a flat in york w/ my cousin this weekend"),
    ("I live in a flat in Derby", "we're off to portugal in may"),
    # a part of a place is no named place
    ("I live in a flat in town", "I live in Derby"),
    # someone else's home
    ("I live in a flat in Derby", "my sister moved out of Derby last year"),
]
"""Look-alikes: nothing decided."""

test_dwelling_place_resolves, test_look_alike_decides_nothing = pair_tables(UPDATES, LOOK_ALIKES)


@pytest.mark.parametrize(("sentence", "place"), [
    ("I live in a flat in Derby", "derby"),
    ("i live in a tiny flat in hull near the station", "hull"),
    ("Kasia lives in a house in Lublin", "lublin"),
    ("I live in a flat in town", None),
    ("I live in a flat in the old quarter", None),
    ("I live in a flat near Derby", None),     # near: not inside the place
    ("I'm in a flat in Derby this weekend", None),  # no residence
    ("I stay in a hostel in Cork", None),
])
def test_the_dwelling_names_its_place(extractor, sentence, place):
    found = [t.object for t in extractor.extract(sentence) if t.relation == "live in"
             and not t.negated]
    assert found == ([place] if place else []), found
