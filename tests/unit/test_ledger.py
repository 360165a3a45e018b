"""Verdicts that explain themselves, without a store: recorded configuration, clarification
questions, settlement by re-observation, ledger entries, effects, narration and statistics."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from extractors import Cardinality, Triple
from scanner.core.detect import CandidatePair, stances
from scanner.core.effects import verdict_effects
from scanner.core.keys import Assertion, GroupKey
from scanner.core.ledger import (
    NAMESPACE,
    LedgerEntry,
    conflict_entry_id,
    content_digest,
    entries_for,
    entry_contents,
    entry_id,
    import_entry,
    read_scans_entry,
    reconcile_settled,
    settlement_entry_id,
    should_replace,
)
from scanner.core.ledger_stats import compute_stats
from scanner.core.policy import decide
from scanner.core.policy_config import PolicyConfig, Strategy
from scanner.core.questions import clarification_question
from scanner.models import MemoryRecord
from scanner.narration import narrate
from scanner.scan import scan_records

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)


def record(rid: str, *, value: str = "celadon", days: float = 0.0, **kw) -> MemoryRecord:
    base = dict(id=rid, text=f"The preferred glaze is {value}.", user_id="potter-1",
                source="chat", source_class="user", observed_at=T0 + timedelta(days=days),
                epoch="e1")
    base.update(kw)
    return MemoryRecord(**base)


def triple(value: str, relation: str = "preferred glaze", subject: str = "user",
           negated: bool = False) -> Triple:
    return Triple(subject, relation, value, negated=negated, rule="attribute")


def pair(a: MemoryRecord, b: MemoryRecord, va: str = "celadon", vb: str = "tenmoku",
         relation: str = "preferred glaze") -> CandidatePair:
    key = GroupKey(a.scope(), "user", relation)
    sa, sb = (stances([Assertion(r, triple(v, relation))])[0] for r, v in ((a, va), (b, vb)))
    return CandidatePair(key=key, kind="value_mismatch", a=sa, b=sb,
                         cardinality=Cardinality.functional)


def scan(*items: tuple[MemoryRecord, str], config: PolicyConfig | None = None):
    from scanner.scan import ScanConfig

    records = [r for r, _ in items]
    triples = [[triple(v)] for _, v in items]
    return scan_records(records, triples, ScanConfig(policy=config or PolicyConfig()))


# -- what every verdict records -----------------------------------------------------------

def test_every_verdict_records_rule_inputs_configuration_and_severity():
    config = PolicyConfig(single_epoch=True,
                          strategies={"preferred glaze": Strategy.weighted})
    c = decide(pair(record("m1", epoch=None), record("m2", days=3, epoch=None)), config)
    assert c.rule == "weighted" and c.severity in ("low", "medium", "high")
    assert c.inputs["m1"]["epoch"] == "single_epoch" and c.inputs["m2"]["source"] == "chat"
    assert c.config == {"strategy": "weighted", "single_epoch": True, "epoch_property": None,
                        "recency_override": False, "safety_relation": False,
                        "weights": {"recency": 0.6, "confidence": 0.4}}
    declared = decide(pair(record("m1", epoch=None, properties={"deploy": "d4"}),
                           record("m2", days=3, epoch=None, properties={"deploy": "d7"})),
                      PolicyConfig(epoch_property="deploy"))
    assert declared.config["epoch_property"] == "deploy"
    assert "declared:epoch_property=deploy" in declared.reasons


def test_escalation_names_its_recommended_resolution():
    a, b = record("m1", source_class="observation"), record("m2", days=3)
    c = decide(pair(a, b), PolicyConfig(safety_relations=frozenset({"preferred glaze"})))
    assert (c.verdict, c.recommended, c.config["safety_relation"]) == ("escalated", "m1", True)


# -- clarification questions --------------------------------------------------------------

def test_unresolved_pairs_carry_a_user_facing_question():
    tie = decide(pair(record("m1"), record("m2", source="wiki")))
    assert tie.question == "Is the preferred glaze still celadon, or tenmoku?"
    resolved = decide(pair(record("m1"), record("m2", days=2)))
    assert resolved.question is None
    epochs = decide(pair(record("m1", epoch="studio-v3"), record("m2", days=9, epoch="v4")))
    assert epochs.question == ("Is the preferred glaze still celadon (epoch studio-v3), or "
                               "tenmoku (epoch v4)?")


@pytest.mark.parametrize(("texts", "relation", "subject", "values", "negated", "kind", "want"), [
    (("Sam lives in Lyon.", "Sam lives in Nice."), "live in", "sam", ("lyon", "nice"),
     (False, False), "value_mismatch", "Does Sam still live in Lyon, or Nice?"),
    (("The offsite is located in Lisbon.", "The offsite is located in Berlin."), "located in",
     "offsite", ("lisbon", "berlin"), (False, False), "value_mismatch",
     "Is offsite still located in Lisbon, or Berlin?"),
    (("I like coffee.", "I don't like coffee anymore."), "like", "user", ("coffee", "coffee"),
     (False, True), "polarity", "Do you still like coffee?"),
    (("Deploying on Fridays is allowed.", "Deploying on Fridays is not allowed."),
     "be allowed", "deploy on friday", ("", ""), (False, True), "polarity",
     "Is this still true: “Deploying on Fridays is allowed”?"),
])
def test_question_forms(texts, relation, subject, values, negated, kind, want):
    a = record("m1", text=texts[0])
    b = record("m2", text=texts[1], days=1)
    sa, sb = (stances([Assertion(r, Triple(subject, relation, v, negated=n, rule="svo"))])[0]
              for r, v, n in zip((a, b), values, negated))
    p = CandidatePair(key=GroupKey(a.scope(), subject, relation), kind=kind, a=sa, b=sb,
                      cardinality=Cardinality.functional)
    assert clarification_question(p) == want


# -- settlement by re-observation ---------------------------------------------------------

def test_a_later_observation_settles_a_quarantined_pair_and_both_steps_show():
    no_source = record("m1", source=None)
    other = record("m2", value="tenmoku", days=1)
    first = scan((no_source, "celadon"), (other, "tenmoku"))
    (c,) = first.conflicts
    assert (c.verdict, c.rule, c.settled_by) == ("quarantined", "missing_provenance", None)
    assert first.unresolved == ["m1", "m2"] and c.question

    fresh = record("m3", value="tenmoku", days=5, source="tool:glaze-log",
                   source_class="observation")
    second = scan((no_source, "celadon"), (other, "tenmoku"), (fresh, "tenmoku"))
    by_members = {tuple(x.members): x for x in second.conflicts}
    settled = by_members[("m1", "m2")]
    assert (settled.verdict, settled.rule) == ("quarantined", "missing_provenance")  # step 1
    assert (settled.settled_by, settled.superseded) == ("m3", ["m1"])                # step 2
    assert any(r == "settled:reobservation@m3" for r in settled.reasons)
    own = by_members[("m1", "m3")]  # m3 cannot settle its own pair: it is moot (issue 18)
    assert own.settled_by is None and "moot:m1@m3" in own.reasons
    assert second.withhold == ["m1"] and second.unresolved == [] and second.cite == ["m2", "m3"]


def test_a_reobservation_in_the_new_epoch_retires_the_old_epoch_value():
    old = record("m1", value="30 s", epoch="deploy-4", source_class="observation")
    new = record("m2", value="5 s", days=7, epoch="deploy-7", source_class="observation")
    probe = record("m3", value="5 s", days=8, epoch="deploy-7", source_class="observation")
    report = scan((old, "30 s"), (new, "5 s"), (probe, "5 s"))
    change = {tuple(c.members): c for c in report.conflicts}[("m1", "m2")]
    assert (change.verdict, change.latest, change.settled_by) == ("epoch_change", "m2", "m3")
    assert change.superseded == ["m1"] and len(report.events) == 2
    assert report.withhold == ["m1"] and report.unresolved == []


@pytest.mark.parametrize("settler", [
    dict(days=5, epoch="deploy-4"),                       # not in the later member's epoch
    dict(days=5, source_class="inference"),               # less trusted than the members
    dict(days=5, source=None),                            # itself lacks provenance
])
def test_what_does_not_settle_a_pair(settler):
    old = record("m1", value="30 s", epoch="deploy-4")
    new = record("m2", value="5 s", days=1, epoch="deploy-7")
    other = record("m3", value="5 s", **{"epoch": "deploy-7", **settler})
    report = scan((old, "30 s"), (new, "5 s"), (other, "5 s"))
    change = {tuple(c.members): c for c in report.conflicts}[("m1", "m2")]
    assert change.settled_by is None and change.question
    assert "m2" in report.unresolved


def test_safety_relations_and_manual_review_are_never_settled():
    a, b = record("m1", source=None), record("m2", days=1)
    fresh = record("m3", days=4, source_class="observation", value="tenmoku")
    for config in (PolicyConfig(safety_relations=frozenset({"preferred glaze"})),
                   PolicyConfig(strategies={"preferred glaze": Strategy.manual_review})):
        report = scan((a, "celadon"), (b, "tenmoku"), (fresh, "tenmoku"), config=config)
        assert all(c.settled_by is None for c in report.conflicts)


# -- ledger entries, effects, narration, statistics (pure) --------------------------------


def _timeout_scan():
    old = record("m1", value="30 s", epoch="deploy-4", source="file:service.yaml",
                 source_class="observation")
    new = record("m2", value="5 s", days=7, epoch="deploy-7", source="tool:probe",
                 source_class="observation")
    probe = record("m3", value="5 s", days=8, epoch="deploy-7", source="tool:probe",
                   source_class="observation")
    return scan((old, "30 s"), (new, "5 s")), scan((old, "30 s"), (new, "5 s"), (probe, "5 s"))


def test_entry_ids_depend_on_pair_and_rule_only():
    before, after = _timeout_scan()
    (change,) = before.conflicts
    first = {e.entry_id: e for e in entries_for("ops-1", before.conflicts, before.events)}
    again = {e.entry_id: e for e in entries_for("ops-1", before.conflicts, before.events)}
    assert first == again and list(first) == [conflict_entry_id("ops-1", change)]
    later = {e.entry_id: e for e in entries_for("ops-1", after.conflicts, after.events)}
    assert conflict_entry_id("ops-1", change) in later  # the same pair keeps its id
    assert conflict_entry_id("ops-2", change) != conflict_entry_id("ops-1", change)
    assert settlement_entry_id("ops-1", change) != conflict_entry_id("ops-1", change)


def test_entry_ids_are_uuid5_values():
    for parts in (("ops-1", "resolution", "m1", "m2", "recency"), ("ü-1", "import", ""),
                  ("u",)):
        assert entry_id(*parts) == str(uuid.uuid5(NAMESPACE, "\x1f".join(parts)))


def test_entry_contents_are_what_the_entries_hold():
    """A batch scan compares digests of plain contents and builds entries only to write
    them: both must be the same, for every entry type."""
    _, settled = _timeout_scan()
    glaze = PolicyConfig(safety_relations=frozenset({"preferred glaze"}))
    reports = [
        settled,
        scan((record("a"), "celadon"), (record("b", days=2), "tenmoku")),
        scan((record("a"), "celadon"), (record("b", source="wiki"), "tenmoku")),
        scan((record("a"), "celadon"), (record("b", days=2), "tenmoku"), config=glaze),
        scan((record("a", source=None), "celadon"), (record("b", days=1), "tenmoku"),
             (record("c", days=5, source_class="observation"), "tenmoku")),
    ]
    types = set()
    for report in reports:
        contents = entry_contents("ops-1", report.conflicts, report.events)
        assert [LedgerEntry.model_validate(c) for c in contents] == entries_for(
            "ops-1", report.conflicts, report.events)
        for c in contents:
            entry = LedgerEntry.model_validate(c)
            assert entry.content() == c and entry.digest() == content_digest(c)
            types.add(entry.entry_type)
    assert types >= {"resolution", "quarantine", "epoch_change", "escalation", "settlement"}


def test_epoch_change_entries_and_their_settlement_show_both_steps():
    before, after = _timeout_scan()
    (opened,) = entries_for("ops-1", before.conflicts, before.events)
    assert (opened.entry_type, opened.status, opened.settled_by) == ("epoch_change", "open",
                                                                     None)
    assert opened.event["from"]["value"] == "30 s" and opened.event["to"]["epoch"] == "deploy-7"
    assert opened.request["in_epoch"] == "deploy-7" and opened.question
    entries = {e.entry_id: e for e in entries_for("ops-1", after.conflicts, after.events)}
    closed = entries[opened.entry_id]
    done = entries[closed.settled_by]
    assert closed.status == "settled" and done.settles == closed.entry_id
    assert (done.entry_type, done.rule, done.settler, done.superseded, done.confirmed) == (
        "settlement", "reobservation", "m3", ["m1"], ["m2"])
    assert done.values["m3"] == "5 s" and done.inputs["m3"]["source"] == "tool:probe"
    assert should_replace(closed, opened) and not should_replace(opened, closed)
    assert not should_replace(opened, opened)
    story = narrate(closed) + "\n" + narrate(done)
    assert "“30 s” under deploy-4" in story and "“5 s” under deploy-7" in story
    assert "settled the epoch change m1 / m2" in story and "retired m1" in story


def test_a_decision_filed_again_under_a_new_id_is_told_once():
    # A ledger written when a dispute's entry id was formed from its pair: the next scan of
    # every memory wrote the same epoch change under the key's id and withdrew the old entry
    # (scanner.core.convergence.withdrawals). History tells the change once, not "withdrawn:
    # no longer decided" and then the same change again.
    from scanner.history import refiled, story_of

    before, _ = _timeout_scan()
    (live,) = entries_for("ops-1", before.conflicts, before.events)
    live = live.model_copy(update={"recorded_at": T0 + timedelta(days=30)})
    old = live.model_copy(update={"entry_id": entry_id("ops-1", "epoch_change", "m1", "m2",
                                                       "epoch_change"),
                                  "status": "withdrawn", "question": None,
                                  "recorded_at": T0 + timedelta(days=10),
                                  "updated_at": T0 + timedelta(days=30)})
    assert refiled([old, live]) == {old.entry_id: live}
    lines = story_of([], [old, live])
    assert len(lines) == 1 and "epoch change on user · preferred glaze" in lines[0]
    assert "withdrawn" not in lines[0]
    assert "first recorded 2026-03-11 10:00:00Z" in lines[0]
    # withdrawn for good (no live entry records it): told as withdrawn
    (alone,) = story_of([], [old])
    assert "withdrawn: a later scan of every memory no longer decides this" in alone
    # another decision on the key is no refiling
    other = live.model_copy(update={"rule": "tie", "verdict": "quarantined",
                                    "entry_type": "quarantine"})
    assert refiled([old, other]) == {} and len(story_of([], [old, other])) == 2


def test_effects_of_verdicts():
    _, after = _timeout_scan()
    fx = verdict_effects(after.conflicts)
    assert fx.edges == {"m3": {"m1"}} and fx.retire == {"m1": "reobservation"}
    assert fx.unresolved == set() and fx.confirmed == {"m2", "m3"}
    resolved = scan((record("a"), "celadon"), (record("b", days=2), "tenmoku"))
    assert verdict_effects(resolved.conflicts).retire == {"a": "recency"}
    tie = scan((record("a"), "celadon"), (record("b", source="wiki"), "tenmoku"))
    assert verdict_effects(tie.conflicts).unresolved == {"a", "b"}


def test_a_partial_view_keeps_what_the_ledger_settled():
    before, after = _timeout_scan()
    stored = {e.entry_id: e for e in entries_for("ops-1", after.conflicts, after.events)}
    (open_pair,) = before.conflicts  # a read-time scan that did not see m3
    (kept,) = reconcile_settled("ops-1", before.conflicts, stored)
    assert (kept.settled_by, kept.superseded, kept.question) == ("m3", ["m1"], None)
    assert reconcile_settled("ops-1", before.conflicts, {}) == [open_pair]


def test_stats_by_relation_verdict_rule_import_and_read_time_share():
    _, after = _timeout_scan()
    t1, t2 = T0.isoformat(), (T0 + timedelta(days=8)).isoformat()
    entries = entries_for("ops-1", after.conflicts, after.events) + [
        import_entry("ops-1", T0, written=2, unchanged=0, failed=0),
        read_scans_entry("ops-1", "p1", scans=4, with_conflict=1, started_at=T0),
        read_scans_entry("ops-1", "p2", scans=6, with_conflict=2, started_at=T0)]
    stats = compute_stats(entries, {("ops-1", "m1"): t1, ("ops-1", "m2"): t1,
                                    ("ops-1", "m3"): t2})
    # (m1, m2) settled by m3; (m1, m3) moot: m3 cannot settle its own pair (issue 18); the
    # ledger records the key's epoch changes as one dispute, settled
    assert stats.conflicts == 1 and stats.by_verdict == {"epoch_change": 1}
    assert stats.by_rule == {"epoch_change": 1} and stats.by_relation == {"preferred glaze": 1}
    assert (stats.open, stats.settled, stats.moot) == (0, 1, 0)
    rates = {i.imported_at: (i.memories, i.conflicts) for i in stats.imports}
    assert rates == {t1: (2, 1), t2: (1, 1)}  # m1/m2 began it; m3 joined it
    assert (stats.read_scans, stats.read_scans_with_conflict) == (10, 3)
    assert stats.read_scan_conflict_share == pytest.approx(0.3)
    assert stats.to_json_dict()["imports"][1]["rate"] == 1.0


def test_process_metrics_expose_scans_conflicts_and_writes():
    from prometheus_client import CollectorRegistry, generate_latest

    from scanner.metrics import ScanCounters, StoreStatsCollector

    counters = ScanCounters()
    registry = CollectorRegistry()
    registry.register(counters)
    _, after = _timeout_scan()
    counters.observe_scan("read_time", after)
    counters.observe_writes(entries={"settlement": 2}, edges=1, statuses=1)
    counters.observe_batch(memories=100, seconds=0.5)
    store_stats = StoreStatsCollector(lambda: compute_stats([], {}), ttl_s=60)
    store_stats.refresh_now()
    registry.register(store_stats)
    text = generate_latest(registry).decode()
    assert 'contrascan_scan_runs_total{mode="read_time"} 1.0' in text
    assert 'contrascan_scan_incompatible_total{mode="read_time"} 1.0' in text
    assert ('contrascan_scan_conflicts_total{mode="read_time",rule="epoch_change",'
            'verdict="epoch_change"} 2.0') in text
    assert 'contrascan_ledger_entries_written_total{entry_type="settlement"} 2.0' in text
    assert "contrascan_scan_last_batch_memories_per_second 200.0" in text
    assert "contrascan_store_read_scan_conflict_share 0.0" in text


@pytest.mark.parametrize("text", ["plain", "café “quoted”", "del\x7fchar", "tab\tline\n\x01",
                                  'quote" back\\'])
def test_stored_digest_is_the_entry_digest(text):
    from scanner.store.ledger import LedgerStore

    e = read_scans_entry("u1", "tok", scans=1, with_conflict=0, started_at=T0)
    e = e.model_copy(update={"question": text, "data": {**e.data, "text": text}})
    stored = LedgerStore._properties(e, T0, T0)
    assert stored["digest"] == e.digest()
    assert json.loads(stored["body_json"]) == e.content()


# -- a key's decision in O(values) (issue 18, item 11) -----------------------------------------

@pytest.mark.parametrize("n", [2, 10, 50])
def test_a_key_with_n_values_records_each_superseded_member_once(n):
    """``n`` values of one key, one after another: ``n(n-1)/2`` resolved pairs in the report,
    ``n - 1`` ledger entries and ``supersedes`` edges, each from the value that replaced it."""
    items = [(record(f"m{i:03d}", value=f"glaze {i}", days=i), f"glaze {i}") for i in range(n)]
    report = scan(*items)
    assert len(report.conflicts) == n * (n - 1) // 2  # the report lists every pair (SPEC §5)
    entries = entries_for("potter-1", report.conflicts, report.events)
    assert len(entries) == n - 1 and {e.entry_type for e in entries} == {"resolution"}
    assert sorted((e.winner, *e.superseded) for e in entries) == [
        (f"m{i + 1:03d}", f"m{i:03d}") for i in range(n - 1)]
    fx = verdict_effects(report.conflicts)
    assert fx.edges == {f"m{i + 1:03d}": {f"m{i:03d}"} for i in range(n - 1)}
    assert set(fx.retire) == set(report.withhold) == {f"m{i:03d}" for i in range(n - 1)}
    assert report.cite == [f"m{n - 1:03d}"]
