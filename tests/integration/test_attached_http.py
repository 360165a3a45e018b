"""An agent's own collection (multi-tenant, a named vector, DATE times) attached through a TOML
mapping and scanned over HTTP: search, scan-hits by ids and by objects, batch scan; the opt-in
status mode writes a status property onto the agent's objects, the default writes nothing."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
from fastapi.testclient import TestClient
from weaviate.classes.config import Configure, DataType, Property
from weaviate.classes.tenants import Tenant

from scanner.api import ApiSettings, ScanResponse, create_app
from scanner.embeddings import Embedder
from scanner.service import Service
from scanner.sources import load_sources
from scanner.store.wiring import weaviate_stores

pytestmark = pytest.mark.integration

USER = "notes-user"
NOTES = [  # key, text, source, observed day
    ("celadon", "The preferred glaze is celadon.", "chat:1", 1),
    ("tenmoku", "The preferred glaze is tenmoku.", "chat:2", 5),
    ("kiln", "The kiln fires to cone 10.", "chat:3", 2),
]


@pytest.fixture()
def notes(weaviate_server, tmp_path):
    name = f"Notes_{uuid.uuid4().hex[:10]}"
    weaviate_server.collections.create(
        name, multi_tenancy_config=Configure.multi_tenancy(enabled=True),
        vector_config=[Configure.Vectors.self_provided(name="body_vec")],
        properties=[Property(name="body", data_type=DataType.TEXT),
                    Property(name="said_by", data_type=DataType.TEXT),
                    Property(name="said_at", data_type=DataType.DATE)])
    col = weaviate_server.collections.use(name)
    col.tenants.create([Tenant(name=USER)])
    embedder = Embedder()
    ids = {}
    for key, text, who, day in NOTES:
        ids[key] = str(col.with_tenant(USER).data.insert(
            {"body": text, "said_by": who,
             "said_at": datetime(2026, 5, day, 9, tzinfo=timezone.utc)},
            vector={"body_vec": embedder.encode([text])[0].tolist()}))
    path = tmp_path / "sources.toml"
    path.write_text(f'[sources.notes]\ncollection = "{name}"\ntext_property = "body"\n'
                    'source_properties = ["said_by"]\nsource_class_default = "user"\n'
                    'observed_at_properties = ["said_at"]\nsingle_epoch = true\n'
                    'target_vector = "body_vec"\n\n'
                    f'[sources.notes-status]\ncollection = "{name}"\ntext_property = "body"\n'
                    'source_properties = ["said_by"]\nsource_class_default = "user"\n'
                    'observed_at_properties = ["said_at"]\nsingle_epoch = true\n'
                    'target_vector = "body_vec"\nstatus_property = "contrascan_status"\n')
    memory = f"Memory_{uuid.uuid4().hex[:10]}"
    service = Service(weaviate_stores(weaviate_server, memory), embedder=embedder)
    app = create_app(service, settings=ApiSettings(), warm_up=False,
                     sources=load_sources(path))
    with TestClient(app) as client:
        yield client, weaviate_server, name, ids
    for coll in (name, memory, memory + "Ledger", "ContrascanSourceNotes",
                 "ContrascanSourceNotesLedger", "ContrascanSourceNotes_status",
                 "ContrascanSourceNotes_statusLedger",
                 "ContrascanSourceNotesScanState", "ContrascanSourceNotes_statusScanState",
                 memory + "ScanState"):
        weaviate_server.collections.delete(coll)


def _objects(client, name):
    return {str(o.uuid): dict(o.properties)
            for o in client.collections.use(name).with_tenant(USER).iterator()}


def test_three_calls_over_http(notes):
    http, client, name, ids = notes
    before = _objects(client, name)
    r = http.post("/v1/sources/notes/scan", json={"user_id": USER, "query": "preferred glaze"})
    assert r.status_code == 200, r.text
    report = r.json()  # the shape of POST /v1/scan: the report at the top, then the hits
    assert report["withhold"] == [ids["celadon"]]
    (conflict,) = report["conflicts"]
    assert (conflict["rule"], conflict["winner"]) == ("recency", ids["tenmoku"])
    assert "declared:single_epoch" in conflict["reasons"]
    hits = {h["id"]: h for h in report["hits"]}
    assert set(hits) == set(ids.values()) and report["extracted"] == 3
    tenmoku = hits[ids["tenmoku"]]
    assert tenmoku["memory"] == {
        "id": ids["tenmoku"], "text": NOTES[1][1], "user_id": USER, "group": None,
        "properties": {}, "source": "chat:2", "source_class": "user",
        "observed_at": "2026-05-05T09:00:00Z", "epoch": None, "confidence": None,
        "priority": None, "source_trust": None}
    assert tenmoku["status"] == "active" and 0.0 <= tenmoku["score"] <= 1.0
    assert [h["score"] for h in report["hits"]] == sorted(
        (h["score"] for h in report["hits"]), reverse=True)  # best first
    assert set(ScanResponse.model_fields) | {"extracted"} == set(report)
    assert "search;dur=" in r.headers["server-timing"]

    r = http.post("/v1/sources/notes/scan-hits", json={"user_id": USER,
                                                       "ids": [ids["celadon"], ids["tenmoku"]]})
    assert r.json()["withhold"] == [ids["celadon"]] and r.json()["extracted"] == 0
    assert [(h["id"], h["status"]) for h in r.json()["hits"]] == [
        (ids["celadon"], "superseded"), (ids["tenmoku"], "active")]  # as stored before
    objects = [{"_id": ids[k], "body": t, "said_by": w,
                "said_at": f"2026-05-0{d}T09:00:00+00:00"} for k, t, w, d in NOTES]
    r = http.post("/v1/sources/notes/scan-hits", json={"user_id": USER, "objects": objects})
    assert r.json()["withhold"] == [ids["celadon"]]
    assert [h["score"] for h in r.json()["hits"]] == [None] * 3  # no search ranked them
    # no read of the attached collection
    assert "fetch" not in r.headers["server-timing"] and "scan;dur=" in r.headers["server-timing"]

    r = http.post("/v1/sources/notes/batch-scans")
    assert r.json()["sync"]["read"] == 3 and r.json()["sync"]["extracted"] == 0
    assert _objects(client, name) == before  # nothing written into the agent's objects

    nope = http.post("/v1/sources/nope/scan", json={"user_id": USER, "query": "x"})
    assert nope.status_code == 404 and nope.json()["error"]["code"] == "not_found"
    assert http.post("/v1/sources/notes/scan-hits", json={"user_id": USER}).status_code == 422
    short = http.post("/v1/sources/notes/scan", json={"user_id": USER, "query": "x",
                                                      "vector": [0.1, 0.2]})
    assert short.status_code == 422 and short.json()["error"]["fields"][0]["field"] == "vector"


def test_opt_in_status_mode_marks_the_agents_objects(notes):
    http, client, name, ids = notes
    r = http.post("/v1/sources/notes-status/batch-scans")
    assert r.status_code == 200, r.text
    statuses = {u: p.get("contrascan_status") for u, p in _objects(client, name).items()}
    assert statuses == {ids["celadon"]: "superseded", ids["tenmoku"]: "active",
                        ids["kiln"]: "active"}


def test_attaching_names_what_is_missing(weaviate_server):
    from scanner.errors import ConfigurationError
    from scanner.sources import build_mapping
    from scanner.store.attached import AttachedCollection

    name = f"TwoVectors_{uuid.uuid4().hex[:10]}"
    weaviate_server.collections.create(
        name, vector_config=[Configure.Vectors.self_provided(name="title_vec"),
                             Configure.Vectors.self_provided(name="body_vec")],
        properties=[Property(name="body", data_type=DataType.TEXT)])
    try:
        with pytest.raises(ConfigurationError, match="named vectors"):
            AttachedCollection(weaviate_server, build_mapping({"collection": name,
                                                               "text_property": "body"}))
        with pytest.raises(ConfigurationError, match="no property 'text'"):
            AttachedCollection(weaviate_server, build_mapping({"collection": name,
                                                               "target_vector": "body_vec"}))
        with pytest.raises(ConfigurationError, match="does not exist"):
            AttachedCollection(weaviate_server, build_mapping({"collection": name + "X"}))
        ok = AttachedCollection(weaviate_server, build_mapping(
            {"collection": name, "text_property": "body", "target_vector": "body_vec"}))
        assert ok.vectors == ["body_vec", "title_vec"] and ok.mapping.tenant_scope is False
    finally:
        weaviate_server.collections.delete(name)
