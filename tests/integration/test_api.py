"""The HTTP sidecar through the real app against a real Weaviate (SPEC §6, issue 6).

One uniquely named collection for the module, dropped at the end; each test writes under its
own user ids, so tests never see each other's memories.
"""

from __future__ import annotations

import inspect
import json
import time
import uuid
from datetime import datetime, timedelta, timezone

import httpx
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from prometheus_client.parser import text_string_to_metric_families
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from extractors import Triple
from scanner import defaults
from scanner.api import ApiSettings, ScanRequest, ScanResponse, create_app
from scanner.cli import main
from scanner.client import Contrascan
from scanner.errors import SidecarError
from scanner.models import MAX_TEXT_CHARS, MemoryRecord
from scanner.service import Service
from scanner.store.memories import object_uuid, tenant_name
from scanner.store.server import free_port
from tests.integration.serve_process import app_in_thread
from tests.integration.conftest import scoped_service

pytestmark = pytest.mark.integration
T0 = datetime(2026, 3, 1, tzinfo=timezone.utc)


def rec(rid: str, text: str, user: str, days: int = 0, **kw) -> dict:
    """A SPEC §4 record as JSON."""
    base = dict(id=rid, text=text, user_id=user, source="chat", source_class="user",
                observed_at=(T0 + timedelta(days=days)).isoformat(), epoch="e1")
    base.update(kw)
    return base


