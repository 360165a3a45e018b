"""The sidecar's operations over a real store: import, read-time scan, batch scan, history,
statistics.

Triples are extracted once at import and stored; scans of stored memories parse nothing.
Every verdict a scan writes is also recorded in the ledger (:mod:`scanner.core.ledger`,
:mod:`scanner.store.ledger`), which history and statistics read back.

:class:`Service` is the one object the CLI and the HTTP API hold. Here: its wiring, the
read-time and write-time scans and the recording of their verdicts. Beside it, by
responsibility: :mod:`scanner.importing` (extract, embed, store), :mod:`scanner.batch_scan`
(whole tenants, the :class:`~scanner.batch_scan.BatchScans` base class),
:mod:`scanner.history` (the chain and ledger around one memory), :mod:`scanner.scan_tally`
(the read-time scan tally), :mod:`scanner.write_memo` (what this process already wrote) and
:mod:`scanner.core.report` (cite / withhold / unresolved).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scanner import metrics
from scanner.batch import decision_digest
from scanner.batch_scan import BatchScanResult, BatchScans, TenantScan
from scanner.core.ledger import (
    LedgerEntry,
    conflict_entry_id,
    content_digest,
    entry_contents,
    reconcile_settled,
)
from scanner.core.ledger_stats import Stats, compute_stats
from scanner.core.report import assemble_report, by_members, merge_reports
from scanner.store.ledger import LedgerWrite
from scanner.store.protocols import Stores

from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.embeddings import Embedder, unit_vector
from scanner.engine import Engine
from scanner.errors import StoreDamaged
from scanner.history import History, HistoryEntry, read_history
from scanner.importing import import_records
from scanner.models import Conflict, EpochChangeEvent, MemoryRecord, RejectedLine, ScanReport
from scanner.records import read_jsonl
from scanner.review.book import ReviewBook
from scanner.scan_tally import ReadScanTally
from scanner.store.memories import (
    STATUS_SUPERSEDED,
    ImportResult,
    StoredMemory,
    object_uuid,
)
from scanner.write_memo import remember as _remember
from scanner.write_memo import verdict_id as _verdict_id

logger = logging.getLogger(__name__)

__all__ = ["BatchScanResult", "History", "HistoryEntry", "ReadTimeScan", "Service", "TenantScan",
           "merge_reports"]

WRITE_CHECK_LIMIT = 1000
"""Most stored memories a write-time check reads per user (those sharing the new keys)."""


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


class Service(BatchScans):
    """Stores + engine + embedder.

    Safe to share between threads (the HTTP sidecar's workers): reads run concurrently, writes
    (imports, verdicts) hold :attr:`writes`, because import de-duplication and ``supersedes``
    edges are check-then-write.

    Args:
        stores: the memory, ledger and scan-state stores (the memory and ledger schemas are
            ensured on construction); :func:`scanner.store.wiring.weaviate_stores` builds
            them over a Weaviate client.
        engine: extraction and scan.
        embedder: sentence embeddings for vectors and queries.
    """

    stats_flush_seconds: float = 5.0
    """Least seconds between two writes of this process's read-time scan tally per user."""

    def __init__(self, stores: Stores, engine: Engine | None = None,
                 embedder: Embedder | None = None):
        self.stores = stores
        self.store = stores.memories
        self.engine = engine or Engine()
        self.embedder = embedder or Embedder()
        self.writes = threading.RLock()
        self._recorded: OrderedDict[tuple, None] = OrderedDict()
        self.store.ensure_schema()
        self.ledger = stores.ledger
        self.ledger.ensure_schema()
        self.reviews = ReviewBook(self.ledger)  # reviewers' decisions, applied to every scan
        self.scan_state = stores.scan_state
        # the configuration and the code this service decides with, hashed once, now: a
        # process whose files are upgraded under it keeps recording what it runs
        self._decision = decision_digest(self.engine.config)
        self._ledger_memo: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._settled_memo: dict[tuple[str, str], LedgerEntry] = {}
        self.read_tally = ReadScanTally(self.ledger, flush_seconds=self.stats_flush_seconds)
        self._open_checked: dict[tuple[str, str], float] = {}

    # -- import ---------------------------------------------------------------------------
    def import_records(self, records: Sequence[MemoryRecord], *,
                       progress: Callable[[int], None] | None = None,
                       chunk: int = 512) -> ImportResult:
        """Extract, embed and store records in chunks (progress counts records)."""
        with self.writes:
            return import_records(self.store, self.engine, self.embedder, self.ledger, records,
                                  progress=progress, chunk=chunk)

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
        # (the pairs of one key's dispute share its entry, scanner.core.open_state)
        for eid in dict.fromkeys(conflict_entry_id(user_id, c) for c in open_pairs):
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
        return _report_over(hits, conflicts, report.events, report)

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
        self.read_tally.count(user_id, report)

    def flush_stats(self, user_id: str | None = None) -> None:
        """Write this process's read-time scan tally (:meth:`ReadScanTally.flush`)."""
        self.read_tally.flush(user_id)

    def close(self) -> None:
        """Write what is pending (the read-time scan tally). The client stays open."""
        self.read_tally.close()

    # -- the store itself -----------------------------------------------------------------
    def check_store(self) -> bool:
        """Whether the store answers and still holds every collection and tenant this service
        has seen; the sidecar's readiness check (:mod:`scanner.health`), once a second.

        Costs the store's readiness request, then (when it answers) the requests of
        :meth:`scanner.store.presence.StorePresence.check`.

        Raises:
            StoreDamaged: a collection or tenant seen before is gone (deleted from outside;
                from then on on every call).
            WeaviateUnavailable: the store stopped answering between the two checks.
        """
        if not self.store.ready():
            return False
        if self.stores.presence is not None:
            self.stores.presence.check()
        return True

    @property
    def store_damage(self) -> StoreDamaged | None:
        """The loss :meth:`check_store` found (a collection or tenant deleted from outside),
        or ``None``. O(1), no request."""
        presence = self.stores.presence
        damage = presence.damage if presence is not None else None
        return damage if isinstance(damage, StoreDamaged) else None

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
        """The scan of stored memories (one tenant) with the tenant's review decisions applied
        and the memories already stored as superseded withheld."""
        found = self.engine.scan([m.record for m in memories], [m.triples for m in memories])
        revised = self.reviews.revised(memories[0].record.user_id, found.conflicts,
                                       found.events) if memories else None
        if revised is None and not any(m.status == STATUS_SUPERSEDED for m in memories):
            return found  # assembled by the scan over the same memories, nothing to add
        conflicts, events = revised or (found.conflicts, found.events)
        return _report_over(memories, conflicts, events, found)

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
        """Walk the ``supersedes`` chain and the ledger from one memory
        (:func:`scanner.history.read_history`).

        Raises:
            UnknownMemory: the id is not stored (for that user).
        """
        return read_history(self.store, self.ledger, memory_id, user_id,
                            max_memories=max_memories)


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


def _report_over(memories: Sequence[StoredMemory], conflicts: Sequence[Conflict],
                 events: Sequence[EpochChangeEvent], found: ScanReport) -> ScanReport:
    """The report over stored memories with their final verdicts: those already stored as
    superseded are withheld (:func:`scanner.core.report.assemble_report`); ``found`` is the scan's
    own report (its duplicates and rejected lines)."""
    return assemble_report([m.record.id for m in memories], by_members(conflicts), events,
                           found.duplicates, found.rejected,
                           retired=[m.record.id for m in memories
                                    if m.status == STATUS_SUPERSEDED], scanned=len(memories))
