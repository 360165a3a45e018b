"""A multi-node Weaviate cluster on loopback, from the binary the embedded mode uses.

For the cluster test tier (``tests/cluster/``), the cluster benchmark
(``python -m benchmarks.bench_batch_scan --cluster 3``) and for trying contrascan against a
cluster on one machine (``python -m scanner.store.cluster``). Production clusters are started
by their operator (Helm, Docker Compose); contrascan reaches them by URL
(:func:`scanner.store.server.connect_url`, docs/cluster.md).

Each node is one ``weaviate-server`` process (:func:`scanner.store.server.ensure_binary`) with
its own data directory and its own ports, all fixed for the cluster's life so a node restarted
on its data directory finds its Raft state again (weaviate#5491):

* REST ``port`` and gRPC ``grpc_port``;
* gossip ``port - 4`` and data ``port - 3`` (the data port must be gossip + 1,
  repo:usecases/config/environment.go ``parseClusterConfig``);
* Raft ``port - 2`` and Raft RPC ``port - 1`` (with ``CLUSTER_IN_LOCALHOST`` a node dials
  Raft RPC at Raft + 1, repo:cluster/resolver/rpc.go).

Joining uses the cluster's own settings, as Weaviate's local three-node recipe does
(repo:tools/dev/run_dev_server.sh, ``local-development`` / ``second-node`` /
``third-node``): every node gets ``RAFT_JOIN=node0:<raft0>,node1:<raft1>,node2:<raft2>`` and
``RAFT_BOOTSTRAP_EXPECT=<nodes>`` (all voters), nodes after the first
``CLUSTER_JOIN=127.0.0.1:<gossip0>``; ``CLUSTER_HOSTNAME=node<i>`` is fixed.

Authentication is on: anonymous access off, one API key generated per cluster (also the
basic-auth password of the internal cluster API, :func:`scanner.store.access.auth_environment`).
Each node's Go heap is capped with ``GOMEMLIMIT`` (default 384 MiB, a soft limit: the Go
runtime collects harder near it, https://pkg.go.dev/runtime#hdr-Environment_Variables), since
three nodes share one small machine.

Sources: ``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0; ``weaviate#N`` an issue
of weaviate/weaviate.
"""

from __future__ import annotations

import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from scanner.errors import ConfigurationError, WeaviateUnavailable
from scanner.store import access, server

DEFAULT_GOMEMLIMIT = "384MiB"
"""Soft Go heap limit of each node (``GOMEMLIMIT``)."""

_LOW_PORTS = range(20000, 32000)
"""Where the cluster's node ports are chosen: below the ephemeral range."""


def _bindable(port: int) -> bool:
    """Whether 127.0.0.1:``port`` can be bound now."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@dataclass(frozen=True)
class NodePorts:
    """The ports of one node (see the module docstring for how they relate)."""

    rest: int
    grpc: int

    @property
    def gossip(self) -> int:
        return server.cluster_ports(self.rest)["CLUSTER_GOSSIP_BIND_PORT"]

    @property
    def raft(self) -> int:
        return server.cluster_ports(self.rest)["RAFT_PORT"]


@dataclass
class ClusterNode:
    """One node: its name, ports, data directory, log file and process (``None`` when down)."""

    name: str
    ports: NodePorts
    data_dir: Path
    log_path: Path
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        """The node's URL as ``--weaviate-url`` takes it: ``http://127.0.0.1:<rest>?grpc_port=<grpc>``."""
        return f"http://127.0.0.1:{self.ports.rest}?grpc_port={self.ports.grpc}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


