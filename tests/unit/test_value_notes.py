"""A value note and a later value of its attribute (scanner/core/value_notes.py, issue 37 kinds
2 and 3): structure finds the pair, the judge keeps it, and the note's words being the whole
attribute lets it be decided."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scanner.core.value_notes import note_of, stated_values, value_note_pairs, value_spans
from scanner.models import MemoryRecord
from tests.unit.test_pair_judge import FixedJudge, scan

T0 = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)


def record(rid, text, day, user="u1"):
    return MemoryRecord(id=rid, text=text, user_id=user, source="notes", source_class="user",
                        observed_at=T0 + timedelta(days=day), epoch="e1")


def pairs(*texts):
    return [(p.ids, p.found_by, p.key.relation) for p in value_note_pairs(
        [record(f"m{i}", t, i) for i, t in enumerate(texts, 1)])]


@pytest.mark.parametrize("text, kind, words", [
    ("March 1st launch", "date", {"launch"}),
    ("$100 per unit", "money", {"unit"}),
    ("8 engineers on Project Alpha", "number", {"engineer", "project", "alpha"}),
    ("Gym membership: $45 a month", "money", {"gym", "membership", "month"}),
])
def test_a_note_is_one_value_and_the_words_of_its_attribute(text, kind, words):
    note = note_of(text)
    assert (note.kind, set(note.words)) == (kind, words)


@pytest.mark.parametrize("text", [
    "Booked the 9:40 train to Leeds and paid $62 for the return ticket.",  # two values
    "Finally finished the long quarterly budget review with the finance team on March 3.",
    "No dates were set yet.",  # no value
    "Cleaned the gutters, replaced filter on August 14.",  # an act and when it was done
    "Sold 3 bikes",  # an act, in an irregular past
    "Room 204 wifi: guest204",  # the number names the room
])
def test_a_sentence_of_several_facts_or_none_is_no_note(text):
    assert note_of(text) is None


def test_a_later_value_beside_a_word_of_the_note_is_a_candidate():
    assert pairs("March 1st launch", "Launch moved to April 15 (per executive decision)") == [
        (("m1", "m2"), "noted", "launch")]
    assert pairs("8 engineers on Project Alpha",
                 "Only 5 engineers on it now (3 reassigned to bug fixes)") == [
        (("m1", "m2"), "noted", "engineer")]
    assert pairs("$100 per unit", "$150 per unit (the $100 was last year's pricing)") == [
        (("m1", "m2"), "noted", "unit")]
    # a date and its time of day are one value: the appointment moved
    assert pairs("Dentist 14 May 3pm", "Dentist moved to 21 May 10am") == [
        (("m1", "m2"), "noted", "dentist")]


@pytest.mark.parametrize("earlier, later", [
    ("Project Alpha: 15 hours/week", "Project Beta: 12 hours/week"),  # another name
    ("Grandma's dinner is at 6 pm", "Joe's dinner moved to 7 pm"),  # another owner
    ("March 1st launch", "Launch confirmed for March 1"),  # the same value
    ("March 1st launch", "Dinner with the launch team moved to 7 pm"),  # another type
    ("API ready January 15",  # a value in an editorial bracket is quoted, not stated
     "[INVALIDATED - was based on wrong data: API ready January 10] Original conclusion: QA "
     "starts January 16"),
    ("Team lunch at noon on Friday; budget $200", "Budget raised to $300"),  # no note
    ("Inspection for new flat May 3", "Moved into new flat May 20"),  # another act
    # (the helper's probes of the fifth stop, each a kind)
    ("Gym fee $45", "Gym joining fee $99"),  # a word of another attribute beside the value
    ("Credit card limit £3,000", "Card balance £2,400"),
    ("Team A standup 9:30", "Team B standup 10:00"),  # another instance
    ("Electric bill March £82", "Electric bill April £95"),  # another period
    ("Kids bedtime 7:30", "Kids bedtime 8:30 on weekends"),  # restricted to a period
    ("Standup 9:30", "Standup Friday 11:00"),
    ("Steps today 8,000", "Steps today 12,400"),  # that day's episode
    ("Salary offer £55k", "Salary £52k"),  # an offer, then what holds
    ("Target weight 70kg", "Weight 74kg"),
    ("Parents' evening 12 March 6pm", "Parents' evening 4 June 5pm"),  # the next one
])
def test_no_candidate_without_the_notes_attribute_and_a_new_value(earlier, later):
    assert pairs(earlier, later) == []


def test_a_note_is_paired_only_with_what_came_after_it():
    same_time = [record("m1", "March 1st launch", 1), record("m2", "Launch moved to April 15", 1)]
    assert value_note_pairs(same_time) == []
    undated = [record("m1", "March 1st launch", 1),
               record("m2", "Launch moved to April 15", 2).model_copy(
                   update={"observed_at": None})]
    assert value_note_pairs(undated) == []


def test_a_date_and_its_time_of_day_are_one_value():
    assert [(kind, value) for _, _, kind, value in value_spans("Zoom call April 21 at 3 PM")] \
        == [("when", "--04-21 15:00")]
    assert [kind for _, _, kind, _ in value_spans("3pm dentist on 14 May")] == ["clock", "date"]


def test_values_are_read_in_their_part_of_the_sentence():
    stated, = stated_values("Moved to 10am EST Tuesday (client conflict)", "clock")
    assert stated.value == "10:00" and stated.words == {"est"}
    assert stated.capitalised == {"est"} and stated.times == {"tuesday"}


def test_the_judge_keeps_an_update_and_it_is_decided(extractor):
    report = scan(extractor, FixedJudge(update=0.95, compatible=0.05),
                  "API ready January 15", "API delayed to February 1")
    assert [(c.verdict, c.winner, c.rule) for c in report.conflicts] == [
        ("resolved", "m2", "recency")]
    assert scan(extractor, FixedJudge(compatible=0.9, update=0.1),
                "API ready January 15", "API delayed to February 1").conflicts == []
