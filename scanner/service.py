"""The sidecar's operations over a real store: import, read-time scan, batch scan, history,
statistics.

Triples are extracted once at import and stored; scans of stored memories parse nothing.
Every verdict a scan writes is also recorded in the ledger (:mod:`scanner.ledger`,
:mod:`scanner.store.ledger`), which history and statistics read back.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
import uuid as uuidlib
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from scanner import metrics
from scanner.batch import (
    ScanCheckpoint,
    TenantPass,
    decision_digest,
    ledger_digest,
    states_digest,
)
from scanner.ledger import (
    CONFLICT_TYPES,
    SCAN_TYPES,
    Effects,
    LedgerEntry,
    Stats,
    compute_stats,
    conflict_entry_id,
    content_digest,
    entry_contents,
    import_entry,
    narrate,
    read_scans_entry,
    reconcile_settled,
    verdict_effects,
)
from scanner.scan import build_report
from scanner.store.ledger import LedgerStore, LedgerWrite
from scanner.store.scan_state import ScanStateStore

from scanner.embeddings import Embedder, unit_vector
from scanner.engine import Engine
from scanner.errors import StoreWriteError, UnknownMemory, WeaviateUnavailable
from scanner.models import Conflict, MemoryRecord, RejectedLine, ScanReport
from scanner.records import read_jsonl
from scanner.review.book import ReviewBook
from scanner.store.memories import (
    BATCH_SCAN_PROPERTIES,
    STATUS_ACTIVE,
    STATUS_SUPERSEDED,
    STATUS_UNRESOLVED,
    AppliedEffects,
    ImportResult,
    MemoryStore,
    StoredMemory,
    object_uuid,
    tenant_name,
)

logger = logging.getLogger(__name__)

DEFAULT_LIMIT = 12
"""Hits per read-time scan (seed 004 searches with ``limit=12``)."""
DEFAULT_ALPHA = 0.5
"""Hybrid weight: 0 = BM25 only, 1 = vector only; 0.5 weighs the two equally."""
WRITE_CHECK_LIMIT = 1000
"""Most stored memories a write-time check reads per user (those sharing the new keys)."""
_RECORDED_MEMO = 100_000
"""Verdicts remembered as already written, per process (oldest forgotten first)."""


@dataclass
class ReadTimeScan:
    """A read-time scan: the report and the hits it was computed from (best first)."""

    report: ScanReport
    hits: list[StoredMemory]
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per stage, in order: ``embed`` (absent when the caller sent the vector),
    ``search`` (the hybrid query and decoding the hits), ``scan`` (keys, detection, policy),
    ``ledger_read`` (settlements, only with conflicts), ``write`` (verdicts, only with
    ``apply`` and conflicts not yet recorded by this process)."""


@dataclass
class HistoryEntry:
    """One memory in a supersedes chain."""

    id: str
    text: str
    values: list[str]
    source: str | None
    source_class: str
    epoch: str | None
    observed_at: str | None
    status: str
    retired_rule: str | None
    supersedes: list[str] = field(default_factory=list)
    superseded_by: list[str] = field(default_factory=list)
    retired_by: str | None = None
    """The memory whose verdict retired this one (a winner, or a settling re-observation)."""
    ledger: list[str] = field(default_factory=list)
    """Ids of the ledger entries that concern this memory."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


@dataclass
class History:
    """What changed around one memory, and why: the chain and the ledger (issue 4).

    Attributes:
        chain: the memories linked to ``memory_id`` by ``supersedes`` edges or by ledger
            entries (an epoch-change partner, a quarantined partner, a settler), oldest
            observation first; each with value, source, source class, epoch, observed_at,
            status and the rule that retired it.
        ledger: the entries about those memories, in the order they arose.
        story: one line per memory and per entry, readable without anything else.
    """

    memory_id: str
    user_id: str
    chain: list[HistoryEntry]
    ledger: list[LedgerEntry]
    story: list[str]

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {"memory_id": self.memory_id, "user_id": self.user_id,
                "chain": [e.to_dict() for e in self.chain],
                "ledger": [e.to_json_dict() for e in self.ledger], "story": self.story}


@dataclass
class TenantScan:
    """One tenant of a batch scan: counts, writes, time, and the report when kept."""

    user_id: str
    scanned: int
    conflicts: int
    by_verdict: dict[str, int]
    applied: AppliedEffects
    ledger: LedgerWrite
    seconds: float
    report: ScanReport | None = None
    unchanged_since_checkpoint: bool = False
    # (``ledger.digests`` and ``applied.statuses`` are emptied once the checkpoint is taken)
    """The tenant was found exactly as the last complete scan of it left it
    (:class:`~scanner.batch.ScanCheckpoint`): nothing was decided again or written, and the
    counts are that scan's."""


@dataclass
class _TenantDecision:
    """What a batch scan of one tenant decided, before it writes (see ``Service.scan_tenant``)."""

    user_id: str
    scanned: int
    report: ScanReport
    states: dict[str, tuple[str, str | None]]
    stored: dict[str, str] | None
    apply: bool
    effects: Effects | None = None
    entries: list[LedgerEntry] = field(default_factory=list)
    unchanged: set[str] = field(default_factory=set)
    edges_stored: dict[str, set[str]] = field(default_factory=dict)


@dataclass
class BatchScanResult:
    """A batch scan over one or more tenants."""

    tenants: list[TenantScan]
    seconds: float
    report: ScanReport | None = None

    @property
    def scanned(self) -> int:
        """Memories scanned over all tenants."""
        return sum(t.scanned for t in self.tenants)


