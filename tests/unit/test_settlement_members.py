"""A settlement is made only by a record outside the pair it settles (issue 18, item 10):
the SPEC's settler is "a later record … observed after both"."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from extractors import Triple
from scanner.core.effects import verdict_effects
from scanner.core.ledger import entries_for
from scanner.core.policy_config import PolicyConfig
from scanner.models import MemoryRecord
from scanner.narration import narrate
from scanner.scan import ScanConfig, scan_records

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
NOW = T0 + timedelta(days=400)
VALUES = ("celadon", "tenmoku", "shino", "ash")


def record(rid: str, value: str, *, days: float, **kw) -> tuple[MemoryRecord, str]:
    base = dict(id=rid, text=f"The preferred glaze is {value}.", user_id="potter-1",
                source="chat", source_class="user", observed_at=T0 + timedelta(days=days),
                epoch="e1")
    base.update(kw)
    return MemoryRecord(**base), value


def scan(*items: tuple[MemoryRecord, str]):
    records = [r for r, _ in items]
    triples = [[Triple("user", "preferred glaze", v, rule="attribute")] for _, v in items]
    return scan_records(records, triples, ScanConfig(policy=PolicyConfig(now=NOW)))


def random_key(rng: random.Random, n: int) -> list[tuple[MemoryRecord, str]]:
    """``n`` records of one key: values, times, classes, epochs drawn at random, some
    without a source or an epoch, some observed at the same instant (ties)."""
    out = []
    for i in range(n):
        kw: dict = {"source_class": rng.choice(("user", "user", "observation", "inference")),
                    "epoch": rng.choice(("e1", "e1", "e2"))}
        if rng.random() < 0.2:
            kw["source"] = None
        if rng.random() < 0.1:
            kw["epoch"] = None
        out.append(record(f"m{i:02d}", rng.choice(VALUES), days=rng.randrange(6), **kw))
    return out


def test_a_record_never_settles_a_pair_it_belongs_to():
    settled = 0
    for seed in range(60):
        report = scan(*random_key(random.Random(seed), 7))
        for c in report.conflicts:
            if c.settled_by:
                settled += 1
                assert c.settled_by not in c.members, (seed, c.members, c.settled_by)
    assert settled > 20  # the draw does exercise settlement


def test_the_settlers_own_pair_with_a_retired_member_is_moot_not_settled():
    from scanner.core.report import is_moot

    no_source = record("m1", "celadon", days=0, source=None)
    other = record("m2", "tenmoku", days=1)
    fresh = record("m3", "tenmoku", days=5, source="tool:glaze-log",
                   source_class="observation")
    report = scan(no_source, other, fresh)
    pairs = {tuple(c.members): c for c in report.conflicts}
    assert (pairs[("m1", "m2")].settled_by, pairs[("m1", "m2")].superseded) == ("m3", ["m1"])
    own = pairs[("m1", "m3")]  # m3 cannot settle its own pair: nothing after both
    assert own.settled_by is None and own.verdict == "quarantined" and is_moot(own)
    assert "moot:m1@m3" in own.reasons and own.question is None
    # m1 is withheld, so the pair holds nobody unresolved: m3 is cited, as it stores
    assert report.withhold == ["m1"] and report.unresolved == [] and report.cite == ["m2", "m3"]
    fx = verdict_effects(report.conflicts)
    assert fx.retire == {"m1": "reobservation"} and fx.unresolved == set()
    assert fx.edges == {"m3": {"m1"}}
    # the ledger records the key's dispute once: settled by m3, m1's own pair with m3 moot
    entries = {e.entry_type: e for e in entries_for("potter-1", report.conflicts,
                                                    report.events)}
    dispute, done = entries["quarantine"], entries["settlement"]
    assert dispute.members == ["m1", "m2", "m3"] and "moot:m1@m3" in dispute.reasons
    assert (dispute.status, dispute.settled_by, done.settles) == (
        "settled", done.entry_id, dispute.entry_id)
    assert (done.settler, done.members, done.superseded, done.confirmed) == (
        "m3", ["m1", "m2"], ["m1"], ["m2"])
    alone = entries_for("potter-1", [pairs[("m1", "m3")]], report.events)
    assert [(e.entry_type, e.status, e.settled_by) for e in alone] == [
        ("quarantine", "moot", None)]
    assert "moot: m1 retired by the re-observation m3" in narrate(alone[0])
    assert all(e.settler not in e.members for e in entries_for(
        "potter-1", report.conflicts, report.events) if e.entry_type == "settlement")


def test_a_partial_view_keeps_what_the_ledger_records_as_moot():
    """A read-time scan that sees the moot pair but not the pair whose settlement retired its
    member reports it moot, as the ledger does (and holds nobody unresolved)."""
    from scanner.core.ledger import reconcile_settled
    from scanner.core.report import is_moot

    no_source = record("m1", "celadon", days=0, source=None)
    other = record("m2", "tenmoku", days=1)
    fresh = record("m3", "tenmoku", days=5, source="tool:glaze-log",
                   source_class="observation")
    full = scan(no_source, other, fresh)
    stored = {e.entry_id: e for e in entries_for("potter-1", full.conflicts, full.events)}
    partial = scan(no_source, fresh)  # m2 not among the hits: m1 is retired by nothing
    (open_pair,) = partial.conflicts
    assert not is_moot(open_pair) and partial.unresolved == ["m1", "m3"]
    (kept,) = reconcile_settled("potter-1", partial.conflicts, stored)
    assert is_moot(kept) and "moot:m1@m3" in kept.reasons and kept.question is None
    assert verdict_effects([kept]).unresolved == set()
