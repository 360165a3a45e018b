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

Run as a program only by :func:`run_load` (the scan clients, and the probes)::

    python -m benchmarks.service_load scan URL QUERIES_JSON CLIENTS SECONDS
    python -m benchmarks.service_load probe URL CLIENTS SECONDS INTERVAL_S PATH...
"""

from __future__ import annotations

import asyncio
import hashlib
import http.client
import json
import os
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
from urllib.parse import urlsplit

import httpx
import numpy as np
import psutil

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


def _probe_client(host: str, port: int, path: str, stop_at: float, interval_s: float,
                  latencies: list[float], lateness: list[float], outcomes: Counter[str],
                  started_at: list[float]) -> None:
    """One probing client on one kept-alive connection (stdlib ``http.client``: a few tens of
    microseconds of client CPU per request, so the figure is the server's and the network's,
    not the client library's)."""
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            started_at.append(time.monotonic())  # CLOCK_MONOTONIC: one clock for every process
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                status, retry_after = response.status, response.getheader("retry-after")
                if status == 200:
                    outcomes["ok"] += 1
                elif status in REFUSED and retry_after:
                    outcomes[f"refused {status}"] += 1
                else:
                    outcomes[f"error {status}"] += 1
                if response.will_close:
                    conn.close()
            except (OSError, http.client.HTTPException) as err:
                outcomes[f"error {type(err).__name__}"] += 1
                conn.close()
            latencies.append(time.perf_counter() - started)
            wake_at = time.perf_counter() + interval_s
            time.sleep(interval_s)
            # how late this client's own timer fired: its wait for a core (the client's share
            # of a latency figure on a busy machine)
            lateness.append(max(0.0, time.perf_counter() - wake_at))
    finally:
        conn.close()
        own = _thread_schedstat()
        if own is not None:
            outcomes["_run_ns"] += own[0]
            outcomes["_wait_ns"] += own[1]


def _thread_schedstat() -> tuple[int, int] | None:
    """The calling thread's (CPU ns, run-queue wait ns) so far (see :func:`sched_stats`)."""
    try:
        text = Path(f"/proc/self/task/{threading.get_native_id()}/schedstat").read_text()
        run_ns, wait_ns = (int(v) for v in text.split()[:2])
    except (OSError, ValueError):
        return None
    return run_ns, wait_ns


def probe_in_process(url: str, paths: tuple[str, ...], clients: int, seconds: float,
                     interval_s: float = PROBE_INTERVAL_S) -> dict[str, Any]:
    """``clients`` threads per path in this process, as :func:`probe_apart` runs them.

    Returns:
        ``{path: {"path", "clients", "interval_s", "outcomes", "latency", "client_lateness",
        "method"}}``; ``latency`` from the request's first byte written to the response's
        last byte read, ``client_lateness`` how late the clients' own sleeps woke.
    """
    parts = urlsplit(url)
    stop_at = time.monotonic() + seconds
    state = {p: ([], [], Counter(), []) for p in paths}
    threads = [threading.Thread(target=_probe_client, args=(
        parts.hostname, parts.port, p, stop_at, interval_s, *state[p]))
        for p in paths for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out: dict[str, Any] = {}
    for p, (latencies, lateness, outcomes, started_at) in state.items():
        run_ns, wait_ns = outcomes.pop("_run_ns", 0), outcomes.pop("_wait_ns", 0)
        out[p] = {"path": p, "clients": clients, "interval_s": interval_s,
                  "outcomes": dict(outcomes), "latency": summary_ms(latencies),
                  "client_lateness": summary_ms(lateness), "method": "process",
                  "client_cpu_s": run_ns / 1e9, "client_runqueue_wait_s": wait_ns / 1e9,
                  "samples": [[round(t, 4), round(s * 1e3, 2)]
                              for t, s in zip(started_at, latencies)]}
    return out


def probe_apart(url: str, paths: tuple[str, ...], clients: int, seconds: float,
                interval_s: float = PROBE_INTERVAL_S) -> subprocess.Popen:
    """Start :func:`probe_in_process` in a process of its own (``python -m
    benchmarks.service_load probe …``): the probes' timing shares no interpreter (GIL) with
    the benchmark's other threads. Read the result with :func:`probe_result`."""
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.service_load", "probe", url, str(clients),
         str(seconds), str(interval_s), *paths],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1])


