"""A key's open state in the ledger (:mod:`scanner.core.open_state`): a key's quarantined or
epoch-change pairs recorded once as the values in dispute, each member once, whatever the
verdict; what a partial view adds to it; a dispute a person closed and a new value reopened."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from extractors import Triple
from scanner.core.ledger import (
    LedgerEntry,
    closed_by_person,
    combined,
    entries_for,
    reconcile_settled,
    review_entry_id,
    review_round,
)
from scanner.core.ledger_stats import compute_stats
from scanner.core.open_state import READINGS_PER_MEMBER, bounded_reasons
from scanner.core.policy_config import PolicyConfig
from scanner.models import MemoryRecord
from scanner.narration import narrate
from scanner.scan import ScanConfig, scan_records

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
USER = "potter-1"
KINDS = {"no_epoch": ("quarantined", "missing_provenance"), "tie": ("quarantined", "tie"),
         "epoch_change": ("epoch_change", "epoch_change")}
"""How a key's values are observed -> the verdict and rule of each of its pairs."""


def value(kind: str, i: int, **kw) -> MemoryRecord:
    """The ``i``-th value of a key whose pairs all get ``KINDS[kind]``."""
    fields = dict(id=f"m{i:03d}", text=f"The preferred glaze is glaze {i}.", user_id=USER,
                  source="chat", source_class="user",
                  observed_at=T0 if kind == "tie" else T0 + timedelta(days=i),
                  epoch={"no_epoch": None, "tie": "e1", "epoch_change": f"e{i}"}[kind])
    fields.update(kw)
    return MemoryRecord(**fields)


def scan(records: list[MemoryRecord]):
    triples = [[Triple("user", "preferred glaze", r.text.split(" is ")[1].rstrip("."),
                       rule="attribute")] for r in records]
    return scan_records(records, triples, ScanConfig(policy=PolicyConfig(now=T0 + timedelta(
        days=1000))))


def entries(report) -> list[LedgerEntry]:
    return entries_for(USER, report.conflicts, report.events)


@pytest.mark.parametrize("n", [2, 10, 50])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_key_with_n_unresolved_values_records_each_member_once(kind, n):
    """``n`` values no rule decides: ``n(n-1)/2`` pairs in the report (SPEC §5), one entry in
    the ledger listing each member once (a ledger per pair held ``n(n-1)/2``)."""
    report = scan([value(kind, i) for i in range(n)])
    assert len(report.conflicts) == n * (n - 1) // 2
    assert {(c.verdict, c.rule) for c in report.conflicts} == {KINDS[kind]}
    found = entries(report)
    assert len(found) <= 2 * n
    (dispute,) = found
    ids = [f"m{i:03d}" for i in range(n)]
    assert (dispute.members, dispute.status, dispute.settled_by) == (ids, "open", None)
    assert set(dispute.values) == set(dispute.inputs) == set(ids)
    assert dispute.question and dispute.request["what"] == "re-check your preferred glaze"
    assert len(dispute.reasons) <= READINGS_PER_MEMBER * n
    assert report.unresolved == ids  # every member stays unresolved, as the pairs say
    if kind == "no_epoch":
        assert dispute.request["missing"] == [f"epoch@{m}" for m in ids]
    if kind == "epoch_change":  # the dispute's first value against its latest
        assert dispute.latest == ids[-1] and dispute.request["in_epoch"] == f"e{n - 1}"
        assert (dispute.event["from"]["id"], dispute.event["to"]["id"]) == (ids[0], ids[-1])
        assert dispute.event["to"] == {"id": ids[-1], "value": f"glaze {n - 1}",
                                       "epoch": f"e{n - 1}", "source": "chat",
                                       "observed_at": (T0 + timedelta(days=n - 1)).isoformat()}
    assert entries(scan([value(kind, i) for i in reversed(range(n))])) == found


def test_a_dispute_counts_per_member_readings_once_each_and_the_rest_as_one_line():
    """Per-pair reasons (``epochs e3 != e9``) would make the entry quadratic in size."""
    report = scan([value("epoch_change", i) for i in range(30)])
    (dispute,) = entries(report)
    assert dispute.reasons == ["epochs: 435 readings"]
    reasons = [f"missing_provenance:{f}@m{i}" for i in range(5)
               for f in ("source", "observed_at", "epoch")]
    assert bounded_reasons([*reasons, *reasons], 5) == reasons


