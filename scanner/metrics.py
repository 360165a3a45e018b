"""Prometheus metrics of scans, the ledger and conflict health (seed 001: "Monitor conflict
rates as a health metric").

Two collectors, registered into whichever registry the exposing process uses (the HTTP sidecar
keeps one registry per app, so nothing here touches prometheus-client's global registry)::

    from scanner import metrics
    metrics.register(registry, service)   # PROCESS counters + a StoreStatsCollector

* :data:`PROCESS` (:class:`ScanCounters`): counters of this process — scans and memories
  scanned by mode, conflicts by mode/verdict/rule, read-time scans whose top-k held
  incompatible values for one key, ledger entries written by type, ``supersedes`` edges and
  status changes written, and the duration and rate of the last batch scan.
* :class:`StoreStatsCollector`: gauges computed from the ledger of the whole store
  (:meth:`scanner.service.Service.stats`) — pairs by verdict, rule and relation, open and
  settled pairs, the conflict rate of the imports and the share of read-time scans with a
  conflict across every process that recorded its scans. Reading the ledger streams every
  tenant, so the result is cached for ``ttl_s`` seconds.

Metric names are prefixed ``contrascan_`` and do not collide with the sidecar's own
(``contrascan_scans_total``, ``contrascan_conflicts_total`` …): these are ``contrascan_scan_*``,
``contrascan_ledger_*`` and ``contrascan_store_*``.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import prometheus_client as prometheus
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector, CollectorRegistry

from scanner.models import ScanReport

def is_decided(verdict: str) -> bool:
    """Whether a pair with this verdict counts as a conflict in every figure of this module:
    any verdict but ``possible`` (a relation of unknown cardinality, SPEC §1: reported, never
    resolved, and no conflict for ``--fail-on-conflict`` either)."""
    return verdict != "possible"


def has_conflict(report: ScanReport) -> bool:
    """The one definition of "a scan with a conflict": its report holds at least one decided
    pair (:func:`is_decided`), i.e. the scanned memories held incompatible values for one key.
    Counted by :class:`ScanCounters`, :class:`SidecarMetrics` and the read-time tally that the
    service writes to the ledger (``read_scans`` entries, :class:`StoreStatsCollector`)."""
    return any(is_decided(c.verdict) for c in report.conflicts)

MAX_REFRESH_SHARE = 0.1
"""Largest share of wall time the store statistics refresh may run: after a refresh that took
``d`` seconds the next one starts no sooner than ``d * (1 / share - 1)`` seconds later (issue 18:
on 200k ledger entries one refresh takes ~20 s of CPU; refreshed every minute it ran a third of
the time on a two-core machine, next to the requests)."""


TOP_RELATIONS = 50
"""Relations reported by name in ``contrascan_store_conflicts_by_relation``; the rest are
summed under ``relation="other"`` so the label stays bounded."""


class ScanCounters(Collector):
    """Thread-safe counters of one process, exposed as Prometheus counters and gauges."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scans: Counter[str] = Counter()
        self._memories: Counter[str] = Counter()
        self._conflicts: Counter[tuple[str, str, str]] = Counter()
        self._incompatible: Counter[str] = Counter()
        self._entries: Counter[str] = Counter()
        self._edges = 0
        self._statuses = 0
        self._batch_seconds: float | None = None
        self._batch_rate: float | None = None

    def observe_scan(self, mode: str, report: ScanReport) -> None:
        """Count one scan (``mode``: ``read_time``, ``write_time``, ``batch``).

        A scan "held incompatible values for one key" when :func:`has_conflict`.
        """
        with self._lock:
            self._scans[mode] += 1
            self._memories[mode] += report.scanned
            for c in report.conflicts:
                self._conflicts[(mode, c.verdict, c.rule or "")] += 1
            if has_conflict(report):
                self._incompatible[mode] += 1

    def observe_scan_counts(self, mode: str, *, scanned: int,
                            conflicts: Mapping[tuple[str, str], int]) -> None:
        """Count one scan known by its counts only (a batch scan of a tenant unchanged since
        its checkpoint), as :meth:`observe_scan` counts it: ``conflicts`` maps
        ``(verdict, rule)`` to a number of conflicts."""
        with self._lock:
            self._scans[mode] += 1
            self._memories[mode] += scanned
            for (verdict, rule), n in conflicts.items():
                self._conflicts[(mode, verdict, rule)] += n
            if any(n and is_decided(verdict) for (verdict, _), n in conflicts.items()):
                self._incompatible[mode] += 1

    def observe_writes(self, *, entries: dict[str, int] | None = None, edges: int = 0,
                       statuses: int = 0) -> None:
        """Count ledger entries written (by type), edges added and statuses changed."""
        with self._lock:
            self._entries.update(entries or {})
            self._edges += edges
            self._statuses += statuses

    def observe_batch(self, *, memories: int, seconds: float) -> None:
        """Record the last batch scan's duration (s) and rate (memories/s)."""
        with self._lock:
            self._batch_seconds = seconds
            self._batch_rate = memories / seconds if seconds > 0 else None

    def snapshot(self) -> dict[str, Any]:
        """The current values as plain data (for tests and logs)."""
        with self._lock:
            return {"scans": dict(self._scans), "memories": dict(self._memories),
                    "conflicts": dict(self._conflicts), "incompatible": dict(self._incompatible),
                    "entries": dict(self._entries), "edges": self._edges,
                    "statuses": self._statuses, "batch_seconds": self._batch_seconds,
                    "batch_rate": self._batch_rate}

    def collect(self) -> Iterator[Any]:
        snap = self.snapshot()
        scans = CounterMetricFamily("contrascan_scan_runs", "Scans run by this process.",
                                    labels=["mode"])
        for mode, n in sorted(snap["scans"].items()):
            scans.add_metric([mode], n)
        yield scans
        memories = CounterMetricFamily("contrascan_scan_memories",
                                       "Memories scanned by this process.", labels=["mode"])
        for mode, n in sorted(snap["memories"].items()):
            memories.add_metric([mode], n)
        yield memories
        pairs = CounterMetricFamily("contrascan_scan_conflicts",
                                    "Conflicting pairs found, by verdict and rule.",
                                    labels=["mode", "verdict", "rule"])
        for (mode, verdict, rule), n in sorted(snap["conflicts"].items()):
            pairs.add_metric([mode, verdict, rule], n)
        yield pairs
        held = CounterMetricFamily("contrascan_scan_incompatible",
                                   "Scans whose memories held incompatible values for one key.",
                                   labels=["mode"])
        for mode, n in sorted(snap["incompatible"].items()):
            held.add_metric([mode], n)
        yield held
        entries = CounterMetricFamily("contrascan_ledger_entries_written",
                                      "Ledger entries written, by entry type.",
                                      labels=["entry_type"])
        for etype, n in sorted(snap["entries"].items()):
            entries.add_metric([etype], n)
        yield entries
        yield CounterMetricFamily("contrascan_ledger_edges_written",
                                  "supersedes edges added to memories.", value=snap["edges"])
        yield CounterMetricFamily("contrascan_ledger_status_changes",
                                  "Memory status changes written.", value=snap["statuses"])
        if snap["batch_seconds"] is not None:
            yield GaugeMetricFamily("contrascan_scan_last_batch_seconds",
                                    "Duration of the last batch scan, seconds.",
                                    value=snap["batch_seconds"])
        if snap["batch_rate"] is not None:
            yield GaugeMetricFamily("contrascan_scan_last_batch_memories_per_second",
                                    "Memories per second of the last batch scan.",
                                    value=snap["batch_rate"])