class Service:
    """Store + engine + embedder.

    Safe to share between threads (the HTTP sidecar's workers): reads run concurrently, writes
    (imports, verdicts) hold :attr:`writes`, because import de-duplication and ``supersedes``
    edges are check-then-write.

    Args:
        store: the Weaviate memory store (schema ensured on construction).
        engine: extraction and scan.
        embedder: sentence embeddings for vectors and queries.
        ledger: the ledger store (default: ``<memory collection>Ledger`` on the same client).
    """

    stats_flush_seconds: float = 5.0
    """Least seconds between two writes of this process's read-time scan tally per user."""

    def __init__(self, store: MemoryStore, engine: Engine | None = None,
                 embedder: Embedder | None = None, ledger: LedgerStore | None = None):
        self.store = store
        self.engine = engine or Engine()
        self.embedder = embedder or Embedder()
        self.writes = threading.RLock()
        self._recorded: OrderedDict[tuple, None] = OrderedDict()
        self.store.ensure_schema()
        self.ledger = ledger or LedgerStore(store.client, store.name)
        self.ledger.ensure_schema()
        self.reviews = ReviewBook(self.ledger)  # reviewers' decisions, applied to every scan
        self.scan_state = ScanStateStore(store.client, store.name)
        # the configuration and the code this service decides with, hashed once, now: a
        # process whose files are upgraded under it keeps recording what it runs
        self._decision = decision_digest(self.engine.config)
        self._ledger_memo: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._settled_memo: dict[tuple[str, str], LedgerEntry] = {}
        self._tally_lock = threading.Lock()
        self._tally: dict[str, list[int]] = {}
        self._tally_flushed: dict[str, float] = {}
        self._tally_pending: set[str] = set()
        self._tally_writer: ThreadPoolExecutor | None = None
        self._token = uuidlib.uuid4().hex
        self._started_at = datetime.now(timezone.utc)
        self._open_checked: dict[tuple[str, str], float] = {}

    # -- import ---------------------------------------------------------------------------
    def import_records(self, records: Sequence[MemoryRecord], *,
                       progress: Callable[[int], None] | None = None,
                       chunk: int = 512) -> ImportResult:
        """Extract, embed and store records in chunks (progress counts records)."""
        with self.writes:
            return self._import_records(records, progress=progress, chunk=chunk)

    def _import_records(self, records: Sequence[MemoryRecord], *,
                        progress: Callable[[int], None] | None, chunk: int) -> ImportResult:
        total = ImportResult()
        imported_at = datetime.now(timezone.utc)  # one import, one time stamp (statistics)
        per_user: dict[str, list[int]] = {}  # user -> [written, unchanged, failed]
        for start in range(0, len(records), chunk):
            part = records[start:start + chunk]
            stored = self.store.stored(part)
            total.unchanged += len(stored)
            total.differing.extend(mid for (_, mid), same in stored.items() if not same)
            if progress and stored:
                progress(len(stored))
            part = [r for r in part if (r.user_id, r.id) not in stored]
            if not part:
                continue
            triples = self.engine.extract(part)
            vectors = self.embedder.encode([r.text for r in part])
            res = self.store.import_memories(part, triples, vectors, progress=progress,
                                             imported_at=imported_at)
            total.written += res.written
            total.unchanged += res.unchanged
            total.differing.extend(res.differing)  # stored by a concurrent import meanwhile
            total.failures.extend(res.failures)
            failed = {mid for mid, _ in res.failures}
            for r in part:
                counts = per_user.setdefault(r.user_id, [0, 0, 0])
                counts[2 if r.id in failed else 0] += 1
        self._record_imports(imported_at, per_user)
        return total

    def _record_imports(self, imported_at: datetime,
                        per_user: Mapping[str, Sequence[int]]) -> None:
        """One ``import`` ledger entry per tenant that received memories."""
        for user_id in sorted(per_user):
            written, unchanged, failed = per_user[user_id]
            if written:
                self.ledger.write(user_id, [import_entry(
                    user_id, imported_at, written=written, unchanged=unchanged,
                    failed=failed)])

    def import_file(self, path: str | Path, **kwargs: Any
                    ) -> tuple[ImportResult, list[RejectedLine]]:
        """Import a JSON Lines file; bad lines are returned, the rest stored."""
        records, rejected = read_jsonl(path)
        return self.import_records(records, **kwargs), rejected

    def add_memories(self, records: Sequence[MemoryRecord], *, check: bool = False,
                     check_limit: int = WRITE_CHECK_LIMIT
                     ) -> tuple[ImportResult, ScanReport | None]:
        """Store records and, with ``check``, scan them against their keys right away.

        The write-time check reads back the new records (with the triples extracted at
        import) and the stored memories of the same tenant whose ``keys`` share a
        ``subject|relation`` with them, scans that set and writes the verdicts. Memories whose
        subjects are only short forms of each other (``subject_unconfirmed``) share no key and are left
        to the batch scan.

        Args:
            records: the memories (any users; each goes to its own tenant).
            check: run the write-time check.
            check_limit: most stored memories read per user for the check.

        Returns:
            The import result, and the report over the checked memories (``None`` without
            ``check``).

        Raises:
            WeaviateUnavailable: the store does not answer.
            UnknownMemory: a verdict names a memory that vanished meanwhile.
        """
        with self.writes:
            result = self.import_records(records)
            if not check:
                return result, None
            by_user: dict[str, list[str]] = {}
            for r in records:
                by_user.setdefault(r.user_id, []).append(object_uuid(r.user_id, r.id))
            reports = []
            for user_id in sorted(by_user):
                new = list(self.store.iterate_by_uuid(user_id, by_user[user_id]))
                keys = sorted({f"{t.subject}|{t.relation}" for m in new for t in m.triples})
                related = {m.record.id: m
                           for m in self.store.sharing_keys(user_id, keys, limit=check_limit)}
                related.update((m.record.id, m) for m in new)
                memories = [related[k] for k in sorted(related)]
                report = self._scan_stored(memories)
                if report.conflicts:
                    report = self._with_ledger_settlements(user_id, memories, report)
                    self._record_verdicts(user_id, report.conflicts)
                    self._record_ledger(user_id, report)
                metrics.PROCESS.observe_scan("write_time", report)
                reports.append(report)
            return result, merge_reports(reports)

    # -- scans ----------------------------------------------------------------------------
    def scan(self, user_id: str, query: str, *, group: str | None = None,
             properties: Mapping[str, str] | None = None, limit: int = DEFAULT_LIMIT,
             alpha: float = DEFAULT_ALPHA, apply: bool = True,
             vector: Sequence[float] | np.ndarray | None = None) -> ReadTimeScan:
        """Read-time scan: scoped hybrid search, then the scan over the hits' stored triples.

        Hits already superseded by an earlier verdict are reported under ``withhold``.

        Args:
            user_id: the scope's user (one tenant).
            query: what the agent is about to answer (the BM25 text).
            group, properties: the rest of the scope.
            limit: hits to scan; alpha: hybrid weight (0 BM25 … 1 vector).
            apply: write the verdicts to the store (edges, status, ledger entries) and count
                the scan in this process's read-time tally.
            vector: the query's ``(d,)`` embedding by this service's model, when the agent
                already computed it for its own retrieval; it is L2-normalised here. Default:
                the query is embedded (all-MiniLM-L6-v2 takes ~15 ms of CPU per query).

        Returns:
            The report, the hits, and the seconds spent per stage (``embed``, ``search``,
            ``scan``, ``ledger_read``, ``write``; see :attr:`ReadTimeScan.timings`).

        Raises:
            ValueError: ``vector`` is not a finite, non-zero vector of the model's length.

        Pairs the ledger already records as settled by a re-observation stay settled when the
        settling record is not among the hits. The read-time tally is written by a background
        thread, never on the request path.
        """
        timings: dict[str, float] = {}
        last = [time.perf_counter()]

        def lap(stage: str) -> None:
            now = time.perf_counter()
            timings[stage], last[0] = now - last[0], now

        if vector is None:
            query_vector = self.embedder.encode([query])[0]
            lap("embed")
        else:
            query_vector = unit_vector(vector, self.embedder.dimensions)
        hits = self.store.hybrid_search(user_id, query, query_vector, group=group,
                                        properties=properties, limit=limit, alpha=alpha)
        lap("search")
        report = self._scan_stored(hits)
        lap("scan")
        if report.conflicts:
            report = self._with_ledger_settlements(user_id, hits, report)
            lap("ledger_read")
        if apply and report.conflicts:
            self._record_verdicts(user_id, report.conflicts)
            self._record_ledger(user_id, report)
            lap("write")
        metrics.PROCESS.observe_scan("read_time", report)
        if apply:
            self._count_read_scan(user_id, report)
        return ReadTimeScan(report=report, hits=hits, timings=timings)

    _OPEN_RECHECK_S = 30.0
    """Seconds an open ledger entry is trusted before a read-time scan asks the ledger again."""

    def _with_ledger_settlements(self, user_id: str, hits: Sequence[StoredMemory],
                                 report: ScanReport) -> ScanReport:
        """The report with open pairs settled where the ledger says they are."""
        open_pairs = [c for c in report.conflicts
                      if c.verdict in ("quarantined", "epoch_change") and not c.settled_by]
        if not open_pairs:
            return report
        now = time.monotonic()
        stored: dict[str, LedgerEntry] = {}
        unknown = []
        for c in open_pairs:
            eid = conflict_entry_id(user_id, c)
            cached = self._settled_memo.get((user_id, eid))
            if cached is not None:
                stored[eid] = cached
                if cached.settled_by:
                    done = self._settled_memo.get((user_id, cached.settled_by))
                    if done is not None:
                        stored[done.entry_id] = done
            elif now - self._open_checked.get((user_id, eid), -1e9) > self._OPEN_RECHECK_S:
                unknown.append(eid)
        if unknown:
            found = self.ledger.fetch(user_id, unknown)
            wanted = sorted({e.settled_by for e in found.values()
                             if e.status == "settled" and e.settled_by})
            found.update(self.ledger.fetch(user_id, wanted))
            for eid in unknown:
                entry = found.get(eid)
                if entry is not None and entry.status == "settled" and entry.settled_by \
                        and entry.settled_by in found:
                    self._settled_memo[(user_id, eid)] = entry  # settled stays settled
                    self._settled_memo[(user_id, entry.settled_by)] = found[entry.settled_by]
                else:
                    self._open_checked[(user_id, eid)] = now
            stored.update(found)
        conflicts = reconcile_settled(user_id, report.conflicts, stored)
        if conflicts == report.conflicts:
            return report
        rebuilt = build_report([h.record for h in hits], {tuple(c.members): c for c in conflicts},
                               report.events, report.duplicates, report.rejected)
        retired = {h.record.id for h in hits if h.status == STATUS_SUPERSEDED}
        withhold = set(rebuilt.withhold) | retired
        return rebuilt.model_copy(update={
            "withhold": sorted(withhold), "cite": sorted(set(rebuilt.cite) - withhold),
            "unresolved": sorted(set(rebuilt.unresolved) - withhold)})

    def _record_ledger(self, user_id: str, report: ScanReport) -> LedgerWrite:
        """Write the ledger entries of a report's conflicts unless this process already wrote
        each one as it is (entry id and digest)."""
        contents = entry_contents(user_id, report.conflicts, report.events)
        keys = [(c["entry_id"], content_digest(c)) for c in contents]
        if not keys or all(k in self._ledger_memo for k in keys):
            return LedgerWrite(unchanged=len(keys))
        entries = [LedgerEntry.model_validate(c) for c in contents]
        with self.writes:
            result = self.ledger.write(user_id, entries)
            _remember(self._ledger_memo, keys)
        metrics.PROCESS.observe_writes(entries=result.by_type)
        return result

    def _count_read_scan(self, user_id: str, report: ScanReport) -> None:
        """Count a read-time scan in this process's tally; a background thread writes the
        tally at most every :attr:`stats_flush_seconds` per user (off the request path)."""
        incompatible = any(c.verdict != "possible" for c in report.conflicts)
        with self._tally_lock:
            counts = self._tally.setdefault(user_id, [0, 0])
            counts[0] += 1
            counts[1] += int(incompatible)
            due = time.monotonic() - self._tally_flushed.get(user_id, -1e9) \
                >= self.stats_flush_seconds
            if due and user_id not in self._tally_pending:
                self._tally_pending.add(user_id)
                if self._tally_writer is None:
                    self._tally_writer = ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix="contrascan-tally")
                self._tally_writer.submit(self._flush_in_background, user_id)

    def _flush_in_background(self, user_id: str) -> None:
        try:
            self.flush_stats(user_id)
        except Exception:  # the next due scan tries again; the tally is kept
            logger.warning("writing the read-time scan tally of %r failed", user_id,
                           exc_info=True)
        finally:
            with self._tally_lock:
                self._tally_pending.discard(user_id)

    def flush_stats(self, user_id: str | None = None) -> None:
        """Write this process's read-time scan tally (one ledger entry per user and process,
        so processes never race on a shared counter). Scans go on counting meanwhile: the
        counts are read under the tally lock and written outside it."""
        with self._tally_lock:
            users = [user_id] if user_id else sorted(self._tally)
            snapshot = {uid: tuple(self._tally[uid]) for uid in users if self._tally.get(uid)}
        for uid, (scans, with_conflict) in snapshot.items():
            self.ledger.write(uid, [read_scans_entry(
                uid, self._token, scans=scans, with_conflict=with_conflict,
                started_at=self._started_at)])
            with self._tally_lock:
                self._tally_flushed[uid] = time.monotonic()

    def close(self) -> None:
        """Write what is pending (the read-time scan tally). The client stays open."""
        with self._tally_lock:
            writer, self._tally_writer = self._tally_writer, None
        if writer is not None:
            writer.shutdown(wait=True)
        self.flush_stats()

    def batch_scan(self, user_id: str | None = None, *,
                   progress: Callable[[int], None] | None = None, workers: int = 1,
                   on_written: Callable[[int], None] | None = None) -> ScanReport:
        """Scan every memory of one user, or of every user, record the verdicts, and return
        the merged SPEC §5 report (see :meth:`run_batch_scan` for the streaming details).

        Args:
            user_id: one user, or None for every tenant.
            progress: called with the number of memories read, as the cursor advances.
            workers: tenants scanned at once (one worker per tenant).
            on_written: called with the number of ledger entries after each batch write.
        """
        report = self.run_batch_scan(user_id, progress=progress, workers=workers,
                                     on_written=on_written, keep_report=True).report
        if user_id is not None:
            self._remember_recorded(user_id, report)
        return report

    def _remember_recorded(self, user_id: str, report: ScanReport) -> None:
        """Note a batch scan's verdicts and ledger entries as written by this process, so
        read-time scans that meet the same pairs skip the store's read-before-write round
        trips (a sidecar's steady state after a batch scan). A pair a read-time scan sees
        differently (other members, other verdict) has another id and is still written."""
        if not report.conflicts:
            return
        with self.writes:
            _remember(self._recorded, (_verdict_id(user_id, c) for c in report.conflicts))
            _remember(self._ledger_memo, ((c["entry_id"], content_digest(c)) for c in
                                          entry_contents(user_id, report.conflicts,
                                                         report.events)))

    def run_batch_scan(self, user_id: str | None = None, *,
                       progress: Callable[[int], None] | None = None, workers: int = 1,
                       on_written: Callable[[int], None] | None = None,
                       keep_report: bool = False, apply: bool = True,
                       cache_size: int = 1000, ledger_batch_size: int = 500,
                       full: bool = False) -> BatchScanResult:
        """Batch scan of one or every tenant, one worker per tenant (see :meth:`scan_tenant`).

        Args:
            user_id: one user, or None for every tenant.
            progress: called with the number of memories read (from any worker).
            workers: tenants scanned concurrently (threads; 1 = one after another).
            on_written: called with the number of ledger entries after each batch write.
            keep_report: build the full SPEC §5 report (its id lists grow with the number of
                memories; without it only counts are kept and memory stays bounded by one
                tenant's keys).
            apply: write edges, statuses and ledger entries.
            cache_size: objects per cursor page.
            ledger_batch_size: ledger entries per batch request.
            full: decide every tenant, even one found as its last complete scan left it.

        Returns:
            Per-tenant counts, the total time and, with ``keep_report``, the merged report.
        """
        started = time.perf_counter()
        users = [user_id] if user_id else self.store.user_ids()

        def one(uid: str) -> TenantScan:
            return self.scan_tenant(uid, progress=progress, on_written=on_written,
                                    keep_report=keep_report, apply=apply,
                                    cache_size=cache_size, ledger_batch_size=ledger_batch_size,
                                    full=full)

        if workers > 1 and len(users) > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                tenants = list(pool.map(one, users))
        else:
            tenants = [one(uid) for uid in users]
        seconds = time.perf_counter() - started
        result = BatchScanResult(tenants=tenants, seconds=seconds,
                                 report=merge_reports([t.report for t in tenants
                                                       if t.report is not None])
                                 if keep_report else None)
        metrics.PROCESS.observe_batch(memories=result.scanned, seconds=seconds)
        return result

    def scan_tenant(self, user_id: str, *, progress: Callable[[int], None] | None = None,
                    on_written: Callable[[int], None] | None = None, keep_report: bool = True,
                    apply: bool = True, cache_size: int = 1000,
                    ledger_batch_size: int = 500, full: bool = False) -> TenantScan:
        """Batch scan of one tenant in one cursor pass.

        The cursor streams the tenant's stored properties a page at a time (stored triples,
        no vectors, :data:`~scanner.store.memories.BATCH_SCAN_PROPERTIES`); each memory's keys
        are counted as it arrives (:class:`scanner.batch.TenantPass`). After the pass, only
        the memories that can take part in a conflict or a duplicate — those sharing a key,
        holding subjects one a short form of the other, or sharing a text — are decoded into records and go
        through the same pure scan as every other entry point
        (:func:`scanner.scan.scan_records`); the rest are cited as they are. Verdicts are
        written in batches: ``supersedes`` edges with one request per thousand (those of
        verdicts whose ledger entries are stored unchanged are known to be stored, and are
        neither read back nor written), statuses only where they change, ledger entries only
        where new or changed. Because the scan sees the
        whole tenant, members of settled pairs that nothing holds open any more return from
        ``unresolved`` to ``active``.

        Args:
            user_id: the tenant's user.
            progress: called with the number of memories read, after every cursor page.
            on_written: called with the number of ledger entries after each batch write.
            keep_report: keep the report (with every id) in the result.
            apply: write edges, statuses and ledger entries.
            cache_size: objects per cursor page.
            ledger_batch_size: ledger entries per batch request.
            full: decide even when the tenant is unchanged since its checkpoint (below).

        A scan that wrote (``apply``) records a :class:`~scanner.batch.ScanCheckpoint` of the
        state it left: digests of the memories it read, of the statuses and of the ledger's
        verdict entries (:data:`scanner.ledger.SCAN_TYPES`) after its writes, and of the
        configuration and code. A later scan with ``apply``, without ``keep_report`` and
        ``full``, that finds all four unchanged after its cursor pass would decide the same
        verdicts and find nothing to write, so it reports the checkpoint's counts instead
        (``unchanged_since_checkpoint``; its ledger and write counts are then zero). Any
        import, status change, change of a verdict entry, configuration or code change in
        between makes it decide in full; read-time scans change nothing it compares unless
        they record a verdict. ``supersedes`` edges are not compared (neither does a full
        decision re-add the edges of entries stored unchanged).

        Returns:
            Counts, writes and time of this tenant. The cyclic garbage collector is paused
            from the first page to the last write, and resumes once the tenant's objects are
            released (see :class:`_GcPaused`): resuming while they are held cost a
            collection over all of them (30-60 ms per 10,000 memories, measured).

        Raises:
            WeaviateUnavailable, StoreWriteError: the store failed; nothing written so far is
                lost, and a re-run completes the work (every write is idempotent).
        """
        started = time.perf_counter()
        shortcut = apply and not keep_report and not full
        last = self.scan_state.get(user_id) if shortcut else None
        with _GcPaused(), ThreadPoolExecutor(max_workers=1) as reader:
            # one pause from the first page to the last write
            def read_digests() -> Future:
                return reader.submit(self.ledger.all_digests, user_id, SCAN_TYPES)

            # the ledger's digests (they decide what to rewrite) are read while the scan
            # decides: the server is idle then, and busy with the cursor before; with a
            # checkpoint (likely unchanged) they are compared right after the pass
            stored = read_digests() if last is not None else None
            tenant = self._read_tenant(user_id, progress=progress, keep_ids=keep_report,
                                       cache_size=cache_size, decode_early=last is None)
            if stored is None and apply:
                stored = read_digests()
            if last is not None and stored is not None and self._unchanged(tenant, last,
                                                                           stored):
                return self._unchanged_result(tenant, last, started)
            decided = self._decide_tenant(tenant, stored, keep_report=keep_report,
                                          apply=apply)
            inputs = tenant.inputs_digest
            del tenant
            result = self._write_tenant(decided, started=started, on_written=on_written,
                                        keep_report=keep_report,
                                        ledger_batch_size=ledger_batch_size)
            if apply and stored is not None and decided.scanned:
                self._record_checkpoint(decided, result, inputs, stored)
            # the per-id lists were for the checkpoint only: a result kept for each of many
            # tenants stays a handful of counts
            result.ledger.digests.clear()
            result.applied.statuses.clear()
            # released before the collector resumes, which then walks only what is kept
            del decided
        return result

    def _unchanged(self, tenant: TenantPass, last: ScanCheckpoint, stored: Future) -> bool:
        """Whether the tenant just read is exactly as the scan that recorded ``last`` left
        it (see :meth:`scan_tenant`); ``stored``: the pending read of the ledger's digests."""
        if last.scanned != tenant.scanned or last.decision != self._decision \
                or last.inputs != tenant.inputs_digest \
                or last.states != states_digest(tenant.states):
            return False
        try:
            ledger = stored.result()
        except (StoreWriteError, WeaviateUnavailable):
            return False  # decided in full, which reads the ledger again when it needs it
        return last.ledger == ledger_digest(ledger)

    def _unchanged_result(self, tenant: TenantPass, last: ScanCheckpoint,
                          started: float) -> TenantScan:
        by_verdict = last.by_verdict
        metrics.PROCESS.observe_scan_counts("batch", scanned=tenant.scanned,
                                            conflicts=last.conflicts)
        return TenantScan(user_id=tenant.user_id, scanned=tenant.scanned,
                          conflicts=sum(by_verdict.values()), by_verdict=by_verdict,
                          applied=AppliedEffects(), ledger=LedgerWrite(),
                          seconds=time.perf_counter() - started,
                          unchanged_since_checkpoint=True)

    def _record_checkpoint(self, d: _TenantDecision, result: TenantScan, inputs: str,
                           stored: Future) -> None:
        """Record the state a complete scan of one tenant left (see :meth:`scan_tenant`):
        the statuses and ledger digests it read (``stored``: the pending read of the
        digests), with its own writes applied. Never raises: without a checkpoint the next
        scan decides in full."""
        states = dict(d.states)
        retire = d.effects.retire if d.effects is not None else {}
        for mid, status in result.applied.statuses.items():
            if status == STATUS_ACTIVE:
                states.pop(mid, None)
            else:
                states[mid] = (status, retire.get(mid) if status == STATUS_SUPERSEDED else None)
        conflicts = Counter((c.verdict, c.rule or "") for c in d.report.conflicts)
        try:
            ledger = {**stored.result(), **result.ledger.digests}
            self.scan_state.put(d.user_id, ScanCheckpoint(
                decision=self._decision, inputs=inputs, states=states_digest(states),
                ledger=ledger_digest(ledger), scanned=d.scanned, conflicts=dict(conflicts)),
                datetime.now(timezone.utc))
        except (StoreWriteError, WeaviateUnavailable) as err:
            # the scan's own writes are all stored; without a checkpoint the next scan of
            # this tenant decides in full
            self.scan_state.forget_schema()
            logger.warning("checkpoint of tenant %r not recorded: %s", d.user_id, err)

    def _read_tenant(self, user_id: str, *, progress: Callable[[int], None] | None,
                     keep_ids: bool, cache_size: int, decode_early: bool = True) -> TenantPass:
        """The cursor pass of :meth:`scan_tenant` (see :mod:`scanner.batch`)."""
        tenant = TenantPass(user_id, self.engine.config.aliases, keep_ids=keep_ids,
                            decode_early=decode_early)
        add = tenant.add
        with _GcPaused():
            for page in self.store.property_pages(user_id, cache_size=cache_size,
                                                  properties=BATCH_SCAN_PROPERTIES):
                for props in page:
                    add(props)
                if progress is not None:
                    progress(len(page))
        return tenant

    def _decide_tenant(self, tenant: TenantPass, digests: Future | None, *,
                       keep_report: bool, apply: bool) -> _TenantDecision:
        """The scan of :meth:`scan_tenant` after its cursor pass, and what it has to write:
        the effects, and the ledger entries that are new or changed (with the collector
        paused: the tenant's objects are all still held, see :class:`_GcPaused`).
        ``digests``: the pending read of the tenant's stored ledger digests (entry id ->
        digest), when ``apply``."""
        user_id = tenant.user_id
        with _GcPaused():
            scanned, report, states = self._scan_pass(tenant, keep_report=keep_report)
            decided = _TenantDecision(user_id=user_id, scanned=scanned, report=report,
                                      states=states, stored=None, apply=apply)
            if apply and (report.conflicts or any(status == STATUS_UNRESOLVED
                                                  for status, _ in states.values())):
                # (no conflicts: memories left unresolved by pairs that are gone return to
                # active, see MemoryStore.apply_effects' full_view)
                decided.effects = verdict_effects(report.conflicts)
                # contents and digests are compared; models are built only to be written
                contents = entry_contents(user_id, report.conflicts, report.events)
                stored = decided.stored = digests.result() if digests is not None else None
                if stored:
                    decided.unchanged = {c["entry_id"] for c in contents
                                         if c["entry_id"] in stored
                                         and stored[c["entry_id"]] == content_digest(c)}
                decided.entries = [LedgerEntry.model_validate(c) for c in contents
                                   if c["entry_id"] not in decided.unchanged]
                decided.edges_stored = _edges_recorded(contents, decided.unchanged)
        return decided

    def _write_tenant(self, d: _TenantDecision, *, started: float,
                      on_written: Callable[[int], None] | None, keep_report: bool,
                      ledger_batch_size: int) -> TenantScan:
        """The writes of :meth:`scan_tenant`: edges and statuses, then ledger entries."""
        report = d.report
        applied, written = AppliedEffects(), LedgerWrite()
        if d.effects is not None:
            with self.writes:
                applied = self.store.apply_effects(d.user_id, d.effects, states=d.states,
                                                   full_view=True,
                                                   edges_stored=d.edges_stored)
                written = self.ledger.write(d.user_id, d.entries,
                                            batch_size=ledger_batch_size, digests=d.stored,
                                            on_written=on_written)
            written.unchanged += len(d.unchanged)
            metrics.PROCESS.observe_writes(entries=written.by_type, edges=applied.edges_added,
                                           statuses=applied.statuses_changed)
        metrics.PROCESS.observe_scan("batch", report)
        return TenantScan(user_id=d.user_id, scanned=d.scanned,
                          conflicts=len(report.conflicts),
                          by_verdict=dict(Counter(c.verdict for c in report.conflicts)),
                          applied=applied, ledger=written,
                          seconds=time.perf_counter() - started,
                          report=report if keep_report else None)

    def _scan_pass(self, tenant: TenantPass, *, keep_report: bool
                   ) -> tuple[int, ScanReport, dict[str, tuple[str, str | None]]]:
        """The pure scan of a tenant's candidates: memories read, the report and the status of
        every memory that is not ``active`` (see :mod:`scanner.batch`)."""
        records, triples, near_pairs = tenant.candidates()
        report = self.engine.scan(records, triples, near_pairs=near_pairs)
        report = self.reviews.apply(tenant.user_id, records, report)
        states = tenant.states
        if keep_report:
            retired = {mid for mid, (status, _) in states.items()
                       if status == STATUS_SUPERSEDED}
            withhold = set(report.withhold) | retired
            unresolved = set(report.unresolved) - withhold
            report = report.model_copy(update={
                "scanned": tenant.scanned, "withhold": sorted(withhold),
                "unresolved": sorted(unresolved),
                "cite": sorted(set(tenant.ids) - withhold - unresolved)})
        else:
            report = report.model_copy(update={"scanned": tenant.scanned, "cite": [],
                                               "withhold": [], "unresolved": []})
        return tenant.scanned, report, states

    def _record_verdicts(self, user_id: str, conflicts: Sequence[Conflict]) -> int:
        """Write verdicts (edges and status, under :attr:`writes`) unless this process has
        already written every one of them; returns the number of new ``supersedes`` edges.

        Writing is idempotent, so a scan whose conflicts were all written before (by a batch
        scan or an earlier read-time scan) skips the store's read-before-write round trips:
        in the steady state a read-time scan costs one query. A scan with any new conflict
        writes the whole list, because the effects of one conflict can depend on the others
        in the same call (settlement by a re-observation).
        """
        ids = [_verdict_id(user_id, c) for c in conflicts]
        if not ids or all(i in self._recorded for i in ids):
            return 0
        with self.writes:
            added = self.store.apply_conflicts(user_id, conflicts)
            _remember(self._recorded, ids)
        return added

    def _scan_stored(self, memories: Sequence[StoredMemory]) -> ScanReport:
        report = self.engine.scan([m.record for m in memories], [m.triples for m in memories])
        if memories:
            report = self.reviews.apply(memories[0].record.user_id,
                                        [m.record for m in memories], report)
        retired = {m.record.id for m in memories if m.status == STATUS_SUPERSEDED}
        if not retired:
            return report
        withhold = set(report.withhold) | retired
        return report.model_copy(update={
            "withhold": sorted(withhold),
            "cite": sorted(set(report.cite) - withhold),
            "unresolved": sorted(set(report.unresolved) - withhold)})

    # -- history --------------------------------------------------------------------------
    def history(self, memory_id: str, user_id: str | None = None) -> list[HistoryEntry]:
        """The memories around ``memory_id`` (supersedes chain and ledger), oldest first.

        See :meth:`history_report` for the ledger entries and the readable story.

        Raises:
            UnknownMemory: the id is not stored (for that user).
        """
        return self.history_report(memory_id, user_id).chain

    def history_report(self, memory_id: str, user_id: str | None = None, *,
                       max_memories: int = 200) -> History:
        """Walk the ``supersedes`` chain and the ledger from one memory.

        The walk follows ``supersedes`` edges both ways and every ledger entry about a memory
        it reached (the other member of an epoch change or a quarantine, the record that
        settled it), so "why did the timeout change?" is answered by the result alone: each
        value with its source, source class, epoch and observed_at, the rule and the memory
        that retired it, and the entries (epoch-change events, quarantines with their
        re-observation requests, escalations, settlements) in the order they arose.

        Args:
            memory_id: where to start.
            user_id: its user (found by searching every tenant when omitted).
            max_memories: most memories the walk visits (a guard for very busy keys).

        Raises:
            UnknownMemory: the id is not stored (for that user).
        """
        if user_id is not None and tenant_name(user_id) not in self.store.tenants():
            raise UnknownMemory(memory_id, user_id)
        user_id = user_id or self.store.find_user(memory_id)
        seen: dict[str, HistoryEntry] = {}
        supersedes: dict[str, list[str]] = {}
        entries: dict[str, LedgerEntry] = {}
        asked: set[str] = set()
        todo = [memory_id]
        while todo or set(seen) - asked:
            while todo and len(seen) < max_memories:
                mid = todo.pop()
                if mid in seen:
                    continue
                mem = self.store.get(user_id, mid)
                later = self.store.superseded_by(user_id, mid)
                entry = _entry(mem)
                entry.superseded_by = sorted(m.record.id for m in later)
                seen[mid] = entry
                supersedes[mid] = sorted(self._ids_for(mem.supersedes, user_id))
                todo.extend(m.record.id for m in later)
                todo.extend(supersedes[mid])
            fresh = sorted(set(seen) - asked)
            if not fresh or len(seen) >= max_memories:
                break
            asked.update(fresh)
            for e in self.ledger.for_memories(user_id, fresh):
                entries[e.entry_id] = e
                if e.entry_type in (*CONFLICT_TYPES, "settlement"):
                    todo.extend(m for m in e.concerns() if m not in seen)
        for mid, entry in seen.items():
            entry.supersedes = supersedes[mid]
        ledger = sorted(entries.values(), key=_entry_order)
        for e in ledger:
            retired = e.superseded if e.entry_type in ("resolution", "settlement") else []
            by = e.winner if e.entry_type == "resolution" else e.settler
            for mid in e.concerns():
                if mid in seen:
                    seen[mid].ledger.append(e.entry_id)
            for mid in retired:
                if mid in seen and seen[mid].status == STATUS_SUPERSEDED:
                    seen[mid].retired_by = by
        chain = sorted(seen.values(), key=lambda e: (e.observed_at or "", e.id))
        return History(memory_id=memory_id, user_id=user_id, chain=chain, ledger=ledger,
                       story=_story(chain, ledger))

    def _ids_for(self, uuids: Iterable[str], user_id: str) -> list[str]:
        out = []
        for mem in self.store.iterate_by_uuid(user_id, list(uuids)):
            out.append(mem.record.id)
        return out

    # -- statistics -----------------------------------------------------------------------
    def stats(self, user_id: str | None = None) -> Stats:
        """Conflicts by relation, verdict and rule; conflict rate per import; the share of
        read-time scans whose hits held incompatible values — from the ledger of one tenant
        or of all (every tenant is streamed with the cursor API).

        The entries are counted as they stream, never held all at once: a list of 200k
        entries made the collector's full passes stop every thread for up to 2.5 s (issue 18;
        measured with a 1 ms ticker thread) and the whole call take 57 s instead of 21 s."""
        self.flush_stats()
        users = [user_id] if user_id else self.store.user_ids()
        imported: dict[tuple[str, str], str] = {}
        for uid in users:
            imported.update(((uid, mid), t) for mid, t in self.store.import_times(uid).items())
        entries = (e for uid in users for e in self.ledger.iterate(uid))
        return compute_stats(entries, imported)


