"""Attached-source figures (issue 16 "Done when").

1. "Scan these hits" cost at read time: the agent's own hybrid search (k = 12) on its own
   collection, then :meth:`AttachedSource.scan_hits` with the objects it returned (no second
   search) once their triples are cached. Reports p50/p95 of both in ms; the added cost is the
   scan's.
2. The first scan of an uncached collection: :meth:`AttachedSource.sync` extraction rate
   (memories per second of extraction).
3. Batch scan of the whole attached collection at each ``--n``, each in its own process:
   peak RSS (``ru_maxrss``) after the sync + scan, and what a re-run writes (must be 0).
4. ``source scan`` through a running sidecar (issue 35): a ``contrascan serve --sources FILE``
   is started on its own embedded Weaviate; over its 2,000-object collection (cached by one
   batch scan), p50/p95 in ms of warm calls of :meth:`AttachedSource.search` in this process,
   of ``POST /v1/sources/{name}/scan`` (httpx, one connection), and of the whole command
   ``contrascan source scan --sidecar URL --json`` run as a user runs it (a new Python
   process each, so its start and imports count); beside them, a few runs of the same command
   without ``--sidecar`` (spaCy, the model and the connection loaded by each call).

The collection is laid out as langchain-weaviate writes it (no tenants; ``text`` plus metadata
properties ``user_id``, ``source``, ``source_class``, ``observed_at``, ``epoch``; self-provided
all-MiniLM-L6-v2 vectors), with generated statements of which 1 in 8 contradicts the one before it.

Usage: ``HF_HUB_OFFLINE=1 python -m benchmarks.bench_attached --n 2000 10000``
(``--only-sidecar`` for the fourth figure alone). Output: JSON on stdout and in
``results/attached/<UTC time>.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path

OWNERS = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana"]


SYLLABLES = ["ka", "zor", "vel", "mu", "tri", "quon", "bel", "sha", "dro", "pix", "lun", "gef",
             "yam", "ost", "rhu", "wib"]


def _code_name(i: int) -> str:
    """A project code name per number: three syllables (16^3 names, then a suffix), so that
    subjects are not string-similar the way "project 12" and "project 13" are (string-similar
    subjects are compared as ``subject_unconfirmed`` pairs, SPEC §3)."""
    a, b, c = i % 16, (i // 16) % 16, (i // 256) % 16
    name = (SYLLABLES[a] + SYLLABLES[(b + 5 * a) % 16] + SYLLABLES[(c + 3 * b + 7 * a) % 16])
    return name.capitalize() + (f" {i // 4096}" if i >= 4096 else "")


def _statements(n: int, users: int) -> Iterator[dict]:
    """``n`` statements over ``users`` users, generated one at a time; each user's 8th, 16th,
    … statement restates the previous statement's key with another value (a value conflict,
    resolved by recency)."""
    for i in range(n):
        user, j = i % users, i // users
        project = j - 1 if j % 8 == 7 else j
        yield {"text": f"The owner of {_code_name(project)} is {OWNERS[j % 8]}.",
               "user_id": f"user-{user}", "source": f"chat:{i}", "source_class": "user",
               "epoch": "v1", "observed_at": datetime(2026, 1, 1, tzinfo=timezone.utc)
               .replace(day=1 + j % 28).isoformat()}


def _fill(client, name: str, rows: Iterable[dict], embed: bool) -> None:
    from weaviate.classes.config import Configure, DataType, Property
    from weaviate.classes.data import DataObject

    from scanner.embeddings import Embedder

    client.collections.create(name, vector_config=Configure.Vectors.self_provided(),
                              properties=[Property(name=p, data_type=DataType.TEXT) for p in
                                          ("text", "user_id", "source", "source_class",
                                           "observed_at", "epoch")])
    col = client.collections.use(name)
    embedder = Embedder()
    rows = iter(rows)
    while part := list(itertools.islice(rows, 500)):
        vectors = embedder.encode([r["text"] for r in part]) if embed else None
        col.data.insert_many([DataObject(properties=r, uuid=str(uuid.uuid4()),
                                         vector=vectors[i].tolist() if embed else None)
                              for i, r in enumerate(part)])


def read_time(client, k: int = 12, repeats: int = 200) -> dict:
    from scanner.embeddings import Embedder
    from scanner.sources import preset
    from scanner.sources.service import AttachedSource

    name = f"BenchAttached_{uuid.uuid4().hex[:8]}"
    _fill(client, name, _statements(2000, 20), embed=True)
    source = AttachedSource(client, preset("langchain", name))
    col = client.collections.use(name)
    embedder = Embedder()
    queries = [f"owner of project {i}" for i in range(20)]
    vectors = embedder.encode(queries)
    from weaviate.classes.query import Filter, MetadataQuery

    def agent_search(i: int):
        return col.query.hybrid(query=queries[i % 20], vector=vectors[i % 20].tolist(),
                                limit=k, alpha=0.5,
                                filters=Filter.by_property("user_id").equal(f"user-{i % 20}"),
                                return_metadata=MetadataQuery(score=True))

    sync = source.sync()
    searches, scans = [], []
    for i in range(repeats):
        t0 = time.perf_counter()
        res = agent_search(i)
        t1 = time.perf_counter()
        objects = [{"_id": str(o.uuid), **o.properties} for o in res.objects]
        source.scan_hits(f"user-{i % 20}", objects=objects, apply=False)
        t2 = time.perf_counter()
        searches.append((t1 - t0) * 1e3)
        scans.append((t2 - t1) * 1e3)
    client.collections.delete([name, source.store.name, source.ledger.name,
                               source.scan_state.name])
    q = statistics.quantiles
    return {"k": k, "repeats": repeats, "collection_objects": 2000,
            "agent_search_ms": {"p50": round(statistics.median(searches), 3),
                                "p95": round(q(searches, n=20)[18], 3)},
            "scan_hits_cached_ms": {"p50": round(statistics.median(scans), 3),
                                    "p95": round(q(scans, n=20)[18], 3)},
            "first_sync": sync.to_json_dict() | {"rejected": len(sync.rejected)}}


def batch(client, n: int, users: int) -> dict:
    from scanner.sources import preset
    from scanner.sources.service import AttachedSource

    name = f"BenchAttached_{uuid.uuid4().hex[:8]}"
    _fill(client, name, _statements(n, users), embed=False)
    source = AttachedSource(client, preset("langchain", name))
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    first = source.batch_scan_source()
    seconds = time.perf_counter() - t0
    rss_first = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    again = source.batch_scan_source()
    rewritten = sum(t.ledger.written + t.ledger.replaced + t.applied.edges_added
                    for t in again.scan.tenants) + again.sync.extracted
    client.collections.delete([name, source.store.name, source.ledger.name,
                               source.scan_state.name])
    return {"n": n, "users": users, "seconds": round(seconds, 2),
            "sync": first.sync.to_json_dict() | {"rejected": len(first.sync.rejected)},
            "conflicts": sum(t.conflicts for t in first.scan.tenants),
            "peak_rss_mib": round(rss_first, 1),
            "peak_rss_before_scan_mib": round(rss_before, 1), "rerun_writes": rewritten,
            "rerun_extracted": again.sync.extracted}


def _quantiles(ms: list[float]) -> dict[str, float]:
    """p50 and p95 (of fewer than 20 runs, read p95 beside ``max``: it extrapolates) in ms."""
    return {"p50": round(statistics.median(ms), 1),
            "p95": round(statistics.quantiles(ms, n=20)[18], 1) if len(ms) > 1 else ms[0],
            "max": round(max(ms), 1), "runs": len(ms)}


def _command(args: list[str]) -> float:
    """Seconds one ``contrascan`` command takes, as a user runs it (a new process)."""
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "scanner.cli", *args], capture_output=True,
                         text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    seconds = time.perf_counter() - t0
    if run.returncode != 0:
        raise RuntimeError(f"contrascan {' '.join(args)}: {run.stderr[-2000:]}")
    json.loads(run.stdout)  # the report, whole
    return seconds


def sidecar(repeats: int = 100, cli_repeats: int = 20, cold_repeats: int = 3) -> dict:
    """Figure 4 (see the module docstring)."""
    import httpx

    from scanner.sources import preset
    from scanner.sources.service import AttachedSource
    from scanner.store import server

    name = f"BenchAttached_{uuid.uuid4().hex[:8]}"
    users = 20
    queries = [(f"user-{i % users}", f"owner of {_code_name(i)}") for i in range(repeats)]
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        sources = Path(tmp) / "sources.toml"
        sources.write_text(f'[sources.{name}]\npreset = "langchain"\ncollection = "{name}"\n')
        port, grpc_port = server.free_ports()
        http_port = server.free_port()
        store = ["--data-dir", str(data_dir), "--port", str(port), "--grpc-port",
                 str(grpc_port)]
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        env.pop("CONTRASCAN_API_KEY", None)
        serve = subprocess.Popen(
            [sys.executable, "-m", "scanner.cli", "serve", "--port", str(http_port),
             "--data-dir", str(data_dir), "--weaviate-port", str(port),
             "--weaviate-grpc-port", str(grpc_port), "--sources", str(sources),
             "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=env)
        url = f"http://127.0.0.1:{http_port}"
        try:
            started = time.perf_counter()
            while True:
                try:
                    if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if serve.poll() is not None or time.perf_counter() - started > 600:
                    raise RuntimeError("contrascan serve did not become ready")
                time.sleep(0.5)
            serve_ready_s = time.perf_counter() - started
            with server.open_client(data_dir=data_dir, port=port,
                                    grpc_port=grpc_port) as client:
                _fill(client, name, _statements(2000, users), embed=True)
                with httpx.Client(base_url=url, timeout=120) as http:
                    batch = http.post(f"/v1/sources/{name}/batch-scans").json()

                    def call(i: int) -> float:
                        user, query = queries[i]
                        t0 = time.perf_counter()
                        answer = http.post(f"/v1/sources/{name}/scan",
                                           json={"user_id": user, "query": query})
                        answer.raise_for_status()
                        return (time.perf_counter() - t0) * 1e3

                    call(0)  # the first call attaches the source in the sidecar
                    over_http = [call(i) for i in range(repeats)]
                source = AttachedSource(client, preset("langchain", name))
                source.search(*queries[0])  # the model's first call
                in_process = []
                for user, query in queries:
                    t0 = time.perf_counter()
                    source.search(user, query)
                    in_process.append((time.perf_counter() - t0) * 1e3)
                command = ["source", "scan", "--preset", "langchain", "--collection", name,
                           "--json"]
                through = [_command([*command, "--sidecar", url, "--user", user, "--query",
                                     query]) * 1e3 for user, query in queries[:cli_repeats]]
                cold = [_command([*command, *store, "--user", user, "--query", query]) * 1e3
                        for user, query in queries[:cold_repeats]]
        finally:
            serve.send_signal(signal.SIGTERM)
            try:
                serve.wait(timeout=60)
            except subprocess.TimeoutExpired:
                serve.kill()
                serve.wait()
    return {"collection_objects": 2000, "users": users, "serve_ready_s": round(serve_ready_s, 1),
            "batch_scan": batch.get("sync", {}),
            "in_process_search_ms": _quantiles(in_process),
            "sidecar_http_scan_ms": _quantiles(over_http),
            "cli_with_sidecar_ms": _quantiles(through),
            "cli_without_sidecar_ms": _quantiles(cold)}


def _connect(tmp: str):
    from scanner.store import server

    port, grpc_port = server.free_ports()
    return server.connect_embedded(tmp, port=port, grpc_port=grpc_port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[2000, 10000],
                        help="collection sizes for the batch figures (one process each)")
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--skip-read-time", action="store_true")
    parser.add_argument("--only-sidecar", action="store_true",
                        help="only figure 4: source scan through a running sidecar")
    parser.add_argument("--one-batch", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_batch:
        with tempfile.TemporaryDirectory() as tmp:
            client = _connect(tmp)
            try:
                print(json.dumps(batch(client, args.one_batch, args.users)))
            finally:
                client.close()
        return 0
    out: dict = {"started": datetime.now(timezone.utc).isoformat()}
    path = Path("results/attached") / (datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
                                       + ".json")
    path.parent.mkdir(parents=True, exist_ok=True)
    if args.only_sidecar:
        out["sidecar"] = sidecar()
        path.write_text(json.dumps(out, indent=2) + "\n")
        print(json.dumps(out, indent=2))
        return 0
    if not args.skip_read_time:
        with tempfile.TemporaryDirectory() as tmp:
            client = _connect(tmp)
            try:
                out["read_time"] = read_time(client)
                path.write_text(json.dumps(out, indent=2) + "\n")
            finally:
                client.close()
    out["sidecar"] = sidecar()
    path.write_text(json.dumps(out, indent=2) + "\n")
    out["batch"] = []
    for n in args.n:  # a process each, so peak RSS is this size's own
        run = subprocess.run([sys.executable, "-m", "benchmarks.bench_attached", "--one-batch",
                              str(n), "--users", str(args.users)], capture_output=True,
                             text=True, check=True)
        out["batch"].append(json.loads(run.stdout.strip().splitlines()[-1]))
        path.write_text(json.dumps(out, indent=2) + "\n")  # each size as soon as it is done
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
