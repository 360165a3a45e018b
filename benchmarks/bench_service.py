"""The HTTP sidecar against the bare Weaviate hybrid query it runs (issue 6).

What is measured, on one tenant of 10,000 memories built from the bundled demo data
(``scanner/data/demo_memories.jsonl``, CounterFact; see ``scanner/data/PROVENANCE.md``):

* **bare**: :func:`scanner.store.queries.hybrid_query` on the user's tenant handle
  (:func:`bare_query`), the exact Weaviate hybrid query a read-time scan runs (same tenant, group and property filters, relative-score
  fusion, alpha 0.5, k = 12, the query vector computed beforehand), timed in this process;
* **embed + bare**: the same, with the query embedded first (all-MiniLM-L6-v2 on the CPU), i.e.
  what an agent without the sidecar must do to run that query on self-provided vectors;
* **service**: :meth:`scanner.service.Service.scan` in this process without verdict writes
  (embedding, :meth:`~scanner.store.memories.MemoryStore.hybrid_search`, the scan of the
  hits' stored triples): the sidecar's work without HTTP;
* **sidecar (vector)**: ``POST /v1/scan`` of ``contrascan serve`` — a separate process,
  started here with ``--weaviate-url`` on the same Weaviate — with the query vector in the
  body (``vector``: an agent that embeds its query for its own retrieval sends it along), over
  HTTP/1.1 keep-alive with httpx: the same hybrid query as **bare**, the scan of the hits'
  stored triples, the verdict check and JSON both ways (client-side parsing into models
  excluded). This is the like-for-like comparison with **bare**: the same inputs, the same
  query;
* **sidecar (text)**: the same request without ``vector``: the sidecar embeds the query,
  so it is compared with **embed + bare**;

per query in turn, in alternating order, for ``--queries`` (≥ 1,000) distinct queries after a
warm-up, then p50/p99 and the ratios sidecar (text) / (embed + bare) and sidecar (vector) /
bare. Issue 6's target is ≤ 1.25 at p50 (the sidecar adds at most 25 % to the bare query it
runs). The primary metric is the text ratio: this Weaviate has no vectorizer module, so the
bare hybrid query an agent runs on the query text includes embedding it, and both sides then
start from the same input. The vector ratio is the stricter view (the agent embedded the query
already): there the sidecar's HTTP round trip and scan are set against the query alone. Each sidecar answer's ``Server-Timing`` header gives its stages (embed, search, scan,
ledger read, write), summarised as medians. Then **throughput**: ``--concurrency`` (8)
clients, each on its own connection, send ``--requests-per-client`` scans as fast as they
are answered, once with and once without the vector; requests per second and the number of
failed requests (any non-200 or transport error; the target is none). The bare query gets
the same concurrent run for comparison.

The tenant: every demo record in ``--copies`` copies (ids ``<id>~c<k>``, scope property
``copy=c<k>``, the text with ``" Logged in batch <k>."`` appended so no two texts are equal;
the extractor gives that sentence no triple of its own for ~98 % of the texts), cut to
``--memories``. One scope per copy keeps the demo's conflicts inside a copy. The memories
are imported through :class:`scanner.service.Service` and batch-scanned through the sidecar
(``POST /v1/batch-scans``) before anything is timed, so read-time scans meet verdicts that
are already recorded — the steady state after a bulk import. Queries are the original
(un-suffixed) texts of randomly chosen memories (seed 6), scoped to their copy and group.

Weaviate is a throw-away embedded server (the pinned version) in a temporary directory on
free ports, stopped and deleted at the end. The machine may be shared: the load average is
recorded before and after.

Usage::

    python -m benchmarks.bench_service [--memories 10000] [--queries 1000] [--out DIR]

Output: ``results/service/<UTC time>/bench_service.json`` (figures, parameters, model names,
versions, data hash, git commit), ``latency_cdf.png`` and ``sidecar.log`` (the server's log).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from benchmarks import service_load
from benchmarks.provenance import git_state, package_versions

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("OMP_NUM_THREADS", "1")  # as `contrascan serve` does: a like-for-like
# embedding baseline (set before torch is imported)

import httpx  # noqa: E402
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "results" / "service"
USER = "bench-user"
TARGET_P50_RATIO = 1.25
"""Issue 6: the sidecar adds at most 25 % to the bare hybrid query at p50."""
K = 12
ALPHA = 0.5
SEED = 6


# --------------------------------------------------------------------------- evaluator


@dataclass
class LatencyEvaluator:
    """Latency of a candidate next to a baseline, both in seconds per request.

    Called with the two samples (same queries, same order); returns milliseconds and ratios.
    ``primary_metric`` is the p50 ratio candidate / baseline (lower is better; issue 6's
    target ≤ :data:`TARGET_P50_RATIO`).
    """

    name: str
    target_p50_ratio: float = TARGET_P50_RATIO
    primary_metric: str = "p50_ratio"

    def __call__(self, candidate_s: list[float], baseline_s: list[float]) -> dict[str, Any]:
        c = np.asarray(candidate_s) * 1e3
        b = np.asarray(baseline_s) * 1e3
        out = {
            "n": int(c.size),
            "candidate_p50_ms": float(np.percentile(c, 50)),
            "candidate_p99_ms": float(np.percentile(c, 99)),
            "candidate_mean_ms": float(c.mean()),
            "baseline_p50_ms": float(np.percentile(b, 50)),
            "baseline_p99_ms": float(np.percentile(b, 99)),
            "baseline_mean_ms": float(b.mean()),
        }
        out["p50_ratio"] = out["candidate_p50_ms"] / out["baseline_p50_ms"]
        out["p99_ratio"] = out["candidate_p99_ms"] / out["baseline_p99_ms"]
        out["p50_added_ms"] = out["candidate_p50_ms"] - out["baseline_p50_ms"]
        out["meets_target"] = out["p50_ratio"] <= self.target_p50_ratio
        return out


def latency_summary(samples_s: list[float]) -> dict[str, float]:
    """p50/p90/p99/mean/max in milliseconds."""
    ms = np.asarray(samples_s) * 1e3
    return {"n": int(ms.size), "p50_ms": float(np.percentile(ms, 50)),
            "p90_ms": float(np.percentile(ms, 90)), "p99_ms": float(np.percentile(ms, 99)),
            "mean_ms": float(ms.mean()), "max_ms": float(ms.max())}


# --------------------------------------------------------------------------- data


def build_tenant(n_memories: int, copies: int) -> tuple[list, dict[str, str]]:
    """``n_memories`` records of :data:`USER` from the demo data, and id -> original text.

    Raises:
        SystemExit: the copies do not reach ``n_memories``.
    """
    from scanner.demo import demo_records_path
    from scanner.models import MemoryRecord
    from scanner.records import read_jsonl

    demo, rejected = read_jsonl(demo_records_path())
    if rejected or len(demo) * copies < n_memories:
        raise SystemExit(f"{len(demo)} demo records x {copies} copies < {n_memories}")
    records, original = [], {}
    for k in range(copies):
        for r in demo:
            if len(records) == n_memories:
                break
            rid = f"{r.id}~c{k}"
            data = r.model_dump()
            data.update(id=rid, user_id=USER, text=f"{r.text} Logged in batch {k}.",
                        properties={**r.properties, "copy": f"c{k}"})
            records.append(MemoryRecord(**data))
            original[rid] = r.text
    return records, original


# --------------------------------------------------------------------------- the sidecar


def start_sidecar(weaviate_port: int, grpc_port: int, log_path: Path,
                  timeout_s: float = 300.0, api_key: str | None = None,
                  extra_args: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """``contrascan serve`` in a child process on the given Weaviate (``api_key``: the
    server's key; the embedded server refuses anonymous clients); returns it and its URL once
    ``/healthz`` answers 200.

    Raises:
        RuntimeError: it exited or was not ready within ``timeout_s``.
    """
    from scanner.store import server

    port = server.free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("CONTRASCAN_API_KEY", None)
    if api_key:
        env[server.API_KEY_ENV] = api_key
    command = [sys.executable, "-m", "scanner.cli", "serve", "--port", str(port),
               "--weaviate-url", f"http://127.0.0.1:{weaviate_port}?grpc_port={grpc_port}",
               "--log-level", "warning", *extra_args]
    with log_path.open("w") as log:  # the child keeps its own descriptor
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                cwd=REPO)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    with httpx.Client(base_url=url, timeout=5) as probe:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"contrascan serve exited with {proc.returncode}; see "
                                   f"{log_path}")
            try:
                if probe.get("/healthz").status_code == 200:
                    return proc, url
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
    proc.kill()
    raise RuntimeError(f"contrascan serve not ready after {timeout_s:.0f} s; see {log_path}")


def stop_sidecar(proc: subprocess.Popen) -> None:
    """Ctrl-C (uvicorn shuts down gracefully), then kill after 30 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------- runs


def bare_query(store: Any, q: dict, vector: np.ndarray) -> Any:
    """The hybrid query a read-time scan of ``q`` runs (same tenant, filters, fusion, alpha,
    k), its results not decoded: :func:`scanner.store.queries.hybrid_query` on the tenant
    handle the store uses."""
    from scanner.store.queries import hybrid_query
    from scanner.store.tenants import open_tenant

    col = open_tenant(store.client, store.name, USER, set())
    return hybrid_query(col, q["query"], vector, group=q["group"], properties=q["properties"],
                        limit=K, alpha=ALPHA)


def measure_latency(service, http: httpx.Client, queries: list[dict],
                    vectors: np.ndarray, warmup: int) -> dict[str, Any]:
    """Bare, embed + bare, in-process service, sidecar with the query vector and sidecar
    with the text only, per query; the order flips every query."""
    store, embedder = service.store, service.embedder
    samples: dict[str, list[float]] = {name: [] for name in LATENCY_RUNS}
    stages: dict[str, list[dict[str, float]]] = {"sidecar": [], "sidecar_vector": []}
    agree = 0
    for i, q in enumerate(queries):
        def run_bare() -> list[str]:
            t = time.perf_counter()
            res = bare_query(store, q, vectors[i])
            samples["bare"].append(time.perf_counter() - t)
            return [o.properties["memory_id"] for o in res.objects]

        def run_embed_bare() -> None:
            t = time.perf_counter()
            vector = embedder.encode([q["query"]])[0]
            bare_query(store, q, vector)
            samples["embed_and_bare"].append(time.perf_counter() - t)

        def run_service() -> None:
            t = time.perf_counter()
            service.scan(USER, q["query"], group=q["group"], properties=q["properties"],
                         limit=K, alpha=ALPHA, apply=False)
            samples["service_in_process"].append(time.perf_counter() - t)

        def post(name: str, body: dict) -> list[str]:
            t = time.perf_counter()
            response = http.post("/v1/scan", json=body)
            content = response.content
            samples[name].append(time.perf_counter() - t)
            if response.status_code != 200:
                raise RuntimeError(f"POST /v1/scan answered {response.status_code}: "
                                   f"{content[:300]!r}")
            stages[name].append(parse_server_timing(response.headers.get("server-timing", "")))
            return [h["id"] for h in json.loads(content)["hits"]]

        def run_sidecar() -> list[str]:
            return post("sidecar", scan_body(q))

        def run_sidecar_vector() -> list[str]:
            return post("sidecar_vector", scan_body(q, vectors[i]))

        order = (run_bare, run_embed_bare, run_service, run_sidecar, run_sidecar_vector)
        if i % 2:
            order = order[::-1]
        ids = {}
        for fn in order:
            ids[fn.__name__] = fn()
        agree += ids["run_bare"] == ids["run_sidecar"] == ids["run_sidecar_vector"]
    cut = slice(warmup, None)
    kept = {name: values[cut] for name, values in samples.items()}
    out: dict[str, Any] = {name: latency_summary(values) for name, values in kept.items()}
    out["sidecar_vector_vs_bare"] = LatencyEvaluator("sidecar_vector_vs_bare")(
        kept["sidecar_vector"], kept["bare"])
    out["sidecar_vs_embed_and_bare"] = LatencyEvaluator("sidecar_vs_embed_and_bare")(
        kept["sidecar"], kept["embed_and_bare"])
    out["sidecar_vs_bare"] = LatencyEvaluator("sidecar_vs_bare")(kept["sidecar"], kept["bare"])
    out["server_stages_p50_ms"] = {name: stage_medians(rows[cut])
                                   for name, rows in stages.items()}
    out["same_hits_share"] = agree / len(queries)
    out["samples_ms"] = {name: [round(x * 1e3, 3) for x in values]
                         for name, values in kept.items()}
    return out


LATENCY_RUNS = ("bare", "embed_and_bare", "service_in_process", "sidecar", "sidecar_vector")
"""The timed runs of :func:`measure_latency`, in their (alternating) order."""


def scan_body(q: dict, vector: np.ndarray | None = None) -> dict[str, Any]:
    """The ``POST /v1/scan`` body of one query, with the agent's query vector if given."""
    body = {"user_id": USER, "query": q["query"], "group": q["group"],
            "properties": q["properties"], "limit": K, "alpha": ALPHA}
    if vector is not None:
        body["vector"] = vector.tolist()
    return body


def parse_server_timing(header: str) -> dict[str, float]:
    """``Server-Timing`` (``name;dur=ms, …``) as name -> milliseconds."""
    out = {}
    for part in header.split(","):
        name, _, rest = part.strip().partition(";dur=")
        if name and rest:
            out[name] = float(rest)
    return out


def stage_medians(rows: list[dict[str, float]]) -> dict[str, float]:
    """Per stage: the median over the requests that ran it, and how many did."""
    names = sorted({name for row in rows for name in row})
    return {name: {"p50_ms": float(np.median([r[name] for r in rows if name in r])),
                   "requests": sum(name in r for r in rows)} for name in names}


def measure_throughput(url: str, queries: list[dict], concurrency: int,
                       per_client: int, vectors: np.ndarray | None = None) -> dict[str, Any]:
    """``concurrency`` clients, one connection each, ``per_client`` scans each; with
    ``vectors``, every request carries its query's vector."""
    failures: Counter[str] = Counter()
    latencies: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(concurrency + 1)

    def client(index: int) -> None:
        mine = [(index * per_client + j) % len(queries) for j in range(per_client)]
        local, failed = [], Counter()
        with httpx.Client(base_url=url, timeout=60) as http:
            barrier.wait()
            for j in mine:
                body = scan_body(queries[j], None if vectors is None else vectors[j])
                t = time.perf_counter()
                try:
                    response = http.post("/v1/scan", json=body)
                    ok = response.status_code == 200 and b'"hits"' in response.content
                    if not ok:
                        failed[f"status {response.status_code}"] += 1
                except httpx.HTTPError as err:
                    failed[type(err).__name__] += 1
                local.append(time.perf_counter() - t)
        with lock:
            latencies.extend(local)
            failures.update(failed)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(concurrency)]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    total = concurrency * per_client
    return {"concurrency": concurrency, "requests": total, "seconds": wall,
            "requests_per_second": total / wall, "failed": sum(failures.values()),
            "failures": dict(failures), "latency": latency_summary(latencies)}


