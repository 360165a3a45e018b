"""Endings the extractor reads from their construction: a report of the user's own change, a
change of state with its result ("became vegetarian"), a thing given away (the particle before
the object), a denied possession of a bare "one", and the end of a "go" + -ing activity. Pairs
are scanned as two memories of one user, the later a day after the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

ENDED = [
    # the user's own report of their change is theirs (a verb of communication)
    ("The user drinks lemonade.", "The user mentioned that they've stopped drinking lemonade."),
    ("I drink espresso.", "I've stopped drinking espresso."),
    # becoming leaves its result behind (FrameNet Becoming), and the diet implies its denial
    ("Dara eats meat.", "Dara became vegetarian in the spring."),
    # a particle before the object ("gave away my tablet")
    ("I have a tablet.", "I gave away my tablet."),
    # "one" stands for the thing given up: none of its kind is left
    ("I own a canoe.", "I sold my canoe and don't have one anymore."),
    ("I own a canoe.", "I sold my old canoe and don't have one now."),
    # "go" + -ing is the activity; an old time the new ending lacks is no obstacle
    ("I go swimming every week.", "I stopped going swimming."),
    ("I go cycling on weekends.", "I've stopped going cycling."),
]
"""Pairs whose later memory ends the earlier one: resolved for the later memory."""

KEPT = [
    # someone else's change
    ("The user drinks lemonade.",
     "The user's sister mentioned that she has stopped drinking lemonade."),
    # no becoming, or only a wish
    ("Dara eats meat.", "Dara almost became vegetarian."),
    ("Dara eats meat.", "Dara wants to become vegetarian."),
    # one thing of a kind picked out against another
    ("I have a tablet.", "I gave away my old tablet."),
    ("I own a canoe.", "I sold my old canoe and kept the inflatable one."),
    ("I own a canoe.", "I sold my old canoe and bought a new one."),
    # one occasion missed, or another day's habit ended
    ("I go swimming every week.", "I didn't go swimming this week."),
    ("I go swimming on Saturdays.", "I stopped going swimming on Sundays."),
]
"""Look-alikes: nothing decided."""

test_ending_resolves, test_look_alike_decides_nothing = pair_tables(ENDED, KEPT)


@pytest.mark.parametrize(("sentence", "facts"), [
    ("I've stopped drinking lemonade.", [(U, "drink", "lemonade", True)]),
    ("Dara became vegetarian in May.", [("dara", "be", "vegetarian", False),
                                        ("dara", "eat", "meat", True)]),
    ("I gave away my tablet.", [(U, "give away", "tablet", False), (U, "have", "tablet", True)]),
    ("I sold my old canoe and don't have one now.", [(U, "have", "canoe", True),
                                                      (U, "own", "canoe", True)]),
    ("I stopped going swimming.", [(U, "swim", "", True)]),
    ("I go hiking every weekend.", [(U, "hike", "", False)]),
])
def test_ending_triples(extractor, sentence, facts):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    for fact in facts:
        assert fact in found, sorted(found)


@pytest.mark.parametrize(("sentence", "absent"), [
    # a modified or complemented "one" is another thing
    ("I sold my old canoe and kept the inflatable one.", (U, "own", "canoe", True)),
    ("I sold my old canoe and don't have one for the lake.", (U, "own", "canoe", True)),
    # a wish to become is no becoming
    ("Dara wants to become vegetarian.", ("dara", "be", "vegetarian", False)),
])
def test_no_ending(extractor, sentence, absent):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert absent not in found, sorted(found)
