"""The embedded store keeps other local users out of every port: run as user nobody, the probe
tests/integration/store_probe.py tries every port the store's processes listen on and every
port of its configuration, without the key, and reads nothing and changes nothing
(scanner.store.private_network, docs/weaviate.md). Against a real embedded Weaviate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner.models import MemoryRecord
from scanner.service import Service
from scanner.store import server
from scanner.store.locks import read_state
from scanner.store.processes import cluster_ports
from scanner.store.wiring import weaviate_stores

pytestmark = pytest.mark.integration

PROBE = Path(__file__).with_name("store_probe.py")
NOBODY = 65534
USERS = ("potter-1", "potter-2")

needs_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="acting as another user (setuid to nobody) needs root")


def _records(user_id: str, n: int) -> list[MemoryRecord]:
    return [MemoryRecord(id=f"{user_id}-m{i}", user_id=user_id,
                         text=f"{user_id} prefers glaze number {i} for the tall vases.")
            for i in range(n)]


class _Store:
    def __init__(self, data_dir: Path, port: int, grpc_port: int, client, service: Service):
        self.data_dir, self.port, self.grpc_port = data_dir, port, grpc_port
        self.client, self.service = client, service


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, engine) -> Iterator[_Store]:
    """An embedded server holding memories and ledger entries of two users."""
    data_dir = tmp_path_factory.mktemp("isolation") / "weaviate"
    port, grpc_port = server.free_ports()
    client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    try:
        service = Service(weaviate_stores(client, "Probe" + uuid.uuid4().hex[:8]), engine=engine)
        for user_id in USERS:
            service.import_records(_records(user_id, 12))
        yield _Store(data_dir, port, grpc_port, client, service)
    finally:
        client.close()


def _snapshot(client, collections: list[str]) -> dict:
    """Every collection's name and, for ``collections``, object counts per tenant."""
    shown: dict = {"collections": sorted(client.collections.list_all(simple=True))}
    for name in collections:
        col = client.collections.use(name)
        shown[name] = {t: col.with_tenant(t).aggregate.over_all(total_count=True).total_count
                       for t in sorted(col.tenants.get())}
    return shown


def _server_processes(data_dir: Path) -> set[int]:
    """The embedded server's processes: Weaviate, the program that started it in a network
    of its own (``launcher_pid`` of the state file) and their children."""
    state = read_state(data_dir) or {}
    pids = set(server.server_pids(data_dir)) | {state.get("server_pid") or 0,
                                                state.get("launcher_pid") or 0}
    pids.discard(0)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid in pids:
                pids.add(int(entry.name))
    return pids


def _listening(pids: set[int]) -> tuple[set[int], set[int]]:
    """(TCP ports listening, UDP ports bound) in this process's network namespace by sockets
    that ``pids`` hold (``/proc/<pid>/fd`` against ``/proc/self/net/*``, proc(5))."""
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue
    found: dict[str, set[int]] = {"tcp": set(), "udp": set()}
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for row in Path(f"/proc/self/net/{table}").read_text().splitlines()[1:]:
            fields = row.split()
            port, state, inode = int(fields[1].rsplit(":", 1)[1], 16), fields[3], fields[9]
            if inode in inodes and (table.startswith("udp") or state == "0A"):  # 0A: LISTEN
                found[table[:3]].add(port)
    return found["tcp"], found["udp"]


def _probe_as_nobody(spec: dict) -> dict:
    done = subprocess.run([sys.executable, str(PROBE)], input=json.dumps(spec), text=True,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_root
def test_another_user_reads_and_changes_nothing_through_any_port_of_the_store(store):
    memories, ledger = store.service.store.name, store.service.ledger.name
    cluster = cluster_ports(store.port)
    tcp, udp = _listening(_server_processes(store.data_dir))
    spec = {"uid": NOBODY, "gid": NOBODY, "collection": memories, "ledger": ledger,
            "tenant": USERS[0],
            "tcp": sorted(tcp | {store.port, store.grpc_port, *cluster.values()}),
            "udp": sorted(udp | {cluster["CLUSTER_GOSSIP_BIND_PORT"]})}
    before = _snapshot(store.client, [memories, ledger])
    assert set(before[memories]) == set(USERS) and set(before[ledger]) == set(USERS)

    report = _probe_as_nobody(spec)

    assert report["uid"] == NOBODY
    opened = sorted(int(p) for p, seen in report["tcp"].items() if seen["open"])
    # REST and gRPC only, and each of them asks for the key
    assert opened == sorted([store.port, store.grpc_port]), json.dumps(report)
    answered = {p: seen["answered"] for p, seen in report["tcp"].items() if seen["answered"]}
    assert answered == {}, json.dumps(report)
    for port in (store.port, store.grpc_port):
        refusals = report["tcp"][str(port)]["refused"].values()
        assert any("401" in r or "unauthorized" in r for r in refusals), json.dumps(report)
    assert set(report["udp"].values()) == {"refused"}, json.dumps(report)
    assert _snapshot(store.client, [memories, ledger]) == before


def test_the_server_runs_in_a_network_of_its_own(store):
    from scanner.store.processes import in_private_network

    (weaviate_pid,) = server.server_pids(store.data_dir)
    assert in_private_network(weaviate_pid) is True
    assert read_state(store.data_dir)["private_network"] is True
    tcp, udp = _listening(_server_processes(store.data_dir))
    assert (tcp, udp) == ({store.port, store.grpc_port}, set())
    hits = store.service.scan(USERS[1], "glaze for the tall vases", apply=False).hits
    assert {h.record.user_id for h in hits} == {USERS[1]} and len(hits) >= 5