def test_a_later_observation_settles_a_dispute_of_n_values_in_one_settlement():
    n = 12
    older = [value("no_epoch", i) for i in range(n)]
    probe = value("no_epoch", n, id="probe", epoch="e1", source_class="observation",
                  text="The preferred glaze is glaze 3.")
    report = scan([*older, probe])
    settled = [c for c in report.conflicts if c.settled_by]
    assert len(settled) == n * (n - 1) // 2 and {c.settled_by for c in settled} == {"probe"}
    found = {e.entry_type: e for e in entries(report)}
    assert len(entries(report)) == 2 <= 2 * (n + 1)
    dispute, done = found["quarantine"], found["settlement"]
    assert dispute.status == "settled" and dispute.settled_by == done.entry_id
    assert dispute.members == sorted([*(r.id for r in older), "probe"])
    assert (done.settler, done.settles) == ("probe", dispute.entry_id)
    assert done.members == [r.id for r in older] and done.confirmed == ["m003"]
    assert done.superseded == [r.id for r in older if r.id != "m003"]
    assert "settled the quarantine m000 / m001" in narrate(done)

    # a read-time scan that sees some of the older values but not the probe: still settled
    partial = scan(older[:4])
    kept = reconcile_settled(USER, partial.conflicts, {e.entry_id: e for e in entries(report)})
    assert {c.settled_by for c in kept} == {"probe"}
    assert {tuple(c.superseded) for c in kept if "m003" in c.members} == {
        ("m000",), ("m001",), ("m002",)}


def test_a_partial_view_adds_to_the_stored_dispute_and_never_removes_a_member():
    stored = {e.entry_id: e for e in entries(scan([value("tie", i) for i in range(10)]))}
    (old,) = stored.values()
    (seen,) = entries(scan([value("tie", i) for i in range(3)]))  # a read-time scan's hits
    assert seen.entry_id == old.entry_id and seen.members == ["m000", "m001", "m002"]
    assert combined(seen, old) is None  # nothing new: nothing to write
    assert combined(seen, old, full_view=True) == seen  # a batch scan's view replaces it
    (grown,) = entries(scan([value("tie", i) for i in (2, 10)]))
    new = combined(grown, old)
    assert new.members == [f"m{i:03d}" for i in range(11)] and new.status == "open"
    assert set(new.values) == set(new.inputs) == set(new.members)

    settled = old.model_copy(update={"status": "settled", "question": None})
    assert combined(seen, settled) is None  # a partial view never reopens it...
    reopened = combined(grown, settled)  # ...unless a new value joined the dispute
    assert reopened.status == "open" and "m010" in reopened.members


def test_a_new_value_reopens_a_dispute_a_person_closed_for_a_review_of_its_own():
    (old,) = entries(scan([value("no_epoch", i) for i in range(3)]))
    first = review_entry_id(USER, old.entry_id)
    dismissed = old.model_copy(update={"status": "dismissed", "settled_by": first})
    assert closed_by_person(dismissed) and review_round(dismissed) == 0
    assert combined(old, dismissed, full_view=True) is None  # a review's decision stands
    (grown,) = entries(scan([value("no_epoch", i) for i in range(4)]))
    reopened = combined(grown, dismissed, full_view=True)
    assert (reopened.status, review_round(reopened)) == ("open", 1)
    assert not closed_by_person(reopened)
    assert combined(grown, reopened, full_view=True) is None  # the next scan keeps the round
    second = review_entry_id(USER, old.entry_id, 1)
    assert second != first
    closed = reopened.model_copy(update={"status": "settled", "settled_by": second})
    assert closed_by_person(closed)


def test_a_dispute_counts_once_against_each_import_that_began_or_grew_it():
    report = scan([value("tie", i) for i in range(4)])
    t1, t2 = T0.isoformat(), (T0 + timedelta(days=1)).isoformat()
    imported = {(USER, "m000"): t1, (USER, "m001"): t1, (USER, "m002"): t2,
                (USER, "m003"): t2}
    stats = compute_stats(entries(report), imported)
    assert (stats.conflicts, stats.open, stats.by_rule) == (1, 1, {"tie": 1})
    assert {i.imported_at: i.conflicts for i in stats.imports} == {t1: 1, t2: 1}
