"""The resolution ledger, history, statistics and batch scans against a real Weaviate.

Every test counts every object (memories, ledger entries by type, ``supersedes`` edges,
statuses) before and after what it does: import, scan, re-scan, concurrent scans, a server
stopped mid-scan and started again. Nothing may be deleted, no ledger entry or edge may be
written twice, and a re-run must complete the work.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from scanner.api import ApiSettings, create_app
from scanner.cli import main
from scanner.core.effects import verdict_effects
from scanner.core.key_decision import deciding_resolutions
from scanner.core.ledger import (
    CONFLICT_TYPES,
    conflict_entry_id,
    entries_for,
    settlement_entry_id,
)
from scanner.core.policy_config import PolicyConfig
from scanner.demo import demo_records_path
from scanner.engine import Engine
from scanner.models import MemoryRecord
from scanner.records import read_jsonl
from scanner.scan import ScanConfig
from scanner.service import Service
from scanner.store import server
from scanner.store.memories import object_uuid, tenant_name
from scanner.store.wiring import weaviate_stores
from tests.integration.conftest import scoped_service

pytestmark = pytest.mark.integration
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
DEMO_USERS = ("demo-user-2", "demo-user-3", "demo-user-4")  # resolutions, quarantines and
# epoch changes: the three verdict scenarios of the demo bundle (benchmarks/demo_data.py)


def rec(rid: str, text: str, user: str = "ops-1", days: float = 0, **kw) -> MemoryRecord:
    base = dict(id=rid, text=text, user_id=user, group="config", source="tool:probe",
                source_class="observation", observed_at=T0 + timedelta(days=days),
                epoch="deploy-4")
    base.update(kw)
    return MemoryRecord(**base)


TIMEOUT = "The retry timeout of the payments service is {}."


def census(svc: Service, users) -> dict:
    """Every object of the given tenants, counted."""
    entries = [e for u in users for e in svc.ledger.iterate(u)]
    edges = [(u, m, t) for u in users for m, ts in svc.store.supersedes_edges(u).items()
             for t in ts]
    statuses = Counter(m.status for u in users for m in svc.store.iterate(u))
    return {"memories": sum(svc.store.count(u) for u in users),
            "ledger": sum(svc.ledger.count(u) for u in users),
            "by_type": dict(Counter(e.entry_type for e in entries)),
            "entry_ids": sorted(e.entry_id for e in entries),
            "duplicate_entry_keys": _duplicates((e.user_id, e.entry_type, tuple(e.members),
                                                 e.rule, e.data.get("imported_at"),
                                                 e.data.get("process")) for e in entries),
            "edges": len(edges), "duplicate_edges": _duplicates(edges),
            "statuses": dict(statuses)}


def _duplicates(items) -> list:
    return sorted(k for k, n in Counter(items).items() if n > 1)


def expected_after_scan(svc: Service, report, users) -> dict:
    """What a scan's report says the store must hold for those tenants."""
    ids = set()
    edges = 0
    for u in users:
        mine = [c for c in report.conflicts if c.key.user_id == u]
        ids |= {e.entry_id for e in entries_for(u, mine, report.events)}
        edges += sum(len(v) for v in verdict_effects(mine).edges.values())
    return {"conflict_entries": ids, "edges": edges}


@pytest.fixture(scope="module")
def demo_records():
    records, rejected = read_jsonl(demo_records_path())
    assert not rejected
    return [r for r in records if r.user_id in DEMO_USERS]


# -- what the ledger holds --------------------------------------------------------------------

