"""The one place where the Weaviate stores of a service are built over one client."""

from __future__ import annotations

import weaviate

from scanner.store.ledger import LedgerStore
from scanner.store.memories import MemoryStore
from scanner.store.presence import StorePresence
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
        The three stores and the watch over their collections and tenants
        (:class:`~scanner.store.presence.StorePresence`), for
        :class:`scanner.service.Service`. No request is sent: the service creates the
        collections it needs.
    """
    memories = memories if memories is not None else MemoryStore(client, collection)
    ledger, scan_state = LedgerStore(client, memories.name), ScanStateStore(client, memories.name)
    return Stores(memories=memories, ledger=ledger, scan_state=scan_state,
                  presence=StorePresence(client, (memories.name, ledger.name, scan_state.name),
                                         tenant_collections=(memories.name, ledger.name),
                                         known={memories.name: memories.known_tenants}))
