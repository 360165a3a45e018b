"""A dish named by a coordination is one thing (extractors.binomials): giving up "bangers and
mash" says nothing of sausages alone; a coordination of two foods is still two, and giving up
the dish itself is still decided."""

import pytest

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("I eat cod.", "I've stopped eating cod and rice."),
    ("I eat macaroni and cheese every week.", "I don't eat macaroni and cheese anymore."),
    ("Hamid eats bangers and mash every Friday.", "Hamid gave up bangers and mash."),
]
SAME = [
    ("I eat fish.", "I've given up fish and chips."),
    ("I eat bread.", "I stopped eating bread and butter."),
    ("Hamid eats ham.", "Hamid no longer eats ham and eggs for breakfast."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, SAME)


@pytest.mark.parametrize(("sentence", "objects"), [
    ("I had fish and chips.", {"fish and chip"}),
    ("I love mac and cheese.", {"mac and cheese"}),
    ("I eat fish and rice.", {"fish", "rice"}),
])
def test_dish_objects(extractor, sentence, objects):
    found = {t.object for t in extractor.extract(sentence) if t.subject == "user"}
    assert objects <= found and not ({"fish", "chip", "cheese"} - objects) & found, found
