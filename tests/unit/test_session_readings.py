"""Memory pairs for readings of chat and memory-writer text: interjections and openers
(extractors.chat_forms), later subject-less sentences (extractors.memory_forms), a seat on a
body left (state_changes.toml "seat on a body"), a lone noun's setting changed "(back) to" a
value (constructions.descriptions._bare_opening) and an approximated rate
(extractors.approximators): each later memory of ``RESOLVED`` wins; each look-alike pair
decides nothing."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("Now at Blue Door Coffee.", "No longer at Blue Door Coffee. Now at Crumb Bakery."),
    ("my bf tom lives in York", "lol my bf tom moved to Leeds"),  # his home, no setting
    ("Is at Blue Door Coffee.", "Is no longer at Blue Door Coffee, now at Crumb Bakery."),
    ("ugh my team lead is Priya", "ok so my team lead is Owen now"),
    ("Sofia sits on the HOA board.", "Sofia stepped down from the HOA board in March."),
    ("Sofia is on the swim team.", "Sofia quit the swim team."),
    ("Tomás smokes about a pack a day.", "Tomás quit smoking six months ago."),
    ("i live in leeds", "welp officially moved out of leeds"),
    ("Theme: dark", "Theme switched back to light."),
    ("Theme: dark", "Theme switched to light."),
]

LOOK_ALIKES = [
    ("Sofia is on the HOA board.", "Sofia stepped down from the school board in March."),
    ("Sofia serves on the HOA board.", "Sofia left the HOA board meeting early."),
    ("Sofia is on the team.", "Sofia's sister left the team."),
    ("No longer at Globex. Now at Initech.", "Dana works at Initech."),
    ("Dana quit pottery.", "Dana quit pottery. Now does yoga."),
    ("Mia talks about two books a week.", "Mia stopped talking about books."),
    ("Mom drinks coffee.", "Mom switched to decaf."),          # a person's switch, no setting
    ("Theme: dark", "Editor theme switched to light."),        # another setting
]

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)


@pytest.mark.parametrize(("sentence", "fact"), [
    ("Tomás smokes about a pack a day.", ("tomás", "smoke", "about pack", False)),
    ("Dev sleeps around 6 hours a night.", ("dev", "sleep", "around 6 hour", False)),
])
def test_an_approximated_rate_is_the_object(extractor, sentence, fact):
    assert fact in {t.fact for t in extractor.extract(sentence)}


def test_a_topic_verb_keeps_about(extractor):
    assert not any(t.relation == "talk" and t.object.startswith("about two")
                   for t in extractor.extract("Mia talked about two books a week at dinner."))
