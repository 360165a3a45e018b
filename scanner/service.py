"""The sidecar's operations over a real store: import, read-time scan, batch scan, history,
statistics.

Triples are extracted once at import and stored; scans of stored memories parse nothing.
Every verdict a scan writes is also recorded in the ledger (:mod:`scanner.ledger`,
:mod:`scanner.store.ledger`), which history and statistics read back.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid as uuidlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from scanner import metrics
from scanner.batch import decision_digest
from scanner.batch_scan import BatchScanResult, BatchScans, TenantScan
from scanner.ledger import (
    CONFLICT_TYPES,
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
)
from scanner.report import assemble_report, by_members, merge_reports
from scanner.store.ledger import LedgerStore, LedgerWrite
from scanner.store.scan_state import ScanStateStore

from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.embeddings import Embedder, unit_vector
from scanner.engine import Engine
from scanner.errors import UnknownMemory
from scanner.models import Conflict, EpochChangeEvent, MemoryRecord, RejectedLine, ScanReport
from scanner.records import read_jsonl
from scanner.review.book import ReviewBook
from scanner.store.memories import (
    STATUS_SUPERSEDED,
    ImportResult,
    MemoryStore,
    StoredMemory,
    object_uuid,
    tenant_name,
)

logger = logging.getLogger(__name__)

__all__ = ["BatchScanResult", "History", "HistoryEntry", "ReadTimeScan", "Service", "TenantScan",
           "merge_reports"]

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


class Service(BatchScans):
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
        incompatible = metrics.has_conflict(report)
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
        or of all (every tenant is streamed with the cursor API)."""
        self.flush_stats()
        users = [user_id] if user_id else self.store.user_ids()
        imported: dict[tuple[str, str], str] = {}
        entries: list[LedgerEntry] = []
        for uid in users:
            imported.update(((uid, mid), t) for mid, t in self.store.import_times(uid).items())
            entries.extend(e for e in self.ledger.iterate(uid))
        return compute_stats(entries, imported)


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


def _report_over(memories: Sequence[StoredMemory], conflicts: Sequence[Conflict],
                 events: Sequence[EpochChangeEvent], found: ScanReport) -> ScanReport:
    """The report over stored memories with their final verdicts: those already stored as
    superseded are withheld (:func:`scanner.report.assemble_report`); ``found`` is the scan's
    own report (its duplicates and rejected lines)."""
    return assemble_report([m.record.id for m in memories], by_members(conflicts), events,
                           found.duplicates, found.rejected,
                           retired=[m.record.id for m in memories
                                    if m.status == STATUS_SUPERSEDED], scanned=len(memories))