PROCESS = ScanCounters()
"""The counters of this process (the service updates them)."""


class StoreStatsCollector(Collector):
    """Gauges from the ledger of the whole store, cached for ``ttl_s`` seconds, or longer
    when computing them is slow (:data:`MAX_REFRESH_SHARE`).

    Args:
        stats: returns :class:`scanner.core.ledger_stats.Stats` (e.g. ``service.stats``).
        ttl_s: seconds a computed result is reused at least.
    """

    def __init__(self, stats: Callable[[], Any], ttl_s: float = 60.0):
        self._stats = stats
        self._ttl = ttl_s
        self._lock = threading.Lock()
        self._cached: tuple[float, Any] | None = None
        self._refreshing: threading.Thread | None = None
        self._last_duration_s = 0.0

    def _current(self) -> Any:
        """The last computed statistics, or None before the first refresh finished.

        Never computes inline: a scrape is O(1). When the result is older than ``ttl_s`` (its
        age counted from the end of its computation) one background thread recomputes it; a
        scrape meanwhile gets the previous result (issue 18: a scrape of 197k ledger entries
        took 65-81 s, and concurrent scrapes each ran it)."""
        with self._lock:
            reuse_s = max(self._ttl, self._last_duration_s * (1 / MAX_REFRESH_SHARE - 1))
            fresh = self._cached is not None and time.monotonic() - self._cached[0] <= reuse_s
            if not fresh and self._refreshing is None:
                self._refreshing = threading.Thread(target=self._refresh, daemon=True,
                                                    name="contrascan-store-stats")
                self._refreshing.start()
            return self._cached[1] if self._cached is not None else None

    def refresh_now(self) -> None:
        """Compute the statistics in this thread (start-up warm-up, tests)."""
        self._refresh()

    def _refresh(self) -> None:
        started = time.monotonic()
        try:
            stats = self._stats()
        except Exception:  # noqa: BLE001 - the store may be down; retried on a later scrape
            stats = None
        with self._lock:
            self._last_duration_s = time.monotonic() - started
            if stats is not None:
                self._cached = (time.monotonic(), stats)
            self._refreshing = None

    def collect(self) -> Iterator[Any]:
        stats = self._current()
        if stats is None:
            return
        cached = self._cached
        if cached is not None:
            yield GaugeMetricFamily("contrascan_store_stats_age_seconds",
                                    "Seconds since the store statistics below were computed.",
                                    value=time.monotonic() - cached[0])
            yield GaugeMetricFamily("contrascan_store_stats_refresh_seconds",
                                    "Duration of the last computation of the store "
                                    "statistics, seconds.", value=self._last_duration_s)
        verdicts = GaugeMetricFamily("contrascan_store_conflicts_by_verdict",
                                     "Conflicting pairs in the ledger, by verdict.",
                                     labels=["verdict"])
        for verdict, n in sorted(stats.by_verdict.items()):
            verdicts.add_metric([verdict], n)
        yield verdicts
        rules = GaugeMetricFamily("contrascan_store_conflicts_by_rule",
                                  "Conflicting pairs in the ledger, by deciding rule.",
                                  labels=["rule"])
        for rule, n in sorted(stats.by_rule.items()):
            rules.add_metric([rule], n)
        yield rules
        relations = GaugeMetricFamily("contrascan_store_conflicts_by_relation",
                                      f"Conflicting pairs by relation (top {TOP_RELATIONS}, "
                                      "the rest as 'other').", labels=["relation"])
        ranked = sorted(stats.by_relation.items(), key=lambda kv: (-kv[1], kv[0]))
        for relation, n in ranked[:TOP_RELATIONS]:
            relations.add_metric([relation], n)
        rest = sum(n for _, n in ranked[TOP_RELATIONS:])
        if rest:
            relations.add_metric(["other"], rest)
        yield relations
        yield GaugeMetricFamily("contrascan_store_open_pairs",
                                "Quarantined, epoch-change, escalated and possible pairs not "
                                "settled.", value=stats.open)
        yield GaugeMetricFamily("contrascan_store_settled_pairs",
                                "Pairs settled by a later re-observation.", value=stats.settled)
        imported = sum(i.memories for i in stats.imports)
        introduced = sum(i.conflicts for i in stats.imports)
        yield GaugeMetricFamily("contrascan_store_import_conflict_rate",
                                "Conflicting pairs introduced per imported memory, over all "
                                "imports.", value=introduced / imported if imported else 0.0)
        yield GaugeMetricFamily("contrascan_store_read_scans",
                                "Read-time scans recorded in the ledger.", value=stats.read_scans)
        share = stats.read_scan_conflict_share
        yield GaugeMetricFamily("contrascan_store_read_scan_conflict_share",
                                "Share of read-time scans whose top-k held incompatible values "
                                "for one key, in [0, 1].", value=share if share is not None
                                else 0.0)


