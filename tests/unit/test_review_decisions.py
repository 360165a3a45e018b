"""Review decisions as values (issue 17): the review record, the review entry, and how
decisions change the verdicts of a scan (pure; no store)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scanner.core.ledger import STATUS_OPEN, LedgerEntry, entries_for, should_replace
from scanner.core.policy_config import PolicyConfig
from scanner.engine import Engine
from scanner.models import MemoryRecord
from scanner.narration import narrate
from scanner.review.decisions import (
    ReviewAction,
    ReviewError,
    apply_reviews,
    decision_of,
    pair_epoch,
    review_entry,
    review_record,
)
from scanner.review.sample import SAFETY_RELATIONS, T0, sample_records
from scanner.scan import ScanConfig, build_report

DECIDED = datetime(2026, 6, 1, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def engine(extractor):
    return Engine(ScanConfig(policy=PolicyConfig(safety_relations=SAFETY_RELATIONS)),
                  extractor=extractor)


@pytest.fixture(scope="module")
def scanned(engine):
    records = sample_records("u1")
    report = engine.scan(records)
    entries = {tuple(e.members): e for e in entries_for("u1", report.conflicts, report.events)}
    return records, report, entries


def by_id(records):
    return {r.id: r for r in records}


def test_the_review_record_restates_the_chosen_member_in_the_pairs_epoch(scanned):
    records, _, entries = scanned
    home = entries[("home-1", "home-2")]
    chosen = by_id(records)["home-1"]
    record = review_record(home, chosen, "ana", DECIDED)
    assert (record.text, record.source, record.source_class.value, record.observed_at) == (
        "Sam lives in Lyon.", "review:ana", "user", DECIDED)
    # an epoch change is settled in the latest member's epoch, whichever value is chosen
    assert record.epoch == pair_epoch(home) == "address-2026"
    assert review_record(entries[("work-1", "work-2")], by_id(records)["work-2"], "ana",
                         DECIDED).epoch == "studio-v3"
    with pytest.raises(ReviewError, match="chosen"):
        review_record(home, by_id(records)["glaze-1"], "ana", DECIDED)
    for bad in ("", "<b>ana</b>", "a" * 65, "-ana"):
        with pytest.raises(ReviewError, match="reviewer"):
            review_record(home, chosen, bad, DECIDED)


def test_the_review_entry_keeps_who_decided_what_and_reads_back_as_a_decision(scanned):
    records, _, entries = scanned
    item = entries[("timeout-1", "timeout-2")]
    record = review_record(item, by_id(records)["timeout-2"], "ana", DECIDED)
    entry = review_entry(item, ReviewAction.current, "ana", DECIDED, chosen="timeout-2",
                         record=record)
    assert (entry.entry_type, entry.settles, entry.settler, entry.superseded,
            entry.confirmed) == ("review", item.entry_id, record.id, ["timeout-1"],
                                 ["timeout-2"])
    assert record.id in entry.concerns()
    decision = decision_of(entry)
    assert (decision.action, decision.value, decision.record, decision.decided_at) == (
        ReviewAction.current, "60 s", record.id, DECIDED)
    assert "review by ana" in narrate(entry) and "timeout-2 “60 s” is current" in narrate(entry)
    with pytest.raises(ReviewError, match="chosen"):
        review_entry(item, ReviewAction.current, "ana", DECIDED, chosen=None, record=record)
    dismissed = review_entry(item, ReviewAction.dismiss, "bo", DECIDED)
    assert dismissed.settler is None and "dismissed without choosing" in narrate(dismissed)


def test_current_settles_an_escalation_the_rule_never_settles(engine, scanned):
    records, _, entries = scanned
    item = entries[("timeout-1", "timeout-2")]
    record = review_record(item, by_id(records)["timeout-2"], "ana", DECIDED)
    decision = decision_of(review_entry(item, ReviewAction.current, "ana", DECIDED,
                                        chosen="timeout-2", record=record))
    report = engine.scan([*records, record])
    pairs = {tuple(c.members): c for c in report.conflicts}
    assert pairs[("timeout-1", "timeout-2")].settled_by is None  # the rule alone: open
    conflicts, _ = apply_reviews(report.conflicts, report.events, [decision])
    after = {tuple(c.members): c for c in conflicts}
    settled = after[("timeout-1", "timeout-2")]
    assert (settled.verdict, settled.settled_by, settled.superseded) == (
        "escalated", record.id, ["timeout-1"])
    assert f"settled:review@{record.id}" in settled.reasons
    rebuilt = build_report([*records, record], after, report.events, report.duplicates)
    assert "timeout-1" in rebuilt.withhold and "timeout-2" in rebuilt.cite
    # the inputs are not mutated
    assert pairs[("timeout-1", "timeout-2")].settled_by is None


def test_current_never_retires_a_value_observed_after_the_decision(engine, scanned):
    records, _, entries = scanned
    item = entries[("timeout-1", "timeout-2")]
    record = review_record(item, by_id(records)["timeout-2"], "ana", DECIDED)
    decision = decision_of(review_entry(item, ReviewAction.current, "ana", DECIDED,
                                        chosen="timeout-2", record=record))
    later = MemoryRecord(id="timeout-3", text="The deploy timeout is 90 seconds.", user_id="u1",
                         source="config:v42", source_class="observation",
                         observed_at=DECIDED + timedelta(days=1), epoch="deploy-41")
    report = engine.scan([*records, record, later])
    conflicts, _ = apply_reviews(report.conflicts, report.events, [decision])
    fresh = [c for c in conflicts if "timeout-3" in c.members]
    assert fresh and all(c.settled_by is None and c.verdict == "escalated" for c in fresh)


def test_both_true_drops_value_mismatches_of_that_key_and_user_only(engine, scanned):
    records, report, entries = scanned
    item = entries[("home-1", "home-2")]
    decision = decision_of(review_entry(item, ReviewAction.both_true, "ana", DECIDED))
    third = MemoryRecord(id="home-3", text="Sam lives in Rome.", user_id="u1",
                         source="crm", source_class="user", observed_at=DECIDED,
                         epoch="address-2026")
    someone = [r.model_copy(update={"user_id": "u2", "id": "b-" + r.id}) for r in records]
    report = engine.scan([*records, third, *someone])
    conflicts, events = apply_reviews(report.conflicts, report.events, [decision])
    lives = {(c.key.user_id, tuple(c.members)) for c in conflicts if c.key.relation == "live in"}
    assert lives == {("u2", ("b-home-1", "b-home-2"))}
    assert [e.key.user_id for e in events] == ["u2"]
    others = {tuple(c.members) for c in conflicts if c.key.user_id == "u1"}
    assert others == {("glaze-1", "glaze-2"), ("timeout-1", "timeout-2"), ("work-1", "work-2"),
                      ("color-1", "color-2")}


def test_a_dismissal_changes_no_verdict_and_scans_never_reopen_it(scanned):
    _, report, entries = scanned
    item = entries[("glaze-1", "glaze-2")]
    review = review_entry(item, ReviewAction.dismiss, "ana", DECIDED)
    assert apply_reviews(report.conflicts, report.events, [decision_of(review)]) == (
        list(report.conflicts), list(report.events))
    dismissed = item.model_copy(update={"status": "dismissed", "settled_by": review.entry_id})
    assert item.status == STATUS_OPEN
    assert not should_replace(item, dismissed)  # a scan's open entry never reopens it
    assert "dismissed in review" in narrate(dismissed)


def test_a_broken_review_entry_is_no_decision(scanned):
    _, _, entries = scanned
    item = entries[("glaze-1", "glaze-2")]
    entry = review_entry(item, ReviewAction.dismiss, "ana", DECIDED)
    for data in ({**entry.data, "action": "maybe"}, {**entry.data, "decided_at": "soon"}):
        assert decision_of(LedgerEntry.model_validate(
            {**entry.model_dump(), "data": data})) is None
    assert decision_of(item) is None
    assert T0 < DECIDED


def test_a_person_choosing_against_an_observation_overrides_the_source_class_rule(engine):
    """An observation and an unsourced statement are quarantined; the reviewer picks the
    statement. Its review record (class user) loses to the observation by source class, so
    the decision overrides that resolution (rule ``review``) and settles the quarantine, which
    the settlement rule cannot (a person is less trusted than the observation)."""
    pair = [MemoryRecord(id="glaze-1", text="The preferred glaze is celadon.", user_id="u1",
                         source="kiln:log", source_class="observation", observed_at=T0,
                         epoch="studio-v3"),
            MemoryRecord(id="glaze-2", text="The preferred glaze is tenmoku.", user_id="u1",
                         source_class="user", observed_at=T0 + timedelta(days=1),
                         epoch="studio-v3")]
    report = engine.scan(pair)
    (item,) = entries_for("u1", report.conflicts, report.events)
    assert item.rule == "missing_provenance"
    record = review_record(item, pair[1], "ana", DECIDED)
    decision = decision_of(review_entry(item, ReviewAction.current, "ana", DECIDED,
                                        chosen="glaze-2", record=record))
    report = engine.scan([*pair, record])
    before = {tuple(sorted(c.members)): c for c in report.conflicts}
    overruled = before[tuple(sorted(("glaze-1", record.id)))]
    assert (overruled.verdict, overruled.rule, overruled.winner) == (
        "resolved", "source_class", "glaze-1")
    assert before[("glaze-1", "glaze-2")].settled_by is None
    conflicts, _ = apply_reviews(report.conflicts, report.events, [decision])
    after = {tuple(sorted(c.members)): c for c in conflicts}
    flipped = after[tuple(sorted(("glaze-1", record.id)))]
    assert (flipped.rule, flipped.winner, flipped.superseded) == ("review", record.id,
                                                                  ["glaze-1"])
    assert any(r.startswith("override:review by ana") for r in flipped.reasons)
    settled = after[("glaze-1", "glaze-2")]
    assert (settled.settled_by, settled.superseded) == (record.id, ["glaze-1"])
    rebuilt = build_report([*pair, record], after, report.events, report.duplicates)
    assert rebuilt.withhold == ["glaze-1"] and "glaze-2" in rebuilt.cite
