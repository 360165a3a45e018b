"""Quitting a job said in chat: the workplace stated after a time object ("I work evenings at
the Quillon bakery", "I do the late shift at the Marwick depot": a bare time noun or a work
period says when, :func:`extractors.constructions.verb_words.time_span_object`), and the
firm quit by a name written in lower case ("quit quillon on monday", "handed in my notice at
marwick"), which counts when the stated memory wrote it as a name
(:func:`scanner.core.named_referents.named_in`). Pairs are two memories of one user."""

import pytest

from scanner.core.named_referents import named_in
from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("sentence", "fact"), [
    ("I work evenings at the Quillon bakery.", (U, "work at", "quillon bakery", False)),
    ("I work the late shift at the Marwick depot.", (U, "work at", "marwick depot", False)),
    ("Priya works weekends at the Fenwick garden centre.",
     ("priya", "work at", "fenwick garden center", False)),
    ("handed in my notice at marwick today", (U, "work at", "marwick", True)),
])
def test_workplace_read(extractor, sentence, fact):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert fact in found


@pytest.mark.parametrize(("sentence", "absent"), [
    # a period of work with no place: the period is the object, no workplace
    ("I work the late shift.", (U, "work at", "", False)),
    # a duration is no time of day or week: the object stays, the phrase is not lifted
    ("I work long hours at the firm.", (U, "work at", "firm", False)),
])
def test_no_workplace(extractor, sentence, absent):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    assert absent not in found


def test_notice_marks_quitting(extractor):
    found = [t for t in extractor.extract("handed in my notice at marwick today")
             if (t.relation, t.object, t.negated) == ("work at", "marwick", True)]
    assert found and found[0].qualifier("quit") is not None


QUIT = [
    ("I work evenings at the Quillon bakery.", "quit quillon on monday, new job starts soon"),
    ("I work the late shift at the Marwick depot.", "handed in my notice at marwick lol"),
    ("I work evenings at the Quillon bakery.", "I quit Quillon on monday."),
    ("I work weekends at the Fenwick garden centre.", "resigned from fenwick last week"),
]
"""The later quitting ends the work at the firm's site."""

NOT_QUIT = [
    # the stated memory wrote no name either: "quillon" may be any word
    ("I work evenings at the quillon bakery.", "quit quillon on monday"),
    # another firm, a habit, someone else, a plan
    ("I work evenings at the Quillon bakery.", "quit marwick on monday"),
    ("I work evenings at the Quillon bakery.", "quit sugar on monday"),
    ("I work evenings at the Quillon bakery.", "my sister quit quillon on monday"),
    ("I work evenings at the Quillon bakery.", "might quit quillon soon"),
    # leaving is also leaving a place
    ("I work the late shift at the Marwick depot.", "left marwick last week"),
]
"""Look-alikes: nothing decided."""

test_chat_quitting_ends_work, test_look_alike_decides_nothing = pair_tables(QUIT, NOT_QUIT)


@pytest.mark.parametrize(("name", "text", "named"), [
    ("quillon", "I work evenings at the Quillon bakery.", True),
    ("harbour mills", "works at the Harbour Mills depot", True),
    ("quillon", "I work evenings at the quillon bakery.", False),
    ("harbour mills", "works at the Harbour mills depot", False),
    ("mills", "works at the Harbour Mills depot", True),
    ("st. mary", "works at St. Mary's", False),  # (words of letters only)
])
def test_named_in(name, text, named):
    assert named_in(name, text) is named
