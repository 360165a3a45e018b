"""Ledger entries and scan times against the number of values one key collects, for each
verdict a key can leave: ``resolved``, ``quarantined`` (no epoch), ``tie`` (equal
``observed_at``) and ``epoch_change`` (each value in its own epoch).

A key that collects ``n`` values decides ``n(n-1)/2`` pairs, all listed in the scan report
(SPEC §5). The ledger records the key's state, not its pairs: each superseded member of a
resolved key once, by the value that replaced it
(:func:`scanner.core.key_decision.deciding_resolutions`), and the values an unresolved key
holds in dispute, each member once (:mod:`scanner.core.open_state`). So at ``n`` values the
ledger should hold at most ``2n`` entries per key whatever the verdict, and a write-time check
on an unresolved key cost about what it costs on a resolved one.

The data: per verdict kind and ``n``, one tenant holding one key, "The retry timeout of the
payments service is ``i`` seconds." for ``i`` in ``1 … n``, source ``tool:config-probe``
(``observation``), observed a minute apart in one epoch for ``resolved``; without an epoch for
``quarantined``; all at the same minute for ``tie``; each in its own epoch for
``epoch_change``. The records are imported through :meth:`scanner.service.Service.import_records`
(spaCy extracts the triples, all-MiniLM-L6-v2 embeds them) and the tenant is scanned with
:meth:`scanner.service.Service.scan_tenant`. The engine runs the rules alone (no pair judge:
the judge reads every pair with a cross-encoder, ~4 ms of CPU each, which
``benchmarks/bench_pair_judge.py`` measures; here it would only add the same time to every
kind). Then, each by a fresh :class:`~scanner.service.Service` over the same store (as another
process of the sidecar would, with nothing memoised):

* **check**: :meth:`~scanner.service.Service.add_memories` of one more value with
  ``check=True`` (what ``POST /v1/memories`` with ``check=true`` runs): import, read back the
  memories sharing the key, scan them, read the ledger's settlements, write the verdicts;
* **read scan**: :meth:`~scanner.service.Service.scan` with ``limit=100`` (``POST /v1/scan``):
  hybrid search, scan of the hits, ledger read, verdicts written.

``--rounds`` checks and read scans are timed per tenant (median printed), the kinds taking turns
round by round, so that the load of a shared machine falls on every kind alike; each check
adds one value.

Printed and written to ``results/ledger_growth/<UTC time>/bench_ledger_growth.json``: per kind
and ``n``, the report's pairs, the ledger entries of verdict types
(:data:`scanner.core.ledger.SCAN_TYPES`) after the first scan and after the checks, entries per
value, and seconds for the first scan, the check and the read scan, with the check's ratio to
the resolved key's at the same ``n``. The primary metric is the largest
``entries_per_value`` at the largest ``n`` over the kinds (at most 2 is O(values)).

Weaviate is a throw-away embedded server (the pinned version) in a temporary directory on
free ports, stopped and deleted at the end, unless ``--weaviate-url`` names one (collections
``BenchLedger<random>`` are then dropped after use).

Usage::

    python -m benchmarks.bench_ledger_growth [--values 10 50 200] [--kinds resolved tie]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from benchmarks.provenance import git_state, package_versions

os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "results" / "ledger_growth"
DEFAULT_VALUES = (10, 50, 200)
KINDS = ("resolved", "quarantined", "tie", "epoch_change")
T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
TEXT = "The retry timeout of the payments service is {} seconds."
QUERY = "retry timeout of the payments service"
USER = "bench-ledger"


@dataclass
class LedgerGrowthEvaluator:
    """Entries per value: verdict entries in the ledger / values of the key. O(values) keeps
    it at most 2 at every ``n``; a ledger per pair grows it as ``(n - 1) / 2``."""

    primary_metric: str = "entries_per_value"

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        return {"entries_per_value": row["entries_after_checks"] / row["values_after_checks"],
                "pairs_per_value": row["pairs"] / row["values_per_key"]}


def value_record(kind: str, i: int):
    """The ``i``-th value (``i >= 1``) of a key of verdict kind ``kind`` (see the module
    docstring): a :class:`scanner.models.MemoryRecord` of tenant :data:`USER`.

    Raises:
        ValueError: ``kind`` is not one of :data:`KINDS`.
    """
    from scanner.models import MemoryRecord

    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}: one of {', '.join(KINDS)}")
    observed = T0 if kind == "tie" else T0 + timedelta(minutes=i)
    epoch = {"resolved": "deploy-1", "quarantined": None, "tie": "deploy-1",
             "epoch_change": f"deploy-{i}"}[kind]
    return MemoryRecord(id=f"timeout-{i:04d}", text=TEXT.format(i), user_id=USER,
                        group="config", source="tool:config-probe",
                        source_class="observation", observed_at=observed, epoch=epoch)


def verdict_entries(ledger, user_id: str) -> int:
    """Ledger entries of one tenant of the types a scan writes."""
    from scanner.core.ledger import SCAN_TYPES

    return sum(ledger.count(user_id, entry_type=t) for t in SCAN_TYPES)


@dataclass
class KeyTenant:
    """One tenant holding one key of ``n`` values of one kind, imported and batch-scanned."""

    kind: str
    n: int
    stores: Any
    name: str
    pairs: int
    verdicts: list[list[str]]
    entries_after_scan: int
    first_scan_s: float
    checks: list[float]
    reads: list[float]
    check_pairs: int = 0
    read_pairs: int = 0


def prepare(client, engine, embedder, kind: str, n: int) -> KeyTenant:
    """Import ``n`` values of ``kind`` into a fresh collection and batch-scan the tenant."""
    from scanner.service import Service
    from scanner.store.wiring import weaviate_stores

    name = "BenchLedger" + uuid.uuid4().hex[:8]
    stores = weaviate_stores(client, name)
    svc = Service(stores, engine=engine, embedder=embedder)
    svc.import_records([value_record(kind, i) for i in range(1, n + 1)])
    started = time.perf_counter()
    first = svc.scan_tenant(USER, keep_report=True, full=True)
    first_s = time.perf_counter() - started
    svc.close()
    return KeyTenant(kind=kind, n=n, stores=stores, name=name, pairs=first.conflicts,
                     verdicts=[list(v) for v in sorted({(c.verdict, c.rule or "")
                                                        for c in first.report.conflicts})],
                     entries_after_scan=verdict_entries(svc.ledger, USER),
                     first_scan_s=first_s, checks=[], reads=[])


def one_round(tenant: KeyTenant, engine, embedder, r: int) -> None:
    """One timed write-time check (value ``n + 1 + r``) and one read-time scan, each by a
    fresh service."""
    from scanner.service import Service

    fresh = Service(tenant.stores, engine=engine, embedder=embedder)
    started = time.perf_counter()
    _, report = fresh.add_memories([value_record(tenant.kind, tenant.n + 1 + r)], check=True)
    tenant.checks.append(time.perf_counter() - started)
    tenant.check_pairs = len(report.conflicts)
    fresh = Service(tenant.stores, engine=engine, embedder=embedder)
    started = time.perf_counter()
    read = fresh.scan(USER, QUERY, group="config", limit=100)
    tenant.reads.append(time.perf_counter() - started)
    tenant.read_pairs = len(read.report.conflicts)
    fresh.close()


def row_of(tenant: KeyTenant, ledger) -> dict[str, Any]:
    """The measured figures of one tenant (see the module docstring)."""
    rounds = len(tenant.checks)
    return {"kind": tenant.kind, "values_per_key": tenant.n, "pairs": tenant.pairs,
            "verdicts": tenant.verdicts, "entries_after_scan": tenant.entries_after_scan,
            "values_after_checks": tenant.n + rounds,
            "entries_after_checks": verdict_entries(ledger, USER),
            "first_scan_s": round(tenant.first_scan_s, 4),
            "check_s": [round(s, 4) for s in tenant.checks],
            "check_median_s": round(statistics.median(tenant.checks), 4),
            "check_pairs": tenant.check_pairs,
            "read_scan_s": [round(s, 4) for s in tenant.reads],
            "read_scan_median_s": round(statistics.median(tenant.reads), 4),
            "read_scan_pairs": tenant.read_pairs}


def measure(client, engine, embedder, kinds: list[str], n: int, rounds: int
            ) -> list[dict[str, Any]]:
    """One tenant per kind with one key of ``n`` values: import and batch scan each, then
    ``rounds`` rounds of one write-time check and one read-time scan per tenant, the kinds
    taking turns (so a change in the machine's load falls on every kind alike)."""
    tenants = []
    try:
        for kind in kinds:
            tenants.append(prepare(client, engine, embedder, kind, n))
        for r in range(rounds):
            for tenant in tenants:
                one_round(tenant, engine, embedder, r)
        return [row_of(t, t.stores.ledger) for t in tenants]
    finally:
        for t in tenants:
            for col in (t.stores.scan_state.name, t.stores.ledger.name, t.name):
                client.collections.delete(col)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", type=int, nargs="+", default=list(DEFAULT_VALUES),
                        help="values per key to measure (default 10 50 200)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                        help="verdict kinds to measure (default all four)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="write-time checks and read-time scans timed per row (default 3)")
    parser.add_argument("--weaviate-url", default=None,
                        help="use this Weaviate instead of a throw-away embedded one")
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default results/ledger_growth/<UTC time>)")
    args = parser.parse_args(argv)
    if min(args.values) < 2 or args.rounds < 1:
        parser.error("--values needs n >= 2 and --rounds at least 1")

    from scanner.embeddings import Embedder
    from scanner.engine import Engine
    from scanner.store import server

    engine = Engine(default_judge=False)
    embedder = Embedder()
    tmp = None
    if args.weaviate_url:
        client = server.connect_url(args.weaviate_url)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="contrascan-bench-ledger-"))
        port, grpc_port = server.free_ports()
        client = server.connect_embedded(tmp, port=port, grpc_port=grpc_port)
    evaluator = LedgerGrowthEvaluator()
    kinds = [k for k in KINDS if k in args.kinds]
    rows = []
    try:
        print(f"{'kind':>12} {'values':>6} {'pairs':>6} {'entries':>7} {'entries/value':>13} "
              f"{'first scan s':>12} {'check s':>8} {'check / resolved':>16} "
              f"{'read scan s':>11}", flush=True)
        for n in sorted(set(args.values)):
            resolved_check = None
            for row in measure(client, engine, embedder, kinds, n, args.rounds):
                kind = row["kind"]
                row.update(evaluator(row))
                if kind == "resolved":
                    resolved_check = row["check_median_s"]
                row["check_vs_resolved"] = (round(row["check_median_s"] / resolved_check, 2)
                                            if resolved_check else None)
                rows.append(row)
                ratio = (f"{row['check_vs_resolved']:.2f}" if row["check_vs_resolved"]
                         is not None else "-")
                print(f"{kind:>12} {n:>6} {row['pairs']:>6} {row['entries_after_checks']:>7} "
                      f"{row['entries_per_value']:>13.2f} {row['first_scan_s']:>12.3f} "
                      f"{row['check_median_s']:>8.3f} {ratio:>16} "
                      f"{row['read_scan_median_s']:>11.3f}", flush=True)
    finally:
        client.close()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.out or RESULTS / stamp
    out_dir.mkdir(parents=True, exist_ok=True)
    largest = max(r["values_per_key"] for r in rows)
    out = {"benchmark": "ledger_growth", "primary_metric": evaluator.primary_metric,
           evaluator.primary_metric: max(r[evaluator.primary_metric] for r in rows
                                         if r["values_per_key"] == largest),
           "parameters": {"values": sorted(set(args.values)), "kinds": kinds,
                          "rounds": args.rounds, "judge": None,
                          "weaviate": args.weaviate_url or "embedded (throw-away)"},
           "rows": rows, "load_average": os.getloadavg(),
           "versions": package_versions(("contrascan", "weaviate-client", "pydantic",
                                         "spacy")),
           "git": git_state(REPO)}
    path = out_dir / "bench_ledger_growth.json"
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
