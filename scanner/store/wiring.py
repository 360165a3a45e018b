"""The one place where the Weaviate stores of a service are built over one client."""

from __future__ import annotations

import weaviate

from scanner.store.ledger import LedgerStore
from scanner.store.memories import MemoryStore
from scanner.store.protocols import Stores
from scanner.store.scan_state import ScanStateStore
from scanner.store.tenants import DEFAULT_COLLECTION


def weaviate_stores(client: weaviate.WeaviateClient, collection: str = DEFAULT_COLLECTION, *,
                    memories: MemoryStore | None = None) -> Stores:
    """The memory, ledger and scan-state stores of one memory collection.

    Args:
        client: a connected client (:func:`scanner.store.server.open_client`).
        collection: the memory collection; the ledger is ``<collection>Ledger``
            (:func:`scanner.store.ledger.ledger_collection_name`) and the scan state
            ``<collection>ScanState``.
        memories: a memory store of ``client`` to use instead of a
            :class:`~scanner.store.memories.MemoryStore` of ``collection`` (an attached
            source's :class:`~scanner.store.attached.TripleCache`); its collection then names
            the ledger and the scan state, and ``collection`` is not used.

    Returns:
        The three stores, for :class:`scanner.service.Service`. No request is sent: the
        service creates the collections it needs.
    """
    memories = memories if memories is not None else MemoryStore(client, collection)
    return Stores(memories=memories,
                  ledger=LedgerStore(client, memories.name),
                  scan_state=ScanStateStore(client, memories.name))
