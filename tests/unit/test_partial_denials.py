"""Denials that deny a habit only in part (extractors.negation_focus): an adjunct of extent
("part-time"), a degree or frequency adverb ("much", "very often"), a span or a generic part
of a cycle after "anymore" ("during the winter", "in the evening"), a "when" clause the parser
reads as a complement, and an exception phrase even when a comma sets it off ("except at
weddings", "apart from birthdays"). Each keeps a ``when`` restriction and never ends the
plain statement; the same denial without the restriction still does."""

from __future__ import annotations

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

PARTIAL = [
    # (sentence, denied fact, time qualifier of the restricted denial; None: only that it has one)
    ("I don't stay in Bristol full-time.", (U, "stay in", "bristol"), "when full time"),
    ("Noor doesn't teach at the academy part-time.", ("noor", "teach", ""), None),
    ("I don't watch football much anymore.", (U, "watch", "football"), None),
    ("Pia doesn't play golf very often.", ("pia", "play", "golf"), "when very often"),
    ("I don't smoke anymore during the winter.", (U, "smoke", ""), "when winter"),
    ("I don't swim anymore in the evening.", (U, "swim", ""), "when evening"),
    ("I don't cycle when it's snowing.", (U, "cycle", ""), "when it be snow"),
    ("I don't drink wine, except at weddings.", (U, "drink", "wine"), None),
    ("Lena doesn't eat sugar anymore, apart from birthdays.", ("lena", "eat", "sugar"),
     "when apart from birthday"),
]


def denials(extractor, text):
    return {(t.subject, t.relation, t.object): t for t in extractor.extract(text) if t.negated}


@pytest.mark.parametrize(("text", "fact", "when"), PARTIAL)
def test_partial_denial_keeps_its_restriction(extractor, text, fact, when):
    found = denials(extractor, text)
    assert fact in found, found
    time = found[fact].qualifier("time") or ""
    assert time.startswith("when "), time
    if when is not None:
        assert time == when


def test_when_question_of_a_framing_verb_is_no_restriction(extractor):
    # a "when" question after a verb of knowing is its complement, no circumstance; and a
    # verb whose complement no reading takes denies no act of it at all (issue 37, kind 1)
    found = denials(extractor, "I don't remember when the shop is open.")
    assert (U, "remember", "") not in found
    assert not any((t.qualifier("time") or "").startswith("when ") for t in found.values())


RESOLVED = [
    ("I stay in Bristol.", "I don't stay in Bristol anymore."),
    ("Noor teaches at the academy.", "Noor doesn't teach at the academy anymore."),
    ("I smoke.", "I don't smoke anymore."),
    ("I watch football.", "I don't watch football anymore, not even the finals."),
    ("Lena eats sugar.", "Lena no longer eats sugar."),
]

LOOK_ALIKES = [
    ("I stay in Bristol.", "I don't stay in Bristol full-time."),
    ("Noor teaches at the academy.", "Noor doesn't teach at the academy part-time."),
    ("I watch football.", "I don't watch football much anymore."),
    ("Pia plays golf.", "Pia doesn't play golf very often."),
    ("I smoke.", "I don't smoke anymore during the winter."),
    ("I swim.", "I don't swim anymore in the evening."),
    ("I cycle.", "I don't cycle when it's snowing."),
    ("I drink wine.", "I don't drink wine, except at weddings."),
    ("Lena eats sugar.", "Lena doesn't eat sugar anymore, apart from birthdays."),
]


test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, LOOK_ALIKES)
