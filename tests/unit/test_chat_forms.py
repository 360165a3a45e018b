"""Chat abbreviations, fillers and emoticons read before the parse (:mod:`extractors.chat_forms`)."""

from __future__ import annotations

import pytest

from extractors import TripleExtractor
from extractors.chat_forms import chat_forms, chat_forms_read
from extractors.offsets import Edits
from extractors.types import Triple


@pytest.fixture(scope="module")
def extractor():
    return TripleExtractor()


@pytest.mark.parametrize("text, read", [
    ("staying w/ my cousin in york", "staying with my cousin in york"),
    ("can't sleep w/o the fan on", "can't sleep without the fan on"),
    ("my bf and I, together 2 yrs", "my boyfriend and I, together 2 years"),
    ("Gf says hi", "Girlfriend says hi"),
    ("busy atm, back in 3 wks", "busy at the moment, back in 3 weeks"),
    ("the atm ate my card", "the atm ate my card"),        # a noun after a determiner
    ("ATM fees are high", "ATM fees are high"),            # capitals: another abbreviation
    ("the BF gene", "the BF gene"),
    ("sold the bike lol, tbh", "sold the bike    ,    "),  # fillers blanked, any case
    ("LOL sold it", "sold it"),                     # blanks at the start go
    ("vet visit today :( poor thing", "vet visit today .  poor thing"),
    ("see http://x.org/w/ and 12:pm", "see http://x.org/w/ and 12:pm"),  # inside a URL or time
    ("a w/e deal", "a w/e deal"),
    ("nothing to read here", "nothing to read here"),
    ("ugh finally sold the civic", "finally sold the civic"),  # an interjection
    ("ok officially moved out", "officially moved out"),     # an opener, at the start
    ("So, i sold the bike", "i sold the bike"),
    ("sold it. anyway moved on", "sold it.        moved on"),  # ... or of a sentence
    ("the food was ok so far", "the food was ok so far"),     # inside the clause: words
    ("OK I moved", "I moved"),
    ("Well water is safe", "Well water is safe"),             # "well" is no opener
    ("So Tom left", "So Tom left"),                           # a name follows: left alone
])
def test_chat_forms_read(text, read):
    assert chat_forms_read(text)[0] == read


def test_same_length_forms_need_no_mapping():
    assert not chat_forms_read("sold it lol :(")[1]


def test_an_offset_after_a_removed_opener_maps_back():
    text = "ugh my team lead is Priya"
    read, spans = chat_forms_read(text)
    at = read.index("Priya")
    t = Triple(subject="user", relation="x", object="y", start=at, end=at + 5)
    back = spans.triples_back([t])[0]
    assert text[back.start:back.end] == "Priya"


@pytest.mark.parametrize("text, word", [
    ("moved in w/ my bf in 2021", "bf"),
    ("w/ Tomas now", "Tomas"),
    ("w/o a car for 3 wks, gf drives", "gf"),
    ("w/o a car for 3 wks, gf drives", "drives"),
    ("w/o a car for 3 wks, gf drives", "car"),
])
def test_offsets_map_back_to_the_written_word(text, word):
    read, spans = chat_forms_read(text)
    written = text.index(word)
    spelt = {"bf": "boyfriend", "gf": "girlfriend"}.get(word, word)
    at = read.index(spelt)
    t = Triple(subject="user", relation="x", object="y", start=at, end=at + len(spelt))
    back = spans.triples_back([t])[0]
    assert text[back.start:back.end] == word
    assert (back.start, back.end) == (written, written + len(word))


def test_an_offset_inside_a_spelt_out_phrase_maps_to_its_form():
    text = "out atm sorry"
    read, spans = chat_forms_read(text)
    assert read == "out at the moment sorry"
    inner = Triple(subject="user", relation="x", object="y", start=7, end=10)  # "the"
    back = spans.triples_back([inner])[0]
    assert (back.start, back.end) == (4, 7)
    assert Edits().triples_back([inner]) == [inner]


def test_table_names_its_sources():
    forms = chat_forms()
    assert forms.expansions["w/"] == "with" and "tbh" in forms.fillers and ":(" in forms.emoticons
    assert "yr" not in forms.expansions  # also "your"


@pytest.mark.parametrize("text, expected", [
    ("i stay in a tiny room w/ my aunt", ("user", "have", "aunt", False)),
    ("I live w/ my aunt", ("user", "live with", "aunt", False)),
    ("my gf is Noor", ("user", "girlfriend", "noor", False)),
    ("fav snack is mango sorbet", ("user", "preferred snack", "mango sorbet", False)),
    ("ugh finally sold the civic", ("user", "sell", "civic", False)),
    ("ok officially moved out of leeds", ("user", "move out of", "leeds", False)),
    ("my fave podcast is Lore.", ("user", "preferred podcast", "lore", False)),
    ("Fav drink: oat flat white", ("user", "preferred drink", "oat flat white", False)),
    ("cant function w/o my glasses", None),
])
def test_triples_of_chat_forms(extractor, text, expected):
    triples = extractor.extract(text)
    for t in triples:
        assert 0 <= t.start <= t.end <= len(text)
    if expected is None:
        assert not any(t.object in {"w/o", "w/"} for t in triples)
        return
    assert expected in {(t.subject, t.relation, t.object, t.negated) for t in triples}


def test_batch_equals_single(extractor):
    texts = ["living w/ my bf in Cork lol", "my gf is Noor :)", "plain sentence here"]
    assert extractor.extract_many(texts) == [extractor.extract(t) for t in texts]
