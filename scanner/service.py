"""The sidecar's operations over a real store: import, read-time scan, batch scan, history,
statistics.

Triples are extracted once at import and stored; scans of stored memories parse nothing.
Every verdict a scan writes is also recorded in the ledger (:mod:`scanner.ledger`,
:mod:`scanner.store.ledger`), which history and statistics read back.
"""

from __future__ import annotations

import threading
import time
import uuid as uuidlib
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scanner import metrics
from scanner.detect import normalised_text
from scanner.keys import group_by_key, near_key_pairs
from scanner.ledger import (
    CONFLICT_TYPES,
    LedgerEntry,
    Stats,
    compute_stats,
    conflict_entry_id,
    entries_for,
    import_entry,
    narrate,
    read_scans_entry,
    reconcile_settled,
    verdict_effects,
)
from scanner.scan import build_report
from scanner.store.ledger import LedgerStore, LedgerWrite

from scanner.embeddings import Embedder
from scanner.engine import Engine
from scanner.errors import UnknownMemory
from scanner.models import Conflict, MemoryRecord, RejectedLine, ScanReport
from scanner.records import read_jsonl
from scanner.store.memories import (
    STATUS_ACTIVE,
    STATUS_SUPERSEDED,
    AppliedEffects,
    ImportResult,
    MemoryStore,
    StoredMemory,
    object_uuid,
    tenant_name,
)

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
        self._ledger_memo: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._settled_memo: dict[tuple[str, str], LedgerEntry] = {}
        self._tally_lock = threading.Lock()
        self._tally: dict[str, list[int]] = {}
        self._tally_flushed: dict[str, float] = {}
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
            stored = self.store.stored_ids(part)
            total.unchanged += len(stored)
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
        subjects are only string-similar (``subject_unconfirmed``) share no key and are left
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
                report = self._scan_stored([related[k] for k in sorted(related)])
                self._record_verdicts(user_id, report.conflicts)
                reports.append(report)
            return result, merge_reports(reports)

    # -- scans ----------------------------------------------------------------------------
    def scan(self, user_id: str, query: str, *, group: str | None = None,
             properties: Mapping[str, str] | None = None, limit: int = DEFAULT_LIMIT,
             alpha: float = DEFAULT_ALPHA, apply: bool = True) -> ReadTimeScan:
        """Read-time scan: scoped hybrid search, then the scan over the hits' stored triples.

        Hits already superseded by an earlier verdict are reported under ``withhold``.

        Args:
            user_id: the scope's user (one tenant).
            query: what the agent is about to answer.
            group, properties: the rest of the scope.
            limit: hits to scan; alpha: hybrid weight (0 BM25 … 1 vector).
            apply: write the verdicts to the store (edges, status, ledger entries) and count
                the scan in this process's read-time tally.

        Pairs the ledger already records as settled by a re-observation stay settled when the
        settling record is not among the hits.
        """
        vector = self.embedder.encode([query])[0]
        hits = self.store.hybrid_search(user_id, query, vector, group=group,
                                         properties=properties, limit=limit, alpha=alpha)
        report = self._scan_stored(hits)
        if report.conflicts:
            report = self._with_ledger_settlements(user_id, hits, report)
        if apply and report.conflicts:
            self._record_verdicts(user_id, report.conflicts)
            self._record_ledger(user_id, report)
        metrics.PROCESS.observe_scan("read_time", report)
        if apply:
            self._count_read_scan(user_id, report)
        return ReadTimeScan(report=report, hits=hits)

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
        entries = entries_for(user_id, report.conflicts, report.events)
        keys = [(e.entry_id, e.digest()) for e in entries]
        if not keys or all(k in self._ledger_memo for k in keys):
            return LedgerWrite(unchanged=len(keys))
        with self.writes:
            result = self.ledger.write(user_id, entries)
            for k in keys:
                self._ledger_memo[k] = None
                self._ledger_memo.move_to_end(k)
            while len(self._ledger_memo) > _RECORDED_MEMO:
                self._ledger_memo.popitem(last=False)
        metrics.PROCESS.observe_writes(entries=result.by_type)
        return result

    def _count_read_scan(self, user_id: str, report: ScanReport) -> None:
        """Count a read-time scan in this process's tally and write the tally when due."""
        incompatible = any(c.verdict != "possible" for c in report.conflicts)
        with self._tally_lock:
            counts = self._tally.setdefault(user_id, [0, 0])
            counts[0] += 1
            counts[1] += int(incompatible)
            due = time.monotonic() - self._tally_flushed.get(user_id, -1e9) \
                >= self.stats_flush_seconds
        if due:
            self.flush_stats(user_id)

    def flush_stats(self, user_id: str | None = None) -> None:
        """Write this process's read-time scan tally (one ledger entry per user and process,
        so processes never race on a shared counter)."""
        with self._tally_lock:
            users = [user_id] if user_id else sorted(self._tally)
            for uid in users:
                counts = self._tally.get(uid)
                if not counts:
                    continue
                self.ledger.write(uid, [read_scans_entry(
                    uid, self._token, scans=counts[0], with_conflict=counts[1],
                    started_at=self._started_at)])
                self._tally_flushed[uid] = time.monotonic()

    def close(self) -> None:
        """Write what is pending (the read-time scan tally). The client stays open."""
        self.flush_stats()

    def batch_scan(self, user_id: str | None = None, *,
                   progress: Callable[[int], None] | None = None) -> ScanReport:
        """Scan every memory of one user, or of every user, and apply the verdicts."""
        users = [user_id] if user_id else self.store.user_ids()
        reports = []
        for uid in users:
            memories = list(self.store.iterate(uid))
            report = self._scan_stored(memories)
            if report.conflicts:
                self._record_verdicts(uid, report.conflicts)
            reports.append(report)
            if progress:
                progress(len(memories))
        return merge_reports(reports)

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
            for i in ids:
                self._recorded[i] = None
                self._recorded.move_to_end(i)
            while len(self._recorded) > _RECORDED_MEMO:
                self._recorded.popitem(last=False)
        return added

    def _scan_stored(self, memories: Sequence[StoredMemory]) -> ScanReport:
        report = self.engine.scan([m.record for m in memories], [m.triples for m in memories])
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
        """The supersedes chain through ``memory_id``, oldest observation first.

        Raises:
            UnknownMemory: the id is not stored (for that user).
        """
        if user_id is not None and tenant_name(user_id) not in self.store.tenants():
            raise UnknownMemory(memory_id, user_id)
        user_id = user_id or self.store.find_user(memory_id)
        seen: dict[str, HistoryEntry] = {}
        uuid_to_id: dict[str, str] = {}
        todo = [memory_id]
        while todo:
            mid = todo.pop()
            if mid in seen:
                continue
            mem = self.store.get(user_id, mid)
            uuid_to_id[mem.uuid] = mid
            later = self.store.superseded_by(user_id, mid)
            entry = _entry(mem)
            entry.superseded_by = sorted(m.record.id for m in later)
            seen[mid] = entry
            todo.extend(m.record.id for m in later)
            for target in mem.supersedes:
                todo.extend(self._ids_for([target], user_id))
        for entry in seen.values():
            mem = self.store.get(user_id, entry.id)
            entry.supersedes = sorted(self._ids_for(mem.supersedes, user_id))
        return sorted(seen.values(), key=lambda e: (e.observed_at or "", e.id))

    def _ids_for(self, uuids: Iterable[str], user_id: str) -> list[str]:
        out = []
        for mem in self.store.iterate_by_uuid(user_id, list(uuids)):
            out.append(mem.record.id)
        return out


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
