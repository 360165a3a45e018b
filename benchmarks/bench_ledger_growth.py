"""Ledger entries, ``supersedes`` edges and batch-scan time against the number of values one key
collects (issue 18, item 11: "The ledger grows with pairs, not values").

A key that collects ``n`` values observed one after another resolves ``n(n-1)/2`` pairs: each
later value beats every earlier one by recency (SPEC §3). The scan report lists every pair
(SPEC §5); the ledger records the key's decision, each superseded member once, by the value
that replaced it (:func:`scanner.core.key_decision.deciding_resolutions`), so it should hold ``n - 1``
entries per key, and the edges as many.

The data are synthetic, so that no extractor decides what shares a key: per tenant, ``--keys``
keys ("the rack position of tile k"), each with ``n`` values ("slot 0" … "slot n-1"),
source class ``user`` (every seventh an ``observation``, so source class decides some pairs),
one epoch, observed a minute apart; the triples are written with the records
(:meth:`scanner.store.memories.MemoryStore.import_memories`) and the vectors are seeded random
unit vectors (a batch scan reads no vectors). For each ``n`` (default 2, 10, 50, 200) one
tenant is written and scanned three times with :meth:`scanner.service.Service.scan_tenant`:

* **first scan**: decides and writes every edge, status and ledger entry;
* **re-scan** (``full=True``): decides again and finds nothing to write (the converged state,
  which issue 18 asks of ``--full``);
* **grown**: one more value per key is imported and the tenant scanned again: the entries
  and edges written for one new value per key.

Printed and written to ``results/ledger_growth/<UTC time>/bench_ledger_growth.json``: per
``n``, the report's pairs, the ledger entries and edges stored, entries per key, seconds and
entries written per scan. The primary metric is ``entries_per_value`` at the largest ``n``
(ledger entries / (keys x n); below 1 means O(values)).

Weaviate is a throw-away embedded server (the pinned version) in a temporary directory on
free ports, stopped and deleted at the end, unless ``--weaviate-url`` names one (collections
``BenchLedger<random>`` are then dropped after use).

Usage::

    python -m benchmarks.bench_ledger_growth [--values 2 10 50 200] [--keys 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.provenance import git_state, package_versions

os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "results" / "ledger_growth"
DEFAULT_VALUES = (2, 10, 50, 200)
T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
DIMENSIONS = 384
"""all-MiniLM-L6-v2's vector length (the store's schema takes any; none is read here)."""


@dataclass
class LedgerGrowthEvaluator:
    """Entries per value: ledger entries / (keys x values per key). O(values) keeps it below
    1 at every ``n``; a ledger per pair grows it as ``(n - 1) / 2``."""

    primary_metric: str = "entries_per_value"

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        values = row["keys"] * row["values_per_key"]
        return {"entries_per_value": row["ledger_entries"] / values,
                "edges_per_value": row["edges"] / values,
                "pairs_per_value": row["pairs"] / values}


def synthetic(keys: int, n: int, *, start: int = 0, user: str = "bench-ledger"):
    """Records and triples: ``keys`` keys with values ``start`` … ``n - 1`` each."""
    from extractors import Triple
    from scanner.models import MemoryRecord

    records, triples = [], []
    for k in range(keys):
        for i in range(start, n):
            value = f"slot {i}"
            records.append(MemoryRecord(
                id=f"tile{k}-v{i:04d}", text=f"Tile {k} sits in {value} of the rack.",
                user_id=user, source="chat:rack-log",
                source_class="observation" if i % 7 == 6 else "user",
                observed_at=T0 + timedelta(minutes=i), epoch="studio-v1"))
            triples.append([Triple(f"tile {k}", "rack position", value, rule="attribute")])
    return records, triples


def vectors(count: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((count, DIMENSIONS)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def measure(client, n: int, keys: int) -> dict[str, Any]:
    """One tenant with ``keys`` keys of ``n`` values: scan, re-scan, grow by one, scan."""
    from scanner.engine import Engine
    from scanner.service import Service
    from scanner.store.wiring import weaviate_stores

    name = "BenchLedger" + uuid.uuid4().hex[:8]
    svc = Service(weaviate_stores(client, name), engine=Engine())
    user = "bench-ledger"
    try:
        records, triples = synthetic(keys, n, user=user)
        svc.store.import_memories(records, triples, vectors(len(records), n))
        scans = {}
        for label in ("first", "rescan"):
            started = time.perf_counter()
            result = svc.scan_tenant(user, keep_report=False, full=True)
            scans[label] = {"seconds": round(time.perf_counter() - started, 4),
                            "entries_written": result.ledger.written + result.ledger.replaced,
                            "edges_added": result.applied.edges_added,
                            "statuses_changed": result.applied.statuses_changed,
                            "conflicts": result.conflicts}
        pairs = scans["first"]["conflicts"]
        entries = svc.ledger.count(user)
        edges = sum(len(v) for v in svc.store.supersedes_edges(user).values())
        more, more_triples = synthetic(keys, n + 1, start=n, user=user)
        svc.store.import_memories(more, more_triples, vectors(len(more), n + 1))
        started = time.perf_counter()
        result = svc.scan_tenant(user, keep_report=False, full=True)
        scans["grown"] = {"seconds": round(time.perf_counter() - started, 4),
                          "entries_written": result.ledger.written + result.ledger.replaced,
                          "edges_added": result.applied.edges_added,
                          "statuses_changed": result.applied.statuses_changed,
                          "conflicts": result.conflicts}
        return {"values_per_key": n, "keys": keys, "memories": len(records), "pairs": pairs,
                "ledger_entries": entries, "entries_per_key": entries / keys,
                "edges": edges, "scans": scans}
    finally:
        for col in (svc.scan_state.name, svc.ledger.name, name):
            client.collections.delete(col)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", type=int, nargs="+", default=list(DEFAULT_VALUES),
                        help="values per key to measure (default 2 10 50 200)")
    parser.add_argument("--keys", type=int, default=5, help="keys per tenant (default 5)")
    parser.add_argument("--weaviate-url", default=None,
                        help="use this Weaviate instead of a throw-away embedded one")
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default results/ledger_growth/<UTC time>)")
    args = parser.parse_args(argv)
    if min(args.values) < 2 or args.keys < 1:
        parser.error("--values needs n >= 2 and --keys at least 1")

    from scanner.store import server

    tmp = None
    if args.weaviate_url:
        client = server.connect_url(args.weaviate_url)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="contrascan-bench-ledger-"))
        port, grpc_port = server.free_ports()
        client = server.connect_embedded(tmp, port=port, grpc_port=grpc_port)
    evaluator = LedgerGrowthEvaluator()
    rows = []
    try:
        print(f"{'values/key':>10} {'keys':>4} {'pairs':>7} {'entries':>7} {'edges':>6} "
              f"{'entries/key':>11} {'first s':>8} {'rescan s':>8} {'rescan writes':>13} "
              f"{'+1 value s':>10} {'+1 writes':>9}", flush=True)
        for n in sorted(set(args.values)):
            row = measure(client, n, args.keys)
            row.update(evaluator(row))
            rows.append(row)
            s = row["scans"]
            print(f"{n:>10} {args.keys:>4} {row['pairs']:>7} {row['ledger_entries']:>7} "
                  f"{row['edges']:>6} {row['entries_per_key']:>11.1f} "
                  f"{s['first']['seconds']:>8.3f} {s['rescan']['seconds']:>8.3f} "
                  f"{s['rescan']['entries_written']:>13} {s['grown']['seconds']:>10.3f} "
                  f"{s['grown']['entries_written']:>9}", flush=True)
    finally:
        client.close()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.out or RESULTS / stamp
    out_dir.mkdir(parents=True, exist_ok=True)
    largest = rows[-1]
    out = {"benchmark": "ledger_growth", "primary_metric": evaluator.primary_metric,
           evaluator.primary_metric: largest[evaluator.primary_metric],
           "parameters": {"values": sorted(set(args.values)), "keys": args.keys,
                          "weaviate": args.weaviate_url or "embedded (throw-away)"},
           "rows": rows, "load_average": os.getloadavg(),
           "versions": package_versions(("contrascan", "weaviate-client", "pydantic")),
           "git": git_state(REPO)}
    path = out_dir / "bench_ledger_growth.json"
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