_GC_LOCK = threading.Lock()
_GC_HOLDERS = 0


class _GcPaused:
    """Pause the cyclic garbage collector while batch scans run (re-entrant across threads).

    A batch scan builds tens of thousands of small, long-lived, acyclic objects per tenant
    (records, triples, verdicts); CPython's generational collector then keeps re-walking them
    in full collections, which costs a third of the scan. Reference counting still frees
    everything; the collector resumes when the last scan ends."""

    _restore = True

    def __enter__(self) -> None:
        global _GC_HOLDERS
        with _GC_LOCK:
            if _GC_HOLDERS == 0:
                _GcPaused._restore = gc.isenabled()
                gc.disable()
            _GC_HOLDERS += 1

    def __exit__(self, *exc: object) -> None:
        global _GC_HOLDERS
        with _GC_LOCK:
            _GC_HOLDERS -= 1
            if _GC_HOLDERS == 0 and _GcPaused._restore:
                gc.enable()


_ORDER = {"import": 0, "resolution": 1, "possible": 1, "quarantine": 1, "escalation": 1,
          "epoch_change": 1, "settlement": 2, "read_scans": 3}


def _entry_order(e: LedgerEntry) -> tuple:
    """When an entry's situation arose: its newest input observation (imports by time)."""
    times = [i.get("observed_at") or "" for i in e.inputs.values()]
    when = max(times) if times else str(e.data.get("imported_at") or "")
    return (when, _ORDER.get(e.entry_type, 9), e.entry_id)


