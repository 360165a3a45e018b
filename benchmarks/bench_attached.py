"""Attached-source figures (issue 16 "Done when").

1. "Scan these hits" cost at read time: the agent's own hybrid search (k = 12) on its own
   collection, then :meth:`AttachedSource.scan_hits` with the objects it returned (no second
   search) once their triples are cached. Reports p50/p95 of both in ms; the added cost is the
   scan's.
2. The first scan of an uncached collection: :meth:`AttachedSource.sync` extraction rate
   (memories per second of extraction).
3. Batch scan of the whole attached collection at each ``--n``, each in its own process:
   peak RSS (``ru_maxrss``) after the sync + scan, and what a re-run writes (must be 0).

The collection is laid out as langchain-weaviate writes it (no tenants; ``text`` plus metadata
properties ``user_id``, ``source``, ``source_class``, ``observed_at``, ``epoch``; self-provided
all-MiniLM-L6-v2 vectors), with generated statements of which 1 in 8 contradicts the one before it.

Usage: ``HF_HUB_OFFLINE=1 python -m benchmarks.bench_attached --n 2000 10000``. Output: JSON on
stdout and in ``results/attached/<UTC time>.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
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
    if not args.skip_read_time:
        with tempfile.TemporaryDirectory() as tmp:
            client = _connect(tmp)
            try:
                out["read_time"] = read_time(client)
                path.write_text(json.dumps(out, indent=2) + "\n")
            finally:
                client.close()
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