def new_user(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def service(weaviate_server, engine):
    """One service for the module (the app fixtures are module-wide too)."""
    with scoped_service(weaviate_server, engine, "Api") as svc:
        yield svc


@pytest.fixture(scope="module")
def app(service):
    return create_app(service, settings=ApiSettings(max_body_bytes=256 * 1024))


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as test_client:
        yield test_client


def add(client, user: str, records: list[dict], check: bool = False) -> dict:
    response = client.post("/v1/memories", json={"user_id": user, "records": records,
                                                 "check": check})
    assert response.status_code == 200, response.text
    return response.json()


# --------------------------------------------------------------------------- endpoints


def test_scan_returns_the_report_and_the_hits_with_scores(client):
    user = new_user("potter")
    scope = dict(group="personalization", properties={"rack_id": "rack-4"})
    body = add(client, user, [
        rec("a1", "On rack 4 the preferred glaze is celadon.", user, **scope),
        rec("a2", "On rack 4 the preferred glaze is tenmoku now.", user, days=5, **scope),
        rec("a3", "Sam lives in Oslo.", user, days=1, **scope)])
    assert (body["written"], body["unchanged"], body["report"]) == (3, 0, None)

    response = client.post("/v1/scan", json={"user_id": user, "query": "preferred glaze",
                                              "limit": 12, "alpha": 0.5, **scope})
    assert response.status_code == 200, response.text
    scan = ScanResponse.model_validate_json(response.content)
    assert {h.id for h in scan.hits} == {"a1", "a2", "a3"} and scan.scanned == 3
    assert all(h.score is not None and 0.0 <= h.score <= 1.0 for h in scan.hits)
    assert [h.score for h in scan.hits] == sorted((h.score for h in scan.hits), reverse=True)
    [conflict] = scan.conflicts
    assert (conflict.members, conflict.verdict, conflict.winner, conflict.rule) == (
        ["a1", "a2"], "resolved", "a2", "recency")
    assert conflict.values == {"a1": "celadon", "a2": "tenmoku"}
    assert (scan.cite, scan.withhold, scan.unresolved) == (["a2", "a3"], ["a1"], [])
    # the verdict was recorded: the loser is superseded in the store and in the next scan
    again = client.post("/v1/scan", json={"user_id": user, "query": "preferred glaze",
                                           **scope}).json()
    assert {h["id"]: h["status"] for h in again["hits"]}["a1"] == "superseded"


def test_a_scan_shows_one_change_as_one_conflict(client):
    """docs/contract.md §5: the pairs one memory won against one subject are one conflict in
    the response; the verdicts stay per pair, and the same memories are withheld."""
    user = new_user("mover")
    # (the pair judge reads a state said to continue, "I still live in Oslo", as compatible
    # with a later move: a known weakness, docs/pair-judge.md)
    add(client, user, [rec("o1", "I live in Oslo.", user),
                       rec("o2", "I live in Oslo now.", user, days=1),
                       rec("o3", "I moved to Bergen.", user, days=5)])
    scan = client.post("/v1/scan", json={"user_id": user, "query": "Where do I live?",
                                          "apply": False}).json()
    [conflict] = scan["conflicts"]
    assert (conflict["members"], conflict["winner"], conflict["superseded"]) == (
        ["o1", "o2", "o3"], "o3", ["o1", "o2"])
    assert (scan["cite"], scan["withhold"]) == (["o3"], ["o1", "o2"])


def test_a_scan_with_the_agents_query_vector_skips_embedding_and_finds_the_same_hits(
        client, service):
    user = new_user("vector")
    add(client, user, [rec("v1", "Sam lives in Lyon.", user),
                       rec("v2", "Sam lives in Nice.", user, days=2),
                       rec("v3", "The kiln runs at 1280 degrees.", user, days=1)])
    query = "Where does Sam live?"
    text_only = client.post("/v1/scan", json={"user_id": user, "query": query, "apply": False})
    vector = (service.embedder.encode([query])[0] * 3.0).tolist()  # scale does not matter
    with_vector = client.post("/v1/scan", json={"user_id": user, "query": query,
                                                "apply": False, "vector": vector})
    assert text_only.status_code == with_vector.status_code == 200, with_vector.text
    a, b = text_only.json(), with_vector.json()
    assert [h["id"] for h in a["hits"]] == [h["id"] for h in b["hits"]]
    assert [h["score"] for h in a["hits"]] == pytest.approx([h["score"] for h in b["hits"]],
                                                           abs=1e-4)
    assert (b["cite"], b["withhold"]) == (["v2", "v3"], ["v1"])
    # Server-Timing names the stages run; no embedding when the vector came with the request
    stages = [part.split(";")[0] for part in
              with_vector.headers["server-timing"].split(", ")]
    assert stages[:2] == ["search", "scan"] and "embed" not in stages
    # extreme but finite values keep their direction (no overflow, no underflow to zero)
    for scale in (1e300, 1e-50):
        tiny_or_huge = client.post("/v1/scan", json={
            "user_id": user, "query": query, "apply": False,
            "vector": [x * scale for x in vector]})
        assert tiny_or_huge.status_code == 200, tiny_or_huge.text
        assert [h["id"] for h in tiny_or_huge.json()["hits"]] == [h["id"] for h in b["hits"]]
    assert text_only.headers["server-timing"].startswith("embed;dur=")


def test_the_read_time_tally_is_written_off_the_request_path(service):
    user = new_user("tally")
    records = [MemoryRecord(**rec("t1", "Sam lives in Lyon.", user)),
               MemoryRecord(**rec("t2", "Sam lives in Nice.", user, days=2))]
    service.import_records(records)
    for _ in range(3):
        service.scan(user, "Where does Sam live?")
    service.close()  # waits for the background writer, then writes what is pending
    stats = service.stats(user)
    assert stats.read_scans == 3 and stats.read_scans_with_conflict == 3


def test_scan_reads_stored_triples_and_never_reparses(client, service):
    """A memory stored with triples its text would not give keeps those triples at scan time."""
    user = new_user("reparse")
    records = [MemoryRecord(**rec("s1", "Sam lives in Lyon.", user)),
               MemoryRecord(**rec("s2", "Sam lives in Nice.", user, days=3))]
    planted = [[Triple(subject="sam", relation="live in", object="paris", rule="svo")],
               service.engine.extract(records[1:])[0]]
    vectors = service.embedder.encode([r.text for r in records])
    assert service.store.import_memories(records, planted, vectors).written == 2
    scan = client.post("/v1/scan", json={"user_id": user, "query": "Where does Sam live?",
                                         "apply": False}).json()
    assert [c["values"] for c in scan["conflicts"]] == [{"s1": "paris", "s2": "nice"}]


def test_write_time_check_scans_new_records_against_their_keys(client, service):
    user = new_user("writer")
    add(client, user, [rec("w1", "Sam lives in Lyon.", user),
                       rec("w9", "The preferred glaze is shino.", user)])
    body = add(client, user, [rec("w2", "Sam lives in Nice.", user, days=30)], check=True)
    report = body["report"]
    assert body["written"] == 1
    assert [(c["members"], c["winner"], c["rule"]) for c in report["conflicts"]] == [
        (["w1", "w2"], "w2", "recency")]
    assert report["scanned"] == 2  # w9 shares no key with w2 and is not read
    assert report["withhold"] == ["w1"] and report["cite"] == ["w2"]
    assert service.store.get(user, "w1").status == "superseded"
    assert service.store.get(user, "w2").supersedes == [object_uuid(user, "w1")]

    history = client.get("/v1/memories/w1/history", params={"user_id": user})
    assert history.status_code == 200, history.text
    chain = history.json()["chain"]
    assert [e["id"] for e in chain] == ["w1", "w2"]
    assert chain[0]["superseded_by"] == ["w2"] and chain[0]["retired_rule"] == "recency"
    assert chain[1]["values"] == ["sam · live in · nice"]
    # the ledger part: the verdict with its rule and the provenance it read, and the story
    [verdict] = [e for e in history.json()["ledger"] if e["entry_type"] == "resolution"]
    assert (verdict["members"], verdict["winner"], verdict["rule"]) == (["w1", "w2"], "w2",
                                                                        "recency")
    assert set(verdict["inputs"]) == {"w1", "w2"}
    assert chain[0]["retired_by"] == "w2" and verdict["entry_id"] in chain[0]["ledger"]
    story = history.json()["story"]
    assert "w1: “Sam lives in Lyon.”" in story[0] and "superseded by w2 (rule recency)" in story[0]
    assert story[-1].startswith("resolved by rule recency on sam · live in: w2 “nice”")


def test_reposting_an_id_with_another_body_is_reported_and_the_stored_memory_kept(
        client, service):
    user = new_user("rebody")
    add(client, user, [rec("m1", "Sam lives in Lyon.", user), rec("m2", "Sam has a cat.", user)])
    body = add(client, user, [rec("m1", "Sam lives in Nice.", user),  # another text
                              rec("m2", "Sam has a cat.", user),  # the same
                              rec("m3", "Sam has a dog.", user)])
    assert (body["written"], body["unchanged"], body["differing"]) == (1, 2, ["m1"])
    assert service.store.get(user, "m1").record.text == "Sam lives in Lyon."
    again = add(client, user, [rec("m2", "Sam has a cat.", user, source="other")])
    assert again["differing"] == ["m2"]  # provenance counts too


def test_reposting_records_leaves_them_unchanged(client):
    user = new_user("repost")
    records = [rec("r1", "Sam lives in Lyon.", user)]
    assert add(client, user, records)["written"] == 1
    assert (add(client, user, records)["written"], add(client, user, records)["unchanged"]) == (
        0, 1)


def test_batch_scan_job_reports_progress_and_result(client, service):
    user = new_user("batch")
    add(client, user, [rec("b1", "Sam lives in Lyon.", user),
                       rec("b2", "Sam lives in Nice.", user, days=30),
                       rec("b3", "The budget is 5 dollars.", user, source=None),
                       rec("b4", "The budget is 7 dollars.", user, days=1)])
    started = client.post("/v1/batch-scans", json={"user_id": user})
    assert started.status_code == 202, started.text
    job = started.json()
    assert started.headers["location"] == f"/v1/batch-scans/{job['id']}"
    assert job["status"] in ("queued", "running", "done") and job["user_id"] == user
    job = _wait(lambda: client.get(f"/v1/batch-scans/{job['id']}",
                                   params={"user_id": user}).json())
    assert job["status"] == "done", job
    assert job["progress"] == {"done": 4, "total": 4}
    verdicts = {tuple(c["members"]): c["verdict"] for c in job["report"]["conflicts"]}
    assert verdicts == {("b1", "b2"): "resolved", ("b3", "b4"): "quarantined"}
    assert service.store.get(user, "b1").status == "superseded"


def _wait(poll, timeout_s: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout_s
    job = poll()
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.05)
        job = poll()
    return job


def test_healthz_is_ready_only_with_a_started_service_and_weaviate(client, service):
    assert client.get("/healthz").json() == {"status": "ready", "weaviate": True,
                                             "problem": None}
    not_started = TestClient(create_app(service, warm_up=False))  # lifespan never runs
    response = not_started.get("/healthz")
    assert response.status_code == 503 and response.json()["status"] == "unavailable"
    scan = not_started.post("/v1/scan", json={"user_id": "u", "query": "q"})
    assert (scan.status_code, scan.json()["error"]["code"]) == (503, "not_ready")


def test_metrics_count_requests_scans_and_conflicts_by_verdict(client):
    user = new_user("metrics")
    add(client, user, [rec("x1", "Sam lives in Lyon.", user, epoch="v1"),
                       rec("x2", "Sam lives in Nice.", user, days=3, epoch="v2")])
    assert client.post("/v1/scan", json={"user_id": user, "query": "Sam"}).status_code == 200
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith(
        "text/plain")
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(response.text)
               for s in family.samples}
    scan_route = (("method", "POST"), ("route", "/v1/scan"), ("status", "200"))
    assert samples[("contrascan_http_request_duration_seconds_count", scan_route)] >= 1
    assert samples[("contrascan_scans_total", (("kind", "read_time"),))] >= 1
    assert samples[("contrascan_conflicts_total",
                    (("kind", "read_time"), ("verdict", "epoch_change")))] >= 1
    rate = samples[("contrascan_conflict_rate", (("kind", "read_time"),))]
    assert 0.0 < rate <= 1.0


