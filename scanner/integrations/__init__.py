"""Framework wrappers over :class:`scanner.sources.service.AttachedSource`, each behind an
optional extra: ``contrascan[langchain]`` (:mod:`scanner.integrations.langchain`),
``contrascan[llamaindex]`` (:mod:`scanner.integrations.llamaindex`), ``contrascan[mem0]``
(:mod:`scanner.integrations.mem0`); and :func:`require_stored`, the check a framework's write
does not make."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scanner.errors import StoreWriteError

__all__ = ["require_stored"]


def require_stored(client: Any, collection: str, ids: Sequence[str], *,
                   tenant: str | None = None) -> None:
    """Raise unless every object a framework's write returned an id for is stored.

    LangChain, LlamaIndex and Mem0 return ids for objects Weaviate rejected (a metadata
    value of another type than the property auto-schema made from the first one, a server
    without auto-schema, a read-only disk); call this after their write.

    Example::

        ids = store.add_texts(texts, metadatas=metadatas)
        require_stored(client, "Notes", ids)      # the client the store was given

    Args:
        client: the ``weaviate.WeaviateClient`` the framework wrote with (Mem0's:
            ``memory.vector_store.client``).
        collection: the framework's collection; tenant: the tenant written to, if any.
        ids: the ids the write returned.

    Raises:
        StoreWriteError: ``failures`` = ``(id, Weaviate's message)`` of every object not
            stored; ``written`` = how many were.
    """
    from scanner.store.attached import lost_writes

    lost = lost_writes(client, collection, ids, tenant=tenant)
    if lost:
        raise StoreWriteError(lost, len(ids) - len(lost))
