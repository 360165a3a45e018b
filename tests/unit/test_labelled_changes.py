"""A labelled line that says its thing changed ("Leave Policy revised: …") and a labelled list
of attributes with amounts ("Support contract terms: net-30, response time 4h, uplift 5%")
(extractors.constructions.key_values, issue 37 kind 2): the change participle is no part of the
label, so the line meets the thing's earlier line under one key, and each listed item is an
attribute of its own. Sentence -> triples."""

from __future__ import annotations

import pytest

U = "user"


def facts(extractor, text):
    return {(t.subject, t.relation, t.object) for t in extractor.extract(text)}


@pytest.mark.parametrize("earlier, later", [
    ("Leave Policy: 20 days a year", "Leave Policy revised: 25 days a year"),
    ("Ticket 4471 priority: medium", "Ticket 4471 priority changed: high"),
])
def test_a_changed_label_is_the_same_key(extractor, earlier, later):
    keys = {(s, r) for s, r, _ in facts(extractor, earlier)}
    assert keys & {(s, r) for s, r, _ in facts(extractor, later)}


def test_each_listed_attribute_with_an_amount_is_its_own_key(extractor):
    found = facts(extractor, "Support contract terms updated: net-30, uplift 5%")
    assert (U, "support contract terms uplift", "5 percent") in found
    assert (U, "support contract terms", "net-30") in found
    # a list of values of one key stays one key's values
    assert {r for _, r, _ in facts(extractor, "Languages: English, Dutch")} == {"languages"}


def test_a_goal_stated_as_an_activity_is_one_of_several(extractor):
    """"My goal is to learn Markov chains" names one goal among others held at once; a
    premodifier narrows the attribute to one ("my current goal")."""
    rules = {t.rule for t in extractor.extract("My goal is to learn Markov chains.")
             if t.relation == "goal"}
    assert rules and "attribute" not in rules
    assert "attribute" in {t.rule for t in extractor.extract("My current goal is to run a marathon.")
                           if t.relation == "goal"}
