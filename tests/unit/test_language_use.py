"""Language use, repute, domain phrases, enclosure, named class nouns, stranded objects,
genres and answers (extractors/constructions/language_use.py, repute.py, enclosure.py,
class_nouns.py, noun_predicates.py, stranded_objects.py, genres.py, answers.py; the located
fragment of extractors/reading.py):
sentence -> the fact it states, and what it must no longer give."""

import pytest

from extractors import TripleExtractor


@pytest.fixture(scope="module")
def extractor():
    return TripleExtractor()


def facts(extractor, sentence):
    return {t.fact for t in extractor.extract(sentence)}


@pytest.mark.parametrize(("sentence", "fact"), [
    # a language named by its adjective, which the parser hangs on the verb
    ("Ines speaks Finnish.", ("ines", "speak", "finnish", False)),
    ("Marek Kowal speaks Estonian.", ("marek kowal", "speak", "estonian", False)),
    ("Ines speaks the language Hebrew.", ("ines", "speak", "hebrew", False)),
    ("Ines speaks the language Welsh.", ("ines", "speak", "welsh", False)),
    ("Ines does not speak Finnish.", ("ines", "speak", "finnish", True)),
    # the people of a place: impersonal "they", a people noun
    ("In Quebec, they speak French.", ("quebec", "language spoken", "french", False)),
    ("In Bavaria, they understand German.", ("bavaria", "language spoken", "german", False)),
    ("In Lagos, people speak Yoruba.", ("lagos", "language spoken", "yoruba", False)),
    ("The inhabitants of Cusco speak Quechua.", ("cusco", "language spoken", "quechua", False)),
    # a place's law designating a language
    ("The law in Peru declares the language Aymara.",
     ("peru", "official language", "aymara", False)),
    ("The constitution of Malta recognises the language Maltese.",
     ("malta", "official language", "maltese", False)),
    ("Norway's law designates the language Sami.",
     ("norway", "official language", "sami", False)),
    # an agent noun and its "of" object
    ("Ines is a native speaker of Danish.", ("ines", "native language", "danish", False)),
    ("Ines is a fluent speaker of Danish.", ("ines", "speak", "danish", False)),
    ("Ivo, a native speaker of Greek.", ("ivo", "native language", "greek", False)),
    # repute: what one is known for doing
    ("Odile is known for painting murals.", ("odile", "paint", "mural", False)),
    ("Odile is famous for playing the harp.", ("odile", "play", "harp", False)),
    ("Odile Brun is renowned for composing hymns.", ("odile brun", "compose", "hymn", False)),
    ("The law in Gabon declares the language French.",
     ("gabon", "official language", "french", False)),
    # enclosure: "within" and "inside" a named place locate as "in" does
    ("Lake Tana is within Ethiopia.", ("lake tana", "located in", "ethiopia", False)),
    ("The old mill is inside Hampshire.", ("old mill", "located in", "hampshire", False)),
    ("Lake Tana is not within Kenya.", ("lake tana", "located in", "kenya", True)),
    # a located fragment whose name has its own "of" phrase
    ("Royal Academy of Dance, in London.",
     ("royal academy of dance", "located in", "london", False)),
    # a class noun named by its "of" phrase: the name is the value
    ("Ruritania belongs to the organization of OPEC.", ("ruritania", "member of", "opec", False)),
    ("Ruritania is a member of the alliance of Mercosur.",
     ("ruritania", "member of", "mercosur", False)),
    ("Tom works for the company of Acme.", ("tom", "work at", "acme", False)),
    # a located fragment whose name the tagger took for a common noun
    ("Toulouse, in Europe.", ("toulouse", "continent", "europe", False)),
    # a predicate noun the tagger read as a participle
    ("The profession of Ann Lee is poet.", ("ann lee", "occupation", "poet", False)),
    # a bare role noun after "as" that the parser left without its preposition
    ("Which position does Ola Berg play? They play as catcher.",
     ("ola berg", "position played", "catcher", False)),
    ("Ola Berg plays as catcher.", ("ola berg", "position played", "catcher", False)),
    # performing a genre (a bare kind noun)
    ("Mara Lind performs opera.", ("mara lind", "genre", "opera", False)),
    ("The quartet performs blues.", ("quartet", "genre", "blues", False)),
    ("Mara is known for performing comedy.", ("mara", "genre", "comedy", False)),
    # an answer's "it" is the question's "the N of X"
    ("What is the capital of Ruritania? It is Strelsau.",
     ("ruritania", "capital", "strelsau", False)),
    ("Which is the official language of Ruritania? It is Esperanto.",
     ("ruritania", "official language", "esperanto", False)),
    ("What is the twin city of Lyon? It is Turin.", ("lyon", "twin city", "turin", False)),
    # a name that holds "of" stays whole
    ("Tom is a member of the Bank of England.",
     ("tom", "member of", "bank of england", False)),
])
def test_the_construction_gives_its_fact(extractor, sentence, fact):
    assert fact in facts(extractor, sentence)


