"""A correction that rejects a value by name ("…, not £12.20") meets the earlier memory that
states it (scanner.core.corrections), whatever words each gives the attribute; a rejected value
that no earlier memory of the same words states pairs nothing, and the judge decides."""

from __future__ import annotations

import pytest

from scanner.core.corrections import correction_pairs
from tests.unit.test_pair_judge import FixedJudge, record, scan

CORRECTED = [
    ("Tom's pay: £12.20 an hour", "Correction: Tom gets £12.60 an hour, not £12.20."),
    ("Backups are now kept for 30 days instead of two weeks.",
     "Correction: backup retention is 21 days, not 30."),
    ("Prescribing assignment deadline extended to 26 May.",
     "Correction: the extension is to 23 May, not 26 May."),
    ("hr.zone2_max = 152 after the lactate test", "Correction: zone 2 cap is 150 bpm, not 152."),
    ("I'm training for the Chester marathon on 4 October.",
     "Correction: Chester is on 11 October, not 4 October."),
]

NOT_CORRECTED = [
    # the rejected value, said of another thing
    ("Lunch with Sara cost £30.", "Correction: the taxi was £25, not £30."),
    # "instead of" names the right value a mistake replaced, not a rejected one
    ("The norm of x is 12.", "I computed the norm as 10 instead of 12, corrected in 20 minutes."),
    # no correction: a contrast of two things
    ("Tom's pay: £12.20 an hour", "Tom gets £12.60 an hour at the other shop, not £12.20."),
    # the earlier memory already states the corrected value
    ("Tom's pay: £12.60 an hour, or £12.20 on Sundays",
     "Correction: Tom gets £12.60 an hour, not £12.20."),
]


@pytest.mark.parametrize(("earlier", "later"), CORRECTED)
def test_a_correction_meets_the_value_it_rejects(earlier, later):
    pairs = correction_pairs([record("m1", earlier, 1), record("m2", later, 2)])
    assert [(p.ids, p.found_by) for p in pairs] == [(("m1", "m2"), "corrected")]


@pytest.mark.parametrize(("earlier", "later"), NOT_CORRECTED)
def test_no_pair_without_a_rejected_value_of_the_same_thing(earlier, later):
    assert correction_pairs([record("m1", earlier, 1), record("m2", later, 2)]) == []


def test_a_correction_before_the_value_pairs_nothing():
    later, earlier = CORRECTED[0]
    assert correction_pairs([record("m1", earlier, 1), record("m2", later, 2)]) == []


def test_the_judge_decides(extractor):
    earlier, later = CORRECTED[0]
    report = scan(extractor, FixedJudge(update=0.99), earlier, later)
    assert report.withhold == ["m1"]
    assert scan(extractor, FixedJudge(compatible=0.99), earlier, later).withhold == []
