"""What the service needs of a store: the memory, ledger and scan-state operations it calls.

:class:`scanner.service.Service` receives a :class:`Stores` and calls nothing else of them.
The Weaviate implementations are :class:`scanner.store.memories.MemoryStore`,
:class:`scanner.store.ledger.LedgerStore` and :class:`scanner.store.scan_state.ScanStateStore`,
wired over one client by :func:`scanner.store.wiring.weaviate_stores`. Another store (another
database, an in-memory one for a tool) implements these three protocols.

Errors every method may raise: :class:`~scanner.errors.WeaviateUnavailable` when the store
does not answer (the name is historical: any store raises it), and
:class:`~scanner.errors.StoreWriteError` from writes the store rejected.

This module imports no database client; the types it names are pure (:mod:`scanner.core.ledger`,
:mod:`scanner.batch`, :mod:`scanner.store.codec`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from extractors import Triple
    from scanner.batch import ScanCheckpoint
    from scanner.core.effects import Effects
    from scanner.core.ledger import LedgerEntry
    from scanner.models import Conflict, MemoryRecord
    from scanner.store.codec import StoredMemory
    from scanner.store.ledger import LedgerWrite
    from scanner.store.writes import AppliedEffects, ImportResult


class MemoryStoreProtocol(Protocol):
    """Memories of every user, one tenant (partition) per user; nothing is ever deleted.

    Attributes:
        name: the memory collection's name (the ledger and scan state derive theirs from it).
    """

    name: str

    def ensure_schema(self) -> None:
        """Create the memory collection when it does not exist (idempotent)."""

    def tenants(self) -> list[str]:
        """Tenant names, sorted (:func:`scanner.store.tenants.tenant_name` of each user)."""

    def user_ids(self) -> list[str]:
        """User ids that have memories, sorted."""

    def stored(self, records: Sequence[MemoryRecord]) -> dict[tuple[str, str], bool]:
        """``(user_id, id)`` -> whether the stored memory has the record's text and
        provenance, for the records already stored."""

    def import_memories(self, records: Sequence[MemoryRecord],
                        triples: Sequence[Sequence[Triple]], vectors: np.ndarray, *,
                        progress: Callable[[int], None] | None = None,
                        batch_size: int = 200,
                        imported_at: datetime | None = None) -> ImportResult:
        """Store new memories (``vectors``: ``(len(records), d)`` float32, L2-normalised);
        ids already stored are left untouched."""

    def get(self, user_id: str, memory_id: str) -> StoredMemory:
        """One memory with its outgoing ``supersedes`` edges (raises
        :class:`~scanner.errors.UnknownMemory`)."""

    def superseded_by(self, user_id: str, memory_id: str) -> list[StoredMemory]:
        """Memories whose ``supersedes`` edge points at ``memory_id``."""

    def iterate_by_uuid(self, user_id: str, uuids: Sequence[str]) -> Iterator[StoredMemory]:
        """The memories with these object UUIDs in one tenant (missing ones skipped)."""

    def find_user(self, memory_id: str) -> str:
        """The user whose tenant holds ``memory_id`` (raises
        :class:`~scanner.errors.UnknownMemory`)."""

    def hybrid_search(self, user_id: str, query: str, vector: np.ndarray, *,
                      group: str | None = None, properties: Mapping[str, str] | None = None,
                      limit: int = 12, alpha: float = 0.5) -> list[StoredMemory]:
        """Scoped hybrid search: BM25 fused with vector similarity, hits best first, each
        with its fused ``score`` in [0, 1]; ``alpha`` 0 = pure BM25, 1 = pure vector."""

    def sharing_keys(self, user_id: str, keys: Sequence[str], *,
                     limit: int = 1000) -> list[StoredMemory]:
        """Memories of one tenant holding any of ``keys`` (``"subject|relation"``)."""

    def property_pages(self, user_id: str, *, cache_size: int = 1000,
                       properties: Sequence[str] = ...,
                       prefetch: bool = True) -> Iterator[list[dict[str, Any]]]:
        """Every memory of one tenant as its stored properties
        (:mod:`scanner.store.codec`), ``cache_size`` at a time."""

    def apply_effects(self, user_id: str, effects: Effects, *,
                      states: Mapping[str, tuple[str, str | None]] | None = None,
                      full_view: bool = False, workers: int = 8, chunk: int = 1000,
                      edges_stored: Mapping[str, Iterable[str]] | None = None
                      ) -> AppliedEffects:
        """Write the ``supersedes`` edges and statuses of verdicts (idempotent)."""

    def apply_conflicts(self, user_id: str, conflicts: Iterable[Conflict]) -> int:
        """:meth:`apply_effects` of these conflicts' verdicts; the number of new edges."""

    def import_times(self, user_id: str) -> dict[str, str]:
        """memory id -> ISO UTC time of the import it came with, for a whole tenant."""


