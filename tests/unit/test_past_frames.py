"""A simple past placed in a past time that is no calendar date (extractors.aspect): a period
of life, a past "when" clause, growing up, "back then", "in those days", "once". Its state is
a completed past (time ``past``), never a denial of the present (Quirk et al. 1985, §4.20).
Sentence -> time, and earlier/later pairs -> verdict, with look-alikes that decide nothing
and changes whose result holds that still do."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

IN_PAST = [
    ("I didn't drink tea as a teenager.", (U, "drink", "tea", True)),
    ("I didn't drink soda growing up.", (U, "drink", "soda", True)),
    ("Growing up, I didn't eat pork.", (U, "eat", "pork", True)),
    ("When I was little I didn't like olives.", (U, "like", "olive", True)),
    ("I didn't like olives when I was in school.", (U, "like", "olive", True)),
    ("Back then I didn't own a bike.", (U, "own", "bike", True)),
    ("In those days I didn't live in Ghent.", (U, "live in", "ghent", True)),
    ("I didn't drive at the time.", (U, "drive", "", True)),
    ("I once lived in Bruges.", (U, "live in", "bruges", False)),
    ("I hated mushrooms in college.", (U, "like", "mushroom", True)),
    ("Tomas didn't speak Dutch while he lived in Lyon.", ("tomas", "speak", "dutch", True)),
    ("I was not a vegetarian as a teenager.", (U, "be", "vegetarian", True)),
    # a frame in front of the clause, also where the parser hangs it elsewhere
    ("As an undergrad, I lived in Ghent.", (U, "live in", "ghent", False)),
    ("As a student I worked at a bakery.", (U, "work at", "bakery", False)),
    ("At the time I lived in Lyon.", (U, "live in", "lyon", False)),
    ("In my thirties I worked at Philips.", (U, "work at", "philips", False)),
    ("Once I owned a canoe.", (U, "own", "canoe", False)),
]

NOW = [
    ("I don't drink tea anymore.", (U, "drink", "tea", True)),
    ("I didn't like olives.", (U, "like", "olive", True)),
    ("I don't own a bike in this town.", (U, "own", "bike", True)),
    ("At the moment I work at Philips.", (U, "work at", "philips", False)),
    ("As a student I live in Ghent.", (U, "live in", "ghent", False)),
]
"""No past frame: the triple keeps no ``past`` time."""


def times(extractor, text, fact):
    return [t.qualifier("time") for t in extractor.extract(text) if t.fact == fact]


@pytest.mark.parametrize(("text", "fact"), IN_PAST)
def test_past_frame_is_completed_past(extractor, text, fact):
    found = times(extractor, text, fact)
    assert found and all(w and w.split()[0] == "past" for w in found)


@pytest.mark.parametrize(("text", "fact"), NOW)
def test_no_past_frame(extractor, text, fact):
    found = times(extractor, text, fact)
    assert found and not any(w and w.startswith("past") for w in found)


RESOLVED = [
    ("I drink tea.", "I don't drink tea anymore."),
    ("I smoke cigars.", "I quit smoking cigars last winter."),
    ("I own a bike.", "I sold my bike last month."),
    ("I live in Ghent.", "I moved to Bruges when I got the job."),
]

LOOK_ALIKES = [
    ("I drink tea.", "I didn't drink tea as a teenager."),
    ("I like olives.", "When I was little I didn't like olives."),
    ("I drink soda.", "I didn't drink soda growing up."),
    ("I own a bike.", "Back then I didn't own a bike."),
    ("I live in Ghent.", "In those days I didn't live in Ghent."),
    ("I like mushrooms.", "I hated mushrooms in college."),
    ("I live in Ghent.", "I once lived in Bruges."),
    ("I am a vegetarian.", "I was not a vegetarian as a teenager."),
    ("I work at Siemens.", "As a student, I worked at a bakery."),
    ("I live in Ghent.", "At the time I lived in Lyon."),
    ("I work at Siemens.", "In my thirties I worked at Philips."),
    ("I live in Ghent.", "Once I lived in Bruges."),
]


def test_decade_of_life_is_no_place(extractor):
    """"in my thirties" says when, never where."""
    assert not any(t.object in ("30", "thirty", "thirties")
                   for t in extractor.extract("In my thirties I lived in Lyon."))

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