def test_every_verdict_is_an_entry_that_explains_itself(weaviate_server, extractor):
    policy = PolicyConfig(safety_relations=frozenset({"allowed dose"}))
    engine = Engine(ScanConfig(policy=policy), extractor=extractor)
    with scoped_service(weaviate_server, engine, "L") as svc:
        svc.import_records([
            rec("t4", TIMEOUT.format("30 seconds"), source="file:service.yaml"),
            rec("t7", TIMEOUT.format("5 seconds"), days=7, epoch="deploy-7"),
            rec("g1", "The preferred glaze is celadon.", user="potter-1", source=None),
            rec("g2", "The preferred glaze is tenmoku.", user="potter-1", days=1,
                source_class="user"),
            rec("d1", "The allowed dose is 5 mg.", user="nurse-1"),
            rec("d2", "The allowed dose is 10 mg.", user="nurse-1", days=2, source_class="user"),
            rec("s1", "Sam lives in Lyon.", user="potter-1", group="people",
                source_class="user"),
            rec("s2", "Sam lives in Nice.", user="potter-1", group="people", days=3,
                source_class="user"),
        ])
        report = svc.batch_scan()
        verdicts = {tuple(c.members): (c.verdict, c.rule) for c in report.conflicts}
        assert verdicts == {("t4", "t7"): ("epoch_change", "epoch_change"),
                            ("g1", "g2"): ("quarantined", "missing_provenance"),
                            ("d1", "d2"): ("escalated", "safety_relation"),
                            ("s1", "s2"): ("resolved", "recency")}
        by_id = {}
        for user in ("ops-1", "potter-1", "nurse-1"):
            by_id.update({e.entry_id: e for e in svc.ledger.iterate(user)})
        entry = {c.members[0]: by_id[conflict_entry_id(c.key.user_id, c)]
                 for c in report.conflicts}
        change = entry["t4"]
        assert (change.entry_type, change.status) == ("epoch_change", "open")
        assert change.event["from"]["epoch"] == "deploy-4"
        assert change.event["to"] == {"id": "t7", "value": "5 s", "epoch": "deploy-7",
                                      "source": "tool:probe",
                                      "observed_at": "2026-03-09T09:00:00+00:00"}
        assert change.request["in_epoch"] == "deploy-7"
        assert change.request["what"] == "re-check the retry timeout of payment service"
        quarantine = entry["g1"]
        assert quarantine.request["missing"] == ["source@g1"]
        assert quarantine.question == "Is the preferred glaze still celadon, or tenmoku?"
        escalation = entry["d1"]
        assert escalation.recommended == {"keep": "d1", "retire": ["d2"], "value": "5 mg",
                                          "because": "source_class"}
        assert escalation.config["safety_relation"] is True
        resolution = entry["s1"]
        assert (resolution.status, resolution.winner, resolution.superseded) == (
            "applied", "s2", ["s1"])
        for e in entry.values():  # rule, inputs, configuration and severity on every verdict
            assert e.rule and set(e.inputs) == set(e.members) and e.severity
            assert {"strategy", "single_epoch", "epoch_property"} <= set(e.config)
            assert e.recorded_at is not None
        assert svc.ledger.references("ops-1", change.entry_id) == ["t4", "t7"]
        assert svc.ledger.references("potter-1", resolution.entry_id) == ["s1", "s2"]
        # the ids depend on the pair and the rule only: a second scan converges on them
        again = svc.run_batch_scan()
        assert sum(t.ledger.written + t.ledger.replaced for t in again.tenants) == 0


def test_import_scan_rescan_deletes_nothing_and_writes_nothing_twice(service, demo_records):
    users = DEMO_USERS
    empty = census(service, users)
    assert empty["memories"] == 0 and empty["ledger"] == 0

    imported = service.import_records(demo_records)
    after_import = census(service, users)
    assert imported.written == len(demo_records) == after_import["memories"]
    assert after_import["by_type"] == {"import": len(users)} and after_import["edges"] == 0

    report = service.batch_scan(workers=2)
    after_scan = census(service, users)
    want = expected_after_scan(service, report, users)
    assert after_scan["memories"] == after_import["memories"]
    assert set(after_scan["entry_ids"]) - set(after_import["entry_ids"]) == \
        want["conflict_entries"]
    assert after_scan["edges"] == want["edges"] > 0
    assert after_scan["duplicate_entry_keys"] == [] and after_scan["duplicate_edges"] == []
    verdicts = Counter(c.verdict for c in report.conflicts)
    assert {"resolved", "quarantined", "epoch_change"} <= set(verdicts)
    assert after_scan["statuses"]["superseded"] == len(report.withhold)

    again = service.import_records(demo_records)  # a re-import changes nothing either
    assert (again.written, again.unchanged) == (0, len(demo_records))
    stamps = {e.entry_id: e.updated_at for u in users for e in service.ledger.iterate(u)}
    rerun = service.run_batch_scan(keep_report=True)
    assert rerun.report.conflicts == report.conflicts
    assert all((t.ledger.written, t.ledger.replaced, t.applied.edges_added,
                t.applied.statuses_changed) == (0, 0, 0, 0) for t in rerun.tenants)
    assert census(service, users) == after_scan
    assert {e.entry_id: e.updated_at for u in users for e in service.ledger.iterate(u)} == \
        stamps