def register(registry: CollectorRegistry, service: Any | None = None, *,
             ttl_s: float = 60.0,
             stats: Callable[[], Any] | None = None) -> StoreStatsCollector | None:
    """Expose :data:`PROCESS` and, given a service, its store statistics in ``registry``.

    Args:
        registry: where the collectors are registered.
        service: a :class:`scanner.service.Service`, or None for the process counters only.
        ttl_s: seconds a computed result is reused at least.
        stats: computes the statistics (default ``service.stats``, in this process); the
            sidecar passes one that runs in a child process (:mod:`scanner.stats_process`).

    Returns:
        The store statistics collector (its first figures come from a background refresh
        started by the first scrape; :meth:`StoreStatsCollector.refresh_now` computes them at
        once), or None without a service.
    """
    registry.register(PROCESS)
    if service is None:
        return None
    collector = StoreStatsCollector(stats or service.stats, ttl_s=ttl_s)
    registry.register(collector)
    return collector


_LATENCY_BUCKETS_S = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.02, 0.025, 0.03,
                      0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Histogram buckets, in seconds: fine around the 5-50 ms of a read-time scan."""


class SidecarMetrics:
    """Prometheus metrics of one app, in their own registry (two apps never collide).

    * ``contrascan_http_request_duration_seconds{method,route,status}``: histogram of the
      whole request, middleware included;
    * ``contrascan_scans_total{kind}``, ``contrascan_scans_with_conflicts_total{kind}``,
      ``contrascan_memories_scanned_total{kind}`` with ``kind`` in ``read_time``,
      ``write_time``, ``batch``;
    * ``contrascan_conflicts_total{kind,verdict}``;
    * ``contrascan_conflict_rate{kind}``: scans with a conflict (:func:`has_conflict`) /
      scans, since start-up, in [0, 1] (windowed rates: divide the two counters in PromQL);
    * ``contrascan_scan_duration_seconds{kind}``: service time (search, scan, verdict writes);
    * ``contrascan_memories_written_total``, ``contrascan_batch_jobs{status}``;
    * back-pressure (:class:`scanner.backpressure.InFlightLimit`):
      ``contrascan_http_requests_in_flight`` and ``contrascan_http_requests_queued`` (the
      depth of the line of ``/v1/`` requests waiting for a turn), and
      ``contrascan_http_requests_refused_total{method,route,reason}``, the requests answered
      503 ``overloaded``, with ``reason`` ``queue_full`` or ``queue_timeout``.
    """

    def __init__(self, registry: CollectorRegistry | None = None):
        self.registry = registry or CollectorRegistry()
        r = self.registry
        self.requests = prometheus.Histogram(
            "contrascan_http_request_duration_seconds", "HTTP request latency, seconds.",
            ["method", "route", "status"], buckets=_LATENCY_BUCKETS_S, registry=r)
        self.scans = prometheus.Counter("contrascan_scans", "Scans run.", ["kind"], registry=r)
        self.scans_with_conflicts = prometheus.Counter(
            "contrascan_scans_with_conflicts", "Scans that found a decided conflict.",
            ["kind"], registry=r)
        self.memories_scanned = prometheus.Counter(
            "contrascan_memories_scanned", "Memories scanned.", ["kind"], registry=r)
        self.conflicts = prometheus.Counter(
            "contrascan_conflicts", "Conflicting pairs found, by verdict.", ["kind", "verdict"],
            registry=r)
        self.conflict_rate = prometheus.Gauge(
            "contrascan_conflict_rate", "Share of scans with a decided conflict since start-up.",
            ["kind"], registry=r)
        self.scan_seconds = prometheus.Histogram(
            "contrascan_scan_duration_seconds", "Service time of a scan, seconds.", ["kind"],
            buckets=_LATENCY_BUCKETS_S, registry=r)
        self.memories_written = prometheus.Counter(
            "contrascan_memories_written", "Memories stored through the sidecar.", registry=r)
        self.jobs = prometheus.Gauge(
            "contrascan_batch_jobs", "Batch-scan jobs kept, by status.", ["status"], registry=r)
        self.in_flight = prometheus.Gauge(
            "contrascan_http_requests_in_flight",
            "/v1/ requests admitted and not yet answered.", registry=r)
        self.queued = prometheus.Gauge(
            "contrascan_http_requests_queued",
            "/v1/ requests waiting for a turn (the depth of the line).", registry=r)
        self.refused = prometheus.Counter(
            "contrascan_http_requests_refused",
            "/v1/ requests answered 503 overloaded, by route and reason: queue_full (the "
            "line was full) or queue_timeout (no turn came in time).",
            ["method", "route", "reason"], registry=r)
        self._lock = threading.Lock()
        self._counts: dict[str, list[int]] = {}

    def observe_admission(self, in_flight: int, queued: int) -> None:
        """The back-pressure counts after a change: requests admitted, requests waiting
        (:class:`scanner.backpressure.InFlightLimit`'s ``on_counts``)."""
        self.in_flight.set(in_flight)
        self.queued.set(queued)

    def observe_scan(self, kind: str, report: ScanReport, seconds: float) -> None:
        """Count one scan and its conflicts; ``seconds`` is its service time."""
        self.scans.labels(kind).inc()
        self.scan_seconds.labels(kind).observe(seconds)
        self.memories_scanned.labels(kind).inc(report.scanned)
        for c in report.conflicts:
            self.conflicts.labels(kind, c.verdict).inc()
        conflicted = has_conflict(report)
        if conflicted:
            self.scans_with_conflicts.labels(kind).inc()
        with self._lock:
            counts = self._counts.setdefault(kind, [0, 0])
            counts[0] += 1
            counts[1] += conflicted
            self.conflict_rate.labels(kind).set(counts[1] / counts[0])

