"""A student's school named the way memory writers name it: a class-year noun before a name
with the clipped "High" ("a junior at Westbrook High"), and a transfer from a school, which
ends studying there. Pairs are scanned as two memories of one user, the later a day after
the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

ENDED = [
    ("Makoa is a junior at Westbrook High.", "Makoa graduated from Westbrook High in June."),
    ("Makoa is a junior at Westbrook High.",
     "Makoa transferred from Westbrook High to Kealoha Academy."),
    ("Ilsa is a sophomore at Carleton.", "Ilsa transferred from Carleton to McGill this spring."),
]
"""The later memory ends the studies: resolved for the later."""

KEPT = [
    # another school, or a senior at a firm (no student)
    ("Makoa is a junior at Westbrook High.", "Makoa graduated from Eastfield High in June."),
    ("Tevita is a senior at Google.", "Tevita graduated from Stanford."),
    ("Ilsa is a sophomore at Carleton.", "Ilsa transferred from Macalester to Carleton."),
]
"""Look-alikes: nothing decided."""

test_school_change_resolves, test_look_alike_decides_nothing = pair_tables(ENDED, KEPT)


@pytest.mark.parametrize(("sentence", "fact"), [
    ("Makoa is a junior at Westbrook High.", ("makoa", "study at", "westbrook high", False)),
    ("Ilsa transferred from Carleton to McGill.", ("ilsa", "study at", "carleton", True)),
])
def test_school_triples(extractor, sentence, fact):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert fact in found, sorted(found)


@pytest.mark.parametrize("sentence", [
    "Tevita is a senior at Google.",
    "Tevita is a junior at Highland.",
    "Tevita lives near Westbrook High.",
])
def test_no_school(extractor, sentence):
    found = [t for t in extractor.extract(sentence) if t.relation == "study at"]
    assert found == [], found
