"""Imports report the truth (issue 18 items 8-9), against a real Weaviate: an id stored by a
concurrent import with other text is `differing`, whichever import checked first; rejected
lines give their own exit code while every good line is stored."""

from __future__ import annotations

import json
import threading
import uuid

import numpy as np
import pytest
from click.testing import CliRunner

from scanner.cli import EXIT_REJECTED, main
from scanner.models import MemoryRecord
from scanner.service import Service
from scanner.store import server
from scanner.store.memories import MemoryStore
from scanner.store.wiring import weaviate_stores

pytestmark = pytest.mark.integration


def _records(user: str, n: int, wording: str) -> list[MemoryRecord]:
    return [MemoryRecord(id=f"m{i}", text=f"Rack {i} {wording} celadon.", user_id=user,
                         source="chat", source_class="user", epoch="e1",
                         observed_at="2026-03-01T00:00:00Z") for i in range(n)]


@pytest.fixture()
def collection(weaviate_server):
    name = "Truth" + uuid.uuid4().hex[:10]
    yield name
    for suffix in ("", "Ledger", "ScanState"):
        if weaviate_server.collections.exists(name + suffix):
            weaviate_server.collections.delete(name + suffix)


def test_an_id_stored_after_the_callers_check_is_reported_differing(weaviate_server,
                                                                     collection):
    store = MemoryStore(weaviate_server, collection)
    store.ensure_schema()
    vectors = np.ones((50, 8), dtype=np.float32) / np.sqrt(8)
    first = store.import_memories(_records("race", 50, "glazes"), [[]] * 50, vectors)
    # the second import checked before the first wrote: it reaches the locked insert
    second = store.import_memories(_records("race", 50, "prefers"), [[]] * 50, vectors)
    same = store.import_memories(_records("race", 50, "glazes"), [[]] * 50, vectors)
    assert (first.written, first.differing) == (50, [])
    assert (second.written, second.unchanged, len(second.differing)) == (0, 50, 50)
    assert (same.written, same.unchanged, same.differing) == (0, 50, [])


def test_two_concurrent_imports_of_the_same_ids_report_the_truth(weaviate_server, collection,
                                                                 engine):
    n = 40
    MemoryStore(weaviate_server, collection).ensure_schema()
    services = {w: Service(weaviate_stores(weaviate_server, collection), engine=engine)
                for w in ("glazes", "prefers")}
    results: dict[str, object] = {}
    barrier = threading.Barrier(2, timeout=120)

    def run(wording: str) -> None:
        try:
            barrier.wait()
            results[wording] = services[wording].import_records(_records("both", n, wording))
        except BaseException as err:  # reported by the assertion below
            results[wording] = err

    threads = [threading.Thread(target=run, args=(w,)) for w in services]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not [r for r in results.values() if isinstance(r, BaseException)], results
    outcomes = sorted((r.written, len(r.differing)) for r in results.values())
    assert outcomes == [(0, n), (n, 0)]


def test_import_with_rejected_lines_exits_65_and_stores_the_rest(tmp_path):
    port, grpc_port = server.free_ports()
    path = tmp_path / "m.jsonl"
    good = {"id": "g1", "text": "The preferred glaze is celadon.", "user_id": "exit-user"}
    path.write_text(json.dumps(good) + "\n"
                    + json.dumps({**good, "id": "b1", "priority": 2**63 - 1}) + "\n"
                    + json.dumps({**good, "id": "g2", "created_at": "2026-01-01"}) + "\n")
    store = ["--data-dir", str(tmp_path / "data"), "--port", str(port),
             "--grpc-port", str(grpc_port)]
    result = CliRunner().invoke(main, ["import", str(path), *store, "--json"])
    assert result.exit_code == EXIT_REJECTED == 65, result.output
    assert json.loads(result.stdout) == {
        "read": 3, "written": 2, "unchanged": 0, "differing": 0, "rejected": 1, "failed": 0,
        "ignored": [{"field": "created_at", "count": 1, "lines": [3]}]}
    assert "line 2 (id 'b1'): field 'priority'" in result.stderr
    assert "ignored fields outside the record format (the memories are kept): created_at on " \
           "1 line (3)" in result.stderr
    again = CliRunner().invoke(main, ["import", str(path), *store, "--json"])
    assert again.exit_code == 65 and json.loads(again.stdout)["unchanged"] == 2
    # an import whose ids were stored with another text (the one that lost a concurrent
    # race, issue 38 item 7) stored nothing of those lines: it exits 65 too, never 0
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**good, "text": "The preferred glaze is tenmoku."}) + "\n")
    lost = CliRunner().invoke(main, ["import", str(other), *store, "--json"])
    assert lost.exit_code == 65, lost.output
    assert json.loads(lost.stdout)["differing"] == 1
    same = tmp_path / "same.jsonl"
    same.write_text(json.dumps(good) + "\n")
    assert CliRunner().invoke(main, ["import", str(same), *store]).exit_code == 0


def test_read_time_scan_from_the_cli_writes_its_tally_before_the_store_closes(tmp_path, caplog):
    """`contrascan scan` on the embedded store: the tally of the read-time scan is written
    while the store is still open (a thread left behind wrote it after the server had stopped,
    printed a traceback and lost the count)."""
    port, grpc_port = server.free_ports()
    path = tmp_path / "m.jsonl"
    base = {"user_id": "tally-user", "source": "chat", "source_class": "user", "epoch": "e1"}
    path.write_text(
        json.dumps({**base, "id": "t1", "text": "Dan lives in Paris.",
                    "observed_at": "2026-01-01T00:00:00Z"}) + "\n"
        + json.dumps({**base, "id": "t2", "text": "Dan lives in Rome.",
                      "observed_at": "2026-02-01T00:00:00Z"}) + "\n")
    store = ["--data-dir", str(tmp_path / "data"), "--port", str(port),
             "--grpc-port", str(grpc_port)]
    assert CliRunner().invoke(main, ["import", str(path), *store]).exit_code == 0
    scan = CliRunner().invoke(main, ["scan", "--user", "tally-user", "--query", "where does Dan live",
                                     *store, "--json"])
    assert scan.exit_code == 0, scan.output
    assert json.loads(scan.stdout)["withhold"] == ["t1"]
    assert "tally" not in scan.stderr and "Traceback" not in scan.stderr
    assert not [r for r in caplog.records if "tally" in r.getMessage()]
    stats = CliRunner().invoke(main, ["stats", *store, "--json"])
    assert stats.exit_code == 0, stats.output
    assert json.loads(stats.stdout)["read_scans"] == 1