def measure_bare_throughput(store, queries: list[dict], vectors: np.ndarray,
                            concurrency: int, per_client: int) -> dict[str, Any]:
    """The bare query from ``concurrency`` threads of this process, for comparison."""
    from concurrent.futures import ThreadPoolExecutor

    jobs = [(i * per_client + j) % len(queries)
            for i in range(concurrency) for j in range(per_client)]

    def one(index: int) -> float:
        q = queries[index]
        t = time.perf_counter()
        bare_query(store, q, vectors[index])
        return time.perf_counter() - t

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        latencies = list(pool.map(one, jobs))
    wall = time.perf_counter() - started
    return {"concurrency": concurrency, "requests": len(jobs), "seconds": wall,
            "requests_per_second": len(jobs) / wall, "latency": latency_summary(latencies)}


def batch_scan_through_sidecar(http: httpx.Client, timeout_s: float = 1800) -> dict[str, Any]:
    """``POST /v1/batch-scans`` for :data:`USER` and wait for the job."""
    started = time.perf_counter()
    job = http.post("/v1/batch-scans", json={"user_id": USER}).json()
    deadline = time.monotonic() + timeout_s
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.5)
        job = http.get(f"/v1/batch-scans/{job['id']}", params={"user_id": USER}).json()
    if job["status"] != "done":
        raise RuntimeError(f"batch scan ended {job['status']}: {job.get('error')}")
    report = job["report"]
    return {"seconds": time.perf_counter() - started, "scanned": report["scanned"],
            "conflicts": len(report["conflicts"]),
            "by_verdict": dict(Counter(c["verdict"] for c in report["conflicts"])),
            "withhold": len(report["withhold"]), "unresolved": len(report["unresolved"])}


