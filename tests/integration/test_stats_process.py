"""The store statistics computed in a child process (issue 18, item 12): the same figures as
in-process, served on ``/metrics`` by the sidecar, and no child left behind by a closed app or
a killed parent. Against the session's real Weaviate."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from scanner.api import ApiSettings, create_app
from scanner.demo import demo_records_path
from scanner.records import read_jsonl
from scanner.stats_process import StatsProcess, StatsUnavailable
from scanner.store.address import server_address

pytestmark = pytest.mark.integration

USERS = ("demo-user-2", "demo-user-3", "demo-user-4")  # resolutions, quarantines, epoch changes


@pytest.fixture()
def scanned(service):
    """The service with three demo tenants imported, batch-scanned and read-time scanned."""
    records, rejected = read_jsonl(demo_records_path())
    assert not rejected
    records = [r for r in records if r.user_id in USERS]
    service.import_records(records)
    report = service.batch_scan()
    assert report.conflicts
    for conflict in report.conflicts[:2]:
        member = next(r for r in records if r.id == conflict.members[0])
        service.scan(member.user_id, member.text, group=member.group)
    return service


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


def test_the_child_computes_the_figures_the_service_computes(scanned):
    process = StatsProcess.for_service(scanned)
    assert process is not None
    try:
        expected = scanned.stats()  # also writes this process's read-time tally
        assert expected.conflicts and expected.read_scans == 2
        assert process.stats().to_json_dict() == expected.to_json_dict()
        one = process.stats(USERS[0])
        assert one.to_json_dict() == scanned.stats(USERS[0]).to_json_dict()
        assert one.users == [USERS[0]]
        pid = process.pid
        assert pid is not None and pid != os.getpid()
    finally:
        process.close()
    assert _gone(pid)
    with pytest.raises(StatsUnavailable):
        process.stats()


def test_a_wrong_key_is_an_error_and_the_next_request_is_answered(scanned):
    address = server_address(scanned.store.client)
    assert address is not None and address.api_key  # the embedded server wants its key
    assert address.api_key not in repr(address)
    wrong = StatsProcess(address.url, "not-the-key", scanned.store.name)
    try:
        with pytest.raises(StatsUnavailable):
            wrong.stats()
        with pytest.raises(StatsUnavailable):  # still answered: the child lives on
            wrong.stats()
    finally:
        wrong.close()


def test_the_sidecar_serves_the_childs_figures_and_stops_the_child(scanned):
    expected = scanned.stats()
    app = create_app(scanned, settings=ApiSettings(), warm_up=False)
    with TestClient(app) as client:
        figures: dict[tuple, float] = {}
        until = time.monotonic() + 120
        while time.monotonic() < until:  # the first scrape starts the refresh
            text = client.get("/metrics").text
            figures = {(s.name, tuple(sorted(s.labels.items()))): s.value
                       for family in text_string_to_metric_families(text)
                       for s in family.samples if s.name.startswith("contrascan_store_")}
            if figures:
                break
            time.sleep(0.2)
        process = app.state.stats_process
        assert process is not None and process.pid not in (None, os.getpid())
        pid = process.pid
    assert figures[("contrascan_store_open_pairs", ())] == expected.open
    assert figures[("contrascan_store_settled_pairs", ())] == expected.settled
    for verdict, n in expected.by_verdict.items():
        assert figures[("contrascan_store_conflicts_by_verdict", (("verdict", verdict),))] == n
    assert figures[("contrascan_store_read_scans", ())] == expected.read_scans
    assert _gone(pid)  # the app's shutdown stopped it


def test_the_child_exits_when_its_parent_is_killed(scanned):
    address = server_address(scanned.store.client)
    assert address is not None
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from scanner.stats_process import StatsProcess
        p = StatsProcess({address.url!r}, {address.api_key!r}, {scanned.store.name!r})
        p.stats()
        print(p.pid, flush=True)
        time.sleep(600)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        line = parent.stdout.readline()
        assert line.strip().isdigit(), "the parent printed no child pid"
        child = int(line)
        assert not _gone(child, within_s=0.5)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        parent.stdout.close()
    assert _gone(child)
