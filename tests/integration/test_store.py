"""The memory store and service against a real Weaviate (started by the session fixture).

Each test module works in its own uniquely named collection, dropped at the end.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from scanner.models import MemoryRecord
from scanner.store.memories import object_uuid, tenant_name

pytestmark = pytest.mark.integration
T0 = datetime(2024, 3, 1, tzinfo=timezone.utc)  # + 400 days stays before the scan's clock


def rec(rid, text, user="potter-1", days=0, **kw):
    base = dict(id=rid, text=text, user_id=user, source="chat", source_class="user",
                observed_at=T0 + timedelta(days=days), epoch="e1")
    base.update(kw)
    return MemoryRecord(**base)


def test_import_is_idempotent_and_reports_counts(service):
    records = [rec("m1", "My name is Priya."), rec("m2", "My name is Ana.", days=2)]
    first = service.import_records(records)
    again = service.import_records(records)
    assert (first.written, first.unchanged, first.failures) == (2, 0, [])
    assert (again.written, again.unchanged) == (0, 2)
    assert service.store.count("potter-1") == 2


def test_import_reports_every_rejected_object_and_keeps_the_rest(service):
    import numpy as np

    service.import_records([rec("m0", "My name is Priya.")])  # fixes the vector length: 384
    records = [rec("m1", "Sam lives in Nice."), rec("m2", "Sam lives in Lyon."),
               rec("m3", "Sam lives in Oslo.")]
    triples = service.engine.extract(records)
    vectors = [np.ones(384, np.float32) / 384 ** 0.5, np.ones(7, np.float32),
               np.ones(384, np.float32) / 384 ** 0.5]
    result = service.store.import_memories(records, triples, np.array(vectors, dtype=object))
    assert result.written == 2 and [f[0] for f in result.failures] == ["m2"]
    assert "vector" in result.failures[0][1].lower() or "length" in result.failures[0][1]
    assert service.store.count("potter-1") == 3


def test_user_ids_outside_the_tenant_charset_map_to_valid_tenants(service):
    assert tenant_name("user@example.com") != "user@example.com"
    res = service.import_records([rec("m1", "Sam lives in Nice.", user="user@example.com")])
    assert res.written == 1 and service.store.user_ids() == ["user@example.com"]


def test_triples_are_stored_and_not_reparsed(service):
    service.import_records([rec("m1", "The preferred glaze is celadon.")])
    stored = service.store.get("potter-1", "m1")
    assert [t.fact for t in stored.triples] == [("user", "preferred glaze", "celadon", False)]
    raw = service.store.client.collections.use(service.store.name).with_tenant("potter-1")
    obj = raw.query.fetch_object_by_id(object_uuid("potter-1", "m1"))
    assert json.loads(obj.properties["triples_json"])[0]["object"] == "celadon"
    assert obj.properties["keys"] == ["user|preferred glaze"]


def test_read_time_scan_is_scoped_to_tenant_group_and_properties(service):
    service.import_records([
        rec("a1", "On rack 4 the preferred glaze is celadon.", properties={"rack_id": "rack-4"},
            group="personalization"),
        rec("a2", "On rack 4 the preferred glaze is tenmoku now.", days=5,
            properties={"rack_id": "rack-4"}, group="personalization"),
        rec("a3", "The preferred glaze is shino.", days=6, properties={"rack_id": "rack-5"},
            group="personalization"),
        rec("b1", "On rack 4 the preferred glaze is ash.", user="potter-2",
            properties={"rack_id": "rack-4"}, group="personalization"),
    ])
    result = service.scan("potter-1", "preferred glaze", group="personalization",
                          properties={"rack_id": "rack-4"}, limit=12, alpha=0.5)
    ids = {h.record.id for h in result.hits}
    assert ids == {"a1", "a2"}
    assert all(h.score is not None for h in result.hits)
    assert [(c.members, c.winner) for c in result.report.conflicts] == [(["a1", "a2"], "a2")]
    other = service.scan("potter-2", "preferred glaze", group="personalization",
                         properties={"rack_id": "rack-4"})
    assert {h.record.id for h in other.hits} == {"b1"}
    forged = service.scan("potter-2", "preferred glaze celadon tenmoku", group=None)
    assert {h.record.id for h in forged.hits} == {"b1"}
    assert service.scan("nobody", "glaze").hits == []


def test_batch_scan_writes_supersedes_edges_and_deletes_nothing(service):
    records = [rec("m1", "Sam lives in Lyon."), rec("m2", "Sam lives in Nice.", days=30),
               rec("m3", "The company's headquarters is in New York.", epoch="fy2020"),
               rec("m4", "The company's headquarters is in Boston.", days=400, epoch="fy2024"),
               rec("m5", "Sam's budget is 5 dollars.", source=None)]
    service.import_records(records + [rec("m6", "Sam's budget is 7 dollars.", days=1)])
    before = service.store.count()
    report = service.batch_scan("potter-1")
    verdicts = {tuple(c.members): (c.verdict, c.winner) for c in report.conflicts}
    assert verdicts == {("m1", "m2"): ("resolved", "m2"), ("m3", "m4"): ("epoch_change", None),
                        ("m5", "m6"): ("quarantined", None)}
    assert service.store.count() == before
    m2 = service.store.get("potter-1", "m2")
    assert m2.supersedes == [object_uuid("potter-1", "m1")]
    assert service.store.get("potter-1", "m1").status == "superseded"
    assert service.store.get("potter-1", "m1").retired_rule == "recency"
    assert service.store.get("potter-1", "m3").status == "unresolved"
    # a re-run changes nothing: no second edge, same verdicts, nothing deleted
    again = service.batch_scan("potter-1")
    assert again.conflicts == report.conflicts
    assert service.store.get("potter-1", "m2").supersedes == m2.supersedes
    assert service.store.count() == before


def test_withhold_superseded_hits_at_read_time(service):
    service.import_records([rec("m1", "Sam lives in Lyon."),
                            rec("m2", "Sam lives in Nice.", days=30)])
    service.batch_scan("potter-1")
    result = service.scan("potter-1", "Where does Sam live?", limit=12)
    assert result.report.withhold == ["m1"] and "m1" not in result.report.cite


def test_history_walks_the_chain(service):
    service.import_records([rec("m1", "Sam lives in Lyon."),
                            rec("m2", "Sam lives in Nice.", days=30),
                            rec("m3", "Sam lives in Oslo.", days=60)])
    service.batch_scan()
    chain = service.history("m1")
    assert [e.id for e in chain] == ["m1", "m2", "m3"]
    assert chain[0].status == "superseded" and chain[0].retired_rule == "recency"
    # each value superseded once, by the one that replaced it (issue 18)
    assert chain[0].superseded_by == ["m2"] and chain[1].supersedes == ["m1"]
    assert chain[1].superseded_by == ["m3"] and chain[2].supersedes == ["m2"]
    assert chain[1].values == ["sam · live in · nice"]
    assert service.history("m3", "potter-1")[-1].id == "m3"


def test_status_updates_are_sent_one_per_memory_and_each_failure_is_reported(
        service, weaviate_server):
    from scanner.errors import StoreWriteError
    from scanner.store.server import rest_endpoint
    from scanner.store.status_updates import update_many
    from scanner.store.tenants import open_tenant

    service.import_records([rec("m1", "My name is Priya."), rec("m2", "My name is Ana.", days=2)])
    assert rest_endpoint(weaviate_server) is not None  # the store's own loopback requests
    store = service.store
    updates = [("m1", {"status": "unresolved"}), ("ghost", {"status": "unresolved"}),
               ("m2", {"status": "superseded", "retired_rule": "recency"})] * 2
    with pytest.raises(StoreWriteError) as err:
        update_many(weaviate_server, open_tenant(weaviate_server, store.name, "potter-1", set()),
                    "potter-1", updates, workers=4)
    assert [oid for oid, _ in err.value.failures] == ["ghost", "ghost"]
    assert err.value.written == 4 and "404" in err.value.failures[0][1]
    m1, m2 = store.get("potter-1", "m1"), store.get("potter-1", "m2")
    assert (m1.status, m2.status, m2.retired_rule) == ("unresolved", "superseded", "recency")
    assert m1.record.text == "My name is Priya."  # a merge update keeps the rest