@pytest.mark.parametrize(("sentence", "unwanted"), [
    ("Ines speaks Finnish.", ("ines", "speak", "", False)),
    ("In Quebec, they speak French.", ("they", "speak", "french", False)),
    ("The law in Peru declares the language Aymara.", ("law", "declare", "language aymara",
                                                        False)),
    ("Ines is a native speaker of Danish.", ("ines", "be", "native speaker", False)),
    ("Odile is known for painting murals.", ("odile", "be", "know", False)),
    ("Odile works in the field of optics.", ("odile", "work location", "field", False)),
    ("Odile works in the area of optics.", ("odile", "work location", "area", False)),
    ("Odile works in the field of optics.", ("odile", "work location", "optics", False)),
    ("Ruritania belongs to the organization of OPEC.",
     ("ruritania", "member of", "organization", False)),
    ("Ruritania is a member of the alliance of Mercosur.",
     ("ruritania", "member of", "alliance of mercosur", False)),
    ("Tom works for the company of Acme.", ("tom", "work at", "company of acme", False)),
    ("The profession of Ann Lee is poet.", ("profession", "be", "poet", False)),
    ("Which position does Ola Berg play? They play as catcher.", ("ola berg", "play", "", False)),
    ("What is the capital of Ruritania? It is Strelsau.", ("capital", "be", "strelsau", False)),
])
def test_the_misreading_is_gone(extractor, sentence, unwanted):
    assert unwanted not in facts(extractor, sentence)


@pytest.mark.parametrize(("sentence", "fact"), [
    # a real participle stays a passive state
    ("The report of Ann Lee was published.", ("report", "be", "publish", False)),
    ("The window was broken.", ("window", "be", "break", False)),
])
def test_a_participle_with_a_verb_reading_stays_passive(extractor, sentence, fact):
    assert fact in facts(extractor, sentence)


@pytest.mark.parametrize(("sentence", "relation"), [
    # one work, or no genre: no genre relation
    ("Mara performed the opera.", "genre"),
    ("Mara performs surgery.", "genre"),
    # no place, no generic reading: "they" stays unresolved
    ("They speak French at home.", "language spoken"),
    # a law that designates no language
    ("The law in Peru bans smoking in bars.", "official language"),
    # a people noun of no named place
    ("Many people speak Spanish.", "language spoken"),
    # a common-noun object: enclosure locates named places only
    ("The file is within the limit.", "located in"),
])
def test_no_place_reading_without_its_construction(extractor, sentence, relation):
    assert not any(t.relation == relation for t in extractor.extract(sentence))


def test_a_negated_repute_says_nothing_of_the_activity(extractor):
    assert not any(t.relation == "paint" for t in
                   extractor.extract("Odile is not known for painting murals."))


def test_a_place_of_work_stays_a_place(extractor):
    assert ("karl", "work location", "vienna", False) in facts(
        extractor, "Karl works in Vienna.")
