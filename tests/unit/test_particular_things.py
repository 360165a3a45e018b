"""Ending a thing picked out from others of its kind (extractors.constructions.particulars):
a noun premodifier naming a subkind ("rain jacket"), a restrictive relative clause ("the
camera I took to Peru") or a phrase of origin ("from music school") keeps its words as the
ending's ``particular`` qualifier, and the ending meets only a statement that names them
(scanner.core.detect.picked_out), never one of the kind as such. Sentence -> qualifier, and
earlier/later pairs -> verdict."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("text", "fact", "words"), [
    ("I sold the camera I took to Peru.", (U, "have", "camera"), "peru"),
    ("Ada sold her guitar from music school.", ("ada", "have", "guitar"), "music school"),
    ("I got rid of my fishing boat.", (U, "own", "fishing boat"), "fishing"),
    ("I lost my rain jacket.", (U, "have", "rain jacket"), "rain"),
    ("I sold my car, which I loved.", (U, "own", "car"), None),   # not restrictive
    ("I sold my car.", (U, "own", "car"), None),
])
def test_particular_words_of_an_ending(extractor, text, fact, words):
    found = {(t.subject, t.relation, t.object): t for t in extractor.extract(text)
             if t.rule == "state_change"}
    assert fact in found, sorted(found)
    assert found[fact].qualifier("particular") == words


RESOLVED = [
    ("I own a boat.", "I sold my boat."),
    ("I have a camera.", "I sold my camera."),
    ("I own a car.", "I sold my car, which I loved."),
    ("I own a rain jacket.", "I lost my rain jacket."),
    ("Ada has a guitar from music school.", "Ada sold her guitar from music school."),
]

LOOK_ALIKES = [
    ("I have a camera.", "I sold the camera I took to Peru."),
    ("Ada has a guitar.", "Ada sold her guitar from music school."),
    ("I own a boat.", "I got rid of my fishing boat."),
    ("I have a jacket.", "I lost my rain jacket."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
