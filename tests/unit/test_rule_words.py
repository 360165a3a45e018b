"""A verdict's rule and reasons in plain words (issue 35, item 6: the review page gave the
reason only as rule codes): every rule the policy can record has words, and each kind of
reason reads as a sentence naming its members."""

from __future__ import annotations

import inspect
import re

import pytest

from scanner.core import policy
from scanner.core.policy_config import Strategy
from scanner.core.settlement import REOBSERVATION
from scanner.narration import RULE_WORDS, reason_in_words, rule_in_words
from scanner.review.decisions import REVIEW_RULE


def recorded_rules() -> set[str]:
    """Every rule code :mod:`scanner.core.policy` can put in a verdict, read from its rows."""
    source = inspect.getsource(policy)
    rules = set(re.findall(r'Ruling\("\w+", "(\w+)"', source))
    rules |= set(re.findall(r'_escalated\(case, "(\w+)"\)', source))
    rules |= set(policy._OTHER_WORDS.values())
    rules |= {s.value for s in Strategy if s is not Strategy.provenance}
    return rules


def test_every_rule_the_policy_records_has_words():
    rules = recorded_rules()
    assert {"tie", "safety_relation", "missing_provenance", "epoch_change",
            "named_in_other_words", "confidence"} <= rules  # the reading found the rows
    assert rules | {REOBSERVATION, REVIEW_RULE} <= set(RULE_WORDS)
    assert set(RULE_WORDS) <= rules | {REOBSERVATION, REVIEW_RULE}  # no words for no rule
    for rule, words in RULE_WORDS.items():
        assert words[0].isupper() and words.endswith(".") and "_" not in words, rule
    assert rule_in_words("no_such_rule") is None and rule_in_words(None) is None


@pytest.mark.parametrize(("reason", "words"), [
    ("missing_provenance:source@work-1", "work-1 has no source"),
    ("missing_provenance:observed_at@m2", "m2 has no observation time (observed_at)"),
    ("missing_provenance:epoch@m7", "m7 has no epoch"),
    ("recommended:timeout-1", "the policy would keep timeout-1"),
    ("recommended:none", "the policy would keep neither"),
    ("tie:same class and observed_at", "same source class and same observation time"),
    ("epochs address-2025 != address-2026",
     "recorded under different epochs: address-2025 and address-2026"),
    ("judge:update 0.97",
     "the pair judge reads an update: the later memory replaces the earlier "
     "(probability 0.97)"),
    ("subject_unconfirmed:sam~sam lee", "“sam” and “sam lee” may be one subject; no known "
                                        "alias says so"),
    ("future_observed_at:m3@2031-01-01T00:00:00+00:00",
     "m3 is dated 2031-01-01T00:00:00+00:00, after the scan's clock"),
    ("after_clock:2026-03-01T09:00:00+00:00+300s",
     "the scan's clock read 2026-03-01T09:00:00+00:00, allowing 300 s of skew"),
    ("represented_by:m9@m2", "m2 was weighed as m9, the strongest memory of its value"),
    ("declared:single_epoch", "the store declares a single epoch for every memory"),
    ("declared:source=crm", "memories without a source are declared to come from “crm”"),
    ("override:recency requested by caller", "logged override: recency requested by caller"),
    ("contradictory_statements", "one speaker's statements cannot both hold at any time, so "
                                 "time does not settle them"),
    ("relation matched by embedding similarity only",
     "relation matched by embedding similarity only"),  # already words: as it is
])
def test_reasons_in_words(reason, words):
    assert reason_in_words(reason) == words

