"""The sidecar's operations over a real store: import, read-time scan, batch scan, history.

Triples are extracted once at import and stored; scans of stored memories parse nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from scanner.embeddings import Embedder
from scanner.engine import Engine
from scanner.models import MemoryRecord, RejectedLine, ScanReport
from scanner.records import read_jsonl
from scanner.store.memories import (
    STATUS_SUPERSEDED,
    ImportResult,
    MemoryStore,
    StoredMemory,
)

DEFAULT_LIMIT = 12
"""Hits per read-time scan (seed 004 searches with ``limit=12``)."""
DEFAULT_ALPHA = 0.5
"""Hybrid weight: 0 = BM25 only, 1 = vector only; 0.5 weighs the two equally."""


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
        self.store.ensure_schema()

    # -- import ---------------------------------------------------------------------------
    def import_records(self, records: Sequence[MemoryRecord], *,
                       progress: Callable[[int], None] | None = None,
                       chunk: int = 512) -> ImportResult:
        """Extract, embed and store records in chunks (progress counts records)."""
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
            self.store.apply_conflicts(user_id, report.conflicts)
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
                self.store.apply_conflicts(uid, report.conflicts)
            reports.append(report)
            if progress:
                progress(len(memories))
        return merge_reports(reports)

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
