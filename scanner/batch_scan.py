"""Batch scans of whole tenants: one cursor pass per tenant, the same pure scan as every other
entry point over the memories that can conflict, and batched writes (see
:meth:`BatchScans.scan_tenant`).

:class:`BatchScans` holds the batch-scan operations of :class:`scanner.service.Service`; it
works on the service's store, ledger, engine, review decisions and scan-state store, and takes
the service's write lock for its writes.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scanner import metrics
from scanner.batch import ScanCheckpoint, TenantPass
from scanner.batch_checkpoint import record_checkpoint, unchanged
from scanner.core.convergence import exact_edges, withdrawals
from scanner.core.effects import Effects, verdict_effects
from scanner.core.ledger import SCAN_TYPES, LedgerEntry, content_digest, entry_contents
from scanner.core.report import assemble_report, by_members, merge_reports
from scanner.models import ScanReport
from scanner.store.ledger import LedgerWrite
from scanner.store.memories import (
    BATCH_SCAN_PROPERTIES,
    STATUS_SUPERSEDED,
    AppliedEffects,
)
from scanner.write_memo import remember as _remember
from scanner.write_memo import verdict_id as _verdict_id

if TYPE_CHECKING:
    from scanner.engine import Engine
    from scanner.review.book import ReviewBook
    from scanner.store.ledger import LedgerStore
    from scanner.store.memories import MemoryStore
    from scanner.store.scan_state import ScanStateStore

logger = logging.getLogger("scanner.service")


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


class BatchScans:
    """The batch-scan operations of :class:`scanner.service.Service` (a base class of it)."""

    store: MemoryStore
    ledger: LedgerStore
    engine: Engine
    reviews: ReviewBook
    scan_state: ScanStateStore
    writes: threading.RLock
    _decision: str
    _recorded: OrderedDict[tuple, None]
    """Verdicts this process wrote (:mod:`scanner.write_memo`)."""
    _ledger_memo: OrderedDict[tuple[str, str], None]
    """Ledger entries (id, digest) this process wrote."""
    """The configuration and code the service decides with
    (:func:`scanner.batch.decision_digest`)."""

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
        verdict entries (:data:`scanner.core.ledger.SCAN_TYPES`) after its writes, and of the
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
            if last is not None and stored is not None and unchanged(tenant, last, stored,
                                                                     self._decision):
                return self._unchanged_result(tenant, last, started)
            decided = self._decide_tenant(tenant, stored, keep_report=keep_report,
                                          apply=apply)
            inputs = tenant.inputs_digest
            del tenant
            result = self._write_tenant(decided, started=started, on_written=on_written,
                                        keep_report=keep_report,
                                        ledger_batch_size=ledger_batch_size)
            if apply and stored is not None and decided.scanned:
                record_checkpoint(self.scan_state, self._decision, decided, result, inputs,
                                  stored)
            # the per-id lists were for the checkpoint only: a result kept for each of many
            # tenants stays a handful of counts
            result.ledger.digests.clear()
            result.applied.statuses.clear()
            # released before the collector resumes, which then walks only what is kept
            del decided
        return result

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

    def _read_tenant(self, user_id: str, *, progress: Callable[[int], None] | None,
                     keep_ids: bool, cache_size: int, decode_early: bool = True) -> TenantPass:
        """The cursor pass of :meth:`scan_tenant` (see :mod:`scanner.batch`)."""
        tenant = TenantPass(user_id, self.engine.config.aliases, keep_ids=keep_ids,
                            decode_early=decode_early,
                            every_memory=self.engine.config.judge is not None)
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
            stored = decided.stored = digests.result() if apply and digests is not None \
                else None
            if apply and (report.conflicts or states or stored):
                # (no conflicts: memories left unresolved or superseded by verdicts that are
                # gone return to active, see MemoryStore.apply_effects' full_view, and their
                # entries are withdrawn)
                # every edge of the memories in a verdict set to what the verdicts say
                decided.effects = exact_edges(verdict_effects(report.conflicts),
                                              report.conflicts)
                # contents and digests are compared; models are built only to be written
                contents = entry_contents(user_id, report.conflicts, report.events)
                if stored:
                    decided.unchanged = {c["entry_id"] for c in contents
                                         if c["entry_id"] in stored
                                         and stored[c["entry_id"]] == content_digest(c)}
                decided.entries = [LedgerEntry.model_validate(c) for c in contents
                                   if c["entry_id"] not in decided.unchanged]
                # entries this scan of every memory no longer makes: withdrawn, and the
                # edges they implied removed (issue 18: one stored set, one state)
                current = {c["entry_id"] for c in contents}
                stale = [eid for eid in (stored or {}) if eid not in current]
                if stale:
                    decided.entries.extend(withdrawals(
                        self.ledger.fetch(user_id, stale).values(), decided.effects))
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
                                                   full_view=True)
                written = self.ledger.write(d.user_id, d.entries,
                                            batch_size=ledger_batch_size, digests=d.stored,
                                            on_written=on_written, full_view=True)
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
        found = self.engine.scan(records, triples, near_pairs=near_pairs)
        conflicts, events = self.reviews.revised(tenant.user_id, found.conflicts,
                                                 found.events) or (found.conflicts, found.events)
        states = tenant.states
        retired = {mid for mid, (status, _) in states.items() if status == STATUS_SUPERSEDED}
        report = assemble_report(tenant.ids, by_members(conflicts), events, found.duplicates,
                                 found.rejected, retired=retired, scanned=tenant.scanned,
                                 keep_ids=keep_report)
        return tenant.scanned, report, states


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