def _story(chain: Sequence[HistoryEntry], ledger: Sequence[LedgerEntry]) -> list[str]:
    """Readable lines: every memory as observed, then every ledger entry as it arose."""
    lines = []
    for e in chain:
        value = "; ".join(e.values) or e.text
        fate = e.status
        if e.status == STATUS_SUPERSEDED:
            fate += f" by {e.retired_by or ', '.join(e.superseded_by) or '?'}" \
                    f" (rule {e.retired_rule or '?'})"
        lines.append(f"{e.observed_at or 'time unknown'}  {e.id}: “{e.text}” [{value}] — "
                     f"source {e.source or 'unknown'} ({e.source_class}), epoch "
                     f"{e.epoch or 'unknown'}; now {fate}")
    for entry in ledger:
        if entry.entry_type in ("import", "read_scans"):
            continue
        lines.append(narrate(entry))
    return lines


def _edges_recorded(contents: Sequence[Mapping[str, Any]],
                    unchanged: set[str]) -> dict[str, set[str]]:
    """winner or settler -> losers whose ``supersedes`` edges are stored for certain: those of
    conflicts whose ledger entries (the conflict's, and its settlement's when settled) are
    stored unchanged. Every writer records a verdict's entries only after its edges and
    statuses (``scan_tenant``, ``scan``, ``add_memories``), and edges are never removed.

    Args:
        contents: the entries of the scan's conflicts, as :func:`scanner.ledger.entry_contents`
            gives them.
        unchanged: ids of those entries that are stored unchanged.
    """
    settlements = {c["entry_id"]: c for c in contents if c["entry_type"] == "settlement"}
    out: dict[str, set[str]] = {}
    for c in contents:
        if c["entry_type"] == "settlement" or c["entry_id"] not in unchanged:
            continue
        settled_by = c["settled_by"]
        if settled_by and settled_by not in unchanged:
            continue
        if c["verdict"] == "resolved" and c["winner"]:
            out.setdefault(c["winner"], set()).update(c["superseded"])
        if settled_by:
            done = settlements[settled_by]
            if done["superseded"]:
                out.setdefault(done["settler"], set()).update(done["superseded"])
    return out


