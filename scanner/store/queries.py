"""Reads of the memory collection (the client's ``query`` and ``iterator``).

Every read names a tenant, so nothing outside one user's memories is ever visible:
scoped hybrid search (:func:`hybrid_query`, BM25 on ``text`` fused with vector similarity),
reads by id, by ``supersedes`` edge and by key, and cursor scans of a whole tenant (the cursor
API takes no filters, WEAVIATE.md §5). Objects are decoded by :mod:`scanner.store.codec`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

import numpy as np
from weaviate.classes.query import Filter, HybridFusion, MetadataQuery, QueryReference

from scanner.errors import UnknownMemory
from scanner.store.codec import (
    BATCH_SCAN_PROPERTIES,
    StoredMemory,
    decode_memory,
    scope_property_tokens,
)
from scanner.store.failures import translate_unreachable
from scanner.store.tenants import TenantCollection, object_uuid, tenant_name


def hybrid_query(col: Any, query: str, vector: np.ndarray, *, group: str | None = None,
                 properties: Mapping[str, str] | None = None, limit: int = 12,
                 alpha: float = 0.5) -> Any:
    """The Weaviate hybrid query of :meth:`MemoryQueries.hybrid_search` on one tenant handle
    (:func:`scanner.store.tenants.open_tenant`), its results not decoded.

    Args:
        col: a tenant-bound collection handle.
        query: BM25 query text (on ``text``).
        vector: ``(d,)`` float32 query embedding, L2-normalised.
        group: only memories of this group.
        properties: only memories carrying all of these scope properties.
        limit: number of hits (always explicit: the server default is 10, WEAVIATE.md §5).
        alpha: 0 = pure BM25, 1 = pure vector (relative-score fusion).

    Returns:
        The client's query result (``.objects`` best first, ``metadata.score`` in [0, 1]).

    Raises:
        weaviate.exceptions.WeaviateQueryError: the tenant does not exist.
    """
    filters = []
    if group is not None:
        filters.append(Filter.by_property("scope_group").equal(group))
    if properties:
        filters.append(Filter.by_property("scope_properties").contains_all(
            scope_property_tokens(properties)))
    return col.query.hybrid(query=query, vector=vector.tolist(), alpha=alpha, limit=limit,
                            query_properties=["text"],
                            fusion_type=HybridFusion.RELATIVE_SCORE,
                            filters=Filter.all_of(filters) if filters else None,
                            return_metadata=MetadataQuery(score=True))


@translate_unreachable
class MemoryQueries(TenantCollection):
    """Reads of the memory store (:class:`scanner.store.memories.MemoryStore`).

    Raises:
        WeaviateUnavailable: from any method, when the server does not answer.
    """

    def user_ids(self) -> list[str]:
        """User ids that have memories, sorted (read back from each tenant)."""
        out = []
        for name in self.tenants():
            col = self.client.collections.use(self.name).with_tenant(name)
            res = col.query.fetch_objects(limit=1, return_properties=["user_id"])
            if res.objects:
                out.append(res.objects[0].properties["user_id"])
        return sorted(out)

    def get(self, user_id: str, memory_id: str) -> StoredMemory:
        """One memory with its outgoing ``supersedes`` edges.

        Raises:
            UnknownMemory: no such id in the user's tenant.
        """
        obj = self._tenant(user_id).query.fetch_object_by_id(
            object_uuid(user_id, memory_id),
            return_references=QueryReference(link_on="supersedes",
                                             return_properties=["memory_id"]))
        if obj is None:
            raise UnknownMemory(memory_id, user_id)
        return decode_memory(obj)

    def superseded_by(self, user_id: str, memory_id: str) -> list[StoredMemory]:
        """Memories whose ``supersedes`` edge points at ``memory_id``."""
        col = self._tenant(user_id)
        res = col.query.fetch_objects(
            filters=Filter.by_ref("supersedes").by_id().equal(object_uuid(user_id, memory_id)),
            limit=100, return_references=QueryReference(link_on="supersedes",
                                                        return_properties=["memory_id"]))
        return [decode_memory(o) for o in res.objects]

    def iterate_by_uuid(self, user_id: str, uuids: Sequence[str]) -> Iterator[StoredMemory]:
        """The memories with these object UUIDs in one tenant (missing ones are skipped)."""
        if not uuids:
            return
        res = self._tenant(user_id).query.fetch_objects(
            filters=Filter.by_id().contains_any(list(uuids)), limit=len(uuids))
        for obj in res.objects:
            yield decode_memory(obj)

    def find_user(self, memory_id: str) -> str:
        """The user id whose tenant holds ``memory_id`` (searches every tenant).

        Raises:
            UnknownMemory: no tenant holds it.
        """
        for name in self.tenants():
            col = self.client.collections.use(self.name).with_tenant(name)
            res = col.query.fetch_objects(filters=Filter.by_property("memory_id").equal(memory_id),
                                          limit=1, return_properties=["user_id"])
            if res.objects:
                return res.objects[0].properties["user_id"]
        raise UnknownMemory(memory_id)

    def hybrid_search(self, user_id: str, query: str, vector: np.ndarray, *,
                      group: str | None = None, properties: Mapping[str, str] | None = None,
                      limit: int = 12, alpha: float = 0.5) -> list[StoredMemory]:
        """Scoped hybrid search (BM25 on ``text`` fused with vector similarity).

        Args:
            user_id: the tenant to search; nothing outside it is ever visible.
            query: BM25 query text.
            vector: ``(d,)`` float32 query embedding, L2-normalised.
            group: only memories of this group.
            properties: only memories carrying all of these scope properties.
            limit: number of hits (always explicit: the server default is 10).
            alpha: 0 = pure BM25, 1 = pure vector (relative-score fusion).

        Returns:
            Hits best first, each with its fused ``score`` in [0, 1].
        """
        if not self.has_tenant(user_id):
            return []
        res = hybrid_query(self._tenant(user_id), query, vector, group=group,
                           properties=properties, limit=limit, alpha=alpha)
        return [decode_memory(o) for o in res.objects]

    def sharing_keys(self, user_id: str, keys: Sequence[str], *,
                     limit: int = 1000) -> list[StoredMemory]:
        """Memories of one tenant whose stored ``keys`` include any of ``keys``.

        Args:
            user_id: the tenant to read; nothing outside it is visible.
            keys: ``"subject|relation"`` strings, as stored at import (``FIELD``
                tokenization, so ``ContainsAny`` matches whole keys).
            limit: most memories returned (the server's default cap is 10,000,
                ``QUERY_MAXIMUM_RESULTS``).

        Returns:
            The matching memories, in no particular order; ``[]`` for no keys or no tenant.
        """
        if not keys or tenant_name(user_id) not in set(self.tenants()):
            return []
        res = self._tenant(user_id).query.fetch_objects(
            filters=Filter.by_property("keys").contains_any(list(keys)), limit=limit)
        return [decode_memory(o) for o in res.objects]

    def ready(self) -> bool:
        """Whether the server answers ``/v1/.well-known/ready`` (never raises)."""
        try:
            return bool(self.client.is_ready())
        except Exception:  # noqa: BLE001 - any failure to answer means "not ready"
            return False

    def iterate(self, user_id: str, *, cache_size: int = 1000,
                properties: Sequence[str] | None = None,
                prefetch: bool = False) -> Iterator[StoredMemory]:
        """Every memory of one tenant, streamed with the cursor API (no filters allowed).

        Args:
            user_id: the tenant's user.
            cache_size: objects per cursor page.
            properties: only these properties (default all);
                :data:`~scanner.store.codec.SCAN_PROPERTIES` is what a scan needs.
            prefetch: read the next pages in a background thread while the caller works on
                this one (at most two pages are held), so the server's time to answer
                overlaps the caller's; errors surface in the caller.
        """
        if tenant_name(user_id) not in set(self.tenants()):
            return
        objects = self._tenant(user_id).iterator(
            cache_size=cache_size,
            return_properties=list(properties) if properties is not None else None)
        if not prefetch:
            for obj in objects:
                yield decode_memory(obj)
            return
        yield from _prefetched((decode_memory(o) for o in objects), 2 * cache_size)

    def property_pages(self, user_id: str, *, cache_size: int = 1000,
                       properties: Sequence[str] = BATCH_SCAN_PROPERTIES,
                       prefetch: bool = True) -> Iterator[list[dict[str, Any]]]:
        """Every memory of one tenant as its property dicts, a page at a time: the client's
        cursor iterator, no vectors, no decoding beyond the client's.

        Args:
            user_id: the tenant's user.
            cache_size: objects per cursor page (and per yielded list).
            properties: the properties to read.
            prefetch: read the next page in a background thread while the caller works on
                this one (at most two pages wait), so the server's time to answer and the
                client's decoding overlap the caller's work; errors surface in the caller.
        """
        if tenant_name(user_id) not in set(self.tenants()):
            return
        objects = self._tenant(user_id).iterator(cache_size=cache_size,
                                                 return_properties=list(properties))

        def pages() -> Iterator[list[dict[str, Any]]]:
            page: list[dict[str, Any]] = []
            for obj in objects:
                page.append(obj.properties)
                if len(page) >= cache_size:
                    yield page
                    page = []
            if page:
                yield page

        yield from _prefetched(pages(), 2) if prefetch else pages()

    def count(self, user_id: str | None = None) -> int:
        """Objects in one tenant, or in all tenants."""
        users = [user_id] if user_id else None
        names = [tenant_name(u) for u in users] if users else self.tenants()
        total = 0
        for name in names:
            if name not in set(self.tenants()):
                continue
            col = self.client.collections.use(self.name).with_tenant(name)
            total += col.aggregate.over_all(total_count=True).total_count or 0
        return total

    def supersedes_edges(self, user_id: str) -> dict[str, list[str]]:
        """memory id -> memory ids its ``supersedes`` edges point at, duplicates kept (for
        audits: a duplicate edge would show twice), over a whole tenant with the cursor API."""
        if tenant_name(user_id) not in set(self.tenants()):
            return {}
        uuid_to_id: dict[str, str] = {}
        raw: dict[str, list[str]] = {}
        for obj in self._tenant(user_id).iterator(
                return_properties=["memory_id"], cache_size=1000,
                return_references=QueryReference(link_on="supersedes", return_properties=[])):
            mid = obj.properties["memory_id"]
            uuid_to_id[str(obj.uuid)] = mid
            refs = obj.references.get("supersedes") if obj.references else None
            if refs is not None and refs.objects:
                raw[mid] = [str(t.uuid) for t in refs.objects]
        return {mid: [uuid_to_id.get(t, t) for t in targets] for mid, targets in raw.items()}

    def import_times(self, user_id: str) -> dict[str, str]:
        """memory id -> ISO UTC time of the import it came with, for every memory of a tenant
        (streamed with the cursor API)."""
        if tenant_name(user_id) not in set(self.tenants()):
            return {}
        out = {}
        for obj in self._tenant(user_id).iterator(return_properties=["memory_id", "imported_at"],
                                                  cache_size=2000):
            t = obj.properties.get("imported_at")
            out[obj.properties["memory_id"]] = t.astimezone(timezone.utc).isoformat() \
                if isinstance(t, datetime) else str(t or "")
        return out


def _prefetched(items: Iterator[Any], bound: int) -> Iterator[Any]:
    """``items`` produced by a background thread, at most ``bound`` ahead of the consumer."""
    done = object()
    buffer: queue.Queue = queue.Queue(maxsize=bound)
    stop = threading.Event()
    failure: list[BaseException] = []

    def produce() -> None:
        try:
            for item in items:
                while not stop.is_set():
                    try:
                        buffer.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
        except BaseException as err:  # noqa: BLE001 - handed to the consumer
            failure.append(err)
        finally:
            while not stop.is_set():
                try:
                    buffer.put(done, timeout=0.1)
                    break
                except queue.Full:
                    continue

    worker = threading.Thread(target=produce, name="contrascan-cursor", daemon=True)
    worker.start()
    try:
        while True:
            item = buffer.get()
            if item is done:
                break
            yield item
        if failure:
            raise failure[0]
    finally:
        stop.set()
        worker.join()