class LocalCluster:
    """A Weaviate cluster of ``nodes`` processes on 127.0.0.1.

    Use as a context manager (stops every node on exit) or call :meth:`start` / :meth:`stop`.

    Args:
        root: directory for the nodes' data directories (``node<i>/``) and logs
            (``node<i>.log``); created 0700.
        nodes: number of nodes (all Raft voters), at least 1.
        version: server version; the binary must be provisioned
            (:func:`scanner.store.server.ensure_binary`).
        gomemlimit: ``GOMEMLIMIT`` of each node, e.g. ``"384MiB"``; empty = no limit.
        api_key: the key every node accepts; default a new random one
            (:func:`secrets.token_urlsafe`, 32 bytes).
        extra_env: more server settings for every node (e.g. ``ASYNC_REPLICATION_*``).

    Raises:
        ConfigurationError: ``nodes`` < 1.
    """

    def __init__(self, root: Path, *, nodes: int = 3, version: str = server.WEAVIATE_VERSION,
                 gomemlimit: str = DEFAULT_GOMEMLIMIT, api_key: str | None = None,
                 extra_env: dict[str, str] | None = None):
        if nodes < 1:
            raise ConfigurationError("nodes", f"{nodes} is not a positive number of nodes")
        self.root = access.prepare_data_dir(Path(root).expanduser().resolve())
        self.version = version
        self.gomemlimit = gomemlimit
        self.api_key = api_key or secrets.token_urlsafe(access.KEY_BYTES)
        self.extra_env = dict(extra_env or {})
        self.nodes: list[ClusterNode] = []
        taken: set[int] = set()
        for i in range(nodes):
            rest, grpc = self._ports(taken)
            name = f"node{i}"
            self.nodes.append(ClusterNode(name, NodePorts(rest, grpc), self.root / name,
                                          self.root / f"{name}.log"))

    @staticmethod
    def _ports(taken: set[int]) -> tuple[int, int]:
        """A REST/gRPC pair whose seven ports overlap none in ``taken`` (which it extends)."""
        # Below the kernel's ephemeral range (32768 and up on Linux): a node's ports stay its
        # own across a restart, while an ephemeral port freed by a killed node can be taken at
        # once by any outgoing connection (seen: a restarted node's Raft RPC port in use)
        rng = random.Random()
        for _ in range(200):
            rest = rng.randrange(_LOW_PORTS.start + 4, _LOW_PORTS.stop)
            grpc = rng.randrange(_LOW_PORTS.start, _LOW_PORTS.stop)
            block = set(range(rest - 4, rest + 1)) | {grpc}
            if not block & taken and len(block) == 6 and all(map(_bindable, block)):
                taken |= block
                return rest, grpc
        raise WeaviateUnavailable("found no free ports for a cluster node")

    # -- environment ----------------------------------------------------------------------
    def environment(self, node: ClusterNode, join: list[ClusterNode] | None = None
                    ) -> dict[str, str]:
        """The full environment of ``node``'s server process.

        Args:
            node: the node.
            join: the nodes whose gossip ports ``CLUSTER_JOIN`` lists; default node0 (none for
                node0 itself, which founds the cluster).

        Returns:
            ``os.environ`` with contrascan's own variables and cloud credentials blanked
            (:func:`scanner.store.access.scrubbed_environment`), plus the node's settings.
        """
        first = self.nodes[0]
        ports = server.cluster_ports(node.ports.rest)
        env = {
            **os.environ,
            **access.scrubbed_environment(),
            "PERSISTENCE_DATA_PATH": str(node.data_dir),
            "CLUSTER_HOSTNAME": node.name,
            "CLUSTER_IN_LOCALHOST": "true",
            "CLUSTER_BIND_ADDR": "127.0.0.1",
            "CLUSTER_ADVERTISE_ADDR": "127.0.0.1",
            **{k: str(v) for k, v in ports.items()},
            "RAFT_JOIN": ",".join(f"{n.name}:{n.ports.raft}" for n in self.nodes),
            "RAFT_BOOTSTRAP_EXPECT": str(len(self.nodes)),
            "GRPC_PORT": str(node.ports.grpc),
            **access.auth_environment(self.api_key),
            "DISABLE_TELEMETRY": "true",
            "GO_PROFILING_DISABLE": "true",
            "PROMETHEUS_MONITORING_ENABLED": "false",
            "AUTOSCHEMA_ENABLED": "false",
            "API_BASED_MODULES_DISABLED": "true",
            "DEFAULT_VECTORIZER_MODULE": "none",
            "ENABLE_MODULES": "",
            "ASYNC_INDEXING": "false",
            "QUERY_DEFAULTS_LIMIT": "20",
            "LOG_LEVEL": "warning",
            "LOG_FORMAT": "text",
        }
        peers = join if join is not None else ([] if node is first else [first])
        if peers:
            env["CLUSTER_JOIN"] = ",".join(f"127.0.0.1:{n.ports.gossip}" for n in peers)
        if self.gomemlimit:
            env["GOMEMLIMIT"] = self.gomemlimit
        env.update(self.extra_env)
        return env

    # -- lifecycle ------------------------------------------------------------------------
    def start(self, timeout_s: float = 180.0) -> LocalCluster:
        """Start every node that is not running and wait until the cluster is ready.

        Raises:
            WeaviateUnavailable: no binary, a node exited, or the cluster was not ready (every
                node ``/v1/.well-known/ready`` and every node listed ``HEALTHY`` by
                ``/v1/nodes``) within ``timeout_s``.
        """
        for node in self.nodes:
            if not node.running:
                self._spawn(node)
        self.wait_ready(timeout_s=timeout_s)
        return self

    def _spawn(self, node: ClusterNode, join: list[ClusterNode] | None = None) -> None:
        binary = server.embedded_binary_path(self.version)
        if not os.access(binary, os.X_OK):
            raise WeaviateUnavailable(f"no weaviate-server binary at {binary}",
                                      "run `make setup` (needs Go >= 1.26)")
        with access.private_umask():
            node.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            log = open(node.log_path, "ab")  # noqa: SIM115 - handed to the child
        try:
            node.process = subprocess.Popen(
                [str(binary), "--host", "127.0.0.1", "--port", str(node.ports.rest),
                 "--scheme", "http", "--read-timeout=600s", "--write-timeout=600s"],
                env=self.environment(node, join), stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT,
                # own session: a Ctrl-C in the terminal reaches the test runner, not the nodes
                start_new_session=True)
        finally:
            log.close()

    def wait_ready(self, timeout_s: float = 180.0, nodes: list[ClusterNode] | None = None
                   ) -> None:
        """Wait until the running nodes (or ``nodes``) answer ready and see every running node
        as ``HEALTHY``.

        Raises:
            WeaviateUnavailable: a node exited or the wait timed out (the message names the
                node and its log).
        """
        wanted = nodes if nodes is not None else [n for n in self.nodes if n.process]
        deadline = time.monotonic() + timeout_s
        while True:
            pending = None
            for node in wanted:
                if node.process is not None and node.process.poll() is not None:
                    raise WeaviateUnavailable(
                        f"Weaviate cluster {node.name} exited with code "
                        f"{node.process.returncode}", f"see {node.log_path}")
                if not self._ready(node):
                    pending = node
                    break
            if pending is None:
                up = {n.name for n in self.nodes if n.running}
                healthy = self.healthy_nodes(wanted[0]) if wanted else set()
                if up <= healthy:
                    return
                pending = wanted[0]
            if time.monotonic() > deadline:
                raise WeaviateUnavailable(
                    f"Weaviate cluster {pending.name} was not ready after {timeout_s:.0f} s",
                    f"see {pending.log_path}")
            time.sleep(0.25)

    def _ready(self, node: ClusterNode) -> bool:
        try:
            self._get(node, "/v1/.well-known/ready", timeout_s=2.0)
        except httpx.HTTPError:  # refused, timed out, or not 200 (503 while not ready)
            return False
        return True

    def _get(self, node: ClusterNode, path: str, timeout_s: float = 10.0) -> httpx.Response:
        """``GET path`` on ``node`` with the cluster's key, never via a proxy.

        Raises:
            httpx.HTTPError: no answer within ``timeout_s`` seconds, or a status other than
                2xx.
        """
        response = httpx.get(f"http://127.0.0.1:{node.ports.rest}{path}",
                             headers={"Authorization": f"Bearer {self.api_key}"},
                             timeout=timeout_s, trust_env=False)
        return response.raise_for_status()

    def healthy_nodes(self, via: ClusterNode) -> set[str]:
        """Names of the nodes that ``via`` reports ``HEALTHY`` (``GET /v1/nodes``); empty when
        ``via`` does not answer."""
        try:
            body = self._get(via, "/v1/nodes").json()
        except (httpx.HTTPError, ValueError):
            return set()
        return {n.get("name") for n in body.get("nodes", []) if n.get("status") == "HEALTHY"}

    def leader(self) -> int | None:
        """Index of the node the cluster reports as its Raft leader (``GET
        /v1/cluster/statistics`` on the first running node), or ``None``."""
        for node in self.nodes:
            if not node.running:
                continue
            try:
                stats = self._get(node, "/v1/cluster/statistics").json().get("statistics", [])
            except (httpx.HTTPError, ValueError):
                continue
            names = [n.name for n in self.nodes]
            leaders = {s.get("leaderId") for s in stats} & set(names)
            return names.index(leaders.pop()) if len(leaders) == 1 else None
        return None

    def kill(self, index: int) -> None:
        """SIGKILL node ``index`` and reap it (no shutdown, as in a crash or an OOM kill)."""
        node = self.nodes[index]
        if node.process is not None:
            if node.process.poll() is None:
                node.process.send_signal(signal.SIGKILL)
            node.process.wait()
            node.process = None

    def restart(self, index: int, timeout_s: float = 180.0) -> None:
        """Start node ``index`` again on its data directory and ports, joining the gossip of
        the nodes that are running (node0 too, which founded the cluster without a join
        address); wait until the cluster sees it healthy."""
        node = self.nodes[index]
        if not node.running:
            self._spawn(node, join=[n for n in self.nodes if n is not node and n.running])
        self.wait_ready(timeout_s=timeout_s)

    def stop(self, timeout_s: float = 30.0) -> None:
        """SIGTERM every running node, wait up to ``timeout_s`` each, then SIGKILL."""
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.terminate()
        for node in self.nodes:
            if node.process is None:
                continue
            try:
                node.process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                node.process.kill()
                node.process.wait()
            node.process = None

    def rss_mb(self) -> dict[str, float]:
        """Resident set size of each running node, MiB (psutil)."""
        out = {}
        for node in self.nodes:
            if node.running:
                try:
                    out[node.name] = psutil.Process(node.process.pid).memory_info().rss / 2 ** 20
                except psutil.Error:
                    continue
        return out

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """``python -m scanner.store.cluster ROOT [NODES]``: run a loopback cluster until Ctrl-C
    or SIGTERM (or until a node exits).

    Prints each node's ``--weaviate-url`` and the API key to put in
    ``$CONTRASCAN_WEAVIATE_API_KEY``.
    """
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -m scanner.store.cluster ROOT [NODES]\n"
              "Start a Weaviate cluster of NODES (default 3) processes on 127.0.0.1 with "
              "its data under ROOT; Ctrl-C stops it.")
        return 0 if args else 2
    if server.ensure_binary(log=lambda line: print(line, file=sys.stderr)) is None:
        print("error: no weaviate-server binary; run `make setup`", file=sys.stderr)
        return 1
    cluster = LocalCluster(Path(args[0]), nodes=int(args[1]) if len(args) > 1 else 3)

    def interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    # SIGTERM (and SIGINT, which a shell ignores in background jobs) stop the nodes too
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
    with cluster:
        for node in cluster.nodes:
            print(f"{node.name}: --weaviate-url '{node.url}'  (log {node.log_path})")
        print(f"CONTRASCAN_WEAVIATE_API_KEY={cluster.api_key}")
        try:
            while all(n.running for n in cluster.nodes):
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
