"""contrascan on a three-node Weaviate cluster (marker ``cluster``; in the default run).

The cluster is started by this module from the same binary as the embedded server
(:class:`scanner.store.cluster.LocalCluster`: three processes on loopback, API keys on).
contrascan talks to node0; its collections are created with replication factor 3, writes at
QUORUM, decision reads at QUORUM (:mod:`scanner.store.replication`). The reference state comes
from the session's single embedded server, fed the same records.

Run only this tier: ``.venv/bin/python -m pytest -m cluster``; skip it: ``-m "not cluster"``.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator

import pytest

from scanner.demo import demo_records_path
from scanner.errors import ScannerError
from scanner.core.ledger import SCAN_TYPES
from scanner.records import read_jsonl
from scanner.service import Service
from scanner.store import replication, server
from scanner.store.cluster import LocalCluster
from scanner.store.ledger import ledger_collection_name
from scanner.store.memories import object_uuid, tenant_name
from scanner.store.wiring import weaviate_stores
from scanner.store.replication import ReplicationSettings
from scanner.store.scan_state import scan_state_collection_name
from scanner.store.server import one_line

pytestmark = [pytest.mark.integration, pytest.mark.cluster]

USERS = ("demo-user-1", "demo-user-2", "demo-user-3")
CLUSTER_SETTINGS = ReplicationSettings(factor=3, write_consistency="QUORUM",
                                       read_consistency="QUORUM", async_frequency_ms=1000)
"""Replicas compare hash trees every second, so a restarted node catches up within the test."""
CATCH_UP_S = 120.0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    if server.ensure_binary() is None:
        pytest.fail("no weaviate-server binary: run `make setup` (needs Go >= 1.26)")
    with LocalCluster(tmp_path_factory.mktemp("cluster"), nodes=3) as running:
        yield running


def connect(cluster: LocalCluster, index: int = 0) -> server.WeaviateClient:
    client = server.connect_url(cluster.nodes[index].url, api_key=cluster.api_key)
    replication.configure(client, CLUSTER_SETTINGS)
    return client


@pytest.fixture(scope="module")
def records():
    found, rejected = read_jsonl(demo_records_path())
    assert not rejected
    return [r for r in found if r.user_id in USERS]


@pytest.fixture()
def cluster_service(cluster, engine) -> Iterator[Service]:
    client = connect(cluster)
    svc = Service(weaviate_stores(client, "Cl" + uuid.uuid4().hex[:12]), engine=engine)
    try:
        yield svc
    finally:
        for node in range(len(cluster.nodes)):
            if not cluster.nodes[node].running:
                cluster.restart(node)
        for col in (svc.scan_state.name, svc.ledger.name, svc.store.name):
            if client.collections.exists(col):
                client.collections.delete(col)
        client.close()


@pytest.fixture(scope="module")
def reference(weaviate_server, engine, records) -> dict:
    """The state a single node ends in after importing ``records`` and one batch scan."""
    name = "Ref" + uuid.uuid4().hex[:12]
    svc = Service(weaviate_stores(weaviate_server, name), engine=engine)
    try:
        svc.import_records(records)
        report = svc.batch_scan()
        return {"state": state(svc), "report": report_json(report)}
    finally:
        for col in (svc.scan_state.name, svc.ledger.name, name):
            weaviate_server.collections.delete(col)


def state(svc: Service) -> dict:
    """Per user: memory id -> (status, retired rule); supersedes edges (duplicates kept, so a
    duplicate would show); verdict ledger entries by id -> digest (imports carry times)."""
    out = {}
    for user in USERS:
        memories = {m.record.id: (m.status, m.retired_rule)
                    for m in svc.store.iterate(user, properties=["memory_id", "status",
                                                                  "retired_rule", "text",
                                                                  "user_id"])}
        edges = {k: sorted(v) for k, v in svc.store.supersedes_edges(user).items()}
        ledger = svc.ledger.all_digests(user, SCAN_TYPES)
        out[user] = {"memories": memories, "edges": edges, "ledger": ledger}
    return out


def report_json(report) -> dict:
    return json.loads(json.dumps(report.model_dump(mode="json"), sort_keys=True))


def node_view(cluster: LocalCluster, index: int, svc: Service, user: str,
              memory_ids: list[str]) -> dict:
    """memory id -> (status, retired rule, supersedes targets) as node ``index`` holds them:
    ``GET /v1/objects/{class}/{id}?node_name=<node>`` reads that node's own replica."""
    node = cluster.nodes[index]
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    view = {}
    for mid in memory_ids:
        request = urllib.request.Request(
            f"http://127.0.0.1:{node.ports.rest}/v1/objects/{svc.store.name}/"
            f"{object_uuid(user, mid)}?tenant={tenant_name(user)}&node_name={node.name}",
            headers={"Authorization": f"Bearer {cluster.api_key}"})
        try:
            with opener.open(request, timeout=10) as response:
                props = json.loads(response.read())["properties"]
        except urllib.error.HTTPError as err:
            if err.code != 404:
                raise
            view[mid] = None
            continue
        targets = sorted(b["beacon"].rsplit("/", 1)[1] for b in props.get("supersedes") or [])
        view[mid] = (props.get("status"), props.get("retired_rule") or None, targets)
    return view