def test_every_surface_uses_the_one_set_of_defaults():
    scan_options = {p.name: p.default for p in main.commands["scan"].params}
    service_scan = inspect.signature(Service.scan).parameters
    client_scan = inspect.signature(Contrascan.scan).parameters
    request = ScanRequest(user_id="u", query="q")
    assert {(scan_options["limit"], scan_options["alpha"]),
            (service_scan["limit"].default, service_scan["alpha"].default),
            (client_scan["limit"].default, client_scan["alpha"].default),
            (request.limit, request.alpha)} == {(defaults.DEFAULT_LIMIT, defaults.DEFAULT_ALPHA)}


# --------------------------------------------------------------------------- tenant isolation


def test_a_scan_never_returns_another_users_memory_even_with_a_forged_scope(client):
    alice, bob = new_user("alice"), new_user("bob")
    scope = dict(group="personalization", properties={"rack_id": "rack-4"})
    add(client, alice, [rec("a1", "Alice prefers email for updates.", alice)])
    add(client, bob, [rec("b1", "On rack 4 the preferred glaze is ash.", bob, **scope),
                      rec("b2", "Bob prefers SMS for updates.", bob)])
    queries = [{"user_id": alice, "query": "preferred glaze ash rack 4", **scope},
               {"user_id": alice, "query": "Bob prefers SMS", "group": None},
               {"user_id": alice, "query": "updates", "properties": {"rack_id": "rack-4"}},
               {"user_id": alice, "query": "updates", "limit": 100, "alpha": 0.0}]
    for body in queries:
        scan = client.post("/v1/scan", json=body).json()
        ids = {h["id"] for h in scan["hits"]}
        assert ids <= {"a1"}, body
        assert not {"b1", "b2"} & set(scan["cite"] + scan["withhold"] + scan["unresolved"])
    bob_scan = client.post("/v1/scan", json={"user_id": bob, "query": "updates"}).json()
    assert {h["id"] for h in bob_scan["hits"]} == {"b1", "b2"}


