"""Contractions typed without their apostrophe (:mod:`extractors.orthography`)."""

from __future__ import annotations

import pytest

from extractors import TripleExtractor
from extractors.offsets import Edits
from extractors.orthography import apostrophes_restored, contraction_table
from extractors.types import Triple


@pytest.fixture(scope="module")
def extractor():
    return TripleExtractor()


@pytest.fixture(scope="module")
def table(extractor):
    return extractor._contractions()


def test_table_comes_from_the_tokenizer_exceptions(table):
    assert table["im"] == "i'm" and table["theyre"] == "they're"
    assert table["didnt"] == "didn't" and table["ive"] == "i've"
    # common words stay words: spaCy leaves them out, and so do the lemmatizer's words
    for word in ("its", "ill", "well", "were", "wed", "id", "cant", "wont", "shell"):
        assert word not in table


def test_table_from_rules_alone():
    rules = {"im": [{65: "i"}, {65: "m"}], "i'm": [{65: "i"}, {65: "'m"}],
             "wed": [{65: "we"}, {65: "d"}], "we'd": [{65: "we"}, {65: "'d"}],
             "dont": [{65: "do"}, {65: "nt"}]}
    assert contraction_table(rules, words=["wed"]) == {"im": "i'm"}


@pytest.mark.parametrize("text, restored, inserted", [
    # inserted: the positions in the text as written where an apostrophe goes
    ("im vegan now", "i'm vegan now", (1,)),
    ("Im in Galway till sunday", "I'm in Galway till sunday", (1,)),
    ("theyre moving and ive sold it", "they're moving and i've sold it", (4, 19)),
    ("IM me later", "IM me later", ()),  # an abbreviation may be meant
    ("I'm fine, didnt go", "I'm fine, didn't go", (14,)),
    ("we wed in june", "we wed in june", ()),  # a word of its own
    ("rock'n'roll im", "rock'n'roll i'm", (13,)),
    # addresses, URLs, handles, hashtags and quoted titles keep their spelling
    ("write to ive.moreau@example.org", "write to ive.moreau@example.org", ()),
    ("see https://hes.example.net/youre", "see https://hes.example.net/youre", ()),
    ("follow @theyre and #im", "follow @theyre and #im", ()),
    ('my favourite track is "Youre So Vain"', 'my favourite track is "Youre So Vain"', ()),
    # a capitalised form is a contraction only where a sentence starts, never after a title
    ("Im home. Youre late!", "I'm home. You're late!", (1, 12)),
    ("Our landlord is Mr. Im.", "Our landlord is Mr. Im.", ()),
    ("My cousin Ima teaches.", "My cousin Ima teaches.", ()),
])
def test_apostrophes_restored(table, text, restored, inserted):
    assert apostrophes_restored(text, table) == (restored,
                                                 Edits(tuple((at, at, 1) for at in inserted)))


def test_offsets_map_back():
    t = Triple(subject="user", relation="be", object="vegan", start=4, end=15)
    back = Edits(((1, 1, 1), (8, 8, 1))).triples_back([t])  # restored at 1 and 9
    assert (back[0].start, back[0].end) == (3, 13)
    assert Edits().triples_back([t]) == [t]


@pytest.mark.parametrize("text, expected", [
    ("im vegetarian these days", ("user", "be", "vegetarian", False)),
    ("im in Porto now", ("user", "be in", "porto", False)),
    ("ive sold my kayak", ("user", "have", "kayak", True)),
    ("theyre not my neighbours anymore", None),
])
def test_chat_contractions_read_as_written_with_apostrophes(extractor, text, expected):
    found = extractor.extract(text)
    with_apostrophes = extractor.extract(apostrophes_restored(text, extractor._contractions())[0])
    assert [(t.subject, t.relation, t.object, t.negated) for t in found] == [
        (t.subject, t.relation, t.object, t.negated) for t in with_apostrophes]
    if expected is not None:
        assert expected in {(t.subject, t.relation, t.object, t.negated) for t in found}
    for t in found:
        assert 0 <= t.start <= t.end <= len(text)


def test_batch_and_single_agree(extractor):
    texts = ["im vegan", "Dana moved to Leeds.", "theyre moving to York and im staying"]
    assert extractor.extract_many(texts) == [extractor.extract(t) for t in texts]