def test_a_fresh_observation_settles_a_quarantine_and_the_ledger_shows_both_steps(service):
    service.import_records([
        rec("cfg", TIMEOUT.format("30 seconds"), source=None, source_class="user"),
        rec("tool", TIMEOUT.format("5 seconds"), days=1)])
    first = service.batch_scan()
    (pair,) = first.conflicts
    entry_id = conflict_entry_id("ops-1", pair)
    opened = service.ledger.fetch("ops-1", [entry_id])[entry_id]
    assert (opened.entry_type, opened.status, opened.settled_by) == ("quarantine", "open", None)
    assert {m.record.id: m.status for m in service.store.iterate("ops-1")} == {
        "cfg": "unresolved", "tool": "unresolved"}

    service.import_records([rec("probe", TIMEOUT.format("5s"), days=3,
                                source="tool:config-probe")])
    before = census(service, ["ops-1"])
    second = service.batch_scan()
    after = census(service, ["ops-1"])
    settled = service.ledger.fetch("ops-1", [entry_id])[entry_id]
    (now,) = [c for c in second.conflicts if c.members == pair.members]
    assert conflict_entry_id("ops-1", now) == entry_id  # the key's dispute keeps its id
    settlement_id = settlement_entry_id("ops-1", now)
    assert (settled.status, settled.settled_by) == ("settled", settlement_id)
    assert settled.recorded_at == opened.recorded_at  # the first step is kept as it was
    done = service.ledger.fetch("ops-1", [settlement_id])[settlement_id]
    assert (done.entry_type, done.settler, done.superseded, done.confirmed, done.settles) == (
        "settlement", "probe", ["cfg"], ["tool"], entry_id)
    states = {m.record.id: (m.status, m.retired_rule) for m in service.store.iterate("ops-1")}
    assert states == {"cfg": ("superseded", "reobservation"), "tool": ("active", None),
                      "probe": ("active", None)}
    assert second.withhold == ["cfg"] and second.unresolved == []
    assert service.store.supersedes_edges("ops-1") == {"probe": ["cfg"]}
    assert after["memories"] == before["memories"] and after["duplicate_edges"] == []

    history = service.history_report("cfg", "ops-1")
    assert [e.id for e in history.chain] == ["cfg", "tool", "probe"]
    assert history.chain[0].retired_by == "probe"
    assert {e.entry_type for e in history.ledger} >= {"quarantine", "settlement"}
    story = "\n".join(history.story)
    assert "quarantined (missing_provenance:source@cfg" in story
    assert "re-observation probe “5 s”" in story and "retired cfg (rule reobservation)" in story

    # a read-time scan whose hits miss nothing still agrees with the ledger, and writes
    # nothing new; the tally of read-time scans lands in the ledger (written in the
    # background; closing the service waits for it)
    result = service.scan("ops-1", "retry timeout of the payments service", group="config")
    assert "cfg" in result.report.withhold and "tool" in result.report.cite
    service.close()
    assert census(service, ["ops-1"])["by_type"].get("read_scans") == 1