def test_a_write_only_ever_lands_in_the_tenant_the_request_names(client, service):
    alice, bob = new_user("alice"), new_user("bob")
    add(client, bob, [rec("b1", "Bob lives in Oslo.", bob)])
    forged = client.post("/v1/memories", json={
        "user_id": alice, "records": [rec("f1", "Bob lives in Rome.", bob)]})
    assert forged.status_code == 422
    assert forged.json()["error"]["fields"][0]["field"] == "records.0.user_id"
    assert service.store.count(bob) == 1 and service.store.count(alice) == 0


def test_history_and_jobs_are_found_only_under_their_own_user(client):
    alice, bob = new_user("alice"), new_user("bob")
    add(client, bob, [rec("b1", "Bob lives in Oslo.", bob)])
    add(client, alice, [rec("a1", "Alice lives in Oslo.", alice)])
    for user in (alice, "nobody-" + uuid.uuid4().hex[:6]):
        response = client.get("/v1/memories/b1/history", params={"user_id": user})
        assert (response.status_code, response.json()["error"]["code"]) == (
            404, "unknown_memory")
    assert client.get("/v1/memories/b1/history", params={"user_id": bob}).status_code == 200
    job = client.post("/v1/batch-scans", json={"user_id": bob}).json()
    response = client.get(f"/v1/batch-scans/{job['id']}", params={"user_id": alice})
    assert (response.status_code, response.json()["error"]["code"]) == (404, "unknown_job")
    assert _wait(lambda: client.get(f"/v1/batch-scans/{job['id']}",
                                    params={"user_id": bob}).json())["status"] == "done"


