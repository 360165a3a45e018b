"""Profile lines that say a value has ended, as memory writers write them: the ending's cause
after the ended value ("(gave up squash after knee surgery)", "(dropped choir when the
rehearsals moved)"), several labels on one long line or between bullets ("Name: Ottilie.
Employer: … (left … in March). Likes: …", "• Name: Rafe • Employer: …"); look-alikes restrict
a habit ("after dark", "when it's cold") or pause for the weather. Pairs are scanned as two
memories of one user, the later a day after the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

ENDED = [
    ("Sports: squash, rowing", "Sports: rowing (gave up squash after knee surgery)"),
    ("Hobbies: choir, pottery", "Hobbies: pottery (dropped choir when the rehearsals moved)"),
    ("Hobbies: chess, fencing", "Hobbies: chess (quit fencing because the club closed)"),
    ("Hobbies: baking, tennis", "Hobbies: baking (stopped tennis after a wrist injury)."),
    ("Name: Ottilie. Employer: Larkspur Foods. Likes: sailing",
     "Name: Ottilie. Employer: Quillon Media (left Larkspur Foods in March). Likes: sailing"),
    ("\u2022 Name: Rafe \u2022 Employer: Tidewell \u2022 Role: buyer",
     "\u2022 Name: Rafe \u2022 Employer: Brackenridge \u2022 Role: buyer"),
]
"""The later line ends or replaces the earlier value: resolved for the later."""

KEPT = [
    ("Hobbies: running, knitting", "Hobbies: knitting (stopped running after dark)"),
    ("Hobbies: running, knitting", "Hobbies: knitting (stopped running after 9pm)"),
    ("Hobbies: swimming, knitting", "Hobbies: knitting (stopped swimming when it's cold)"),
    ("Hobbies: swimming, knitting", "Hobbies: knitting (stopped swimming when it got cold)"),
    ("Hobbies: swimming, knitting", "Hobbies: knitting (stopped swimming for the winter)"),
    ("Name: Ottilie. Employer: Larkspur Foods. Likes: sailing",
     "Name: Ottilie. Employer: Larkspur Foods (left Quillon Media in March). Likes: sailing"),
    ("\u2022 Name: Rafe \u2022 Employer: Tidewell", "\u2022 Name: Ines \u2022 Employer: Brackenridge"),
]
"""Look-alikes: nothing decided."""

test_profile_ending_resolves, test_look_alike_decides_nothing = pair_tables(ENDED, KEPT)


@pytest.mark.parametrize(("line", "fact"), [
    ("Sports: rowing (gave up squash after knee surgery)", (U, "sports", "squash", True)),
    ("Hobbies: pottery (dropped choir when the rehearsals moved)", (U, "hobbies", "choir", True)),
    ("Name: Ottilie. Employer: Quillon Media (left Larkspur Foods in March). Likes: sailing",
     ("ottilie", "employer", "larkspur foods", True)),
    ("Name: Ottilie. Employer: Quillon Media (left Larkspur Foods in March). Likes: sailing",
     ("ottilie", "employer", "quillon media", False)),
    ("\u2022 Name: Rafe \u2022 Employer: Tidewell \u2022 Role: buyer",
     ("rafe", "employer", "tidewell", False)),
])
def test_profile_line_triples(extractor, line, fact):
    found = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(line)}
    assert fact in found, sorted(found)


@pytest.mark.parametrize("line", [
    "Hobbies: knitting (stopped running after dark)",
    "Hobbies: knitting (stopped swimming when it's cold)",
    "Hobbies: knitting (stopped swimming when it got cold)",
])
def test_restricted_or_paused_ends_no_value(extractor, line):
    ended = [t for t in extractor.extract(line) if t.negated and t.relation == "hobbies"]
    assert ended == [], ended