# --------------------------------------------------------------------------- provenance


def _versions() -> dict[str, str]:
    return package_versions(("contrascan", "weaviate-client", "fastapi", "starlette", "uvicorn", "httpx",
                 "pydantic", "sentence-transformers", "torch", "spacy", "prometheus-client"))


def _git() -> dict[str, Any]:
    return git_state(REPO)


def plot_cdf(latency: dict[str, Any], path: Path) -> Path | None:
    """Latency CDFs of the five measurements (None without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, label in (("bare", "bare Weaviate hybrid query"),
                        ("embed_and_bare", "embed query + bare query"),
                        ("service_in_process", "Service.scan in process (no HTTP)"),
                        ("sidecar", "POST /v1/scan, text only (sidecar embeds)"),
                        ("sidecar_vector", "POST /v1/scan with the query vector")):
        xs = np.sort(latency["samples_ms"][name])
        ax.plot(xs, np.arange(1, xs.size + 1) / xs.size, label=label)
    ax.set_xscale("log")
    ax.set_xlabel("latency per request, ms (log scale)")
    ax.set_ylabel("share of requests")
    ax.set_title(f"k = {K}, {latency['sidecar']['n']} queries, 10,000-memory tenant")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit code 1 when a request failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--queries", type=int, default=1_000, help="timed queries (>= 1000 "
                        "for the issue's figures)")
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--requests-per-client", type=int, default=150)
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default results/service/<UTC time>)")
    parser.add_argument("--ledger-entries", type=int, default=200_000,
                        help="ledger entries written before the load run (issue 18: 200k)")
    parser.add_argument("--load-clients", type=int, default=200,
                        help="clients of the load run: 20 probe /healthz and /metrics, the "
                             "rest scan (0 skips the run)")
    parser.add_argument("--load-seconds", type=float, default=60.0)
    parser.add_argument("--serve-arg", action="append", default=[],
                        help="extra argument of `contrascan serve` (repeat), e.g. "
                             "--serve-arg=--max-in-flight --serve-arg=8")
    parser.add_argument("--probe-method", choices=service_load.PROBE_METHODS,
                        default="process",
                        help="where the load run's /healthz and /metrics clients run: a process "
                             "of their own (default) or threads of this one (the first method)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="keep the store here and reuse what it holds on the next run "
                             "(default: a temporary directory, deleted)")
    parser.add_argument("--only-load", action="store_true",
                        help="import, build the ledger and run the load run only")
    args = parser.parse_args(argv)
    if args.load_clients and args.load_clients <= 20:
        parser.error("--load-clients must exceed the 20 probing clients")

    from scanner.demo import demo_records_path
    from scanner.embeddings import DEFAULT_MODEL, DIMENSIONS
    from scanner.service import Service
    from scanner.store import access, server
    from scanner.store.wiring import weaviate_stores

    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.out or RESULTS / stamp
    out_dir.mkdir(parents=True, exist_ok=True)
    say = lambda line: print(line, flush=True)  # noqa: E731
    load_before = os.getloadavg()

    if server.ensure_binary(log=say) is None:
        say("no weaviate-server binary: run `make setup`")
        return 1
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="contrascan-bench-"))
    port, grpc_port = server.free_ports()
    client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    proc = None
    try:
        service = Service(weaviate_stores(client))
        store = service.store
        records, original = build_tenant(args.memories, args.copies)
        say(f"importing {len(records)} memories into tenant {USER!r} "
            f"({args.copies} copies of {demo_records_path().name})")
        t0 = time.perf_counter()
        imported = service.import_records(records)  # ids already stored are left as they are
        import_s = time.perf_counter() - t0
        if imported.failures or store.count(USER) != len(records):
            raise RuntimeError(f"import incomplete: {imported.failures[:3]}")
        say(f"  {imported.written} written in {import_s:.1f} s")

        ledger = None
        if args.load_clients and service.ledger.count(USER) >= args.ledger_entries:
            ledger = {"entries": service.ledger.count(USER), "reused": str(data_dir)}
            say(f"reusing the {ledger['entries']} ledger entries of {data_dir}")
        elif args.load_clients:
            say(f"writing {args.ledger_entries} ledger entries for the load run")
            ledger = service_load.build_ledger(service.ledger, USER, records,
                                               args.ledger_entries, SEED, say)
            say(f"  {ledger['entries']} entries in {ledger['seconds']:.1f} s")
        proc, url = start_sidecar(port, grpc_port, out_dir / "sidecar.log",
                                  api_key=access.server_key(data_dir),
                                  extra_args=tuple(args.serve_arg))
        say(f"sidecar up at {url} (contrascan serve --weaviate-url …)")
        if args.only_load:
            return _only_load(args, url, records, original, ledger, out_dir, stamp, say,
                              proc.pid, data_dir)
        with httpx.Client(base_url=url, timeout=60) as http:
            batch = batch_scan_through_sidecar(http)
            say(f"batch scan through the sidecar: {batch['scanned']} memories, "
                f"{batch['conflicts']} conflicting pairs in {batch['seconds']:.1f} s")

            rng = random.Random(SEED)
            n_total = args.warmup + args.queries
            wanted = n_total + args.concurrency * args.requests_per_client
            chosen = rng.sample(records, min(wanted, len(records)))
            queries = [{"query": original[r.id].rstrip("."), "group": r.group,
                        "properties": dict(r.properties)} for r in chosen]
            latency_queries = queries[:n_total]
            vectors = service.embedder.encode([q["query"] for q in queries])
            say(f"latency: {args.queries} queries (+{args.warmup} warm-up), k = {K}")
            latency = measure_latency(service, http, latency_queries, vectors[:n_total],
                                      args.warmup)

        rest = queries[n_total:] or queries
        rest_vectors = vectors[n_total:] if len(queries) > n_total else vectors
        say(f"throughput: {args.concurrency} clients x {args.requests_per_client} scans")
        throughput = measure_throughput(url, rest, args.concurrency, args.requests_per_client)
        throughput_vector = measure_throughput(url, rest, args.concurrency,
                                               args.requests_per_client, rest_vectors)
        bare_throughput = measure_bare_throughput(store, rest, rest_vectors, args.concurrency,
                                                  args.requests_per_client)
        load = None
        if args.load_clients:
            load = service_load.run_load(url, [scan_body(q) for q in queries],
                                         scan_clients=args.load_clients - 20,
                                         seconds=args.load_seconds,
                                         probe_method=args.probe_method, server_pid=proc.pid,
                                         processes=_weaviate_pid(data_dir),
                                         say=say)
        with httpx.Client(base_url=url, timeout=10) as http:
            server_metrics = http.get("/metrics").text
    finally:
        if proc is not None:
            stop_sidecar(proc)
        client.close()
        if args.data_dir is None:
            shutil.rmtree(data_dir, ignore_errors=True)

    load_after = os.getloadavg()
    demo_path = demo_records_path()
    document = {
        "benchmark": "bench_service",
        "issue": 6,
        "created_at": stamp,
        "primary_metric": "latency.sidecar_vs_embed_and_bare.p50_ratio",
        "target": {"sidecar_vs_embed_and_bare_p50_ratio_max": TARGET_P50_RATIO,
                   "sidecar_vector_vs_bare_p50_ratio_max": TARGET_P50_RATIO,
                   "throughput_failed_requests": 0},
        "parameters": {"memories": len(records), "copies": args.copies, "k": K,
                       "alpha": ALPHA, "fusion": "relative_score", "queries": args.queries,
                       "warmup": args.warmup, "concurrency": args.concurrency,
                       "requests_per_client": args.requests_per_client, "seed": SEED,
                       "user": USER, "verdicts_recorded_before_timing": True,
                       "compute_threads": os.environ.get("OMP_NUM_THREADS")},
        "models": {"embedding": DEFAULT_MODEL, "embedding_dimensions": DIMENSIONS,
                   "spacy_pipeline": _spacy_pipeline()},
        "versions": {"weaviate_server": server.WEAVIATE_VERSION, "python": platform.python_version(),
                     **_versions()},
        "data": {"file": str(demo_path.relative_to(REPO)),
                 "sha256": hashlib.sha256(demo_path.read_bytes()).hexdigest()},
        "git": _git(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "loadavg_before": load_before, "loadavg_after": load_after},
        "import": {"seconds": import_s, "written": imported.written},
        "batch_scan": batch,
        "latency": latency,
        "throughput": {"sidecar": throughput, "sidecar_vector": throughput_vector,
                       "bare": bare_throughput},
        "server_request_count": _request_count(server_metrics),
        "ledger": ledger,
        "load": load,
    }
    path = out_dir / "bench_service.json"
    path.write_text(json.dumps(document, indent=2))
    figure = plot_cdf(latency, out_dir / "latency_cdf.png")

    lat = latency
    sv, se = lat["sidecar_vector_vs_bare"], lat["sidecar_vs_embed_and_bare"]
    say("")
    say(f"latency over {lat['sidecar']['n']} queries, k = {K} (ms):")
    for name in LATENCY_RUNS:
        s = lat[name]
        say(f"  {name:18s} p50 {s['p50_ms']:7.2f}   p99 {s['p99_ms']:7.2f}   mean "
            f"{s['mean_ms']:7.2f}")
    for label, r in (("sidecar (text) / (embed + bare)", se), ("sidecar (vector) / bare", sv)):
        say(f"  {label:32s} p50 ratio {r['p50_ratio']:.2f} (target ≤ {TARGET_P50_RATIO}: "
            f"{'met' if r['meets_target'] else 'NOT met'}), p99 ratio {r['p99_ratio']:.2f}")
    for name, stages in lat["server_stages_p50_ms"].items():
        say(f"  {name} server stages, p50 ms: " + ", ".join(
            f"{k} {v['p50_ms']:.2f} ({v['requests']})" for k, v in stages.items()))
    say(f"  same hits as the bare query: {100 * lat['same_hits_share']:.1f} %")
    for label, t in (("text", throughput), ("vector", throughput_vector)):
        say(f"throughput ({label}), {t['concurrency']} concurrent clients: "
            f"{t['requests_per_second']:.1f} scans/s over {t['requests']} requests, "
            f"{t['failed']} failed (p50 {t['latency']['p50_ms']:.1f} ms, p99 "
            f"{t['latency']['p99_ms']:.1f} ms)")
    say(f"bare query, {args.concurrency} threads: "
        f"{bare_throughput['requests_per_second']:.1f} queries/s")
    if load is not None:
        service_load.print_load(load, say)
    say(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
        f"({os.cpu_count()} CPUs)")
    say(f"results: {path}" + (f", {figure}" if figure else ""))
    return 1 if throughput["failed"] or throughput_vector["failed"] or (
        load is not None and not load["meets_targets"]) else 0


def _only_load(args: argparse.Namespace, url: str, records: list, original: dict[str, str],
               ledger: dict[str, Any] | None, out_dir: Path, stamp: str, say: Any,
               server_pid: int, data_dir: Path) -> int:
    """``--only-load``: the load run and its JSON, without the latency and throughput runs."""
    rng = random.Random(SEED)
    queries = [{"query": original[r.id].rstrip("."), "group": r.group,
                "properties": dict(r.properties)}
               for r in rng.sample(records, min(2_000, len(records)))]
    load_before = os.getloadavg()
    load = service_load.run_load(url, [scan_body(q) for q in queries],
                                 scan_clients=args.load_clients - 20,
                                 seconds=args.load_seconds,
                                 probe_method=args.probe_method, server_pid=server_pid,
                                 processes=_weaviate_pid(data_dir),
                                 say=say)
    document = {
        "benchmark": "bench_service", "issue": 18, "created_at": stamp,
        "primary_metric": "load.ratios.metrics_p99_vs_target",
        "parameters": {"memories": len(records), "copies": args.copies, "seed": SEED,
                       "ledger_entries": args.ledger_entries, "load_clients": args.load_clients,
                       "load_seconds": args.load_seconds, "only_load": True,
                       "probe_method": args.probe_method, "serve_args": args.serve_arg,
                       "compute_threads": os.environ.get("OMP_NUM_THREADS")},
        "versions": {"python": platform.python_version(), **_versions()},
        "git": _git(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "loadavg_before": load_before, "loadavg_after": os.getloadavg()},
        "ledger": ledger, "load": load}
    path = out_dir / "bench_service.json"
    path.write_text(json.dumps(document, indent=2))
    service_load.print_load(load, say)
    say(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} "
        f"({os.cpu_count()} CPUs)")
    say(f"results: {path}")
    return 0 if load["meets_targets"] else 1


def _weaviate_pid(data_dir: Path) -> dict[str, int]:
    """The embedded Weaviate's process id, for the load run's CPU figures (none if unknown)."""
    from scanner.store import server

    pids = server.server_pids(data_dir)
    return {"weaviate": pids[0]} if pids else {}


def _spacy_pipeline() -> str:
    from extractors import DEFAULT_PIPELINE

    return DEFAULT_PIPELINE


def _request_count(text: str) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "contrascan_http_request_duration_seconds_count":
                out[f"{s.labels['method']} {s.labels['route']} {s.labels['status']}"] = s.value
    return out


if __name__ == "__main__":
    sys.exit(main())