@pytest.mark.parametrize("victim", ["alice-{}@example.com", "long-{}-" + "x" * 64])
def test_a_user_id_equal_to_anothers_hashed_tenant_name_reaches_only_its_own_tenant(
        client, service, victim):
    alice = victim.format(uuid.uuid4().hex[:8])
    forged = tenant_name(alice)  # alice's hashed tenant name, a valid user id of its own
    add(client, alice, [rec("a1", "Alice prefers email for updates.", alice)])
    scan = client.post("/v1/scan", json={"user_id": forged, "query": "Alice prefers email",
                                          "limit": 100, "alpha": 0.0}).json()
    assert scan["hits"] == [] and scan["scanned"] == 0
    history = client.get("/v1/memories/a1/history", params={"user_id": forged})
    assert history.status_code == 404
    add(client, forged, [rec("f1", "Alice prefers SMS for updates.", forged)])
    assert service.store.count(alice) == 1 and service.store.count(forged) == 1
    alice_scan = client.post("/v1/scan", json={"user_id": alice, "query": "prefers updates",
                                                "limit": 100}).json()
    assert {h["id"] for h in alice_scan["hits"]} == {"a1"}
    assert {alice, forged} <= set(service.store.user_ids())


def test_a_property_filter_matches_only_the_same_key_and_value(client):
    user = new_user("props")
    add(client, user, [rec("p1", "Sam lives in Lyon.", user, properties={"site=lab": "b"}),
                       rec("p2", "Sam lives in Nice.", user, properties={" site": "lab "}),
                       rec("p3", "Sam lives in Oslo.", user, properties={"site": "lab=b"})])
    expected = {"p1": {"site=lab": "b"}, "p2": {" site": "lab "}, "p3": {"site": "lab=b"},
                None: {"site": "lab"}}
    for rid, properties in expected.items():
        scan = client.post("/v1/scan", json={"user_id": user, "query": "Sam lives",
                                              "properties": properties}).json()
        assert [h["id"] for h in scan["hits"]] == ([rid] if rid else []), properties


# --------------------------------------------------------------------------- bad requests


GOOD = {"id": "g1", "text": "Sam lives in Lyon.", "user_id": "val-user"}


