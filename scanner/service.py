"""The sidecar's operations over a real store: import, read-time scan, batch scan, history.

Triples are extracted once at import and stored; scans of stored memories parse nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from scanner.embeddings import Embedder
from scanner.engine import Engine
from scanner.errors import UnknownMemory
from scanner.models import Conflict, MemoryRecord, RejectedLine, ScanReport
from scanner.records import read_jsonl
from scanner.store.memories import (
    STATUS_SUPERSEDED,
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


class Service:
    """Store + engine + embedder.

    Safe to share between threads (the HTTP sidecar's workers): reads run concurrently, writes
    (imports, verdicts) hold :attr:`writes`, because import de-duplication and ``supersedes``
    edges are check-then-write.

    Args:
        store: the Weaviate memory store (schema ensured on construction).
        engine: extraction and scan.
        embedder: sentence embeddings for vectors and queries.
    """

    def __init__(self, store: MemoryStore, engine: Engine | None = None,
                 embedder: Embedder | None = None):
        self.store = store
        self.engine = engine or Engine()
        self.embedder = embedder or Embedder()
        self.writes = threading.RLock()
        self._recorded: OrderedDict[tuple, None] = OrderedDict()
        self.store.ensure_schema()

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
            res = self.store.import_memories(part, triples, vectors, progress=progress)
            total.written += res.written
            total.unchanged += res.unchanged
            total.failures.extend(res.failures)
        return total

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
            apply: write the verdicts to the store (edges and status).
        """
        vector = self.embedder.encode([query])[0]
        hits = self.store.hybrid_search(user_id, query, vector, group=group,
                                         properties=properties, limit=limit, alpha=alpha)
        report = self._scan_stored(hits)
        if apply and report.conflicts:
            self._record_verdicts(user_id, report.conflicts)
        return ReadTimeScan(report=report, hits=hits)

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
