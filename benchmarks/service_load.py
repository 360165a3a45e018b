"""The sidecar under 200 concurrent clients on a store of 200k ledger entries (issue 18).

Part of ``python -m benchmarks.bench_service`` (its load run; ``--only-load`` runs it alone).
Targets (issue 18, "Done when"): no error other than an explicit ``429``/``503`` with
``Retry-After``; ``GET /healthz`` p99 < 100 ms and ``GET /metrics`` p99 < 100 ms while the
other clients scan.

* **The store**: the bench tenant's memories plus ``--ledger-entries`` (200,000) ledger
  entries written through :meth:`scanner.store.ledger.LedgerStore.write` (the store's public
  API): one quarantine entry per pair of memories of one copy and group, pairs drawn with a
  seeded generator, so the same arguments build the same store (the hash of the entry ids is
  recorded). The issue's probe store had ~197k entries for 6,500 memories.
* **The clients**, each on its own HTTP/1.1 connection: ``scan_clients`` (180) send
  ``POST /v1/scan`` back to back from a separate process (asyncio + httpx, so their own CPU
  use does not delay the probes' timers); ``probe_clients`` (10) ``GET /healthz`` and as many
  ``GET /metrics``, each every :data:`PROBE_INTERVAL_S` seconds, from threads of this process.
  Latency is measured by the client: connect, request and the whole response.
* Before the load, the same probes run alone (idle figures) so the ratio under load / idle
  says what the load costs.

Run as a program only by :func:`run_load` (the scan clients)::

    python -m benchmarks.service_load URL QUERIES_JSON CLIENTS SECONDS
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import numpy as np

HEALTHZ_P99_TARGET_MS = 100.0
"""Issue 18: ``/healthz`` p99 under 100 ms at 200 clients."""
METRICS_P99_TARGET_MS = 100.0
"""Issue 18: ``/metrics`` p99 under 100 ms at 200 clients on 200k ledger entries."""
PROBE_INTERVAL_S = 0.1
"""Pause between one probe client's requests (a load balancer probes every few seconds and
Prometheus scrapes every 15-60 s; ten clients every 0.1 s is far more)."""
REFUSED = (429, 503)
"""Explicit refusals that are not errors when they carry ``Retry-After``."""
_NAMESPACE = uuid.UUID("6f1d3c1e-18a0-4c55-9b6e-0d1e5a7c0b18")


# --------------------------------------------------------------------------- the store


def ledger_entries(user_id: str, records: list[Any], n_entries: int, seed: int) -> list[Any]:
    """``n_entries`` quarantine entries over pairs of ``records`` (same copy and group).

    Returns:
        :class:`scanner.core.ledger.LedgerEntry` objects with deterministic ids (uuid5 of the
        pair), open, verdict ``quarantined``, reason ``tie``.

    Raises:
        SystemExit: the records cannot form ``n_entries`` distinct pairs.
    """
    from scanner.core.ledger import LedgerEntry
    from scanner.models import ConflictKey

    groups: dict[tuple, list[Any]] = {}
    for r in records:
        groups.setdefault((r.group, tuple(sorted(r.properties.items()))), []).append(r)
    pools = [g for g in groups.values() if len(g) > 1]
    capacity = sum(len(g) * (len(g) - 1) // 2 for g in pools)
    if capacity < n_entries:
        raise SystemExit(f"{len(records)} memories form {capacity} pairs < {n_entries}")
    rng = random.Random(seed)
    weights = [len(g) for g in pools]
    seen: set[tuple[str, str]] = set()
    entries = []
    while len(entries) < n_entries:
        pool = rng.choices(pools, weights)[0]
        a, b = rng.sample(pool, 2)
        pair = tuple(sorted((a.id, b.id)))
        if pair in seen:
            continue
        seen.add(pair)
        relation = f"relation {len(entries) % 40}"
        entries.append(LedgerEntry(
            entry_id=str(uuid.uuid5(_NAMESPACE, f"{user_id}|{pair[0]}|{pair[1]}")),
            entry_type="quarantine", user_id=user_id, status="open",
            key=ConflictKey(user_id=user_id, group=a.group, properties=dict(a.properties),
                            subject=f"subject {len(entries) % 997}", relation=relation),
            kind="value_mismatch", members=list(pair),
            values={pair[0]: "one value", pair[1]: "another value"},
            verdict="quarantined", reasons=["tie"], latest=pair[1]))
    return entries


def build_ledger(ledger: Any, user_id: str, records: list[Any], n_entries: int, seed: int,
                 say: Any = print) -> dict[str, Any]:
    """Write :func:`ledger_entries` into ``ledger`` (a LedgerStore) in chunks of 10,000.

    Returns:
        ``{"entries", "seconds", "entry_ids_sha256"}``.
    """
    entries = ledger_entries(user_id, records, n_entries, seed)
    digest = hashlib.sha256("\n".join(sorted(e.entry_id for e in entries)).encode()).hexdigest()
    started = time.perf_counter()
    for start in range(0, len(entries), 10_000):
        # digests={}: the tenant holds none of these ids, nothing to read back first
        ledger.write(user_id, entries[start:start + 10_000], digests={}, batch_size=1000)
        say(f"  ledger: {start + 10_000 if start + 10_000 < len(entries) else len(entries)} "
            f"of {len(entries)} entries written")
    return {"entries": len(entries), "seconds": time.perf_counter() - started,
            "entry_ids_sha256": digest}


# --------------------------------------------------------------------------- the clients


def summary_ms(samples_s: list[float]) -> dict[str, float]:
    """n, p50, p90, p99, max in milliseconds (empty -> n 0)."""
    if not samples_s:
        return {"n": 0}
    ms = np.asarray(samples_s) * 1e3
    return {"n": int(ms.size), "p50_ms": float(np.percentile(ms, 50)),
            "p90_ms": float(np.percentile(ms, 90)), "p99_ms": float(np.percentile(ms, 99)),
            "max_ms": float(ms.max())}


def _outcome(response: httpx.Response) -> str:
    if response.status_code == 200:
        return "ok"
    if response.status_code in REFUSED and response.headers.get("retry-after"):
        return f"refused {response.status_code}"
    return f"error {response.status_code}"


def probe(url: str, path: str, clients: int, seconds: float,
          interval_s: float = PROBE_INTERVAL_S) -> dict[str, Any]:
    """``clients`` threads, one connection each, ``GET path`` every ``interval_s`` seconds
    for ``seconds``; latency per request and outcomes (``ok``, ``refused 503``, ``error …``)."""
    latencies: list[float] = []
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client() -> None:
        mine, seen = [], Counter()
        with httpx.Client(base_url=url, timeout=30,
                          limits=httpx.Limits(max_connections=1)) as http:
            while time.monotonic() < stop_at:
                started = time.perf_counter()
                try:
                    response = http.get(path)
                    response.read()
                    seen[_outcome(response)] += 1
                except httpx.HTTPError as err:
                    seen[f"error {type(err).__name__}"] += 1
                mine.append(time.perf_counter() - started)
                time.sleep(interval_s)
        with lock:
            latencies.extend(mine)
            outcomes.update(seen)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"path": path, "clients": clients, "interval_s": interval_s,
            "outcomes": dict(outcomes), "latency": summary_ms(latencies)}


async def _scan_clients(url: str, bodies: list[dict], clients: int,
                        seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    outcomes: Counter[str] = Counter()
    stop_at = time.monotonic() + seconds

    async def client(index: int) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60,
                                     limits=httpx.Limits(max_connections=1)) as http:
            i = index
            while time.monotonic() < stop_at:
                started = time.perf_counter()
                try:
                    response = await http.post("/v1/scan", json=bodies[i % len(bodies)])
                    outcome = _outcome(response)
                except httpx.HTTPError as err:
                    outcome = f"error {type(err).__name__}"
                    response = None
                outcomes[outcome] += 1
                if outcome == "ok":
                    latencies.append(time.perf_counter() - started)
                elif outcome.startswith("refused") and response is not None:
                    # as a well-behaved client: wait as asked (at most the run's end)
                    wait = float(response.headers.get("retry-after", "1"))
                    await asyncio.sleep(min(wait, max(0.0, stop_at - time.monotonic())))
                i += clients

    started = time.monotonic()
    await asyncio.gather(*(client(i) for i in range(clients)))
    wall = time.monotonic() - started
    return {"clients": clients, "seconds": wall, "outcomes": dict(outcomes),
            "answered_per_second": outcomes["ok"] / wall, "latency_ok": summary_ms(latencies)}


def run_load(url: str, scan_bodies: list[dict], *, scan_clients: int = 180,
             probe_clients: int = 10, seconds: float = 60.0,
             say: Any = print) -> dict[str, Any]:
    """The load run: idle probes, then scans + probes together (module docstring).

    Returns:
        ``{"idle": {...}, "load": {"scans", "healthz", "metrics"}, "clients", "targets",
        "errors", "ratios"}``.
    """
    say(f"load: idle probes ({probe_clients} + {probe_clients} clients, 10 s)")
    idle = {"healthz": probe(url, "/healthz", probe_clients, 10.0),
            "metrics": probe(url, "/metrics", probe_clients, 10.0)}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scan_bodies, f)
        bodies_path = f.name
    say(f"load: {scan_clients} scanning + {2 * probe_clients} probing clients for "
        f"{seconds:.0f} s")
    scanners = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.service_load", url, bodies_path, str(scan_clients),
         str(seconds)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1])
    time.sleep(2.0)  # let the scanners connect first: the probes then meet the full load
    results: dict[str, Any] = {}
    threads = [threading.Thread(target=lambda p=p: results.__setitem__(
        p.strip("/"), probe(url, p, probe_clients, seconds - 4.0)))
        for p in ("/healthz", "/metrics")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out, _ = scanners.communicate(timeout=seconds + 120)
    server_text = httpx.get(url + "/metrics", timeout=30).text
    Path(bodies_path).unlink(missing_ok=True)
    if scanners.returncode != 0:
        raise RuntimeError(f"scan clients exited with {scanners.returncode}")
    results["scans"] = json.loads(out)
    errors = {name: sum(n for k, n in part["outcomes"].items() if k.startswith("error"))
              for name, part in results.items()}
    ratios = {
        "healthz_p99_vs_target": results["healthz"]["latency"]["p99_ms"] / HEALTHZ_P99_TARGET_MS,
        "metrics_p99_vs_target": results["metrics"]["latency"]["p99_ms"] / METRICS_P99_TARGET_MS,
        "healthz_p99_load_vs_idle": results["healthz"]["latency"]["p99_ms"]
        / idle["healthz"]["latency"]["p99_ms"],
        "metrics_p99_load_vs_idle": results["metrics"]["latency"]["p99_ms"]
        / idle["metrics"]["latency"]["p99_ms"],
    }
    # what the app itself measured over the whole run (idle and load): the rest of a client's
    # latency is the connection, parsing and waiting for the event loop and a CPU
    server_side = {name: server_side_p99_ms(server_text, "/" + name)
                   for name in ("healthz", "metrics")}
    return {"clients": scan_clients + 2 * probe_clients, "idle": idle, "load": results,
            "server_side_p99_ms_upper_bound": server_side,
            "errors": errors, "ratios": ratios,
            "targets": {"errors": 0, "healthz_p99_ms": HEALTHZ_P99_TARGET_MS,
                        "metrics_p99_ms": METRICS_P99_TARGET_MS},
            "meets_targets": (sum(errors.values()) == 0
                              and ratios["healthz_p99_vs_target"] < 1
                              and ratios["metrics_p99_vs_target"] < 1)}


def server_side_p99_ms(metrics_text: str, route: str) -> float | None:
    """The p99 of ``route`` (status 200) by the sidecar's own request histogram
    (``contrascan_http_request_duration_seconds``, measured inside the app: it excludes
    accepting the connection, parsing the request and waiting for the event loop), as the upper
    bound of the bucket holding the 99th percentile, in milliseconds."""
    from prometheus_client.parser import text_string_to_metric_families

    buckets: list[tuple[float, float]] = []
    for family in text_string_to_metric_families(metrics_text):
        for sample in family.samples:
            if (sample.name == "contrascan_http_request_duration_seconds_bucket"
                    and sample.labels.get("route") == route
                    and sample.labels.get("status") == "200"):
                buckets.append((float(sample.labels["le"]), sample.value))
    if not buckets or buckets[-1][1] == 0:
        return None
    buckets.sort()
    total = buckets[-1][1]
    return next(le * 1e3 for le, count in buckets if count >= 0.99 * total)


def print_load(load: dict[str, Any], say: Any = print) -> None:
    """The load run's figures and ratios, one line each."""
    say(f"load run, {load['clients']} clients:")
    scans = load["load"]["scans"]
    say(f"  scans: {scans['clients']} clients, {scans['answered_per_second']:.1f} answered/s, "
        f"outcomes {scans['outcomes']}, answered p50 "
        f"{scans['latency_ok'].get('p50_ms', float('nan')):.0f} ms, p99 "
        f"{scans['latency_ok'].get('p99_ms', float('nan')):.0f} ms")
    for name, target in (("healthz", HEALTHZ_P99_TARGET_MS), ("metrics", METRICS_P99_TARGET_MS)):
        busy, idle = load["load"][name], load["idle"][name]
        say(f"  /{name}: p50 {busy['latency']['p50_ms']:.1f} ms, p99 "
            f"{busy['latency']['p99_ms']:.1f} ms (target < {target:.0f}: "
            f"{'met' if busy['latency']['p99_ms'] < target else 'NOT met'}), max "
            f"{busy['latency']['max_ms']:.1f} ms over {busy['latency']['n']} requests; idle "
            f"p99 {idle['latency']['p99_ms']:.1f} ms (x{load['ratios'][name + '_p99_load_vs_idle']:.1f} "
            f"under load); outcomes {busy['outcomes']}")
    say(f"  inside the app (its request histogram, idle + load; upper bucket bound): p99 "
        + ", ".join(f"/{k} <= {v:g} ms" for k, v in load["server_side_p99_ms_upper_bound"].items()
                    if v is not None))
    say(f"  errors other than 429/503 with Retry-After: {load['errors']} (target 0)")


def _main(argv: list[str]) -> int:
    url, bodies_path, clients, seconds = argv[0], argv[1], int(argv[2]), float(argv[3])
    bodies = json.loads(Path(bodies_path).read_text())
    print(json.dumps(asyncio.run(_scan_clients(url, bodies, clients, seconds))))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