def probe_result(proc: subprocess.Popen, timeout_s: float) -> dict[str, Any]:
    """The JSON a :func:`probe_apart` process printed (with its own CPU scheduling figures)."""
    out, _ = proc.communicate(timeout=timeout_s)
    if proc.returncode != 0:
        raise RuntimeError(f"probe clients exited with {proc.returncode}")
    return json.loads(out)


def sidecar_children(pid: int | None, module: str, every: bool = False) -> Any:
    """Process ids of the sidecar's children running ``python -m module`` (the store
    statistics process, ``scanner.stats_process``, started by the first ``/metrics`` scrape;
    the scan workers, ``scanner.scan_workers``): the first or None, or with ``every`` all of
    them (None where none runs)."""
    if not pid:
        return None
    try:
        children = psutil.Process(pid).children()
    except psutil.Error:
        return None
    found = []
    for child in children:
        try:
            if module in child.cmdline():
                found.append(child.pid)
        except psutil.Error:
            continue
    if every:
        return sorted(found) or None
    return found[0] if found else None


def sched_stats(pid: int) -> dict[str, Any]:
    """CPU time and run-queue wait of each thread of ``pid``, from Linux's
    ``/proc/PID/task/TID/schedstat`` ("time spent on the cpu", "time spent waiting on a
    runqueue", in ns; kernel Documentation/scheduler/sched-stats.rst). Empty where the file
    is missing (not Linux, or the process has exited).

    Returns:
        ``{"main": (run_ns, wait_ns), "others": (run_ns, wait_ns)}``: the main thread (the
        sidecar's event loop) apart from every other thread together.
    """
    main, others = [0, 0], [0, 0]
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return {}
    for tid in tids:
        try:
            run_ns, wait_ns = (int(v) for v in
                               Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[:2])
        except (OSError, ValueError):
            continue
        into = main if int(tid) == pid else others
        into[0] += run_ns
        into[1] += wait_ns
    return {"main": tuple(main), "others": tuple(others)}


def sched_delta(before: dict[str, Any], after: dict[str, Any], seconds: float) -> dict[str, Any]:
    """CPU use and run-queue wait between two :func:`sched_stats`, as shares of ``seconds``
    (1.0 = one core for the whole time)."""
    if not before or not after:
        return {}
    return {name: {"cpu_share": (after[name][0] - before[name][0]) / 1e9 / seconds,
                   "runqueue_wait_share": (after[name][1] - before[name][1]) / 1e9 / seconds}
            for name in ("main", "others")}


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


PROBE_METHODS = ("process", "threads")
"""Where the probes run: ``process``, a process of their own with stdlib clients
(:func:`probe_apart`, the default); ``threads``, httpx clients on threads of the benchmark
process (the method of the first runs, kept to compare)."""


