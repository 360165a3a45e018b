"""Weaviate access for attached sources (issue 16): read the agent's own collection, and keep
contrascan's triple cache beside it.

* :class:`AttachedCollection` reads a collection someone else writes (Mem0, LangChain,
  LlamaIndex, the agent's own): objects by id, a scoped hybrid search on the collection's own
  vectors (a named vector when the mapping names one), and a cursor over every object. It
  writes into the agent's objects only in the opt-in status mode
  (:attr:`~scanner.sources.mapping.SourceMapping.status_property`).
* :class:`TripleCache` is contrascan's own collection for a source: the memory-collection layout
  of :class:`~scanner.store.memories.MemoryStore` (one tenant per user, scope, provenance,
  triples, ``status`` and ``supersedes`` edges) without vectors, keyed by the agent object's
  uuid (:func:`~scanner.store.memories.object_uuid` of user and uuid) and holding a
  ``text_digest`` (sha256 of the text). An object is extracted again only when its text or
  provenance changed, so re-runs over an unchanged collection write nothing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import numpy as np
import weaviate
from weaviate.classes.config import DataType, Property, Tokenization
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, HybridFusion, MetadataQuery
from weaviate.exceptions import WeaviateBaseError

from extractors import Triple
from scanner.errors import ConfigurationError, StoreWriteError
from scanner.models import MemoryRecord
from scanner.sources.mapping import SourceMapping, text_digest
from scanner.store import replication, schema
from scanner.store.batching import insert_objects
from scanner.store.codec import (
    SCAN_PROPERTIES,
    StoredMemory,
    decode_memory,
    encode_memory,
    record_body,
    stored_body,
)
from scanner.store.failures import store_failure
from scanner.store.memories import MemoryStore
from scanner.store.tenants import object_uuid

CACHE_PROPERTIES = ("text_digest", "source_uuid")
"""What a triple cache object holds besides the memory collection's properties."""
CACHE_PREFIX = "ContrascanSource"
"""Cache collections are ``ContrascanSource<Name>`` (name with ``-`` as ``_``)."""


def cache_collection_name(source_name: str) -> str:
    """contrascan's own collection for a source (its ledger is this name + ``Ledger``)."""
    name = source_name.replace("-", "_")
    return CACHE_PREFIX + name[:1].upper() + name[1:]


@dataclass(frozen=True)
class AttachedObject:
    """One object of the attached collection: uuid, properties, tenant (None without
    multi-tenancy) and, from a search, its fused score in [0, 1]."""

    uuid: str
    properties: dict[str, Any]
    tenant: str | None = None
    score: float | None = None


