"""The one place where the Weaviate stores of a service are built over one client."""

from __future__ import annotations

import weaviate

from scanner.store.ledger import LedgerStore
from scanner.store.memories import MemoryStore
from scanner.store.protocols import Stores
from scanner.store.scan_state import ScanStateStore
from scanner.store.tenants import DEFAULT_COLLECTION


def weaviate_stores(client: weaviate.WeaviateClient,
                    collection: str = DEFAULT_COLLECTION) -> Stores:
    """The memory, ledger and scan-state stores of one memory collection.

    Args:
        client: a connected client (:func:`scanner.store.server.open_client`).
        collection: the memory collection; the ledger is ``<collection>Ledger``
            (:func:`scanner.store.ledger.ledger_collection_name`) and the scan state
            ``<collection>ScanState``.

    Returns:
        The three stores, for :class:`scanner.service.Service`. No request is sent: the
        service creates the collections it needs.
    """
    return Stores(memories=MemoryStore(client, collection),
                  ledger=LedgerStore(client, collection),
                  scan_state=ScanStateStore(client, collection))