def test_collections_are_replicated_on_every_node(cluster_service, cluster):
    svc = cluster_service
    svc.store.ensure_schema()
    svc.ledger.ensure_schema()
    svc.scan_state.ensure_schema()
    for name in (svc.store.name, svc.ledger.name, svc.scan_state.name):
        config = svc.store.client.collections.use(name).config.get()
        assert config.replication_config.factor == 3, name
    assert cluster.healthy_nodes(cluster.nodes[1]) == {"node0", "node1", "node2"}


def test_import_and_batch_scan_on_the_cluster_equal_the_single_node(
        cluster_service, records, reference):
    result = cluster_service.import_records(records)
    assert (result.written, result.failures) == (len(records), [])
    report = cluster_service.batch_scan()
    assert report_json(report) == reference["report"]
    assert state(cluster_service) == reference["state"]
    assert sum(len(s["edges"]) for s in reference["state"].values()) > 0  # verdicts were made


def wait_for_leader(cluster: LocalCluster, timeout_s: float = 60.0) -> int:
    """Wait until a running node is the Raft leader; returns its index."""
    deadline = time.monotonic() + timeout_s
    while True:
        leader = cluster.leader()
        if leader is not None and cluster.nodes[leader].running:
            return leader
        if time.monotonic() > deadline:
            raise AssertionError(f"no Raft leader among the running nodes after {timeout_s} s")
        time.sleep(0.5)


def wait_until_nodes_agree(cluster, svc, user, memory_ids, timeout_s=CATCH_UP_S) -> list:
    """Poll each node's own replica until all three agree; returns the views."""
    deadline = time.monotonic() + timeout_s
    while True:
        views = [node_view(cluster, i, svc, user, memory_ids) for i in range(3)]
        if views[0] == views[1] == views[2] or time.monotonic() > deadline:
            return views
        time.sleep(1.0)


def test_node_killed_mid_batch_scan_then_rerun_converges_and_replicas_agree(
        cluster_service, cluster, records, reference):
    """A replica node (neither the one contrascan talks to nor the Raft leader: those two
    cases have tests of their own) is SIGKILLed once half the memories were read."""
    svc = cluster_service
    svc.import_records(records)
    victim = 2 if cluster.leader() != 2 else 1
    seen = [0]

    def kill_midway(n: int) -> None:
        seen[0] += n
        if seen[0] >= len(records) // 2 and cluster.nodes[victim].running:
            cluster.kill(victim)  # SIGKILL: no shutdown, as in a crash

    outcome = "completed"
    try:
        svc.batch_scan(progress=kill_midway)
    except ScannerError as err:  # the CLI prints it as one line, `contrascan: …`, exit code 1
        outcome = f"failed: {one_line(str(err))}"
    assert not cluster.nodes[victim].running, "the node was not killed during the scan"
    print(f"batch scan with node{victim} killed midway: {outcome}")

    svc.batch_scan()  # re-run, the node still down
    assert state(svc) == reference["state"]  # nothing lost, nothing duplicated

    cluster.restart(victim)
    started = time.monotonic()
    for user in USERS:
        ids = sorted(reference["state"][user]["memories"])
        views = wait_until_nodes_agree(cluster, svc, user, ids)
        assert views[0] == views[1] == views[2], f"node{victim} did not catch up on {user}"
        assert {m: v[:2] for m, v in views[0].items()} == reference["state"][user]["memories"]
    print(f"node{victim} restarted; every node's replica agreed after "
          f"{time.monotonic() - started:.1f} s")


