"""A situation stated in the simple past is over (extractors.constructions.past_situations):
a later ending of it restates its end and supersedes nothing, while an ending of a situation
stated in the present is still decided."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

RESOLVED = [
    ("The user studies geology at the University of Aberdeen.",
     "The user graduated from Aberdeen with a geology degree in 2019."),
    ("I study nursing at Carlow College.", "I graduated from Carlow College last spring."),
    ("Tomasz lives in Gdansk.", "Tomasz moved out of Gdansk."),
]
"""An ending of a present situation: the later memory wins."""

SAME = [
    ("The user studied geology at the University of Aberdeen.",
     "The user graduated from Aberdeen with a geology degree in 2019."),
    ("I studied nursing at Carlow College.", "I graduated from Carlow College last spring."),
    ("Tomasz lived in Gdansk.", "Tomasz moved out of Gdansk."),
    ("I worked at Pellham Freight.", "I work at Orbis Logistics."),
]
"""A past situation and its ending, or a past situation and the present: nothing decided."""

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, SAME)


@pytest.mark.parametrize(("sentence", "fact", "past"), [
    ("I studied philosophy at Durham.", (U, "study at", "durham"), True),
    ("Mira lived in Tallinn.", ("mira", "live in", "tallinn"), True),
    ("I worked at Fenwick Labs.", (U, "work at", "fenwick labs"), True),
    ("I study philosophy at Durham.", (U, "study at", "durham"), False),
    ("I still worked at Fenwick Labs then.", (U, "work at", "fenwick labs"), None),
])
def test_simple_past_situation_is_past(extractor, sentence, fact, past):
    found = [t for t in extractor.extract(sentence) if (t.subject, t.relation, t.object) == fact]
    if past is None:  # a word of the present: not marked over
        assert all(not (t.qualifier("time") or "").startswith("past") for t in found), found
        return
    assert found, extractor.extract(sentence)
    assert all((t.qualifier("time") or "").startswith("past") == past for t in found), found
