"""Subject-less memory-writer facts beyond their first clause (extractors.memory_forms): a
verbless predicate denied with "not … anymore" is read as "no longer" is, and a later clause
after a comma that opens with a time or additive adverb and a third-person verb has the user
for its subject, never the noun before the comma. Sentence -> triples, and earlier/later pairs
-> verdict, with look-alikes that must decide nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

HAS = [
    ("Not vegetarian anymore.", (U, "be", "vegetarian", True)),
    ("Not a member of the rowing club any more", (U, "member of", "rowing club", True)),
    ("Not working at Brenner Tools anymore.", (U, "work at", "brenner tools", True)),
    ("Left Haldane, now works at Keller Print", (U, "work at", "keller print", False)),
    ("Sold the flat in Bray, currently rents a house in Greystones.",
     (U, "rent", "house", False)),
]

NOT_HAS = [
    # the noun before the comma is never the later verb's subject
    ("Left Haldane, now works at Keller Print", ("haldane", "work at", "keller print")),
    ("Likes otters, also goats", (U, "goat", "")),
]


def facts(extractor, text):
    return {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "fact"), HAS)
def test_reading(extractor, text, fact):
    assert fact in facts(extractor, text)


@pytest.mark.parametrize(("text", "fact"), NOT_HAS)
def test_no_misreading(extractor, text, fact):
    assert fact not in {f[:3] for f in facts(extractor, text)}


RESOLVED = [
    ("Is vegetarian.", "Not vegetarian anymore."),
    ("Works at Haldane.", "Left Haldane, now works at Keller Print"),
]

LOOK_ALIKES = [
    ("Is vegetarian.", "Not sure about vegetarian food anymore."),
    ("Works at Brenner Tools.", "Visited Brenner Tools, now works at its Leeds office too"),
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


# A subject-less report opened by a past verb before a name, a possessive or a date is the
# user's: the names are what the act was done to or when, not a subject before its verb.
PAST_BEFORE_NAME = [
    ("Rotated Twitter API keys on April 15, updated the environment variables.",
     (U, "rotate", "twitter api key", False)),
    ("Met Brittney's parents on May 5 at the harbour restaurant.", (U, "meet", "parent", False)),
    ("Missed May 6 freelance deadline due to a cold.", (U, "miss", "freelance deadline")),
]


@pytest.mark.parametrize(("text", "fact"), PAST_BEFORE_NAME)
def test_a_past_verb_before_a_name_opens_a_subjectless_report(extractor, text, fact):
    found = facts(extractor, text)
    if len(fact) == 4:
        assert fact in found
    else:  # the object says the deed's date too ("may 6 freelance deadline …")
        assert any(f[:2] == fact[:2] and fact[2] in f[2] for f in found), found


@pytest.mark.parametrize(("text", "subject"), [
    ("United Continental Holdings acquired a regional carrier.", "united continental holdings"),
    ("James Witherell lost his keys.", "james witherell"),
])
def test_a_name_before_its_past_verb_stays_the_subject(extractor, text, subject):
    assert {f[0] for f in facts(extractor, text)} == {subject}
