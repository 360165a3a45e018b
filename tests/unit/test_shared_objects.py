"""Coordinated verbs that share one object (right node raising), and verbs whose complement
no reading takes: neither is read as the bare act, which would deny or assert every act of
the verb whatever the sentence is about (issue 37, kind 1;
extractors.constructions.verb_words.raised_objects and unread_complement)."""

from __future__ import annotations

import pytest

U = "user"


def facts(extractor, text):
    return {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(text)}


@pytest.mark.parametrize(("text", "expected"), [
    ("I have never reviewed or signed the vendor contract.",
     {(U, "review", "vendor contract", True), (U, "sign", "vendor contract", True)}),
    ("Omar has never installed or configured any VPN clients.",
     {("omar", "configure", "vpn client", True)}),
    ("I never renewed or cancelled the gym membership.",
     {(U, "renew", "gym membership", True), (U, "cancel", "gym membership", True)}),
])
def test_the_first_verb_takes_the_shared_object(extractor, text, expected):
    found = facts(extractor, text)
    assert expected <= found, found
    assert not any(obj == "" for _, _, obj, _ in found), found


@pytest.mark.parametrize(("text", "fact"), [
    # the parser reads the object's last noun as a verb and the noun before it as its subject
    ("I have never written any unit tests for the billing module.",
     (U, "write", "unit test", True)),
    ("I have never logged any cache miss errors during the migration.",
     (U, "log", "cache miss error", True)),
])
def test_an_object_the_parser_read_as_a_clause_is_the_object(extractor, text, fact):
    found = facts(extractor, text)
    assert fact in found, found
    assert (U, fact[1], "", True) not in found, found  # never the denial of every act


@pytest.mark.parametrize("text", ["I think the team likes tea.", "I heard the band plays tonight.",
                                  "I know she works here."])
def test_a_clause_complement_is_no_object_and_no_bare_act(extractor, text):
    # a finite clause after a verb of thinking or perceiving is its complement: neither an
    # object of the verb nor the bare act ("user thinks")
    found = facts(extractor, text)
    assert not any(s == U and o == "" for s, _, o, _ in found), found
    assert not any(s == U and ("team" in o or "band" in o) for s, _, o, _ in found), found


@pytest.mark.parametrize(("text", "fact"), [
    ("I don't smoke anymore.", (U, "smoke", "", True)),  # no complement at all
    ("I quit and moved to Berlin.", (U, "quit", "", False)),  # an ending keeps its bare act
    ("Yara's Kobo broke over the holidays.", ("yara's kobo", "break", "", False)),
])
def test_a_verb_without_a_complement_keeps_its_bare_reading(extractor, text, fact):
    assert fact in facts(extractor, text)
