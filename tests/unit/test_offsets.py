"""Offsets in an edited text mapped back to the text as written (:mod:`extractors.offsets`):
insertions, deletions and replacements are one kind of edit."""

from __future__ import annotations

import pytest

from extractors.offsets import Edits, offsets_back
from extractors.types import Triple


def _edited(text: str, edits: Edits) -> str:
    out, last = [], 0
    for start, end, length in edits.spans:
        out += [text[last:start], "#" * length]
        last = end
    return "".join(out) + text[last:]


@pytest.mark.parametrize("text, edits, word", [
    # an insertion (an apostrophe): words on either side keep their place
    ("youre in Tromso", Edits(((3, 3, 1),)), "in Tromso"),
    ("Ola says youre in Tromso", Edits(((12, 12, 1),)), "Ola says"),
    # a deletion (a label left out)
    ("Notes: moved to Gdansk", Edits(((0, 7, 0),)), "moved to Gdansk"),
    # replacements longer and shorter than the form, one after another
    ("w/ Ines, 4 yrs now", Edits(((0, 2, 4), (11, 14, 5))), "Ines"),
    ("w/ Ines, 4 yrs now", Edits(((0, 2, 4), (11, 14, 5))), "now"),
    ("wth Ines, 4 years now", Edits(((0, 3, 1), (12, 17, 2))), "now"),
])
def test_a_word_maps_back_to_itself(text, edits, word):
    edited = _edited(text, edits)
    at = edited.index(word)
    assert edits.back(at) == text.index(word)
    assert edits.back(at + len(word), True) == text.index(word) + len(word)


def test_offsets_inside_a_replacement_map_to_its_ends():
    edits = Edits(((4, 7, 13),))  # "out atm ok" -> "out at the moment ok"
    assert [edits.back(o) for o in (4, 7, 15, 17, 18)] == [4, 4, 4, 7, 8]
    assert [edits.back(o, True) for o in (4, 7, 15, 17, 18)] == [4, 7, 7, 7, 8]


def test_a_span_never_takes_in_an_insertion_or_a_deletion():
    inserted = Edits(((5, 5, 3),))
    assert (inserted.back(5), inserted.back(5, True)) == (5, 5)
    assert (inserted.back(8), inserted.back(8, True)) == (5, 5)
    deleted = Edits(((5, 9, 0),))
    assert (deleted.back(5), deleted.back(5, True)) == (9, 5)


def test_edits_made_one_after_another_are_undone_last_to_first():
    # "Is vet w/ Bo" -> chat form read: "Is vet with Bo" -> "I am vet with Bo"
    chat = Edits(((7, 9, 4),))
    first_person = Edits(((0, 2, 4),))
    t = Triple(subject="user", relation="work with", object="bo", start=0, end=16)
    back = offsets_back([t], [chat, first_person])[0]
    assert (back.start, back.end) == (0, 12)
    assert offsets_back([t], [Edits(), Edits()]) == [t]
    assert not Edits() and Edits(((0, 0, 1),))
