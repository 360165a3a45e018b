"""Importing records: extract triples once, embed, store, and record the import in the ledger.

Triples are extracted here, at import, and stored with the memory; scans of stored memories
parse nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone

from scanner.core.ledger import import_entry
from scanner.embeddings import Embedder
from scanner.engine import Engine
from scanner.models import MemoryRecord
from scanner.store.ledger import LedgerStore
from scanner.store.memories import ImportResult, MemoryStore


def import_records(store: MemoryStore, engine: Engine, embedder: Embedder,
                   ledger: LedgerStore, records: Sequence[MemoryRecord], *,
                   progress: Callable[[int], None] | None = None,
                   chunk: int = 512) -> ImportResult:
    """Extract, embed and store records in chunks of ``chunk``; ids already stored are left as
    they are (``unchanged``, and ``differing`` when stored with another text or provenance).
    Then one ``import`` ledger entry per tenant that received memories (statistics).

    Args:
        store, engine, embedder, ledger: where and how records are stored.
        records: the memories (any users; each goes to its own tenant).
        progress: called with the number of records handled, as chunks are stored.
        chunk: records extracted, embedded and written together.

    Returns:
        Counts of written, unchanged and differing records, and the store's rejections.
    """
    total = ImportResult()
    imported_at = datetime.now(timezone.utc)  # one import, one time stamp (statistics)
    per_user: dict[str, list[int]] = {}  # user -> [written, unchanged, failed]
    for start in range(0, len(records), chunk):
        part = records[start:start + chunk]
        stored = store.stored(part)
        total.unchanged += len(stored)
        total.differing.extend(mid for (_, mid), same in stored.items() if not same)
        if progress and stored:
            progress(len(stored))
        part = [r for r in part if (r.user_id, r.id) not in stored]
        if not part:
            continue
        triples = engine.extract(part)
        vectors = embedder.encode([r.text for r in part])
        res = store.import_memories(part, triples, vectors, progress=progress,
                                    imported_at=imported_at)
        total.written += res.written
        total.unchanged += res.unchanged
        total.differing.extend(res.differing)  # stored by a concurrent import meanwhile
        total.failures.extend(res.failures)
        failed = {mid for mid, _ in res.failures}
        for r in part:
            counts = per_user.setdefault(r.user_id, [0, 0, 0])
            counts[2 if r.id in failed else 0] += 1
    _record_imports(ledger, imported_at, per_user)
    return total


def _record_imports(ledger: LedgerStore, imported_at: datetime,
                    per_user: Mapping[str, Sequence[int]]) -> None:
    """One ``import`` ledger entry per tenant that received memories."""
    for user_id in sorted(per_user):
        written, unchanged, failed = per_user[user_id]
        if written:
            ledger.write(user_id, [import_entry(
                user_id, imported_at, written=written, unchanged=unchanged,
                failed=failed)])