def _remember(memo: OrderedDict, keys: Iterable[Any]) -> None:
    """Mark ``keys`` as written by this process, most recent last; beyond
    :data:`_RECORDED_MEMO` the oldest are forgotten (and written again if met again)."""
    for k in keys:
        memo[k] = None
        memo.move_to_end(k)
    while len(memo) > _RECORDED_MEMO:
        memo.popitem(last=False)


def _verdict_id(user_id: str, c: Conflict) -> tuple:
    """What a verdict writes, as a hashable value (two equal ids write the same)."""
    return (user_id, tuple(c.members), c.verdict, c.winner, tuple(c.superseded), c.rule)


def _entry(mem: StoredMemory) -> HistoryEntry:
    r = mem.record
    values = [f"{'not ' if t.negated else ''}{t.subject} · {t.relation} · {t.object}".strip(" ·")
              for t in mem.triples]
    observed = r.observed_at.isoformat() if isinstance(r.observed_at, datetime) else None
    return HistoryEntry(id=r.id, text=r.text, values=values, source=r.source,
                        source_class=r.source_class.value, epoch=r.epoch, observed_at=observed,
                        status=mem.status, retired_rule=mem.retired_rule)


def merge_reports(reports: Sequence[ScanReport]) -> ScanReport:
    """One report from per-tenant reports (scopes never overlap across tenants)."""
    conflicts = sorted((c for r in reports for c in r.conflicts), key=lambda c: c.members)
    return ScanReport(
        scanned=sum(r.scanned for r in reports), conflicts=conflicts,
        duplicates=sorted(d for r in reports for d in r.duplicates),
        cite=sorted(i for r in reports for i in r.cite),
        withhold=sorted(i for r in reports for i in r.withhold),
        unresolved=sorted(i for r in reports for i in r.unresolved),
        events=sorted((e for r in reports for e in r.events),
                      key=lambda e: (e.from_["id"], e.to["id"])))