class AttachedCollection:
    """Reads of one attached collection.

    Args:
        client: a connected ``weaviate.WeaviateClient``.
        mapping: the source mapping (its ``tenant_scope`` None is resolved here from the
            collection's multi-tenancy setting).

    Raises:
        ConfigurationError: the collection does not exist, or lacks the text property, or
            the mapping names a vector the collection does not have.
        WeaviateUnavailable: the server does not answer.
    """

    def __init__(self, client: weaviate.WeaviateClient, mapping: SourceMapping):
        self.client = client
        with store_failure(f"cannot read collection {mapping.collection}"):
            if not client.collections.exists(mapping.collection):
                raise ConfigurationError(f"source {mapping.name}",
                                         f"collection {mapping.collection!r} does not exist")
            config = client.collections.use(mapping.collection).config.get()
        self.multi_tenant = bool(config.multi_tenancy_config.enabled)
        if mapping.tenant_scope is None:
            mapping = mapping.model_copy(update={"tenant_scope": self.multi_tenant})
        if mapping.tenant_scope and not self.multi_tenant:
            raise ConfigurationError(f"source {mapping.name}", "tenant_scope is set but "
                                     f"{mapping.collection!r} has no multi-tenancy")
        if not mapping.tenant_scope and not mapping.user_property:
            raise ConfigurationError(f"source {mapping.name}", "user_property is required")
        names = {p.name for p in config.properties}
        if mapping.text_property not in names:
            raise ConfigurationError(f"source {mapping.name}.text_property",
                                     f"{mapping.collection!r} has no property "
                                     f"{mapping.text_property!r} (has: {sorted(names)})")
        self.vectors = sorted((config.vector_config or {}).keys())
        if mapping.target_vector and mapping.target_vector not in self.vectors:
            raise ConfigurationError(f"source {mapping.name}.target_vector",
                                     f"no named vector {mapping.target_vector!r} "
                                     f"(has: {self.vectors})")
        if len(self.vectors) > 1 and not mapping.target_vector:
            raise ConfigurationError(f"source {mapping.name}.target_vector",
                                     f"{mapping.collection!r} has named vectors {self.vectors}: "
                                     "name the one its text is embedded in")
        self.mapping = mapping
        self.properties = [p for p in mapping.read_properties() if p in names]
        self._collection = client.collections.use(mapping.collection)

    def _handle(self, tenant: str | None):
        return self._collection.with_tenant(tenant) if tenant else self._collection

    def _user_filter(self, user_id: str):
        return None if self.mapping.tenant_scope else \
            Filter.by_property(self.mapping.user_property).equal(user_id)

    def _in_scope(self, user_id: str, properties: Mapping[str, Any]) -> bool:
        """Whether an object the user filter matched holds exactly ``user_id``: a user
        property with Weaviate's default ``word`` tokenization (Mem0's schema, and what
        auto-schema makes of a framework's metadata) matches every value holding the same
        words, so the filter for ``lc-user`` also returns ``lc-user-2``'s objects
        (weaviate#7681)."""
        if self.mapping.tenant_scope:
            return True
        value = properties.get(self.mapping.user_property)
        # compared as the mapping reads it (a number as its JSON text)
        return (value if isinstance(value, str) else json.dumps(value, default=str)) == user_id

    def tenant_of(self, user_id: str) -> str | None:
        """The tenant a user's objects live in (the user id itself), or None."""
        return user_id if self.mapping.tenant_scope else None

    def fetch(self, user_id: str, uuids: Sequence[str]) -> list[AttachedObject]:
        """The objects with these uuids in the user's scope, in the order asked (missing or
        out-of-scope ones are left out; the user property must equal ``user_id``)."""
        if not uuids:
            return []
        filters = Filter.by_id().contains_any(list(uuids))
        scope = self._user_filter(user_id)
        tenant = self.tenant_of(user_id)
        res = self._handle(tenant).query.fetch_objects(
            filters=filters & scope if scope is not None else filters, limit=len(uuids),
            return_properties=self.properties)
        found = {str(o.uuid): AttachedObject(str(o.uuid), dict(o.properties), tenant)
                 for o in res.objects if self._in_scope(user_id, o.properties)}
        return [found[u] for u in map(str, uuids) if u in found]

    def hybrid(self, user_id: str, query: str, vector: np.ndarray | Sequence[float] | None, *,
               limit: int, alpha: float) -> list[AttachedObject]:
        """Scoped hybrid search on the collection's own vectors, best first. Hits of another
        user that a word-tokenized user property let through are left out (so fewer than
        ``limit`` may come back).

        Args:
            user_id: the scope (tenant or ``user_property`` filter).
            query: BM25 text (on :meth:`SourceMapping.search_properties`).
            vector: ``(d,)`` query vector in the collection's vector space, or None when the
                collection vectorizes queries itself.
            limit: hits; alpha: 0 = BM25 only, 1 = vector only (relative-score fusion).
        """
        tenant = self.tenant_of(user_id)
        res = self._handle(tenant).query.hybrid(
            query=query, vector=None if vector is None else list(map(float, vector)),
            alpha=alpha, limit=limit, query_properties=self.mapping.search_properties(),
            fusion_type=HybridFusion.RELATIVE_SCORE, filters=self._user_filter(user_id),
            target_vector=self.mapping.target_vector, return_properties=self.properties,
            return_metadata=MetadataQuery(score=True))
        return [AttachedObject(str(o.uuid), dict(o.properties), tenant, o.metadata.score)
                for o in res.objects if self._in_scope(user_id, o.properties)]

    def tenants(self) -> list[str | None]:
        """The tenants to read ([None] without multi-tenancy)."""
        if not self.multi_tenant:
            return [None]
        return sorted(self._collection.tenants.get().keys())

    def count(self) -> int:
        """Objects in the collection (every tenant's; one aggregate request per tenant)."""
        with store_failure(f"cannot count collection {self.mapping.collection}"):
            return sum(self._handle(t).aggregate.over_all(total_count=True).total_count or 0
                       for t in self.tenants())

    def pages(self, *, page_size: int = 1000) -> Iterator[list[AttachedObject]]:
        """Every object, a page at a time (cursor API, per tenant): at most one page is
        held, so memory is flat in the collection's size."""
        for tenant in self.tenants():
            page: list[AttachedObject] = []
            for o in self._handle(tenant).iterator(cache_size=page_size,
                                                   return_properties=self.properties):
                page.append(AttachedObject(str(o.uuid), dict(o.properties), tenant))
                if len(page) == page_size:
                    yield page
                    page = []
            if page:
                yield page

    def write_status(self, user_id: str, statuses: Mapping[str, str]) -> int:
        """Opt-in status mode: write ``status_property`` on the agent's objects whose value
        differs (uuid -> status; ids that are no uuid, such as a review's record, are left
        out). Returns the number written.

        Raises:
            StoreWriteError: Weaviate rejected an update (every one listed).
        """
        prop = self.mapping.status_property
        # only the agent's objects: contrascan's own records in the cache (a review's,
        # ``review-<entry>``) and objects passed without a uuid have none to update
        statuses = {u: s for u, s in statuses.items() if _is_uuid(u)}
        if not prop or not statuses:
            return 0
        config = self._collection.config.get()
        if prop not in {p.name for p in config.properties}:
            self._collection.config.add_property(Property(
                name=prop, data_type=DataType.TEXT, tokenization=Tokenization.FIELD))
        col = self._handle(self.tenant_of(user_id))
        res = col.query.fetch_objects(filters=Filter.by_id().contains_any(list(statuses)),
                                      limit=len(statuses), return_properties=[prop])
        current = {str(o.uuid): o.properties.get(prop) for o in res.objects}
        failed, written = [], 0
        for uuid, status in sorted(statuses.items()):
            if uuid not in current or current[uuid] == status:
                continue
            try:
                col.data.update(uuid=uuid, properties={prop: status})
                written += 1
            except WeaviateBaseError as err:
                failed.append((uuid, str(err)))
        if failed:
            raise StoreWriteError(failed, written)
        return written


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def lost_writes(client: weaviate.WeaviateClient, collection: str, uuids: Sequence[str], *,
                tenant: str | None = None) -> list[tuple[str, str]]:
    """The objects a framework's write returned ids for that ``collection`` does not hold.

    LangChain's ``add_texts``, LlamaIndex's ``add`` / ``insert_nodes`` and Mem0's ``add``
    send objects through the client's batch and return their ids whatever Weaviate answered
    (per-object errors are only logged or kept in ``client.batch.failed_objects``,
    python-client#885); this reads the ids back.

    Args:
        client: the client the framework wrote with (its ``failed_objects`` give the reasons
            while no later batch of that client has started).
        collection: the framework's collection; tenant: its tenant, if it has tenants.
        uuids: the ids the framework returned.

    Returns:
        ``(uuid, Weaviate's message)`` per missing object, in the order given; the message is
        the client's for that object, else the one message of its last batch, else a note
        that the client kept none. Empty when every object is stored.
    """
    col = client.collections.use(collection)
    col = col.with_tenant(tenant) if tenant else col
    wanted = [str(u) for u in uuids]
    found: set[str] = set()
    with store_failure(f"cannot read collection {collection}"):
        for start in range(0, len(wanted), 1000):
            part = wanted[start:start + 1000]
            res = col.query.fetch_objects(filters=Filter.by_id().contains_any(part),
                                          limit=len(part), return_properties=[])
            found.update(str(o.uuid) for o in res.objects)
    missing = [u for u in wanted if u not in found]
    if not missing:
        return []
    failed = list(client.batch.failed_objects)
    by_uuid = {str(getattr(e.object_, "uuid", None) or e.original_uuid): e.message
               for e in failed}
    messages = sorted({e.message for e in failed})
    fallback = messages[0] if len(messages) == 1 else \
        "not stored (the client kept no reason: see the framework's log)"
    return [(u, by_uuid.get(u, fallback)) for u in missing]


