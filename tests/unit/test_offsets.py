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


TEXTS = [
    # subject-less memory-writer facts: the verb's form changes length when read in the
    # first person ("teaches" -> "teach", "has" -> "have", "building" -> "am building")
    "Now teaches at Kellmore Academy",
    "Has three ferrets",
    "Is no longer pescatarian.",
    "No longer drinks espresso",
    "Building a canoe with Odile",
    "Recently relocated to Tampere for work.",
    "Still lives in Ghent",
    "Doesn't own a car anymore",
    "   Works remotely for Valtex Systems",
    "Now manages the Larkfield branch; also coaches the under-9s at Pemberton",
    "- Education: completed a diploma at Harlow College in 2019",
    # chat abbreviations and contractions without their apostrophe
    "moved in w/ my gf in Aarhus",
    "been at Quillon 3 yrs, bf works there too",
    "w/o a car since may, sold it lol",
    "im vegetarian since june",
    "ive got two rabbits now",
    "theyre moving to Bergen next month",
    "Im in Lyon w/ my bf atm",
    # labelled lines
    "Favourite colour: teal",
    "Home city: Utrecht",
    "Employer: Norvik Labs",
    # plain sentences and the parse's own repairs
    "My sister Ilse lives in Graz.",
    "I sold my motorbike last week.",
    "Tomasz stepped down as treasurer of the chess club.",
    "Marina, in Porto.",
    "Ines volunteers at the animal shelter",  # read again with "regularly" before the verb
    "Grew up in Ballina; now lives in Sligo w/ his husband",
]


def _within(text: str, triples: list[Triple]) -> None:
    """Every triple's span lies in the text as written, and an object named in the text is
    named in its span (a derived ending may take its object from elsewhere in the sentence:
    the other party of "X and I ended things" is the subject's noun)."""
    for t in triples:
        assert 0 <= t.start <= t.end <= len(text), (text, t)
        written = t.object_text.lower()
        if written and written in text.lower() and t.rule != "state_change":
            assert written in text[t.start:t.end].lower(), (text, t)


@pytest.fixture(scope="module")
def extractor():
    from extractors import TripleExtractor
    return TripleExtractor()


@pytest.mark.parametrize("text", TEXTS)
def test_triple_offsets_stay_within_the_text_as_written(extractor, text):
    _within(text, extractor.extract(text))


def test_batch_offsets_stay_within_the_texts_as_written(extractor):
    many = extractor.extract_many(TEXTS, batch_size=8)
    assert any(many)
    for text, triples in zip(TEXTS, many):
        _within(text, triples)
        assert triples == extractor.extract(text)
