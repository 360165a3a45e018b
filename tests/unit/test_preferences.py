"""Two preferences of one slot (scanner/core/preferences.py, issue 37 kinds 1 and 2): the
slot said beside the value (a head noun, a purpose) is the whole attribute, so a later value
found by structure and read by the judge as an update is decided; another slot, or a
preference that names its alternative, meets nothing here."""

from __future__ import annotations

import pytest

from scanner.core.preferences import preference_of, preference_pairs
from tests.unit.test_pair_judge import FixedJudge, scan
from tests.unit.test_value_notes import record


def pairs(*texts):
    return [(p.ids, p.found_by, p.key.relation) for p in preference_pairs(
        [record(f"m{i}", t, i) for i, t in enumerate(texts, 1)])]


@pytest.mark.parametrize("text, slot, value", [
    ("Prefer standing meetings", ("", "meetings", ""), "standing"),
    ("The user prefers Kotlin for new services.", ("", "", "for new services"), "kotlin"),
    ("Prefers using Poetry for this repo", ("using", "", "for repo"), "poetry"),
    ("Prefer using Vue.js for the admin app", ("using", "", "for admin app"), "vue.js"),
    ("I prefer aisle seats on long flights", ("", "seats", "on long flights"), "aisle"),
])
def test_a_preference_note_names_its_slot(text, slot, value):
    note = preference_of(text)
    assert (note.slot, note.value) == (slot, value)


@pytest.mark.parametrize("text", [
    "Prefer tea",  # no slot said
    "I prefer JWT over session cookies for auth",  # the alternative is the slot: the keys
    "I prefer to cycle to work when it is dry",
    "Likes spicy food",  # liking is many-valued
    "After two weeks of trials with every tool on the list, the team prefers Linear for tracking bugs",
])
def test_a_sentence_that_is_no_preference_note_has_no_slot(text):
    assert preference_of(text) is None


def test_two_values_of_one_slot_are_a_candidate():
    assert pairs("Prefer standing meetings", "Prefer walking meetings") == [
        (("m1", "m2"), "preferred", "meetings")]
    assert pairs("Prefers using Poetry for this repo", "Prefers using uv for this repo") == [
        (("m1", "m2"), "preferred", "using for repo")]


@pytest.mark.parametrize("earlier, later", [
    ("I prefer aisle seats on long flights", "I prefer vegetarian meals on long flights"),
    ("Prefers Kotlin for new services", "Prefers Kotlin for new services."),  # said again
    ("Prefer standing meetings", "Prefer short emails"),
    ("Prefers Kotlin for new services", "Prefers Python for data scripts"),
])
def test_another_slot_or_the_same_value_is_no_candidate(earlier, later):
    assert pairs(earlier, later) == []


def test_the_judges_update_decides_a_preference_of_one_slot(extractor):
    texts = ("Prefer slide decks format for reviews", "Prefer written memos format for reviews")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "resolved", "m2")]
    report = scan(extractor, FixedJudge(compatible=0.99, update=0.01), *texts)
    assert [c.verdict for c in report.conflicts if c.verdict != "possible"] == []
