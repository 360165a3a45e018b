"""Read-time scans in worker processes (issue 18, item 13): the same reports as in-process,
served by the sidecar and counted in its metrics, a killed worker replaced, and no worker left
behind by a closed app. Against the session's real Weaviate."""

from __future__ import annotations

import os
import signal
import time

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from scanner.api import ApiSettings, create_app
from scanner.demo import demo_records_path
from scanner.records import read_jsonl
from scanner.scan_workers import ScanWorkers, ScanWorkerUnavailable

pytestmark = pytest.mark.integration

USERS = ("demo-user-2", "demo-user-3", "demo-user-4")  # resolutions, quarantines, epoch changes


@pytest.fixture()
def scanned(service):
    """The service with three demo tenants imported and batch-scanned; their records."""
    records, rejected = read_jsonl(demo_records_path())
    assert not rejected
    records = [r for r in records if r.user_id in USERS]
    service.import_records(records)
    assert service.batch_scan().conflicts
    return service, records


def _gone(pid: int, within_s: float = 60.0) -> bool:
    """Whether process ``pid`` has exited (reaped or a zombie) within ``within_s`` seconds."""
    until = time.monotonic() + within_s
    while time.monotonic() < until:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.1)
    return False


def test_a_worker_reports_what_the_service_reports(scanned):
    service, records = scanned
    workers = ScanWorkers.for_service(service, workers=1)
    assert workers is not None
    workers.start()
    try:
        pids = workers.pids
        assert len(pids) == 1 and pids[0] != os.getpid()
        compared = 0
        for r in records[:12]:
            mine = service.scan(r.user_id, r.text, group=r.group, apply=False)
            theirs = workers.scan(user_id=r.user_id, query=r.text, group=r.group, apply=False)
            assert theirs.report.model_dump() == mine.report.model_dump()
            assert [h.record.id for h in theirs.hits] == [h.record.id for h in mine.hits]
            compared += bool(mine.report.conflicts)
        assert compared  # some of them found conflicts
    finally:
        workers.close()
    assert _gone(pids[0])
    with pytest.raises(ScanWorkerUnavailable):
        workers.scan(user_id=USERS[0], query="anything")


def _workers_of(app, timeout_s: float = 180.0):
    """The app's scan workers once they have loaded (they start behind the sidecar)."""
    deadline = time.monotonic() + timeout_s
    while app.state.scan_workers is None:
        assert time.monotonic() < deadline, "the scan workers did not come up"
        time.sleep(0.1)
    return app.state.scan_workers


def test_the_sidecar_scans_in_workers_and_replaces_a_killed_one(scanned):
    service, records = scanned
    r = records[0]
    body = {"user_id": r.user_id, "query": r.text, "group": r.group}
    app = create_app(service, settings=ApiSettings(scan_workers=1), warm_up=False)
    with TestClient(app) as client:
        # the sidecar is ready before its workers (they load behind it): scans run on
        # threads until then
        assert client.get("/healthz").status_code == 200
        workers = _workers_of(app)
        (first,) = workers.pids
        assert client.post("/v1/scan", json=body).status_code == 200
        os.kill(first, signal.SIGKILL)
        assert _gone(first)
        response = client.post("/v1/scan", json=body)  # a new worker answers
        assert response.status_code == 200, response.text
        (second,) = workers.pids
        assert second != first
        expected = service.scan(r.user_id, r.text, group=r.group, apply=False)
        assert sorted(response.json()["cite"]) == sorted(expected.report.cite)
        samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
                   for family in text_string_to_metric_families(client.get("/metrics").text)
                   for s in family.samples}
        assert samples[("contrascan_scans_total", (("kind", "read_time"),))] == 2
        assert samples[("contrascan_scan_runs_total", (("mode", "read_time"),))] >= 2
    assert _gone(second)  # the app's shutdown stopped it


def test_a_review_recorded_by_the_sidecar_applies_to_the_next_scan_in_a_worker(
        weaviate_server, extractor):
    """A worker caches review decisions; the sidecar's own decision must not wait for that
    cache to expire (as in one process, :class:`scanner.review.book.ReviewBook`)."""
    import uuid

    from scanner.review.sample import sample_records
    from scanner.review.service import ReviewService
    from tests.integration.conftest import review_engine, scoped_service

    with scoped_service(weaviate_server, review_engine(extractor), "Workers") as service:
        user = f"both-{uuid.uuid4().hex[:8]}"
        service.import_records(sample_records(user))
        service.batch_scan(user)
        entry = next(e.entry_id for e in ReviewService(service).inbox(user).items
                     if tuple(e.members) == ("home-1", "home-2"))
        app = create_app(service, settings=ApiSettings(scan_workers=1), warm_up=False)
        body = {"user_id": user, "query": "Where does Sam live?", "apply": False}

        def home_pair(report: dict) -> list:
            return [c for c in report["conflicts"] if c["members"] == ["home-1", "home-2"]]

        with TestClient(app) as client:
            _workers_of(app)
            before = client.post("/v1/scan", json=body)  # the worker caches no decisions
            assert before.status_code == 200 and home_pair(before.json())
            decided = client.post("/v1/reviews", json={
                "user_id": user, "entry_id": entry, "action": "both_true", "reviewer": "ana"})
            assert decided.status_code == 200, decided.text
            after = client.post("/v1/scan", json=body)
            assert after.status_code == 200 and not home_pair(after.json())