@pytest.mark.parametrize(("path", "body", "field", "words"), [
    ("/v1/scan", {"query": "glaze"}, "user_id", "Field required"),
    ("/v1/scan", {"user_id": "u"}, "query", "Field required"),
    ("/v1/scan", {"user_id": "u", "query": "q", "limit": 0}, "limit", "greater than"),
    ("/v1/scan", {"user_id": "u", "query": "q", "limit": 10_000}, "limit", "less than"),
    ("/v1/scan", {"user_id": "u", "query": "q", "alpha": 1.5}, "alpha", "less than"),
    ("/v1/scan", {"user_id": "u", "query": "q" * 2001}, "query", "at most 2000"),
    ("/v1/scan", {"user_id": "u", "query": "q", "tenant": "x"}, "tenant", "not permitted"),
    ("/v1/memories", {"records": [GOOD]}, "user_id", "Field required"),
    ("/v1/memories", {"user_id": "val-user", "records": []}, "records", "at least 1"),
    ("/v1/memories", {"user_id": "val-user", "records": [{"id": "g1", "user_id": "val-user"}]},
     "records.0.text", "Field required"),
    ("/v1/memories", {"user_id": "val-user", "records": [{**GOOD, "id": None}]},
     "records.0.id", "valid string"),
    ("/v1/memories", {"user_id": "val-user",
                      "records": [{**GOOD, "observed_at": "2026-03-02T10:00:00"}]},
     "records.0.observed_at", "naive timestamp"),
    ("/v1/memories", {"user_id": "val-user",
                      "records": [{**GOOD, "text": "x" * (MAX_TEXT_CHARS + 1)}]},
     "records.0.text", f"at most {MAX_TEXT_CHARS}"),
    ("/v1/memories", {"user_id": "val-user",
                      "records": [{**GOOD, "source_class": "rumour"}]},
     "records.0.source_class", "'observation', 'user' or 'inference'"),
    ("/v1/memories", {"user_id": "val-user", "records": [GOOD, GOOD]}, "records.1.id",
     "duplicate id"),
    ("/v1/memories", {"user_id": "val-user", "records": [{**GOOD, "priority": 2**64}]},
     "records.0.priority", "less than or equal"),
    ("/v1/memories", {"user_id": "val-user",
                      "records": [{**GOOD, "observed_at": "0001-01-01T00:00:00+05:00"}]},
     "records.0.observed_at", "out of range"),
    ("/v1/scan", {"user_id": "u", "query": "q", "vector": [0.1, 0.2]}, "vector",
     "384 values"),
    ("/v1/scan", {"user_id": "u", "query": "q", "vector": [0.0] * 384}, "vector", "all zeros"),
    ("/v1/scan", {"user_id": "u", "query": "q", "vector": []}, "vector", "at least 1"),
    ("/v1/scan", {"user_id": "u", "query": "q", "vector": ["x"] * 384}, "vector.0",
     "valid number"),
    ("/v1/batch-scans", {}, "user_id", "Field required"),
    # issue 18: every number round-trips through the store, nothing is coerced
    ("/v1/memories", {"user_id": "val-user", "records": [{**GOOD, "priority": 2**63 - 1}]},
     "records.0.priority", "less than or equal to 9007199254740991"),
    ("/v1/memories", {"user_id": "val-user", "records": [{**GOOD, "priority": 2**53 + 1}]},
     "records.0.priority", "less than or equal to 9007199254740991"),
    ("/v1/memories", {"user_id": "val-user",
                      "records": [{**GOOD, "observed_at": "9999-12-31T23:30:00-01:00"}]},
     "records.0.observed_at", "out of range"),
    ("/v1/scan", {"user_id": "u", "query": "q", "limit": "5"}, "limit", "valid integer"),
    ("/v1/scan", {"user_id": "u", "query": "q", "limit": True}, "limit", "valid integer"),
    ("/v1/scan", {"user_id": "u", "query": "q", "apply": "yes"}, "apply", "valid boolean"),
    ("/v1/memories", {"user_id": "val-user", "records": [GOOD], "check": 0}, "check",
     "valid boolean"),
    ("/v1/memories", {"user_id": "val-user", "records": [{**GOOD, "confidence": "0.5"}]},
     "records.0.confidence", "valid number"),
])
def test_bad_bodies_are_422_naming_the_field(client, path, body, field, words):
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["fields"][0]["field"] == field
    assert error["message"].startswith(f"{field}: ") and words in error["message"]
    assert "Traceback" not in response.text


