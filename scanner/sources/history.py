"""The history of a memory wherever contrascan keeps it: its own memory collection, or the
triple cache of an attached source (issue 35).

An attached source's verdicts, ``supersedes`` edges and ledger are kept beside its triple
cache (:mod:`scanner.store.attached`): ``ContrascanSource<Name>`` and
``ContrascanSource<Name>Ledger``. Reading a history needs only those two, not the source's
mapping, so ``contrascan history ID --user U`` and ``GET /v1/memories/{id}/history`` find the
memory of an attached collection by its uuid with no option naming the source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scanner.errors import UnknownMemory
from scanner.history import History, read_history
from scanner.store.attached import CACHE_PREFIX
from scanner.store.failures import store_failure
from scanner.store.ledger import LedgerStore, ledger_collection_name
from scanner.store.memories import MemoryStore

if TYPE_CHECKING:
    import weaviate

    from scanner.service import Service


def cache_collections(client: weaviate.WeaviateClient) -> list[str]:
    """The triple caches of attached sources in the store (collections named
    ``ContrascanSource…`` that have a ledger beside them), sorted.

    Raises:
        WeaviateUnavailable: the server does not answer.
    """
    with store_failure("cannot list the collections"):
        names = set(client.collections.list_all(simple=True))
    return sorted(n for n in names
                  if n.startswith(CACHE_PREFIX) and ledger_collection_name(n) in names)


def history_anywhere(service: Service, memory_id: str, user_id: str | None = None, *,
                     max_memories: int = 200) -> History:
    """What changed around one memory, and why (:func:`scanner.history.read_history`): from
    contrascan's own memories, else from the first attached source's triple cache that holds
    the id (``History.collection`` says which).

    Args:
        service: the sidecar's or the command's service (its store's client is used for the
            attached sources' collections).
        memory_id: where to start; for an attached source, the agent object's uuid.
        user_id: its user (every tenant is searched when omitted).
        max_memories: most memories the walk visits.

    Raises:
        UnknownMemory: no collection holds the id (for that user).
        WeaviateUnavailable: the server does not answer.
    """
    try:
        return service.history_report(memory_id, user_id, max_memories=max_memories)
    except UnknownMemory:
        pass
    client = service.store.client
    for name in cache_collections(client):
        try:
            return read_history(MemoryStore(client, name), LedgerStore(client, name),
                                memory_id, user_id, max_memories=max_memories)
        except UnknownMemory:
            continue
    raise UnknownMemory(memory_id, user_id)
