"""Candidate pairs of a typed value changed in other words (scanner/core/value_changes.py,
issue 37 kind 2): structure finds them, the judge keeps them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scanner.core.value_changes import value_change_pairs as find
from scanner.models import MemoryRecord
from tests.unit.test_pair_judge import FixedJudge, scan

T0 = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)


def record(rid, text, day, user="u1"):
    return MemoryRecord(id=rid, text=text, user_id=user, source="chat", source_class="user",
                        observed_at=T0 + timedelta(days=day), epoch="e1")


COMMITS = ("Tagged release v1.0.0 on GitHub with 150 commits and 12 branches merged.",
           "The number of commits merged into the main branch has grown to 165.")


@pytest.fixture()
def value_change_pairs(extractor):
    """The finder over the extractor's own triples of the records."""
    return lambda records: find(records, extractor.extract_many([r.text for r in records]))


def test_a_value_changed_in_other_words_is_a_candidate(value_change_pairs):
    (pair,) = value_change_pairs([record("m1", COMMITS[0], 0), record("m2", COMMITS[1], 1)])
    assert pair.ids == ("m1", "m2") and pair.found_by == "valued"
    assert pair.key.relation in {"commit", "branch", "merg"}  # a shared word of most weight


def test_no_candidate_without_a_marked_change_a_new_value_or_an_anchor(value_change_pairs):
    later = record("m2", COMMITS[1], 1)
    assert value_change_pairs([record("m1", COMMITS[1].replace("165", "150")
                                      .replace("has grown to", "is"), 0),
                               record("m2", "The main branch has 165 commits.", 1)]) == []
    # the same value again: said again, not changed
    assert value_change_pairs([record("m1", "Pushed 165 commits to the main branch.", 0),
                               later]) == []
    # nothing shared but everyday words
    assert value_change_pairs([record("m1", "Spent $40 on lunch with Maria.", 0), later]) == []
    # the attribute of the later value is not said near the earlier value of its type
    assert value_change_pairs([record("m1", "Reviewed 150 pull requests for the docs site last "
                                            "week; separately, the commits on main were "
                                            "squashed.", 0), later]) == []
    # another scope, or the later written first
    assert value_change_pairs([record("m1", COMMITS[0], 0, user="u2"), later]) == []
    assert value_change_pairs([record("m1", COMMITS[0], 2), later]) == []


def test_the_judge_keeps_only_what_it_reads_as_an_update(extractor):
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *COMMITS)
    assert [(c.members, c.verdict, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "resolved", "m2")]
    assert scan(extractor, FixedJudge(compatible=0.9, update=0.1), *COMMITS).conflicts == []
    assert scan(extractor, None, *COMMITS).conflicts == []  # structure alone flags nothing


def test_an_ending_in_other_words_is_possible_when_the_judge_reads_an_update(extractor):
    """scanner/core/endings.py and policy row ended_in_other_words: the pair is found by the
    shared word near the ending, kept on the judge's word, and only ever possible."""
    texts = ("Nadia uses a Canon 5D for her photography.",
             "Nadia no longer shoots with the Canon; she switched to a Fujifilm X-T5.")
    report = scan(extractor, FixedJudge(update=0.95, compatible=0.05), *texts)
    assert [(c.members, c.verdict, c.rule) for c in report.conflicts] == [
        (["m1", "m2"], "possible", "ended_in_other_words")]
    assert report.withhold == []
    assert scan(extractor, FixedJudge(compatible=0.97, update=0.03), *texts).conflicts == []


def test_an_ending_is_paired_only_by_a_word_said_near_it():
    from scanner.core.endings import ending_pairs

    later = record("m2", "I quit the book club last month, though I still read a lot.", 1)
    assert [p.ids for p in ending_pairs([record("m1", "The book club meets on Tuesdays.", 0),
                                         later])] == [("m1", "m2")]
    # "read" is shared, but far from "quit": the ending is said of the club, not of reading
    assert ending_pairs([record("m1", "I read two novels a month on the train.", 0),
                         later]) == []


