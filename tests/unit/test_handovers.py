"""Handovers of a role, an activity or a group one leads (FrameNet Giving, Change_of_leadership):
the giver no longer holds what was handed over; look-alikes hand over a thing or nothing for
good. Pairs are scanned as two memories of one user, the later a day after the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

HANDED = [
    # an office's activity noun names the agent noun's role, and the verb's activity
    ("I'm the build manager for the mobile app.",
     "I handed build management for the mobile app to Tomas."),
    ("I manage builds for the mobile app.",
     "I handed build management for the mobile app to Tomas."),
    ("Noor is the release manager for v7.", "Noor handed release management for v7 to Efe."),
    ("I supervise the night shift.", "I've handed night shift supervision over to Grace."),
    # a name before the office noun is its owner, as "of" names it
    ("I'm the secretary of the RSPB.", "I handed the RSPB secretary role over to Dana."),
    # an agent noun the tagger reads as a verb ("lead") is still the role's name
    ("I'm the squad lead.", "I handed the squad lead role to Femi."),
    ("I'm the squad lead.", "I've handed the squad lead role to Femi."),
    # a group one leads, handed on (the particle read as a preposition)
    ("I run the chess club.", "I passed the chess club on to Rahel."),
    ("I lead the hiking group.", "I handed the hiking group over to Ilse."),
    ("I'm the captain of the rowing team.",
     "I passed the captaincy of the rowing team on to Ayo."),
    # an activity handed over as an -ing clause
    ("The user organizes the Sunday quiz.",
     "The user handed organizing the Sunday quiz over to Bea."),
]
"""Pairs whose later memory hands over what the earlier one holds: resolved for the later."""

KEPT = [
    # a thing handed over is no role: writing it goes on
    ("I write the newsletter.", "I handed the newsletter to Bruno."),
    ("I play rugby.", "I passed the ball to Kemal."),
    # another owner's office, or the office in general against one owner's
    ("I manage builds for the mobile app.", "I handed build management for the web app to Tomas."),
    ("I'm the build manager for the mobile app.",
     "I handed build management for the web app to Tomas."),
    ("I manage builds.", "I handed build management for the web app to Tomas."),
    # for a spell, or only offered
    ("I run the chess club.", "I passed the chess club on to Rahel for the summer."),
    ("I run the chess club.", "I offered to hand the chess club over to Rahel."),
    # a spell, an end, a span or a recurring time bounds the handover
    ("I'm the squad lead.", "I handed the squad lead role to Odile for three weeks."),
    ("I'm the squad lead.", "I handed the squad lead role to Odile for the sprint."),
    ("I'm the squad lead.", "I handed the squad lead role to Odile until I return."),
    ("I'm the squad lead.", "I handed the squad lead role to Odile until October."),
    ("I'm the secretary of the RSPB.",
     "I handed the RSPB secretary role over to Dana during my sabbatical."),
    ("I lead the hiking group.", "I handed the hiking group over to Ilse for the winter."),
    ("I lead the hiking group.", "I handed the hiking group over to Ilse while I recover."),
    ("I lead the hiking group.", "I handed the hiking group over to Ilse while on leave."),
    ("I lead the hiking group.", "I passed the hiking group on to Ilse through the autumn."),
    ("The user organizes the Sunday quiz.",
     "The user handed organizing the Sunday quiz over to Bea on Saturdays."),
    # handed back in the same sentence
    ("I'm the secretary of the RSPB.",
     "I handed the RSPB secretary role over to Dana, but she handed it back."),
    ("I lead the hiking group.", "I passed the hiking group on to Ilse, and she passed it back."),
    ("I'm the squad lead.", "I handed the squad lead role to Odile, who gave it back to me."),
    # someone else's group, or a group named by where it is
    ("I run the chess club.", "I passed my sister's chess club on to Rahel."),
    ("I run the chess club.", "I passed the chess club at school on to Rahel."),
    # a group given something is no group handed over
    ("I lead the hiking group.", "I handed the hiking group a map."),
    ("The user organizes the Sunday quiz.", "The user handed the Sunday quiz sheets over to Bea."),
]
"""Look-alikes: nothing decided."""

test_handover_resolves, test_look_alike_decides_nothing = pair_tables(HANDED, KEPT)


@pytest.mark.parametrize(("sentence", "facts"), [
    ("Kofi handed the team lead role to Ines.", [("kofi", "be", "team lead", True),
                                                  ("ines", "be", "team lead", False)]),
    ("I handed the PTA chair role to Ruth.", [(U, "be", "chair of pta", True),
                                              (U, "be", "pta chair", True)]),
    ("I passed the book club on to Lea.", [(U, "run", "book club", True),
                                           ("lea", "run", "book club", False)]),
    ("Zeynep handed coaching the juniors over to Abel.",
     [("zeynep", "coach", "junior", True), ("abel", "coach", "junior", False)]),
    ("I'm the release manager for v9.", [(U, "be", "release manager of v9", False)]),
])
def test_handover_triples(extractor, sentence, facts):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(sentence)}
    for fact in facts:
        assert fact in found, sorted(found)


@pytest.mark.parametrize("sentence", [
    "Kofi handed the team lead a coffee.",
    "Ines passed the ball to Marta.",
    "I handed the quarterly report to Joao.",
])
def test_no_role_handed(extractor, sentence):
    found = {(t.relation, t.object) for t in extractor.extract(sentence) if t.negated}
    assert not any(r in ("be", "lead", "write") for r, _ in found), sorted(found)


@pytest.mark.parametrize("sentence", [
    "I handed the chess club over to Rahel while I travel.",
    "I handed the chess club over to Rahel during my leave.",
    "I handed the chess club over to Rahel, and he handed it back.",
])
def test_a_handover_for_a_while_ends_nothing(extractor, sentence):
    """Neither the handover rule nor the generic ending of "hand over" ends anything."""
    ended = [t for t in extractor.extract(sentence) if t.negated and t.subject == U]
    assert ended == [], ended
