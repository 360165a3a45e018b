"""A bare "w" for "with" in lower-case chat, between a verb or a particle and a noun phrase
("broke up w noor", "moved in w my sister"), is read as "with"; a letter "w" elsewhere stays
one (:mod:`extractors.chat_with`)."""

import pytest

from extractors.chat_with import bare_with_read
from extractors.offsets import NO_EDITS
from tests.unit.test_state_changes import pair_tables

U = "user"

READ = [
    ("broke up w noor", "broke up with noor"),
    ("moved in w my sister", "moved in with my sister"),
    ("i live w my aunt now", "i live with my aunt now"),
    ("still hanging out w the old crew", "still hanging out with the old crew"),
    ("chatted w Tariq about it", "chatted with Tariq about it"),
]
"""``(text, text read)``: the "w" stands for "with"."""

KEPT = [
    "press w to jump",
    "the w key is stuck",
    "I stayed at the W Hotel",
    "Take Route W north",
    "w is my favourite letter",
    "my surname starts w",
    "hold w and shift",
    "went to dinner w noor",  # a noun before it: no verb or particle
    "moved in W my sister",  # (a capital: another word may be meant)
]
"""Texts whose "w" stays a letter."""


@pytest.mark.parametrize(("text", "read"), READ)
def test_bare_w_is_read_as_with(extractor, text, read):
    got, spans = bare_with_read(text, extractor._is_verb, extractor._irregular_past())
    assert got == read and len(spans.spans) == 1


@pytest.mark.parametrize("text", KEPT)
def test_letter_w_is_kept(extractor, text):
    assert bare_with_read(text, extractor._is_verb, extractor._irregular_past()) == (text, NO_EDITS)


@pytest.mark.parametrize(("sentence", "fact", "written"), [
    ("broke up w noor", (U, "break up with", "noor", False), "broke up w noor"),
    ("moved in w my sister", (U, "move in with", "sister", False), "moved in w my sister"),
    ("I work at Acme. i live w my aunt now. I eat fish.", (U, "live with", "aunt", False),
     "i live w my aunt now."),
])
def test_triples_and_offsets_as_written(extractor, sentence, fact, written):
    found = [t for t in extractor.extract(sentence)
             if (t.subject, t.relation, t.object, t.negated) == fact]
    assert found and sentence[found[0].start:found[0].end] == written


ENDED = [
    ("I live with my parents.", "i dont live w my parents anymore"),
    ("I volunteer with the Red Cross.", "stopped volunteering w the red cross"),
    ("I'm in a relationship with Noor.", "broke up w noor last week"),
]
"""The later chat memory ends the earlier state."""

LOOK_ALIKES = [
    ("I live with my parents.", "the w key on my parents laptop is stuck"),
    ("I live with Lena.", "Lena doesn't like the W Hotel"),
    ("I volunteer with the Red Cross.", "press w to stop the red cross animation"),
    ("I live with my parents.", "went to dinner w my parents"),
]
"""Look-alikes: nothing decided."""

test_chat_ending_resolves, test_look_alike_decides_nothing = pair_tables(ENDED, LOOK_ALIKES)