def test_concurrent_batch_scans_converge(tmp_path, engine, demo_records):
    port, grpc_port = server.free_ports()
    owner = server.connect_embedded(tmp_path / "w", port=port, grpc_port=grpc_port)
    other = server.connect_embedded(tmp_path / "w")  # joins the owner's server
    try:
        name = "C" + uuid.uuid4().hex[:8]
        first = Service(weaviate_stores(owner, name), engine=engine)
        second = Service(weaviate_stores(other, name), engine=engine)
        first.import_records(demo_records)
        before = census(first, DEMO_USERS)
        reports, errors = [], []

        def run(svc: Service) -> None:
            try:
                reports.append(svc.batch_scan(workers=2))
            except Exception as err:  # noqa: BLE001 - reported by the assertion below
                errors.append(err)

        for _ in range(2):  # two rounds: concurrent first writes, then concurrent re-runs
            threads = [threading.Thread(target=run, args=(s,)) for s in (first, second)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        assert errors == [] and len(reports) == 4
        assert all(r.conflicts == reports[0].conflicts for r in reports)
        after = census(first, DEMO_USERS)
        want = expected_after_scan(first, reports[0], DEMO_USERS)
        assert after["memories"] == before["memories"]
        assert set(after["entry_ids"]) - set(before["entry_ids"]) == want["conflict_entries"]
        assert after["duplicate_entry_keys"] == [] and after["duplicate_edges"] == []
        assert after["edges"] == want["edges"]
        assert after["statuses"]["superseded"] == len(reports[0].withhold)
    finally:
        other.close()
        owner.close()


def test_a_server_stopped_mid_scan_loses_nothing_and_the_rerun_completes(tmp_path, engine,
                                                                         demo_records):
    data_dir = tmp_path / "w"
    port, grpc_port = server.free_ports()
    client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    name = "R" + uuid.uuid4().hex[:8]
    svc = Service(weaviate_stores(client, name), engine=engine)
    svc.import_records(demo_records)
    before = census(svc, DEMO_USERS)
    batches = []

    class Stopped(Exception):
        pass

    def stop_after_first_batch(n: int) -> None:
        batches.append(n)
        client.close()  # stops the server: the scanner dies with it, mid-scan
        raise Stopped

    with pytest.raises(Stopped):
        svc.batch_scan(on_written=stop_after_first_batch)
    assert batches  # it did write part of the ledger

    client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    try:
        svc = Service(weaviate_stores(client, name), engine=engine)
        partial = census(svc, DEMO_USERS)
        assert partial["memories"] == before["memories"]  # nothing deleted
        assert partial["duplicate_entry_keys"] == [] and partial["duplicate_edges"] == []
        report = svc.batch_scan()
        done = census(svc, DEMO_USERS)
        want = expected_after_scan(svc, report, DEMO_USERS)
        assert done["memories"] == before["memories"]
        assert set(done["entry_ids"]) - set(before["entry_ids"]) == want["conflict_entries"]
        assert set(partial["entry_ids"]) <= set(done["entry_ids"])
        assert done["edges"] == want["edges"] and done["duplicate_edges"] == []
        assert done["statuses"]["superseded"] == len(report.withhold)
        rerun = svc.run_batch_scan()
        assert all(t.ledger.written + t.ledger.replaced == 0 for t in rerun.tenants)
        assert census(svc, DEMO_USERS) == done
    finally:
        client.close()


def test_a_tenant_unchanged_since_its_last_scan_is_checked_not_decided_again(service):
    """A scan that finds a tenant as the last complete scan left it reports that scan's
    counts and writes nothing; any import, status change, configuration change or
    ``full=True`` makes it decide again, with the same outcome a scan without checkpoints
    gives."""
    other = rec("other", "The preferred glaze is celadon.", user="potter-1")
    service.import_records([
        rec("cfg", TIMEOUT.format("30 seconds"), days=0),
        rec("tool", TIMEOUT.format("5 seconds"), days=1), other])

    def scan(**kw):
        return {t.user_id: t for t in service.run_batch_scan(**kw).tenants}

    first = scan()
    assert not any(t.unchanged_since_checkpoint for t in first.values())
    assert first["ops-1"].by_verdict == {"resolved": 1}
    after_first = census(service, ["ops-1", "potter-1"])

    second = scan()
    assert all(t.unchanged_since_checkpoint for t in second.values())
    assert {u: (t.scanned, t.by_verdict) for u, t in second.items()} == \
        {u: (t.scanned, t.by_verdict) for u, t in first.items()}
    assert all((t.ledger.written, t.ledger.replaced, t.applied.statuses_changed) == (0, 0, 0)
               for t in second.values())
    assert census(service, ["ops-1", "potter-1"]) == after_first

    # an import into one tenant: that tenant is decided again, the other is not
    service.import_records([rec("probe", TIMEOUT.format("10 seconds"), days=2)])
    third = scan()
    assert not third["ops-1"].unchanged_since_checkpoint
    assert third["potter-1"].unchanged_since_checkpoint
    assert third["ops-1"].by_verdict == {"resolved": 3}  # each pair of the three values
    assert {m.record.id: m.status for m in service.store.iterate("ops-1")} == {
        "cfg": "superseded", "tool": "superseded", "probe": "active"}
    assert scan()["ops-1"].unchanged_since_checkpoint

    # a status changed behind the scanner's back is put right by a full decision
    service.store.client.collections.use(service.store.name).with_tenant(
        tenant_name("ops-1")).data.update(uuid=object_uuid("ops-1", "tool"),
                                          properties={"status": "active"})
    fourth = scan()
    assert not fourth["ops-1"].unchanged_since_checkpoint
    assert fourth["ops-1"].applied.statuses_changed == 1
    assert {m.record.id: m.status for m in service.store.iterate("ops-1")}["tool"] == \
        "superseded"
    assert scan()["ops-1"].unchanged_since_checkpoint

    # a read-time scan records only its tally (a statistics entry): still unchanged
    service.scan("ops-1", "retry timeout of the payments service", group="config")
    service.flush_stats()
    assert census(service, ["ops-1"])["by_type"].get("read_scans") == 1
    assert scan()["ops-1"].unchanged_since_checkpoint

    # a verdict entry changed behind the scanner's back is rewritten by a full decision
    ledger = service.store.client.collections.use(service.ledger.name).with_tenant(
        tenant_name("ops-1"))
    (tampered,) = [o for o in ledger.iterator(return_properties=["entry_type", "body_json"])
                   if o.properties["entry_type"] == "resolution"][:1]
    body = json.loads(tampered.properties["body_json"])
    body["severity"] = "high" if body["severity"] != "high" else "low"
    ledger.data.update(uuid=tampered.uuid, properties={"body_json": json.dumps(body),
                                                       "digest": "0" * 64})
    fifth = scan()["ops-1"]
    assert not fifth.unchanged_since_checkpoint and fifth.ledger.replaced == 1
    assert scan()["ops-1"].unchanged_since_checkpoint

    # a memory left unresolved by a pair that is gone returns to active, even in a tenant
    # with no conflict at all
    service.store.client.collections.use(service.store.name).with_tenant(
        tenant_name("potter-1")).data.update(uuid=object_uuid("potter-1", "other"),
                                             properties={"status": "unresolved"})
    sixth = scan()["potter-1"]
    assert not sixth.unchanged_since_checkpoint and sixth.applied.statuses_changed == 1
    assert [m.status for m in service.store.iterate("potter-1")] == ["active"]
    assert scan()["potter-1"].unchanged_since_checkpoint

    # asked for: a full decision, or the full report, never take the shortcut; the counts
    # a shortcut reports are the ones a full decision finds
    shortcut = scan()
    decided = scan(full=True)
    assert not any(t.unchanged_since_checkpoint for t in decided.values())
    assert {u: (t.scanned, t.by_verdict) for u, t in shortcut.items()} == \
        {u: (t.scanned, t.by_verdict) for u, t in decided.items()}
    assert all(t.ledger.written + t.ledger.replaced + t.applied.statuses_changed == 0
               for t in decided.values())
    kept = service.run_batch_scan("ops-1", keep_report=True).tenants[0]
    assert not kept.unchanged_since_checkpoint and kept.report.withhold == ["cfg", "tool"]

    # another configuration decides again (and records its own checkpoint)
    single = Service(service.stores, engine=Engine(ScanConfig(
        policy=PolicyConfig(single_epoch=True)), extractor=service.engine.extractor))
    assert not single.run_batch_scan("ops-1").tenants[0].unchanged_since_checkpoint
    assert single.run_batch_scan("ops-1").tenants[0].unchanged_since_checkpoint
    assert not scan()["ops-1"].unchanged_since_checkpoint
    assert census(service, ["ops-1", "potter-1"])["memories"] == 4

    # checkpoints only save work: with their collection deleted, the next scan decides in
    # full (writing nothing new) and records a checkpoint again
    before = census(service, ["ops-1", "potter-1"])
    service.store.client.collections.delete(service.scan_state.name)
    assert [scan()["ops-1"].unchanged_since_checkpoint for _ in range(2)] == [False, True]
    assert census(service, ["ops-1", "potter-1"]) == before


# -- statistics, metrics and the command line -------------------------------------------------

def test_stats_count_conflicts_imports_and_read_time_scans(service, demo_records):
    service.import_records(demo_records)
    report = service.batch_scan()
    first = demo_records[0]
    for conflict in report.conflicts[:3]:
        member = next(r for r in demo_records if r.id == conflict.members[0])
        service.scan(member.user_id, member.text, group=member.group)
    service.scan(first.user_id, first.text, group=first.group, limit=1)  # one hit: no pair
    stats = service.stats()
    # the ledger records a key's decision once per superseded member (issue 18), and a key's
    # unresolved pairs once as its dispute
    recorded = [e for u in DEMO_USERS
                for e in entries_for(u, [c for c in report.conflicts if c.key.user_id == u],
                                     report.events) if e.entry_type in CONFLICT_TYPES]
    deciding = deciding_resolutions(report.conflicts)
    assert sum(e.entry_type == "resolution" for e in recorded) == len(deciding)
    assert stats.conflicts == len(recorded) < len(report.conflicts)
    assert stats.by_verdict == dict(sorted(Counter(e.verdict for e in recorded).items()))
    assert sum(stats.by_rule.values()) == sum(stats.by_relation.values()) == stats.conflicts
    assert sorted(i.user_id for i in stats.imports) == sorted(DEMO_USERS)
    assert sum(i.memories for i in stats.imports) == len(demo_records)
    assert sum(i.conflicts for i in stats.imports) == stats.conflicts
    assert stats.read_scans == 4 and 1 <= stats.read_scans_with_conflict <= 3
    one = service.stats(DEMO_USERS[0])
    assert one.users == [DEMO_USERS[0]] and one.conflicts < stats.conflicts

    from prometheus_client import CollectorRegistry, generate_latest

    from scanner import metrics

    registry = CollectorRegistry()
    store_stats = metrics.register(registry, service, ttl_s=60)
    assert store_stats is not None
    store_stats.refresh_now()  # a scrape itself never computes them (issue 18)
    text = generate_latest(registry).decode()
    assert 'contrascan_scan_runs_total{mode="batch"}' in text
    assert "contrascan_store_read_scan_conflict_share" in text
    assert f'contrascan_store_conflicts_by_verdict{{verdict="resolved"}} ' \
           f'{float(stats.by_verdict["resolved"])}' in text


def test_cli_history_and_stats(tmp_path, engine):
    jsonl = tmp_path / "timeout.jsonl"
    rows = [rec("cfg-e4", TIMEOUT.format("30 seconds"), source="file:payments.yaml@r41"),
            rec("tool-e7", TIMEOUT.format("5 seconds"), days=7, epoch="deploy-7"),
            rec("probe-e7", TIMEOUT.format("5s"), days=8, epoch="deploy-7")]
    jsonl.write_text("\n".join(r.model_dump_json(exclude_none=True) for r in rows[:2]) + "\n")
    later = tmp_path / "later.jsonl"
    later.write_text(rows[2].model_dump_json(exclude_none=True) + "\n")
    port, grpc_port = server.free_ports()
    with server.connect_embedded(tmp_path / "w", port=port, grpc_port=grpc_port) as client:
        url = ["--weaviate-url", f"http://127.0.0.1:{port}?grpc_port={grpc_port}"]
        # the embedded server takes only its own key (scanner.store.access)
        runner = CliRunner(env={server.API_KEY_ENV: (
            tmp_path / "w" / ".contrascan-weaviate.key").read_text().strip()})
        for args in (["import", str(jsonl)], ["batch-scan", "--json"],
                     ["import", str(later)], ["batch-scan", "--workers", "2", "--json"]):
            result = runner.invoke(main, [*args, *url])
            assert result.exit_code == 0, result.output
        result = runner.invoke(main, ["history", "cfg-e4", "--user", "ops-1", "--json", *url])
        assert result.exit_code == 0, result.output
        history = json.loads(result.output)
        assert [e["id"] for e in history["chain"]] == ["cfg-e4", "tool-e7", "probe-e7"]
        old = history["chain"][0]
        assert (old["epoch"], old["source"], old["status"], old["retired_rule"],
                old["retired_by"]) == ("deploy-4", "file:payments.yaml@r41", "superseded",
                                       "reobservation", "probe-e7")
        story = "\n".join(history["story"])
        assert "epoch change on payment service · retry timeout: “30 s” under deploy-4" in story
        assert "settled the epoch change cfg-e4 / tool-e7" in story
        text = runner.invoke(main, ["history", "cfg-e4", "--user", "ops-1", *url])
        assert text.exit_code == 0 and "What happened" in text.output
        stats = runner.invoke(main, ["stats", "--json", *url])
        assert stats.exit_code == 0, stats.output
        body = json.loads(stats.output)
        # (cfg-e4, tool-e7) settled by probe-e7; (cfg-e4, probe-e7) moot: a record never
        # settles its own pair (issue 18); the ledger records them as the key's one dispute
        assert body["by_verdict"] == {"epoch_change": 1}
        assert (body["settled"], body["moot"]) == (1, 0)
        assert [i["memories"] for i in body["imports"]] == [2, 1]
        assert runner.invoke(main, ["stats", "--user", "ops-1", *url]).exit_code == 0
        # the sidecar answers GET /v1/stats with the same documents, from the same call
        app = create_app(Service(weaviate_stores(client), engine=engine),
                         settings=ApiSettings(stats_process=False), warm_up=False)
        with TestClient(app) as http:
            answer = http.get("/v1/stats")
            assert answer.status_code == 200 and answer.json() == body
            one = runner.invoke(main, ["stats", "--user", "ops-1", "--json", *url])
            assert one.exit_code == 0, one.output
            answer = http.get("/v1/stats", params={"user_id": "ops-1"})
            assert answer.status_code == 200 and answer.json() == json.loads(one.output)
            assert answer.json()["users"] == ["ops-1"]
            nobody = runner.invoke(main, ["stats", "--user", "nobody", "--json", *url])
            assert http.get("/v1/stats", params={"user_id": "nobody"}).json() == \
                json.loads(nobody.output)
            assert http.get("/v1/stats", params={"user_id": ""}).status_code == 422

        # the summary: counts per tenant; a converged tenant is only checked, unless --full
        def summary(*extra):
            out = runner.invoke(main, ["batch-scan", "--summary", "--json", *extra, *url])
            assert out.exit_code == 0, out.output
            (tenant,) = json.loads(out.output)["tenants"]
            return tenant

        # (the last full-report batch-scan above left the checkpoint; history and stats
        # only read)
        first, full, again = summary(), summary("--full"), summary()
        assert (first["user_id"], first["scanned"], first["by_verdict"]) == (
            "ops-1", 3, {"epoch_change": 2})
        assert [t["unchanged_since_checkpoint"] for t in (first, full, again)] == [
            True, False, True]
        assert again["by_verdict"] == full["by_verdict"] == first["by_verdict"]
        assert all(t["ledger_written"] == t["statuses_changed"] == 0 for t in (again, full))
        failing = runner.invoke(main, ["batch-scan", "--summary", "--fail-on-conflict", *url])
        assert failing.exit_code == 3 and "unchanged" in failing.output
        for _ in range(2):  # a user without memories: warned, and no checkpoint kept
            nobody = runner.invoke(main, ["batch-scan", "--user", "nobody", "--summary",
                                          "--json", *url])
            assert nobody.exit_code == 0, nobody.output
            assert "no memories stored for user 'nobody'" in nobody.output
            assert '"unchanged_since_checkpoint": false' in nobody.output
        wrong = runner.invoke(main, ["batch-scan", "--full", *url])
        assert wrong.exit_code == 1 and "--full applies to --summary" in wrong.output


# -- a key's open state in O(values) ------------------------------------------------------------

def _unresolved_value(kind: str, i: int) -> MemoryRecord:
    """The ``i``-th value of a key no rule decides: without an epoch, observed at the same
    time as the others, or in an epoch of its own."""
    return rec(f"v{i:02d}", TIMEOUT.format(f"{i + 1} seconds"),
               days=0 if kind == "tie" else i,
               epoch={"no_epoch": None, "tie": "deploy-4", "epoch_change": f"deploy-{i}"}[kind])


@pytest.mark.parametrize("kind", ["no_epoch", "tie", "epoch_change"])
def test_a_key_of_many_unresolved_values_keeps_its_dispute_in_o_values(weaviate_server,
                                                                        extractor, kind):
    """``n`` values of one key that no rule decides: the batch scan, a write-time check of one
    more value and a read-time scan of a few leave one entry for the key (at most two per
    value; a ledger per pair held ``n(n-1)/2``), listing each member once and never fewer;
    a re-scan writes nothing and nothing is deleted."""
    n = 12
    engine = Engine(extractor=extractor, default_judge=False)
    with scoped_service(weaviate_server, engine, "Open") as svc:
        svc.import_records([_unresolved_value(kind, i) for i in range(n)])
        report = svc.batch_scan()
        assert len(report.conflicts) == n * (n - 1) // 2
        etype = "epoch_change" if kind == "epoch_change" else "quarantine"

        def disputes():
            found = [e for e in svc.ledger.iterate("ops-1") if e.entry_type in CONFLICT_TYPES]
            assert len(found) <= 2 * svc.store.count("ops-1")
            assert [e.entry_type for e in found] == [etype]
            return found[0]

        first = disputes()
        assert first.members == [f"v{i:02d}" for i in range(n)] and first.status == "open"
        assert set(first.values) == set(first.members) and first.question
        assert {m.status for m in svc.store.iterate("ops-1")} == {"unresolved"}

        _, checked = svc.add_memories([_unresolved_value(kind, n)], check=True)
        assert len(checked.conflicts) == n * (n + 1) // 2  # the check sees the whole key
        grown = disputes()
        assert (grown.entry_id, grown.recorded_at) == (first.entry_id, first.recorded_at)
        assert grown.members == [f"v{i:02d}" for i in range(n + 1)]

        seen = svc.scan("ops-1", "retry timeout of the payments service", group="config",
                        limit=4)
        assert 0 < len(seen.report.conflicts) < n and set(seen.report.unresolved) == {
            m.record.id for m in seen.hits}
        assert disputes() == grown  # a read-time scan of a few never removes a member

        rerun = svc.run_batch_scan("ops-1", full=True).tenants[0]
        assert (rerun.ledger.written, rerun.ledger.replaced) == (0, 0)
        assert svc.store.count("ops-1") == n + 1
        story = "\n".join(svc.history_report("v00", "ops-1").story)
        assert ("quarantined" if etype == "quarantine" else "epoch change") in story
