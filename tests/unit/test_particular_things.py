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
    # a relative clause with no content word still picks the thing out
    ("I gave away the scooter I hardly rode.", (U, "have", "scooter"), "_modifier"),
    ("Ada sold the flat where she was born.", ("ada", "have", "apartment"), "_modifier"),
    # a name or number label, a place or feature postmodifier
    ("I sold my Lenovo tablet.", (U, "have", "lenovo tablet"), "lenovo"),
    ("I sold my 2012 tablet.", (U, "have", "2012 tablet"), "2012"),
    ("I sold the cottage in Wales.", (U, "have", "cottage"), "wales"),
    ("I sold the tablet with the cracked case.", (U, "have", "tablet"), "cracked case"),
    ("I sold my scooter in June.", (U, "have", "scooter"), None),   # a time
    # a pet's name is no noun the recipient's modifiers pick out
    ("I gave Pixel to an animal shelter.", (U, "have", "pixel"), None),
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
    ("I have a tablet.", "I sold my tablet."),
    ("I have a tablet.", "I sold the tablet."),
    ("I have a Lenovo tablet.", "I sold my Lenovo tablet."),
    ("I have a scooter.", "I sold my scooter in June."),
    ("I have a tablet from work and a bike.", "I sold my tablet from work."),
]

LOOK_ALIKES = [
    ("I have a camera.", "I sold the camera I took to Peru."),
    ("Ada has a guitar.", "Ada sold her guitar from music school."),
    ("I own a boat.", "I got rid of my fishing boat."),
    ("I have a jacket.", "I lost my rain jacket."),
    # a relative clause without a noun or adjective
    ("I have a scooter.", "I gave away the scooter I hardly rode."),
    ("I own a flat.", "I sold the flat where I was born."),
    ("I own a flat.", "I sold the flat I was born in."),
    ("I have a scooter.", "I sold the scooter I owned as a teenager."),
    ("I have a scooter.", "I sold the scooter I took to school."),
    # a name or number label, a place or feature postmodifier
    ("I have a tablet.", "I sold my Lenovo tablet."),
    ("I have a tablet.", "I sold my 2012 tablet."),
    ("I own a cottage.", "I sold the cottage in Wales."),
    ("I have a tablet.", "I sold the tablet with the cracked case."),
    # the modifier's words stated of another thing of the earlier memory
    ("I have a tablet and a work phone.", "I sold the tablet I used at work."),
    ("I have a racing helmet and a bike.", "I sold my racing bike."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