def test_read_time_scan_answers_with_a_replica_down(cluster_service, cluster, records):
    """A node that is neither the one contrascan talks to nor the Raft leader dies: the scan
    answers and records its verdicts."""
    svc = cluster_service
    svc.import_records(records)
    leader = cluster.leader()
    victim = 2 if leader != 2 else 1
    probe = next(r for r in records if r.user_id == USERS[0])
    cluster.kill(victim)
    found = svc.scan(USERS[0], probe.text)
    assert probe.id in [h.record.id for h in found.hits]
    assert found.report.scanned >= 1


def test_read_time_scan_answers_with_the_raft_leader_down(cluster, engine, records):
    """The Raft leader dies. Reads need no leader once the sidecar knows the tenant (the
    import made it): the scan answers at once. Writes that check the schema (supersedes
    edges) wait for the new leader, so this scan does not record (``apply=False``)."""
    leader = cluster.leader()
    assert leader is not None
    via = 1 if leader == 0 else 0
    client = connect(cluster, via)
    name = "Cl" + uuid.uuid4().hex[:12]
    svc = Service(weaviate_stores(client, name), engine=engine)
    try:
        svc.import_records(records)
        probe = next(r for r in records if r.user_id == USERS[0])
        cluster.kill(leader)
        started = time.monotonic()
        found = svc.scan(USERS[0], probe.text, apply=False)
        print(f"read-time scan with the Raft leader (node{leader}) killed: answered in "
              f"{time.monotonic() - started:.1f} s")
        assert probe.id in [h.record.id for h in found.hits]
        assert found.report.scanned >= 1
    finally:
        cluster.restart(leader)
        for col in (svc.scan_state.name, svc.ledger.name, name):
            if client.collections.exists(col):
                client.collections.delete(col)
        client.close()


def test_coordinator_killed_mid_batch_scan_fails_in_one_line_and_another_node_converges(
        cluster, engine, records, reference):
    """The node contrascan talks to dies: the scan fails with a one-line error; the same
    collection scanned again through another node ends in the reference state."""
    name = "Cl" + uuid.uuid4().hex[:12]
    first, second = connect(cluster, 0), connect(cluster, 1)
    try:
        svc = Service(weaviate_stores(first, name), engine=engine)
        svc.import_records(records)
        seen = [0]

        def kill_midway(n: int) -> None:
            seen[0] += n
            if seen[0] >= len(records) // 2 and cluster.nodes[0].running:
                cluster.kill(0)

        # a ScannerError is what the CLI prints as one line, `contrascan: …`, exit code 1
        with pytest.raises(ScannerError) as failure:
            svc.batch_scan(progress=kill_midway)
        print(f"batch scan with its own node killed midway: {one_line(str(failure.value))}")
        wait_for_leader(cluster)  # node0 may have been the Raft leader too
        rerun = Service(weaviate_stores(second, name), engine=engine)
        rerun.batch_scan()
        assert state(rerun) == reference["state"]
    finally:
        try:
            if not cluster.nodes[0].running:
                cluster.restart(0)
            for col in (ledger_collection_name(name), scan_state_collection_name(name), name):
                if second.collections.exists(col):
                    second.collections.delete(col)
        finally:  # a failed restart must not leak the clients into later tests
            first.close()
            second.close()