@pytest.mark.parametrize("text, states, sources", [
    ("Increased quiz score from 75% to 92% after 15 problems.",
     {("percent", "92 percent"), ("number", "15")}, {("percent", "75 percent")}),
    ("Extended the visit to 45 minutes instead of 30 minutes.",
     {("s", "2700 s")}, {("s", "1800 s")}),
    ("The call originally scheduled for March 20 was moved up to March 18.",
     {("date", "--03-18")}, {("date", "--03-20")}),
    ("The app cut stress by 10% for $10 a month.", {("money", "10 usd")}, set()),
    ("Finish the draft by March 1.", {("date", "--03-01")}, set()),
])
def test_a_value_is_a_state_a_source_of_change_or_an_extent(text, states, sources):
    from scanner.core.value_changes import value_roles
    assert value_roles(text) == (frozenset(states), frozenset(sources))


def test_a_change_from_a_value_the_earlier_does_not_state_pairs_nothing(value_change_pairs):
    """"reduced search time from 200ms to 160ms" changes another instance than "its 120ms
    query time"; from the value the earlier states, it changes that one."""
    earlier = "Chose FAISS for vector search, with a 120ms search time for 50,000 embeddings."
    later = "Reduced FAISS search time from {} to 160ms for the vectors."
    assert value_change_pairs([record("m1", earlier, 0),
                               record("m2", later.format("200ms"), 1)]) == []
    (pair,) = value_change_pairs([record("m1", earlier, 0), record("m2", later.format("120ms"), 1)])
    assert pair.ids == ("m1", "m2")


def test_an_extent_of_change_is_no_value_of_the_attribute(value_change_pairs):
    assert value_change_pairs([
        record("m1", "The Calm app at $10 monthly cut my stress by 10% in daily sessions.", 0),
        record("m2", "The Calm app now cuts my stress by 15% in daily sessions.", 1)]) == []


@pytest.mark.parametrize("text, goals", [
    ("The seaplane fare has recently increased, now averaging closer to $650 per person.",
     ["money"]),
    ("The number of photos taken at the parade increased to 180.", ["number"]),
    ("The mover's arrival is now expected at 8:30 AM.", ["clock"]),
    ("Dinner ended at 10 PM after the show.", []),           # no change marked
    ("Rating my calm at 9/10 now, after the walk.", []),     # a state now, no goal of a change
])
def test_a_goal_of_a_change_is_the_value_it_arrives_at(text, goals):
    from scanner.core.value_changes import goal_spans
    assert [kind for _, kind in goal_spans(text)] == goals


def test_a_value_whose_attribute_no_reading_names_is_only_possible(extractor):
    """The words before the new value meet the earlier value, but no reading names the
    attribute: the judge's update goes to the review page (policy row
    value_in_other_words) and withholds nothing."""
    texts = ("Learned the seaplane to Velaa Island takes 45 minutes, costing $600 per person.",
             "The seaplane fare to Velaa Island has recently increased, now closer to $650 "
             "per person.")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict, c.rule) for c in report.conflicts] == [
        (["m1", "m2"], "possible", "value_in_other_words")]
    assert report.withhold == []


@pytest.mark.parametrize("earlier, later", [
    ("The Berlin office rent is $3,000.", "The Paris office rent has increased to $3,400."),
    ("The design review deadline is April 1.", "The launch deadline has shifted to April 5."),
])
def test_another_things_attribute_pairs_nothing(extractor, earlier, later):
    """The words before an attribute's head say whose it is: "the Paris office rent" is not
    the rent the Berlin memory states."""
    assert scan(extractor, FixedJudge(update=0.9, compatible=0.1), earlier, later).conflicts == []


def test_the_same_attribute_changed_is_decided(extractor):
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1),
                  "The office rent is $3,000.", "The office rent has increased to $3,400.")
    assert [(c.verdict, c.winner) for c in report.conflicts] == [("resolved", "m2")]


def test_another_owners_attribute_pairs_nothing(extractor):
    """The owner a reading names is part of which attribute it is: Uncle Joe's dinner moving
    says nothing of Grandma's."""
    judge = FixedJudge(update=0.9, compatible=0.1)
    assert scan(extractor, judge, "Grandma's birthday dinner is at 6 pm.",
                "Uncle Joe's birthday dinner has moved to 7 pm.").conflicts == []
    report = scan(extractor, judge, "Grandma's birthday dinner is at 6 pm.",
                  "Grandma's birthday dinner has moved to 7 pm.")
    assert [(c.verdict, c.winner) for c in report.conflicts] == [("resolved", "m2")]
