"""How memory-writer sentences say a thing changed without "not": alternatives ("instead of",
"rather than"), rejected options, switched attributes, means clauses, continuation, the
existence presupposition of a possessed setting, and the tagger repairs they need. Each
sentence -> triples, and where the pair matters, old memory + update -> resolved verdict."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from scanner.models import MemoryRecord
from scanner.scan import scan_records

U = "user"


@pytest.mark.parametrize(("sentence", "facts"), [
    # "instead of" / "rather than": the alternative is denied, in each of the parser's shapes
    ("Priya now volunteers at the food bank instead of the animal shelter.",
     [("priya", "volunteer at", "food bank", False),
      ("priya", "volunteer at", "animal shelter", True)]),
    ("I drink green tea instead of espresso these days.",
     [(U, "drink", "green tea", False), (U, "drink", "espresso", True)]),
    ("Omar is studying Portuguese instead of Italian.",
     [("omar", "study", "portuguese", False), ("omar", "study", "italian", True)]),
    ("Lena rides a scooter rather than a bike.",
     [("lena", "ride", "scooter", False), ("lena", "ride", "bike", True)]),
    # a rejected option ends considering or looking for it
    ("Ben decided against Ikea for the new shelves.", [("ben", "look for", "ikea", True)]),
    ("The user turned down the offer from Initech.", [(U, "consider", "offer", True)]),
    # the subject's own attribute switched from one value to another
    ("Kofi switched his main editor from Vim to Emacs.",
     [("kofi", "main editor", "emacs", False), ("kofi", "main editor", "vim", True)]),
    ("Rosa changed her usual route from the ring road to the river path.",
     [("rosa", "usual route", "river path", False), ("rosa", "usual route", "ring road", True)]),
    # a means clause in the habitual present states its activity
    ("Ines unwinds by knitting scarves and baking bread.",
     [("ines", "knit", "scarf", False), ("ines", "bake", "bread", False)]),
    # continuing presupposes the activity holds now
    ("Dev plans to keep coaching the under-12 team.",
     [("dev", "coach", "under-12 team", False)]),
    # a possessed setting of the subject's own clause presupposes having it, now
    ("Mira sells her prints at her market stall.", [("mira", "have", "market stall", False)]),
    # "full-time" is how much, not what
    ("Sam now works full-time for the city library.", [("sam", "work at", "city library", False)]),
    # a role held somewhere is work there; a bare time noun before it is when, not what
    ("Gwen works as a sous-chef at Olive & Thyme and loves the team.",
     [("gwen", "work at", "olive & thyme", False)]),
    ("Gwen now works nights at a care home.", [("gwen", "work at", "care home", False)]),
    # a pattern's last slot ends with its phrase, not the sentence
    ("Gwen works as a nurse and finds the shifts long.", [("gwen", "occupation", "nurse", False)]),
    # a membership is read even beside an object; a reciprocal breakup ends dating
    ("Raf plays drums in a band called The Low Tides.",
     [("raf", "position played", "low tides", False)]),
    ("Raf and Ola split up in the spring.", [("raf", "date", "ola", True)]),
    # a quoted title is one name, whatever the small model makes of its words
    ("Pia's favourite novel is 'Becoming Nicole' by Amy Ellis Nutt.",
     [("pia", "preferred novel", "becoming nicole", False)]),
    ("Pia's favourite film is now 'Harry Potter and the Prisoner of Azkaban'.",
     [("pia", "preferred movie", "harry potter and the prisoner of azkaban", False)]),
    # a passive's agent is a role of a named patient, keyed on the patient
    ("Turner Entertainment was founded by Ted Turner.",
     [("turner entertainment", "founder", "ted turner", False)]),
    # a regnal numeral is no first person; a name keeps a name's "of" phrase
    ("Stephen I of Hungary is married to Giselle of Bavaria.",
     [("stephen i of hungary", "spouse", "giselle of bavaria", False)]),
    # a name with a colon is one name
    ("Leo mostly plays Dota:Reborn.", [("leo", "play", "dota:reborn", False)]),
    # a noun the tagger read as a verb after a name and adverb
    ("Aiko now teaches at a community college.", [("aiko", "teach at", "community college", False)]),
    # a name with an article after a verb without object is its object, not an adverbial
    ("I drive a 2011 Mazda 3.", [(U, "drive", "2011 mazda 3", False)]),
    # an aside in brackets stays the clause's own unless it is a clause itself
    ("I live in Lisbon (since 2020).", [(U, "live in", "lisbon", False)]),
    ("Subscriptions: Netflix (Spotify cancelled)", [(U, "subscriptions", "netflix", False)]),
    # a number in digit groups is one value
    ("My phone number is 555-1234.", [(U, "phone", "5551234", False)]),
    # an -ing form with a noun modifier is a noun ("Marley flooring")
    ("Jonah is shopping for Amtico flooring.", [("jonah", "shop for", "amtico flooring", False)]),
])
def test_change_sentences_to_triples(extractor, sentence, facts):
    found = {t.fact for t in extractor.extract(sentence)}
    for fact in facts:
        assert fact in found, f"{fact} not in {sorted(found)}"


@pytest.mark.parametrize(("sentence", "unwanted"), [
    # a generic patient names no one thing
    ("The company was founded by Ted Turner.", ("company", "founder", "ted turner", False)),
    # quoted speech is no title: its clause is read as written
    ("Tom told me 'I quit' and laughed.", ("tom", "say", "i quit", False)),
    # a past event's possessed setting presupposes nothing about now
    ("Mira sold prints at her market stall last spring.", ("mira", "have", "market stall", False)),
    # an idiomatic possessive is no possession
    ("Mira paints in her spare time.", ("mira", "have", "spare time", False)),
    # a passive with an agent stays a passive, whatever modifies its subject
    ("The default branch is protected by a rule.", (U, "default branch", "protected", False)),
    # "rather than" with a clause names no object
    ("Tom stayed with his club rather than join a new one.", ("tom", "join", "one", True)),
    # a negated or past main clause says nothing of a means clause's activity now
    ("Ines never unwinds by knitting scarves.", ("ines", "knit", "scarf", False)),
    ("Ines unwound by knitting scarves.", ("ines", "knit", "scarf", False)),
    # not wanting to continue presupposes nothing
    ("Dev doesn't want to keep coaching the team.", ("dev", "coach", "team", False)),
])
def test_no_change_read_into(extractor, sentence, unwanted):
    assert unwanted not in {t.fact for t in extractor.extract(sentence)}


def _record(rid: str, text: str, month: int) -> MemoryRecord:
    return MemoryRecord(id=rid, text=text, user_id="u1", source="chat", source_class="user",
                        observed_at=datetime(2026, month, 1, tzinfo=timezone.utc), epoch="e1")


@pytest.mark.parametrize(("old", "update"), [
    ("Priya volunteers at the animal shelter on weekends.",
     "Priya now volunteers at the food bank instead of the city animal shelter."),
    ("Ben is looking for Ikea wardrobes for his study.",
     "Ben decided against Ikea and had a carpenter build the shelves."),
    ("Kofi mostly uses Vim for his side projects.", "Kofi switched from Vim to Emacs."),
    ("Ines relaxes by knitting scarves.", "Ines gave up knitting to focus on running."),
    ("Dev plans to keep coaching the under-12 team next season.",
     "Dev stopped coaching the under-12 team."),
    ("Mira sells her prints at her market stall.", "Mira's market stall has closed down."),
    ("Sam found a job at a bike shop.", "Sam now works full-time for the city library."),
    ("Gwen works as a barista at Beanery Roasters.", "Gwen quit Beanery last month."),
    ("Raf has been dating Ola for about two years.", "Raf and Ola split up in the spring."),
    ("Raf plays drums in a band called The Low Tides.", "Raf quit The Low Tides."),
    # a stated activity's carrier noun, a brand standing for its product, an ended device
    ("Yara goes to a weekly salsa class at the town hall.", "Yara dropped out of salsa."),
    ("Yara drives a petrol Skoda hatchback.", "Yara sold the Skoda last month."),
    ("Yara reads everything on her Kobo Clara.", "Yara's Kobo broke over the holidays."),
    ("Yara goes to Pilates at a studio near work.", "Yara cancelled her Pilates membership."),
    # a possessive in the attribute of a copula is not its subject's
    ("Yara's favourite band is Blur.", "Yara says Pulp are her favourite band now."),
    # an ended relationship named by the object; a role stepped down from; an exchange
    ("Zoe is in a relationship with Arjun.", "Zoe and Arjun broke up after a year."),
    ("Zoe is engaged to Arjun.", "Zoe broke off her engagement last spring."),
    ("Zoe is married to Arjun.", "Zoe and Arjun finalised their divorce."),
    ("Zoe is the secretary of the allotment society.", "Zoe stepped down as secretary."),
    ("Zoe drives an old Fiesta.", "Zoe traded the Fiesta in for a bike."),
    # synonyms of one WordNet synset; a role taken somewhere is work there
    ("Zoe runs a small pottery shop in town.", "Zoe shut down her pottery store."),
    ("Zoe works as a clerk at the county archive.",
     "Zoe started a new role as an editor at a publishing house."),
    # a name the parser hung on the time phrase after it; a course completed
    ("Zoe goes to Zumba three evenings a week.", "Zoe cancelled her Zumba membership."),
    ("Zoe is taking evening Welsh classes at the library.", "Zoe completed her Welsh course."),
    # a reported copula whose subject the parser made the object of "says"; synonyms of
    # a relation; a participle clause misread as an object
    ("Zoe's favourite film is Heat.", "Zoe says her favourite film these days is Ran."),
    ("Zoe volunteers at the hospice every Sunday folding laundry.",
     "Zoe no longer helps out at the hospice."),
    # a band named with its owner in an appositive broke up
    ("Zoe sings in a choir called The Larks.", "The Larks, Zoe's choir, broke up in May."),
    # two memories name two founders of one named company
    ("Turner Entertainment was founded by Ted Turner.",
     "Turner Entertainment was founded by James Cook."),
    # a dismissal ends every job
    ("Zoe works as a porter at the Grand Hotel.", "Zoe was laid off in the spring."),
    # a group named in quotes or after "called", and the same name with a group noun
    ("Noor joined a walking group called 'Canal Striders' in spring.",
     "Noor is no longer part of the Canal Striders club."),
])
def test_update_retires_the_old_memory(extractor, old, update):
    records = [_record("m1", old, 1), _record("m2", update, 2)]
    report = scan_records(records, [extractor.extract(r.text) for r in records])
    assert "m1" in report.withhold, [c.to_dict() for c in report.conflicts]
    assert report.cite == ["m2"]


@pytest.mark.parametrize(("old", "other"), [
    # the last possessor owns the thing: a neighbour's cat is not Zoe's
    ("Zoe has a cat named Biscuit.", "Zoe's neighbour's cat died last week."),
    # accepting is no rejecting: a new position is no ended plan
    ("Zoe is considering a position at Initech.", "Zoe accepted a position at Initech."),
    # a possessive in a time phrase presupposes nothing; giving up an activity is no sale
    ("Zoe feels calm during her long walks.", "Zoe has given up walking for now."),
    # another food bank is no alternative to the shelter; a past setting is no current one
    ("Priya volunteers at the animal shelter.", "Priya volunteers at the food bank too."),
    ("Mira sold prints at her market stall last spring.", "Mira's market stall has closed down."),
    ("Ben is looking for oak shelving.", "Ben decided against Ikea."),
])
def test_no_update_where_none_is_said(extractor, old, other):
    records = [_record("m1", old, 1), _record("m2", other, 2)]
    report = scan_records(records, [extractor.extract(r.text) for r in records])
    assert not report.withhold, [c.to_dict() for c in report.conflicts]
