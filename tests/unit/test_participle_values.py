"""A participle the parser read as a passive verb with a bare noun object right after the
copula is an adjective of that noun, the noun the copula's complement ("my favourite snack is
salted almonds"; extractors.reading._participle_value). A passive that keeps a direct object
("was given flowers", the indirect-object passive) stays a passive."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"


@pytest.mark.parametrize(("text", "fact"), [
    ("my favourite snack is salted almonds", (U, "preferred snack", "salted almond", False)),
    ("My favourite side is roasted parsnips.", (U, "preferred side", "roasted parsnip", False)),
    ("My favourite breakfast is scrambled eggs.", (U, "preferred breakfast", "scrambled egg",
                                                   False)),
])
def test_participle_adjective(extractor, text, fact):
    assert fact in {t.fact for t in extractor.extract(text)}


@pytest.mark.parametrize("text", [
    "The user was given flowers.",
    "I was paid cash.",
    "The gym is closed mondays.",
])
def test_passive_stays(extractor, text):
    assert not [t for t in extractor.extract(text) if t.relation.startswith("preferred")
                or t.object in ("given flower", "paid cash", "closed monday")
                and t.rule == "attribute"]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables([
    ("My favourite snack is salted almonds.", "My favourite snack is dried apricots now."),
], [
    ("My favourite snack is salted almonds.",
     "My favourite snack at the cinema is buttered popcorn."),
    ("My favourite snack is salted almonds.", "My sister's favourite snack is dried apricots."),
])