def run_load(url: str, scan_bodies: list[dict], *, scan_clients: int = 180,
             probe_clients: int = 10, seconds: float = 60.0, probe_method: str = "process",
             server_pid: int | None = None, processes: dict[str, int] | None = None,
             say: Any = print) -> dict[str, Any]:
    """The load run: idle probes, then scans + probes together (module docstring).

    Args:
        probe_method: one of :data:`PROBE_METHODS`.
        server_pid: the sidecar's process id: its threads' CPU use and run-queue wait during
            the load are recorded (:func:`sched_stats`), as are the scan clients', the probe
            clients' (``process`` method) and those of
        processes: further processes by name (e.g. ``{"weaviate": pid}``).

    Returns:
        ``{"idle": {...}, "load": {"scans", "healthz", "metrics"}, "clients", "targets",
        "errors", "ratios", "sched", "probe_method"}``.
    """
    if probe_method not in PROBE_METHODS:
        raise ValueError(f"probe_method must be one of {PROBE_METHODS}, got {probe_method!r}")
    paths = ("/healthz", "/metrics")
    probe_sched: dict[str, Any] = {}

    def probes(duration: float) -> dict[str, Any]:
        if probe_method == "process":
            proc = probe_apart(url, paths, probe_clients, duration)
            out = probe_result(proc, duration + 120)
            probe_sched.update(out.pop("sched", {}))
            return {p.strip("/"): part for p, part in out.items()}
        out: dict[str, Any] = {}
        threads = [threading.Thread(target=lambda p=p: out.__setitem__(
            p.strip("/"), probe(url, p, probe_clients, duration))) for p in paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return out

    say(f"load: idle probes ({probe_clients} + {probe_clients} clients, 10 s, "
        f"probes: {probe_method})")
    idle = probes(10.0)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scan_bodies, f)
        bodies_path = f.name
    say(f"load: {scan_clients} scanning + {2 * probe_clients} probing clients for "
        f"{seconds:.0f} s")
    scanners = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.service_load", "scan", url, bodies_path,
         str(scan_clients), str(seconds)], stdout=subprocess.PIPE, text=True,
        cwd=Path(__file__).parents[1])
    time.sleep(2.0)  # let the scanners connect first: the probes then meet the full load
    watched = {"sidecar": server_pid, **(processes or {}), "scan clients": scanners.pid,
               **({"store stats process": pid}
                  if (pid := sidecar_children(server_pid, "scanner.stats_process")) else {}),
               **{f"scan worker {i + 1}": pid for i, pid in enumerate(
                   sidecar_children(server_pid, "scanner.scan_workers", every=True) or [])}}
    watched = {name: pid for name, pid in watched.items() if pid}
    sched_before, sched_at = {n: sched_stats(pid) for n, pid in watched.items()}, time.monotonic()
    probe_sched.clear()
    results = probes(seconds - 4.0)
    sched = {n: sched_delta(sched_before[n], sched_stats(pid), time.monotonic() - sched_at)
             for n, pid in watched.items()}
    if probe_sched:
        sched["probe clients"] = dict(probe_sched)
    out, _ = scanners.communicate(timeout=seconds + 120)
    server_text = httpx.get(url + "/metrics", timeout=30).text
    refreshes = refresh_window(server_text, time.monotonic())
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
    return {"clients": scan_clients + 2 * probe_clients, "probe_method": probe_method,
            "idle": idle, "load": results,
            "server_side_p99_ms_upper_bound": server_side,
            "event_loop_lag": loop_lag_summary(server_text),
            "store_stats_refresh": {
                "window_monotonic_s": refreshes,
                **{name: split_by_window(results[name], refreshes)
                   for name in ("healthz", "metrics")}},
            "sched": sched, "errors": errors, "ratios": ratios,
            "targets": {"errors": 0, "healthz_p99_ms": HEALTHZ_P99_TARGET_MS,
                        "metrics_p99_ms": METRICS_P99_TARGET_MS},
            "meets_targets": (sum(errors.values()) == 0
                              and ratios["healthz_p99_vs_target"] < 1
                              and ratios["metrics_p99_vs_target"] < 1)}


def refresh_window(metrics_text: str, now: float) -> list[float] | None:
    """When the sidecar last computed its store statistics (a whole-ledger read on a thread of
    its own, :class:`scanner.metrics.StoreStatsCollector`), as ``[start, end]`` on this
    machine's monotonic clock, from ``contrascan_store_stats_age_seconds`` and
    ``…_refresh_seconds`` scraped at ``now``; None before the first one ended."""
    from prometheus_client.parser import text_string_to_metric_families

    found = {s.name: s.value for f in text_string_to_metric_families(metrics_text)
             for s in f.samples if s.name in ("contrascan_store_stats_age_seconds",
                                              "contrascan_store_stats_refresh_seconds")}
    if len(found) < 2:
        return None
    end = now - found["contrascan_store_stats_age_seconds"]
    return [end - found["contrascan_store_stats_refresh_seconds"], end]


def split_by_window(part: dict[str, Any], window: list[float] | None) -> dict[str, Any]:
    """A probe's latency summary for the requests started inside ``window`` and outside it
    (needs the ``samples`` of the ``process`` method)."""
    samples = part.get("samples")
    if not samples or window is None:
        return {}
    inside = [ms / 1e3 for t, ms in samples if window[0] <= t <= window[1]]
    outside = [ms / 1e3 for t, ms in samples if not window[0] <= t <= window[1]]
    return {"inside": summary_ms(inside), "outside": summary_ms(outside)}


