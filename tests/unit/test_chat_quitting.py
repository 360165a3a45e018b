"""Quitting a job said in chat: the workplace stated after a time object ("I work evenings at
the Quillon bakery", "I do the late shift at the Marwick depot": a bare time noun or a work
period says when, :func:`extractors.constructions.verb_words.time_span_object`), and the
firm quit by its written name ("I quit Quillon on monday"). A firm quit in chat's lower case
("quit amazon", "quit netflix") is more often a service given up than a job: it ends no work
there. Pairs are two memories of one user."""

import pytest

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
    ("I work evenings at the Quillon bakery.", "I quit Quillon on monday."),
    ("I work the late shift at the Marwick depot.", "Handed in my notice at Marwick today."),
    ("I work weekends at the Fenwick garden centre.", "Resigned from Fenwick last week."),
]
"""The later quitting ends the work at the firm's site."""

NOT_QUIT = [
    # a name in chat's lower case: a service given up as often as a job
    ("I work evenings at the Quillon bakery.", "quit quillon on monday"),
    ("I work nights at the Orbyn store.", "quit orbyn, switched to a cheaper plan lol"),
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
