"""The memory store: memories of every user in one multi-tenant Weaviate collection.

:class:`MemoryStore` is the Weaviate implementation of
:class:`scanner.store.protocols.MemoryStoreProtocol`, assembled from parts that follow the
client's own namespaces:

==================================  ========================================================
:mod:`scanner.store.schema`         the collection (``collections`` / ``config``)
:mod:`scanner.store.tenants`        one tenant per user (``tenants``, ``with_tenant``)
:mod:`scanner.store.writes`         imports and verdicts (``data``)
:mod:`scanner.store.status_updates` status merge updates (``data.update``)
:mod:`scanner.store.queries`        hybrid search, reads, cursor scans (``query``)
:mod:`scanner.store.codec`          a memory as an object's properties, and back
:mod:`scanner.store.failures`       client, httpx and gRPC errors as ours
==================================  ========================================================

The names other modules import from here (statuses, property lists, result types, tenant
helpers) are re-exported from those modules.
"""

from __future__ import annotations

from scanner.store.codec import (
    BATCH_SCAN_PROPERTIES,
    SCAN_PROPERTIES,
    STATUS_ACTIVE,
    STATUS_SUPERSEDED,
    STATUS_UNRESOLVED,
    StoredMemory,
)
from scanner.store.failures import translate_unreachable
from scanner.store.queries import MemoryQueries
from scanner.store.schema import create_memory_collection
from scanner.store.tenants import DEFAULT_COLLECTION, object_uuid, open_tenant, tenant_name
from scanner.store.writes import AppliedEffects, ImportResult, MemoryWrites

__all__ = [
    "BATCH_SCAN_PROPERTIES", "DEFAULT_COLLECTION", "SCAN_PROPERTIES", "STATUS_ACTIVE",
    "STATUS_SUPERSEDED", "STATUS_UNRESOLVED", "AppliedEffects", "ImportResult", "MemoryStore",
    "StoredMemory", "object_uuid", "open_tenant", "tenant_name",
]


@translate_unreachable
class MemoryStore(MemoryWrites, MemoryQueries):
    """Memories of every user in one multi-tenant collection.

    Args:
        client: a connected ``weaviate.WeaviateClient`` (see :mod:`scanner.store.server`).
        collection: collection name (tests use unique names).

    Raises:
        WeaviateUnavailable: from any method, when the server does not answer (client, httpx
            and gRPC errors that mean so are translated: :mod:`scanner.store.failures`).
    """

    def ensure_schema(self) -> None:
        """Create the collection if it does not exist (idempotent;
        :func:`scanner.store.schema.create_memory_collection`)."""
        create_memory_collection(self.client, self.name)
