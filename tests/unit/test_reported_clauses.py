"""Reported clauses (extractors.constructions.reports): a clause under a verb of saying or
thinking is asserted only in a factive frame or in the affirmed report of the user or of the
one it is about. Sentence -> triples, and earlier/later pairs -> verdict, with look-alikes
(someone else's belief or report, a denied saying) that must decide nothing."""

from __future__ import annotations

import pytest

from extractors.constructions.reports import (
    NEVER, OWN_REPORT, PRESUPPOSED, reporting_frames)
from tests.unit.test_state_changes import pair_tables

U = "user"

ASSERTED = [
    # the user's or the clause's own subject's affirmed report
    ("Lena said she moved to Toronto.", ("lena", "live in", "toronto", False)),
    ("The user mentioned they no longer drink soda.", (U, "drink", "soda", True)),
    ("I told my brother that I work at Siemens.", (U, "work at", "siemens", False)),
    ("Lena says her favourite film is Heat.", ("lena", "preferred movie", "heat", False)),
    ("Tomas said he sold his van.", ("tomas", "sell", "van", False)),
    # a factive frame presupposes the clause, even negated
    ("My landlord doesn't know I work at Siemens.", (U, "work at", "siemens", False)),
    ("Tomas found out he is allergic to almonds.", ("tomas", "be allergic to", "almond", False)),
    # the user's relation reporting about themselves
    ("My aunt said she moved to Lisbon.", ("user's aunt", "live in", "lisbon", False)),
    ("My uncle says he no longer drinks beer.", ("user's uncle", "drink", "beer", True)),
    ("My cousin told me she works at Philips.", ("user's cousin", "work at", "philips", False)),
    ("My father said that he doesn't eat meat.", ("user's father", "eat", "meat", True)),
    # the perfect in a contracted "'s" is no passive
    ("Lena told me she's moved to Porto.", ("lena", "live in", "porto", False)),
]

NOT_ASSERTED = [
    # someone else's belief or report about another
    ("My cousin thinks I work at Bosch.", (U, "work at", "bosch", False)),
    ("My dentist says I'm not diabetic.", (U, "be", "diabetic", True)),
    ("Our neighbour told me I live in the wrong flat.", (U, "live in", "wrong flat", False)),
    ("My sister assumes I don't eat meat.", (U, "eat", "meat", True)),
    ("Tomas believes Lena moved to Bruges.", ("lena", "live in", "bruges", False)),
    ("My mother is convinced that I live in Bruges.", (U, "live in", "bruges", False)),
    ("I work at Bosch, my cousin thinks.", (U, "work at", "bosch", False)),
    ("According to my mother, I live in Bruges.", (U, "live in", "bruges", False)),
    # a denied, passive or hedged saying, a hearsay, a proposal, the user's own belief
    ("I never said I live in Bruges.", (U, "live in", "bruges", False)),
    ("I didn't tell Lena that I work at Bosch.", (U, "work at", "bosch", False)),
    ("I was told I'm not allergic to cats.", (U, "be allergic to", "cat", True)),
    ("Lena heard that I moved to Bruges.", (U, "live in", "bruges", False)),
    ("My doctor suggested I stop drinking coffee.", (U, "drink", "coffee", True)),
    ("I think I'm allergic to cats.", (U, "be allergic to", "cat", False)),
    # a hearsay idiom
    ("Rumour has it I moved to Bruges.", (U, "live in", "bruges", False)),
    ("Word is that I work at Bosch.", (U, "work at", "bosch", False)),
    ("Legend has it I lived in Porto.", (U, "live in", "porto", False)),
    # a relation's report about another person, of the other gender, or after another name
    ("Lena said her son moved to Porto.", ("lena's son", "live in", "porto", False)),
    ("Lena said her son moved to Porto.", ("lena", "live in", "porto", False)),
    ("My uncle said she moved to Lisbon.", ("user's uncle", "live in", "lisbon", False)),
    ("My aunt told Tomas he moved to Lisbon.", ("user's aunt", "live in", "lisbon", False)),
]


def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "fact"), ASSERTED)
def test_asserted_report_reads(extractor, text, fact):
    assert fact in facts(extractor, text)


@pytest.mark.parametrize(("text", "fact"), NOT_ASSERTED)
def test_unasserted_report_reads_nothing(extractor, text, fact):
    assert fact not in facts(extractor, text)


RESOLVED = [
    ("I live in Ghent.", "I don't live in Ghent anymore."),
    ("Lena lives in Lyon.", "Lena said she moved to Toronto."),
    ("The user eats fish.", "The user mentioned they no longer eat fish."),
    ("I work at Bosch.", "I told Lena that I work at Siemens now."),
    ("My aunt lives in Lyon.", "My aunt said she moved to Lisbon."),
    ("My uncle smokes.", "My uncle says he quit smoking."),
    ("My cousin smokes.", "My cousin said that she no longer smokes."),
    ("Lena lives in Lyon.", "Lena told me she's moved to Porto."),
]

LOOK_ALIKES = [
    ("I work at Siemens.", "My cousin thinks I work at Bosch."),
    ("I am diabetic.", "My dentist says I'm not diabetic."),
    ("I live in Ghent.", "I never said I live in Bruges."),
    ("I live in Ghent.", "I live in Bruges, my cousin thinks."),
    ("I eat meat.", "My sister assumes I don't eat meat."),
    ("I live in Ghent.", "According to my mother, I live in Bruges."),
    ("I am allergic to cats.", "I was told I'm not allergic to cats."),
    ("Lena lives in Lyon.", "Tomas believes Lena moved to Bruges."),
    # the tagger may read the frame's "-s" as a plural noun
    ("I eat fish.", "My nutritionist claims I don't eat fish."),
    ("I live in Ghent.", "Rumour has it I moved to Bruges."),
    ("I work at Siemens.", "Word is I work at Bosch."),
    ("Lena's son lives in Lyon.", "Lena said her son moved to Porto."),
    ("My uncle lives in Lyon.", "My uncle said she moved to Lisbon."),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


def test_table_classes():
    """The shipped table names each word once, with a known assertion."""
    frames = reporting_frames()
    assert frames[("verb", "say")] == OWN_REPORT
    assert frames[("verb", "think")] == NEVER
    assert frames[("verb", "find out")] == PRESUPPOSED
    assert frames[("adjective", "convinced")] == NEVER
    assert frames[("subject", "rumour")] == NEVER
    assert set(frames.values()) <= {NEVER, OWN_REPORT, PRESUPPOSED}