@pytest.mark.parametrize(("where", "field"), [
    ('"properties": {"\\ud800": "v"}', "records.0.properties"),
    ('"properties": {"k": "\\udfff"}', "records.0.properties"),
    ('"epoch": "e\\ud800"', "records.0.epoch"),
])
def test_a_lone_surrogate_is_422_and_nothing_is_stored(client, service, where, field):
    user = new_user("surrogate")
    body = ('{"user_id": "%s", "records": [{"id": "s1", "text": "The glaze is celadon.", '
            '"user_id": "%s", %s}]}' % (user, user, where))
    response = client.post("/v1/memories", content=body.encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["fields"][0]["field"] == field
    assert not service.store.has_tenant(user)


def test_a_body_that_is_not_json_is_422_on_body(client):
    response = client.post("/v1/scan", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["error"]["fields"][0]["field"] == "body"


def test_an_oversized_body_is_413(client):
    response = client.post("/v1/scan", content=b" " * (300 * 1024),
                           headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (
        413, "request_too_large")


def test_unknown_routes_and_methods_answer_json_codes(client):
    assert client.get("/v1/nothing").json()["error"]["code"] == "not_found"
    response = client.get("/v1/scan")
    assert (response.status_code, response.json()["error"]["code"]) == (
        405, "method_not_allowed")


def test_the_api_key_is_required_when_set(service):
    app = create_app(service, settings=ApiSettings.from_env({"CONTRASCAN_API_KEY": "s3cret"}),
                     warm_up=False)
    body = {"user_id": new_user("keyed"), "query": "glaze"}
    with TestClient(app) as client:
        for headers in ({}, {"X-API-Key": "wrong"}, {"X-API-Key": "s3cret "}):
            response = client.post("/v1/scan", json=body, headers=headers)
            assert (response.status_code, response.json()["error"]["code"]) == (
                401, "unauthorized")
        assert client.post("/v1/scan", json=body,
                           headers={"X-API-Key": "s3cret"}).status_code == 200
        assert client.get("/healthz").status_code == 200  # probes and scrapers stay open
        assert client.get("/metrics").status_code == 200
        typed = Contrascan(api_key="s3cret", http=client)
        assert typed.scan(body["user_id"], "glaze").hits == []
        with pytest.raises(SidecarError) as caught:
            Contrascan(api_key="nope", http=client).scan(body["user_id"], "glaze")
        assert (caught.value.status, caught.value.code) == (401, "unauthorized")


# --------------------------------------------------------------------------- a real server


@pytest.fixture(scope="module")
def live_url(app):
    """The app under uvicorn on a free loopback port, in a thread (as ``contrascan serve``)."""
    with app_in_thread(app) as url:
        yield url


def test_the_python_client_over_http(live_url):
    user = new_user("agent")
    with Contrascan(live_url) as sidecar:
        assert sidecar.ready()
        added = sidecar.add([rec("c1", "Sam lives in Lyon.", user),
                             rec("c2", "Sam lives in Nice.", user, days=9)], check=True)
        assert added.written == 2 and added.report.withhold == ["c1"]
        report = sidecar.scan(user, "Where does Sam live?")
        assert report.cite == ["c2"] and report.withhold == ["c1"]
        assert [h.id for h in report.hits][:2] in (["c1", "c2"], ["c2", "c1"])
        assert [e.id for e in sidecar.history("c2", user).chain] == ["c1", "c2"]
        with pytest.raises(SidecarError) as caught:
            sidecar.add([{**rec("c3", "Sam lives in Rome.", user), "observed_at": "2026-01-01"}])
        assert caught.value.code == "validation_error"
        assert caught.value.fields[0][0] == "records.0.observed_at"
    with pytest.raises(SidecarError) as caught:
        Contrascan(f"http://127.0.0.1:{free_port()}", timeout_s=2).scan(user, "q")
    assert caught.value.code == "unreachable"


def test_a_batch_scan_survives_the_client_disconnecting(live_url):
    user = new_user("gone")
    with Contrascan(live_url) as sidecar:
        sidecar.add([rec(f"g{i}", f"Sam{i} lives in Lyon.", user) for i in range(40)]
                    + [rec(f"h{i}", f"Sam{i} lives in Nice.", user, days=2) for i in range(40)])
    with httpx.Client(base_url=live_url) as first:
        job = first.post("/v1/batch-scans", json={"user_id": user}).json()
    # the connection that started the job is closed; a new one finds it finished
    with Contrascan(live_url) as later:
        done = _wait(lambda: later.batch_scan_job(job["id"], user).model_dump())
    assert done["status"] == "done" and done["progress"]["done"] == 80
    assert done["report"]["scanned"] == 80 and ("g0", "h0") in {
        tuple(c["members"]) for c in done["report"]["conflicts"]}


# --------------------------------------------------------------------------- schemathesis

OPERATIONS = [("POST", "/v1/scan"), ("POST", "/v1/memories"), ("POST", "/v1/batch-scans"),
              ("GET", "/v1/batch-scans/{job_id}"), ("GET", "/v1/memories/{memory_id}/history"),
              ("GET", "/v1/reviews"), ("POST", "/v1/reviews"), ("GET", "/v1/stats"),
              ("GET", "/healthz"), ("GET", "/metrics")]
FUZZ_EXAMPLES = 20
"""Hypothesis examples per operation and mode (~4 s per operation; the whole run < 2 min)."""


@pytest.fixture(scope="module")
def api_schema(service):
    """The app's own ``/openapi.json``, loaded by schemathesis (which runs the lifespan)."""
    app = create_app(service, settings=ApiSettings(max_body_bytes=256 * 1024), warm_up=False)
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def test_every_operation_is_fuzzed(api_schema):
    served = {(op.ok().method.upper(), op.ok().path) for op in api_schema.get_all_operations()}
    assert served == set(OPERATIONS)


def _one_tenant(case):
    """Posted records carry the request's ``user_id`` (a rule the schema cannot state), so
    positive cases reach the store instead of stopping at the 422 of tenant isolation."""
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("records"), list):
        for record in body["records"]:
            if isinstance(record, dict) and isinstance(body.get("user_id"), str):
                record["user_id"] = body["user_id"]
    return case


FUZZ_CASES = [(method, path, mode) for method, path in OPERATIONS
              for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
              if mode is GenerationMode.POSITIVE or path.startswith("/v1/")]


@pytest.mark.parametrize(("method", "path", "mode"), FUZZ_CASES)
def test_no_request_makes_a_server_error(api_schema, method, path, mode):
    """Schemathesis over ``/openapi.json``: schema-valid and schema-invalid requests alike
    get an answer below 500 (the ``not_a_server_error`` check). Operations without
    parameters have no invalid requests to generate."""
    operation = api_schema[path][method]
    strategy = operation.as_strategy(generation_mode=mode)
    if mode is GenerationMode.POSITIVE:
        strategy = strategy.map(_one_tenant)

    @given(case=strategy)
    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def call(case):
        case.call_and_validate(checks=[not_a_server_error])

    call()


def test_a_body_that_gives_a_name_twice_is_refused_and_nothing_is_stored(client, service):
    """Issue 38, item 7: '"user_id": "alice", "user_id": "bob"' was stored as bob; a JSON
    reader keeps the last value silently, so the request is refused and nothing is stored."""
    first, second = new_user("dup-a"), new_user("dup-b")
    record = json.dumps(rec("m1", "The preferred glaze is celadon.", first))
    body = (f'{{"user_id": "{first}", "records": [{record[:-1]}, "user_id": "{second}"}}], '
            f'"check": false}}').encode()
    response = client.post("/v1/memories", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "'user_id'" in error["message"]
    assert error["fields"][0]["type"] == "duplicate_name"
    assert not service.store.has_tenant(first) and not service.store.has_tenant(second)


def test_ignored_fields_is_the_servers_to_set_never_the_clients(client, service):
    """Issue 38, item 7: a client's 'ignored_fields' (here wrongly typed) was accepted; it
    is the server's count of fields it ignored, so a request that sends it is refused."""
    user = new_user("ignored")
    response = client.post("/v1/memories", json={
        "user_id": user, "records": [rec("m1", "The preferred glaze is celadon.", user)],
        "ignored_fields": "not a count"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["fields"][0]["field"] == "ignored_fields"
    assert not service.store.has_tenant(user)
    kept = add(client, user, [{**rec("m1", "The preferred glaze is celadon.", user),
                               "created_at": "2026-01-01"}])
    assert kept["ignored_fields"] == {"created_at": 1}  # the server's own count