class TripleCache(MemoryStore):
    """contrascan's own collection for one attached source (see the module docstring).

    Args:
        client: a connected client.
        source_name: the source's name (collection :func:`cache_collection_name`).
    """

    def __init__(self, client: weaviate.WeaviateClient, source_name: str):
        super().__init__(client, cache_collection_name(source_name))

    def ensure_schema(self) -> None:
        """The memory-collection layout plus ``text_digest`` and ``source_uuid``."""
        super().ensure_schema()
        schema.declare(self.name, CACHE_PROPERTIES)
        col = self.client.collections.use(self.name)
        names = {p.name for p in col.config.get().properties}
        for prop in CACHE_PROPERTIES:
            if prop not in names:
                col.config.add_property(Property(name=prop, data_type=DataType.TEXT,
                                                 tokenization=Tokenization.FIELD))

    def lookup(self, records: Sequence[MemoryRecord]) -> dict[str, StoredMemory]:
        """record id -> the cached memory, for records whose text and provenance the cache
        holds unchanged (one query per user)."""
        by_user: dict[str, list[MemoryRecord]] = {}
        for r in records:
            by_user.setdefault(r.user_id, []).append(r)
        out: dict[str, StoredMemory] = {}
        for user_id, recs in by_user.items():
            if not self.has_tenant(user_id):
                continue
            by_uuid = {object_uuid(user_id, r.id): r for r in recs}
            res = self._tenant(user_id).query.fetch_objects(
                filters=Filter.by_id().contains_any(list(by_uuid)), limit=len(by_uuid),
                return_properties=[*SCAN_PROPERTIES, "text_digest"])
            for obj in res.objects:
                r = by_uuid[str(obj.uuid)]
                p = obj.properties
                if p.get("text_digest") == text_digest(r.text) and record_body(r) == stored_body(p) \
                        and r.group == (p.get("scope_group") or None):
                    out[r.id] = decode_memory(obj)
        return out

    def store(self, records: Sequence[MemoryRecord], triples: Sequence[Sequence[Triple]], *,
              batch_size: int = 500) -> int:
        """Write (or replace, by uuid) cache objects for new or changed records. A replaced
        object starts ``active`` again: its text or provenance changed, so it is a new
        statement (the ledger keeps what was decided about the old one).

        Returns:
            Objects written.

        Raises:
            StoreWriteError: Weaviate rejected objects (every one listed).
        """
        now = datetime.now(timezone.utc)
        by_user: dict[str, list[int]] = {}
        for i, r in enumerate(records):
            by_user.setdefault(r.user_id, []).append(i)
        written = 0
        for user_id, idx in by_user.items():
            col = self._tenant(user_id, create=True)
            objects = []
            for i in idx:
                props = encode_memory(records[i], triples[i], now)
                props["text_digest"] = text_digest(records[i].text)
                props["source_uuid"] = records[i].id
                objects.append(DataObject(properties=props,
                                          uuid=object_uuid(user_id, records[i].id)))
            failed = insert_objects(replication.for_writes(self.client, col), objects,
                                    batch_size=batch_size)
            if failed:
                raise StoreWriteError(failed, written)
            written += len(objects)
        return written