def loop_lag_summary(metrics_text: str) -> dict[str, Any]:
    """The sidecar's event-loop lag histogram (``contrascan_event_loop_lag_seconds``, absent
    before it existed): count, mean and the upper bucket bound of p50 / p99, in ms."""
    from prometheus_client.parser import text_string_to_metric_families

    buckets: list[tuple[float, float]] = []
    total_s = 0.0
    for family in text_string_to_metric_families(metrics_text):
        for sample in family.samples:
            if sample.name == "contrascan_event_loop_lag_seconds_bucket":
                buckets.append((float(sample.labels["le"]), sample.value))
            elif sample.name == "contrascan_event_loop_lag_seconds_sum":
                total_s = sample.value
    if not buckets or buckets[-1][1] == 0:
        return {}
    buckets.sort()
    n = buckets[-1][1]
    return {"n": int(n), "mean_ms": total_s / n * 1e3,
            **{f"p{q}_ms_upper_bound": next(le * 1e3 for le, c in buckets if c >= q / 100 * n)
               for q in (50, 90, 99)}}


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
    say(f"load run, {load['clients']} clients (probes: {load.get('probe_method', 'threads')}):")
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
    say("  inside the app (its request histogram, idle + load; upper bucket bound): p99 "
        + ", ".join(f"/{k} <= {v:g} ms" for k, v in load["server_side_p99_ms_upper_bound"].items()
                    if v is not None))
    lag = load.get("event_loop_lag") or {}
    if lag:
        say(f"  event-loop lag (its histogram, idle + load; upper bucket bound): p50 <= "
            f"{lag['p50_ms_upper_bound']:g} ms, p99 <= {lag['p99_ms_upper_bound']:g} ms, mean "
            f"{lag['mean_ms']:.1f} ms over {lag['n']} timers")
    for process, parts in (load.get("sched") or {}).items():
        if not parts:
            continue
        for name, part in parts.items():
            if process != "sidecar" and name == "main":
                continue
            what = (f"{process} {'event-loop thread' if name == 'main' else 'other threads'}"
                    if process == "sidecar" else process)
            cpu = part["cpu_share"] + (0.0 if process == "sidecar"
                                       else parts["main"]["cpu_share"])
            wait = part["runqueue_wait_share"] + (0.0 if process == "sidecar"
                                                  else parts["main"]["runqueue_wait_share"])
            say(f"  {what} under load: {cpu:.2f} cores of CPU, waited for a core "
                f"{wait:.2f} thread-seconds per second")
    for name in ("healthz", "metrics"):
        late = load["load"][name].get("client_lateness")
        if late and late.get("n"):
            say(f"  /{name} probe clients' own timers (their wait for a core): p50 "
                f"{late['p50_ms']:.1f} ms, p99 {late['p99_ms']:.1f} ms late")
    refresh = load.get("store_stats_refresh") or {}
    if refresh.get("window_monotonic_s") and refresh.get("healthz"):
        start, end = refresh["window_monotonic_s"]
        say(f"  store statistics refreshed over {end - start:.1f} s; probe p99 while it ran / "
            "otherwise: " + ", ".join(
                f"/{name} {refresh[name]['inside'].get('p99_ms', float('nan')):.1f} ms (n "
                f"{refresh[name]['inside']['n']}) / "
                f"{refresh[name]['outside'].get('p99_ms', float('nan')):.1f} ms (n "
                f"{refresh[name]['outside']['n']})" for name in ("healthz", "metrics")))
    say(f"  errors other than 429/503 with Retry-After: {load['errors']} (target 0)")


def _main(argv: list[str]) -> int:
    if argv[0] == "probe":  # probe URL CLIENTS SECONDS INTERVAL PATH...
        url, clients, seconds, interval = argv[1], int(argv[2]), float(argv[3]), float(argv[4])
        started = time.monotonic()
        result: dict[str, Any] = probe_in_process(url, tuple(argv[5:]), clients, seconds,
                                                  interval)
        took = time.monotonic() - started
        # the client threads' own figures (read by each as it ends: an ended thread leaves
        # /proc), as sched_delta gives them
        result["sched"] = {"main": {"cpu_share": 0.0, "runqueue_wait_share": 0.0},
                           "others": {"cpu_share": sum(
                               part["client_cpu_s"] for part in result.values()) / took,
                               "runqueue_wait_share": sum(
                               part["client_runqueue_wait_s"] for part in result.values())
                               / took}}
        print(json.dumps(result))
        return 0
    if argv[0] == "scan":  # scan URL QUERIES_JSON CLIENTS SECONDS
        argv = argv[1:]
    url, bodies_path, clients, seconds = argv[0], argv[1], int(argv[2]), float(argv[3])
    bodies = json.loads(Path(bodies_path).read_text())
    print(json.dumps(asyncio.run(_scan_clients(url, bodies, clients, seconds))))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