class LedgerStoreProtocol(Protocol):
    """Ledger entries (:class:`scanner.core.ledger.LedgerEntry`) of every user, one tenant each."""

    def ensure_schema(self) -> None:
        """Create the ledger collection when it does not exist (idempotent)."""

    def write(self, user_id: str, entries: Iterable[LedgerEntry], *, batch_size: int = 500,
              existing: dict[str, LedgerEntry] | None = None,
              digests: Mapping[str, str] | None = None,
              on_written: Callable[[int], None] | None = None) -> LedgerWrite:
        """Store entries of one tenant; an unchanged one is not written again, a stored one
        replaced only when :func:`scanner.core.ledger.should_replace` says so."""

    def fetch(self, user_id: str, entry_ids: Sequence[str]) -> dict[str, LedgerEntry]:
        """entry id -> entry, for the stored ones of ``entry_ids``."""

    def all_digests(self, user_id: str, entry_types: Iterable[str] | None = None
                    ) -> dict[str, str]:
        """entry id -> content digest, for every entry of a tenant (of these types)."""

    def for_memories(self, user_id: str, memory_ids: Sequence[str], *,
                     limit: int = 10_000) -> list[LedgerEntry]:
        """Entries that concern any of ``memory_ids`` (members or settler), oldest first."""

    def iterate(self, user_id: str, *, cache_size: int = 1000) -> Iterator[LedgerEntry]:
        """Every entry of one tenant."""


class ScanStateStoreProtocol(Protocol):
    """The last converged batch scan of every tenant (:class:`scanner.batch.ScanCheckpoint`)."""

    def get(self, user_id: str) -> ScanCheckpoint | None:
        """The tenant's checkpoint, or None when none was recorded or it cannot be read."""

    def put(self, user_id: str, checkpoint: ScanCheckpoint, recorded_at: Any) -> None:
        """Record ``checkpoint`` for the tenant (replaces the previous one)."""

    def forget_schema(self) -> None:
        """Check the collection again on next use (after a failed write)."""


class StorePresenceProtocol(Protocol):
    """Whether the collections and tenants seen so far are all still there."""

    @property
    def damage(self) -> Exception | None:
        """The loss found by an earlier :meth:`check` (a
        :class:`~scanner.errors.StoreDamaged`), or ``None``; no request."""

    def check(self) -> None:
        """Raise :class:`~scanner.errors.StoreDamaged` when a collection or tenant seen by an
        earlier check is gone."""


@dataclass(frozen=True)
class Stores:
    """The three stores a :class:`scanner.service.Service` works on.

    Attributes:
        memories: the memory store.
        ledger: the ledger of verdicts, events and reviews.
        scan_state: batch scans' checkpoints.
        presence: what tells a collection or tenant deleted from outside
            (:class:`scanner.store.presence.StorePresence`), or ``None``.
    """

    memories: MemoryStoreProtocol
    ledger: LedgerStoreProtocol
    scan_state: ScanStateStoreProtocol
    presence: StorePresenceProtocol | None = None
