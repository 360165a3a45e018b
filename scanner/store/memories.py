"""The memory collection in Weaviate: import, scoped hybrid search, cursor scans, verdicts.

Layout (see ``../shared/WEAVIATE.md`` §4–5 for the reasons):

* one multi-tenant collection, one tenant per ``user_id`` — a request without a tenant is
  rejected by the server, so a forgotten filter cannot leak another user's memories;
* self-provided vectors (vectorizer ``none``) from :mod:`scanner.embeddings`;
* scope, provenance and the extracted triples stored as properties; ids and enums use
  ``FIELD`` tokenization so ``Equal`` filters match whole values (weaviate#7681);
* our own ``observed_at`` DATE property: server timestamps cannot be backdated;
* verdicts as a ``supersedes`` self-reference (winner -> loser, added with the validated
  ``reference_add``, python-client#1008) and a ``status`` property. Nothing is ever deleted.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import threading
import uuid as uuidlib
import weakref
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np
import weaviate
from weaviate.classes.config import Configure, DataType, Property, ReferenceProperty, Tokenization
from weaviate.classes.data import DataObject, DataReference
from weaviate.classes.query import Filter, HybridFusion, MetadataQuery, QueryReference
from weaviate.classes.tenants import Tenant
from weaviate.exceptions import WeaviateBaseError
from weaviate.util import generate_uuid5

from extractors import Triple
from scanner.batch import record_from_properties, stored_utc
from scanner.errors import StoreWriteError, UnknownMemory, WeaviateUnavailable
from scanner.ledger import Effects, verdict_effects
from scanner.models import Conflict, MemoryRecord
from scanner.store import replication
from scanner.store.batching import insert_objects
from scanner.store.failures import translate_unreachable
from scanner.store.server import RestEndpoint, import_lock, rest_endpoint

DEFAULT_COLLECTION = "ContrascanMemory"
STATUS_ACTIVE = "active"
STATUS_SUPERSEDED = "superseded"
STATUS_UNRESOLVED = "unresolved"
SCAN_PROPERTIES = ("memory_id", "text", "user_id", "scope_group", "properties_json", "source",
                   "source_class", "observed_at", "epoch", "confidence", "priority",
                   "source_trust", "triples_json", "status", "retired_rule")
"""The properties a scan reads (everything a :class:`StoredMemory` holds; not the search
helpers ``keys``/``scope_properties`` nor ``imported_at``)."""
BATCH_SCAN_PROPERTIES = tuple(p for p in SCAN_PROPERTIES if p != "user_id")
"""What a batch scan reads (:class:`scanner.batch.TenantPass`): :data:`SCAN_PROPERTIES`
without ``user_id``, which the tenant already names."""
_TENANT_OK = re.compile(r"[A-Za-z0-9\-_]{1,64}")
_HASHED_SHAPE = re.compile(r".*-[0-9a-f]{16}", re.DOTALL)


def tenant_name(user_id: str) -> str:
    """The tenant that holds ``user_id``'s memories; one-to-one, so no user reaches another's.

    Tenant names must match ``[A-Za-z0-9\\-_]{1,64}`` (weaviate ``entities/schema/
    validation.go``; names are case-sensitive). A user id that is such a name and does not
    end in ``-`` plus 16 lowercase hex digits is its own tenant ("ops-1", "demo-user-3").
    Every other id is *hashed*: ``<id with other characters as _, first 40>-<first 16 hex
    digits of sha256(id)>`` (at most 57 characters).

    Injective (sha256 collisions aside): an identity name never ends in ``-<16 hex>`` and a
    hashed name always does, so the two kinds never meet; two hashed names are equal only if
    their digests are, i.e. two distinct ids share a 64-bit sha256 prefix, and forging the
    digest of a given id (a second preimage) is infeasible. So ``alice_example_com-<digest>``,
    sent as a user id, is hashed again instead of naming alice@example.com's tenant, and ids
    over 64 characters, or differing only in characters mapped to ``_``, differ in the digest.
    (Before this rule a valid id of hashed shape was its own tenant; such a user's memories
    must be re-imported to be found.)
    """
    if _TENANT_OK.fullmatch(user_id) and not _HASHED_SHAPE.fullmatch(user_id):
        return user_id
    digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:16]
    prefix = re.sub(r"[^A-Za-z0-9\-_]", "_", user_id)[:40]
    return f"{prefix}-{digest}"


def open_tenant(client: weaviate.WeaviateClient, collection: str, user_id: str,
                known: set[str], *, create: bool = False):
    """``collection`` scoped to ``user_id``'s tenant.

    Args:
        client: a connected client.
        collection: a multi-tenant collection name.
        user_id: the user; mapped with :func:`tenant_name`.
        known: tenant names this caller already created (updated in place), so the create
            call is made once per tenant and process.
        create: create the tenant when it is not known yet (the server treats a repeated
            create as a no-op).
    """
    name = tenant_name(user_id)
    if create and name not in known:
        replication.through_election(client.collections.use(collection).tenants.create,
                                     [Tenant(name=name)])
        known.add(name)
    key = (collection, name)
    with _TENANT_HANDLES_LOCK:
        handles = _TENANT_HANDLES.setdefault(client, OrderedDict())
        col = handles.get(key)
        if col is not None:
            handles.move_to_end(key)
            return col
    # building a handle costs ~0.4 ms (measured): once per tenant, not once per query
    col = replication.for_reads(client, client.collections.use(collection).with_tenant(name))
    with _TENANT_HANDLES_LOCK:
        handles[key] = col
        while len(handles) > _TENANT_HANDLES_KEPT:
            handles.popitem(last=False)
    return col


_TENANT_HANDLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Per client: (collection, tenant) -> tenant-bound collection handle, least recent first.
Handles hold no state of their own beyond the names, so threads share them."""
_TENANT_HANDLES_KEPT = 4096
_TENANT_HANDLES_LOCK = threading.Lock()


def object_uuid(user_id: str, memory_id: str) -> str:
    """Deterministic object UUID (uuid5) for a memory: re-imports address the same object."""
    return generate_uuid5(f"{user_id}\x1f{memory_id}")


@dataclass(frozen=True)
class StoredMemory:
    """A memory as stored: the record, its triples (extracted once, at import) and status."""

    record: MemoryRecord
    triples: list[Triple]
    status: str = STATUS_ACTIVE
    uuid: str = ""
    score: float | None = None
    supersedes: list[str] = field(default_factory=list)
    retired_rule: str | None = None


@dataclass
class AppliedEffects:
    """What writing verdict effects changed in the memory collection."""

    edges_added: int = 0
    statuses_changed: int = 0
    duplicates_removed: int = 0
    statuses: dict[str, str] = field(default_factory=dict)
    """memory id -> the status written, for every status this call changed."""


@dataclass
class ImportResult:
    """Outcome of an import: counts and every failure, by memory id."""

    written: int = 0
    unchanged: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    differing: list[str] = field(default_factory=list)
    """Ids already stored whose stored text or provenance (source, source class, epoch,
    observed_at) differs from the record given: the stored memory is kept (memories are never
    overwritten; a correction is a new record under its own id) and counted ``unchanged``."""


_BODY = ("text", "source", "source_class", "epoch", "observed_at")
"""The stored properties that say what a memory is and on whose word (compared on re-import)."""


def _body(r: MemoryRecord) -> tuple:
    # MemoryRecord keeps observed_at in UTC already
    return (r.text, r.source or "", r.source_class.value, r.epoch or "", r.observed_at)


def _stored_body(p: Mapping[str, Any]) -> tuple:
    return (p.get("text") or "", p.get("source") or "", p.get("source_class") or "inference",
            p.get("epoch") or "", stored_utc(p.get("observed_at")))


def _properties_array(props: Mapping[str, str]) -> list[str]:
    """Scope properties as the ``scope_properties`` tokens a record is stored and filtered with.

    One token per pair, ``<key>=<value>``, unambiguous: in the key ``\\`` and ``=`` are
    escaped with ``\\`` (so the first unescaped ``=`` ends it, and ``{"site": "lab=b"}`` no
    longer matches ``{"site=lab": "b"}``); and since the index trims whitespace at both ends
    of a token (``field`` tokenization), a key starting with whitespace gets a ``\\`` before
    it and a value ending with whitespace or ``\\`` gets one ``\\`` after it. A pair with
    none of these characters keeps the plain ``k=v`` token it always had, so stored data
    still matches.
    """
    return [_property_token(k, v) for k, v in sorted(props.items())]


def _property_token(key: str, value: str) -> str:
    key = key.replace("\\", "\\\\").replace("=", "\\=")
    if key[:1].isspace():
        key = "\\" + key
    if value[-1:].isspace() or value.endswith("\\"):
        value += "\\"
    return f"{key}={value}"


@translate_unreachable
class MemoryStore:
    """Memories of every user in one multi-tenant collection.

    Args:
        client: a connected ``weaviate.WeaviateClient`` (see :mod:`scanner.store.server`).
        collection: collection name (tests use unique names).

    Raises:
        WeaviateUnavailable: from any method, when the server does not answer (client, httpx
            and gRPC errors that mean so are translated: :mod:`scanner.store.failures`).
    """

    def __init__(self, client: weaviate.WeaviateClient, collection: str = DEFAULT_COLLECTION):
        self.client = client
        self.name = collection
        self._known_tenants: set[str] = set()

    # -- schema ---------------------------------------------------------------------------
    def ensure_schema(self) -> None:
        """Create the collection if it does not exist (idempotent)."""
        try:
            if self.client.collections.exists(self.name):
                replication.check_collection(self.client, self.name)
                return
            text = dict(data_type=DataType.TEXT, tokenization=Tokenization.FIELD)
            self.client.collections.create(
                self.name,
                vector_config=Configure.Vectors.self_provided(),
                multi_tenancy_config=Configure.multi_tenancy(enabled=True,
                                                             auto_tenant_creation=False),
                inverted_index_config=Configure.inverted_index(index_timestamps=True),
                replication_config=replication.replication_config(self.client),
                properties=[
                    Property(name="memory_id", **text),
                    Property(name="text", data_type=DataType.TEXT,
                             tokenization=Tokenization.WORD),
                    Property(name="user_id", **text),
                    Property(name="scope_group", **text),
                    Property(name="scope_properties", data_type=DataType.TEXT_ARRAY,
                             tokenization=Tokenization.FIELD),
                    Property(name="properties_json", data_type=DataType.TEXT,
                             index_filterable=False, index_searchable=False),
                    Property(name="source", **text),
                    Property(name="source_class", **text),
                    Property(name="observed_at", data_type=DataType.DATE,
                             index_range_filters=True),
                    Property(name="epoch", **text),
                    Property(name="confidence", data_type=DataType.NUMBER),
                    Property(name="priority", data_type=DataType.INT),
                    Property(name="source_trust", data_type=DataType.NUMBER),
                    Property(name="triples_json", data_type=DataType.TEXT,
                             index_filterable=False, index_searchable=False),
                    Property(name="keys", data_type=DataType.TEXT_ARRAY,
                             tokenization=Tokenization.FIELD),
                    Property(name="status", **text),
                    Property(name="retired_rule", **text),
                    Property(name="imported_at", data_type=DataType.DATE),
                ],
                references=[ReferenceProperty(name="supersedes", target_collection=self.name)],
            )
        except WeaviateBaseError as err:
            raise WeaviateUnavailable(f"cannot create collection {self.name}: {err}") from err

    def _tenant(self, user_id: str, *, create: bool = False):
        return open_tenant(self.client, self.name, user_id, self._known_tenants, create=create)

    def tenants(self) -> list[str]:
        """Tenant names, sorted."""
        col = self.client.collections.use(self.name)
        return replication.tenant_names(col)

    def user_ids(self) -> list[str]:
        """User ids that have memories, sorted (read back from each tenant)."""
        out = []
        for name in self.tenants():
            col = self.client.collections.use(self.name).with_tenant(name)
            res = col.query.fetch_objects(limit=1, return_properties=["user_id"])
            if res.objects:
                out.append(res.objects[0].properties["user_id"])
        return sorted(out)

    # -- writes ---------------------------------------------------------------------------
    def import_memories(self, records: Sequence[MemoryRecord],
                        triples: Sequence[Sequence[Triple]], vectors: np.ndarray, *,
                        progress: Callable[[int], None] | None = None,
                        batch_size: int = 200,
                        imported_at: datetime | None = None) -> ImportResult:
        """Store new memories; ids already stored are left untouched (status and edges kept).

        A batch insert replaces an object that exists (an upsert), so each batch is checked
        and inserted under :func:`scanner.store.server.import_lock`: of two imports of the same
        ids, in any processes on this machine, exactly one writes each id.

        Args:
            records: the memories.
            triples: ``triples[i]`` for ``records[i]`` (stored so scans never re-parse).
            vectors: ``(len(records), d)`` float32, L2-normalised.
            progress: called with the number of records handled after each batch.
            batch_size: objects per batch request.
            imported_at: UTC time stamped on every memory of this import (default: now); one
                value per import lets statistics count conflicts per import.

        Returns:
            Counts and every object Weaviate rejected (checked via ``failed_objects``, since
            batch errors do not raise: python-client#885).
        """
        result = ImportResult()
        by_user: dict[str, list[int]] = {}
        for i, r in enumerate(records):
            by_user.setdefault(r.user_id, []).append(i)
        now = imported_at or datetime.now(timezone.utc)
        for user_id, idx in by_user.items():
            col = self._tenant(user_id, create=True)
            for start in range(0, len(idx), batch_size):
                chunk = idx[start:start + batch_size]
                uuids = [object_uuid(user_id, records[i].id) for i in chunk]
                with import_lock(self.client):
                    # bodies, not just ids: an id another import stored since the caller's
                    # check is reported differing when its text or provenance differs
                    existing = self._stored_bodies(col, uuids)
                    todo = [(i, u) for i, u in zip(chunk, uuids) if u not in existing]
                    failed = dict(insert_objects(replication.for_writes(self.client, col), [
                        DataObject(properties=self._properties(records[i], triples[i], now),
                                   vector=vectors[i].tolist(), uuid=u) for i, u in todo],
                        batch_size=batch_size)) if todo else {}
                result.unchanged += len(chunk) - len(todo)
                result.differing.extend(
                    records[i].id for i, u in zip(chunk, uuids)
                    if u in existing and _body(records[i]) != _stored_body(existing[u]))
                if todo:
                    for i, u in todo:
                        if u in failed:
                            result.failures.append((records[i].id, failed[u]))
                        else:
                            result.written += 1
                if progress:
                    progress(len(chunk))
        return result

    def stored(self, records: Sequence[MemoryRecord]) -> dict[tuple[str, str], bool]:
        """``(user_id, id)`` -> whether the stored memory has the record's text and provenance
        (source, source class, epoch, observed_at), for the records already stored (one query
        per tenant)."""
        by_user: dict[str, list[MemoryRecord]] = {}
        for r in records:
            by_user.setdefault(r.user_id, []).append(r)
        tenants = set(self.tenants())
        found: dict[tuple[str, str], bool] = {}
        for user_id, recs in by_user.items():
            if tenant_name(user_id) not in tenants:
                continue
            by_uuid = {object_uuid(user_id, r.id): r for r in recs}
            for u, props in self._stored_bodies(self._tenant(user_id), list(by_uuid)).items():
                r = by_uuid[u]
                found[(user_id, r.id)] = _body(r) == _stored_body(props)
        return found

    @staticmethod
    def _stored_bodies(col, uuids: list[str]) -> dict[str, dict[str, Any]]:
        res = col.query.fetch_objects(filters=Filter.by_id().contains_any(uuids),
                                      limit=len(uuids), return_properties=list(_BODY))
        return {str(o.uuid): o.properties for o in res.objects}

    @staticmethod
    def _properties(r: MemoryRecord, triples: Sequence[Triple], now: datetime) -> dict[str, Any]:
        return {
            "memory_id": r.id, "text": r.text, "user_id": r.user_id,
            "scope_group": r.group or "", "scope_properties": _properties_array(r.properties),
            "properties_json": json.dumps(r.properties, sort_keys=True),
            "source": r.source or "", "source_class": r.source_class.value,
            "observed_at": r.observed_at, "epoch": r.epoch or "",
            "confidence": r.confidence, "priority": r.priority, "source_trust": r.source_trust,
            "triples_json": json.dumps([t.to_dict() for t in triples]),
            "keys": sorted({f"{t.subject}|{t.relation}" for t in triples}),
            "status": STATUS_ACTIVE, "retired_rule": "", "imported_at": now,
        }

    def apply_conflicts(self, user_id: str, conflicts: Iterable[Conflict]) -> int:
        """Write verdicts: ``supersedes`` edge winner -> loser and ``status`` on the members.

        Resolved pairs mark the loser ``superseded`` (with the deciding rule); a settling
        re-observation does the same for the members it retires (rule ``reobservation``);
        members of open quarantined, epoch-change and escalated pairs that are still active
        become ``unresolved``. Idempotent: an edge that exists is not added again, a status
        that is already right is not written. Nothing is deleted.

        Returns:
            The number of new ``supersedes`` edges.

        Raises:
            UnknownMemory: a verdict names a memory that is not stored in the tenant.
        """
        return self.apply_effects(user_id, verdict_effects(list(conflicts))).edges_added

    def apply_effects(self, user_id: str, effects: Effects, *,
                      states: Mapping[str, tuple[str, str | None]] | None = None,
                      full_view: bool = False, workers: int = 8,
                      chunk: int = 1000,
                      edges_stored: Mapping[str, Iterable[str]] | None = None
                      ) -> AppliedEffects:
        """Write the edges and statuses of :func:`scanner.ledger.verdict_effects`, in batches.

        Edges go in one ``reference_add_many`` request per chunk (only those not stored yet;
        every member was read first, so no edge points at a missing object, which batch
        references would not check: weaviate#1185). Two scanners of one tenant may both add
        an edge; duplicates are then found by reading the touched winners back and removed
        with ``reference_replace``. Status changes are merge updates (PATCH, which keeps the
        vector and the edges), sent by ``workers`` threads, and only where the status differs.

        Args:
            user_id: the tenant's user.
            effects: what to write.
            states: memory id -> ``(status, retired_rule)`` as just read; missing ids are
                fetched, unless ``full_view``.
            full_view: the effects come from a cursor pass over the whole tenant and
                ``states`` holds every memory of it that was not ``active`` (absent ids are
                ``active``): a memory left ``unresolved`` that no open pair holds any more
                (settled, or decided under another configuration) returns to ``active``.
            workers: threads for status updates.
            chunk: ids per query or reference batch.
            edges_stored: winner or settler id -> ids whose ``supersedes`` edge from it is
                known to be stored (a batch scan knows it from ledger entries stored
                unchanged: every writer records a verdict's entries only after its edges,
                and edges are never removed); these edges are neither read back nor added.

        Returns:
            Counts of edges added and statuses written.

        Raises:
            UnknownMemory: an id in ``effects`` is not stored in the tenant.
            StoreWriteError: Weaviate rejected references or updates.
        """
        applied = AppliedEffects()
        ids = sorted(effects.memory_ids())
        known = dict(states or {})
        if full_view:
            known.update({i: (STATUS_ACTIVE, None) for i in ids if i not in known})
            ids = sorted(set(ids) | {i for i, (st, _) in known.items()
                                     if st == STATUS_UNRESOLVED})
        if not ids:
            return applied
        col = self._tenant(user_id)
        missing = [i for i in ids if i not in known]
        for start in range(0, len(missing), chunk):
            part = missing[start:start + chunk]
            res = col.query.fetch_objects(
                filters=Filter.by_id().contains_any([object_uuid(user_id, m) for m in part]),
                limit=len(part), return_properties=["memory_id", "status", "retired_rule"])
            for o in res.objects:
                known[o.properties["memory_id"]] = (o.properties.get("status") or STATUS_ACTIVE,
                                                    o.properties.get("retired_rule") or None)
        absent = [i for i in ids if i not in known]
        if absent:
            raise UnknownMemory(absent[0], user_id)

        skip = {w: set(losers) for w, losers in (edges_stored or {}).items()}
        unknown = {w: losers - skip.get(w, set()) for w, losers in effects.edges.items()}
        winners = sorted(w for w, losers in unknown.items() if losers)
        stored = self._edges(col, user_id, winners, chunk)
        refs = [DataReference(from_uuid=object_uuid(user_id, w), from_property="supersedes",
                              to_uuid=object_uuid(user_id, loser))
                for w in winners for loser in sorted(unknown[w])
                if object_uuid(user_id, loser) not in stored.get(w, ())]
        writes = replication.for_writes(self.client, col)
        for start in range(0, len(refs), chunk):
            res = replication.through_election(writes.data.reference_add_many,
                                               refs[start:start + chunk])
            if res.has_errors:
                raise StoreWriteError([(str(e.reference.from_uuid), e.message)
                                       for e in res.errors.values()], applied.edges_added)
            applied.edges_added += len(refs[start:start + chunk])
        if refs:
            touched = sorted({w for w in winners
                              if any(object_uuid(user_id, x) not in stored.get(w, ())
                                     for x in effects.edges[w])})
            for w, targets in self._edges(col, user_id, touched, chunk).items():
                if len(targets) != len(set(targets)):  # a concurrent scanner added it too
                    replication.through_election(
                        writes.data.reference_replace, from_uuid=object_uuid(user_id, w),
                        from_property="supersedes", to=list(dict.fromkeys(targets)))
                    applied.duplicates_removed += len(targets) - len(set(targets))

        updates: list[tuple[str, dict[str, Any]]] = []
        for mid in ids:
            status, rule = known[mid]
            if mid in effects.retire:
                want = (STATUS_SUPERSEDED, effects.retire[mid] or None)
                if (status, rule) != want:
                    updates.append((mid, {"status": STATUS_SUPERSEDED,
                                          "retired_rule": effects.retire[mid]}))
            elif mid in effects.unresolved:
                if status == STATUS_ACTIVE:
                    updates.append((mid, {"status": STATUS_UNRESOLVED}))
            elif full_view and status == STATUS_UNRESOLVED:
                updates.append((mid, {"status": STATUS_ACTIVE}))
        self._update_many(replication.for_writes(self.client, col), user_id, updates, workers)
        applied.statuses_changed = len(updates)
        applied.statuses = {mid: props["status"] for mid, props in updates}
        return applied

    def _edges(self, col, user_id: str, memory_ids: Sequence[str],
               chunk: int) -> dict[str, list[str]]:
        """memory id -> target UUIDs of its ``supersedes`` edges, duplicates kept."""
        out: dict[str, list[str]] = defaultdict(list)
        for start in range(0, len(memory_ids), chunk):
            part = memory_ids[start:start + chunk]
            res = col.query.fetch_objects(
                filters=Filter.by_id().contains_any([object_uuid(user_id, m) for m in part]),
                limit=len(part), return_properties=["memory_id"],
                return_references=QueryReference(link_on="supersedes", return_properties=[]))
            for o in res.objects:
                refs = o.references.get("supersedes") if o.references else None
                out[o.properties["memory_id"]] = [str(t.uuid) for t in refs.objects] \
                    if refs is not None else []
        return out

    def _update_many(self, col, user_id: str, updates: Sequence[tuple[str, dict[str, Any]]],
                     workers: int) -> None:
        """Merge updates (PATCH) of one object each, ``workers`` at a time; every failure is
        collected with its memory id. On a loopback server
        (:func:`scanner.store.server.rest_endpoint`) they go out on the store's own keep-alive
        connections, else through the client's ``data.update``.

        Raises:
            StoreWriteError: the updates Weaviate rejected or that failed, each with its id.
        """
        if not updates:
            return
        failures: list[tuple[str, str]] = []
        endpoint = rest_endpoint(self.client)
        level = getattr(col, "consistency_level", None)
        patch = _Patcher(endpoint, col.name, col.tenant, user_id, failures,
                         consistency_level=level.value if level is not None else None) \
            if endpoint is not None else None

        def one(item: tuple[str, dict[str, Any]]) -> None:
            mid, props = item
            try:
                col.data.update(uuid=object_uuid(user_id, mid), properties=props)
            except WeaviateBaseError as err:
                failures.append((mid, str(err)))

        send = patch if patch is not None else one
        try:
            if workers <= 1 or len(updates) < 4:
                for item in updates:
                    send(item)
            else:
                from concurrent.futures import ThreadPoolExecutor

                with ThreadPoolExecutor(max_workers=workers) as pool:
                    list(pool.map(send, updates))
        finally:
            if patch is not None:
                patch.close()
        if failures:
            raise StoreWriteError(failures, len(updates) - len(failures))

    def cursor_count(self, user_id: str, *, cache_size: int = 1000,
                     properties: Sequence[str] | None = BATCH_SCAN_PROPERTIES) -> int:
        """Stream a tenant with the cursor API as a batch scan does (the client's cursor
        iterator, same page size, same properties, no vectors) and only count the objects: the
        raw iteration rate a batch scan is measured against
        (``benchmarks/bench_batch_scan.py``)."""
        if tenant_name(user_id) not in set(self.tenants()):
            return 0
        n = 0
        for _ in self._tenant(user_id).iterator(
                cache_size=cache_size,
                return_properties=list(properties) if properties is not None else None):
            n += 1
        return n

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

    # -- reads ----------------------------------------------------------------------------
    def _fetch(self, col, uuid: str, *, refs: bool = False) -> StoredMemory | None:
        ref = QueryReference(link_on="supersedes", return_properties=["memory_id"]) if refs \
            else None
        obj = col.query.fetch_object_by_id(uuid, return_references=ref)
        return self._to_memory(obj) if obj is not None else None

    def get(self, user_id: str, memory_id: str) -> StoredMemory:
        """One memory with its outgoing ``supersedes`` edges.

        Raises:
            UnknownMemory: no such id in the user's tenant.
        """
        found = self._fetch(self._tenant(user_id), object_uuid(user_id, memory_id), refs=True)
        if found is None:
            raise UnknownMemory(memory_id, user_id)
        return found

    def superseded_by(self, user_id: str, memory_id: str) -> list[StoredMemory]:
        """Memories whose ``supersedes`` edge points at ``memory_id``."""
        col = self._tenant(user_id)
        res = col.query.fetch_objects(
            filters=Filter.by_ref("supersedes").by_id().equal(object_uuid(user_id, memory_id)),
            limit=100, return_references=QueryReference(link_on="supersedes",
                                                        return_properties=["memory_id"]))
        return [self._to_memory(o) for o in res.objects]

    def iterate_by_uuid(self, user_id: str, uuids: Sequence[str]) -> Iterator[StoredMemory]:
        """The memories with these object UUIDs in one tenant (missing ones are skipped)."""
        if not uuids:
            return
        res = self._tenant(user_id).query.fetch_objects(
            filters=Filter.by_id().contains_any(list(uuids)), limit=len(uuids))
        for obj in res.objects:
            yield self._to_memory(obj)

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
        res = self.hybrid_query(user_id, query, vector, group=group, properties=properties,
                                limit=limit, alpha=alpha)
        return [self._to_memory(o) for o in res.objects]

    def hybrid_query(self, user_id: str, query: str, vector: np.ndarray, *,
                     group: str | None = None, properties: Mapping[str, str] | None = None,
                     limit: int = 12, alpha: float = 0.5) -> Any:
        """The bare Weaviate query behind :meth:`hybrid_search`: same tenant, filters,
        fusion and ``limit``, no tenant check and no conversion of the results (the
        sidecar's benchmark times it as the baseline).

        Returns:
            The client's query result (``.objects`` best first, ``metadata.score`` set).

        Raises:
            weaviate.exceptions.WeaviateQueryError: the tenant does not exist.
        """
        col = self._tenant(user_id)
        filters = []
        if group is not None:
            filters.append(Filter.by_property("scope_group").equal(group))
        if properties:
            filters.append(Filter.by_property("scope_properties").contains_all(
                _properties_array(properties)))
        return col.query.hybrid(query=query, vector=vector.tolist(), alpha=alpha, limit=limit,
                                query_properties=["text"],
                                fusion_type=HybridFusion.RELATIVE_SCORE,
                                filters=Filter.all_of(filters) if filters else None,
                                return_metadata=MetadataQuery(score=True))

    def has_tenant(self, user_id: str) -> bool:
        """Whether ``user_id``'s tenant exists. A tenant once seen is remembered (nothing is
        ever deleted), so a read-time scan of a known user costs no tenant listing."""
        name = tenant_name(user_id)
        if name in self._known_tenants:
            return True
        if name in set(self.tenants()):
            self._known_tenants.add(name)
            return True
        return False

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
        return [self._to_memory(o) for o in res.objects]

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
            properties: only these properties (default all); :data:`SCAN_PROPERTIES` is
                what a scan needs.
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
                yield self._to_memory(obj)
            return
        yield from _prefetched((self._to_memory(o) for o in objects), 2 * cache_size)

    def property_pages(self, user_id: str, *, cache_size: int = 1000,
                       properties: Sequence[str] = BATCH_SCAN_PROPERTIES,
                       prefetch: bool = True) -> Iterator[list[dict[str, Any]]]:
        """Every memory of one tenant as its property dicts, a page at a time: the client's
        cursor iterator (as :meth:`cursor_count` uses it), no vectors, no decoding beyond the
        client's.

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

    @staticmethod
    def _to_memory(obj) -> StoredMemory:
        p = obj.properties
        record = record_from_properties(p)
        triples = [Triple.from_dict(t) for t in json.loads(p.get("triples_json") or "[]")]
        refs = []
        if getattr(obj, "references", None) and "supersedes" in obj.references:
            refs = [str(o.uuid) for o in obj.references["supersedes"].objects]
        score = getattr(obj.metadata, "score", None) if obj.metadata is not None else None
        return StoredMemory(record=record, triples=triples, status=p.get("status") or "active",
                            uuid=str(obj.uuid), score=score, supersedes=refs,
                            retired_rule=p.get("retired_rule") or None)


class _Patcher:
    """PATCH /v1/objects/{collection}/{uuid} of one tenant's objects on a loopback REST
    endpoint, one keep-alive connection per thread (the request ``data.update`` sends: class,
    properties, tenant; 200 or 204 is success). Failures go to ``failures`` as
    ``(memory id, message)``; a request on a reused connection that the server closed is sent
    once more on a new one (setting the same properties twice is the same update)."""

    def __init__(self, endpoint: RestEndpoint, collection: str, tenant: str | None,
                 user_id: str, failures: list[tuple[str, str]], timeout_s: float = 90.0,
                 consistency_level: str | None = None):
        self.endpoint = endpoint
        self.query = f"?consistency_level={consistency_level}" if consistency_level else ""
        self.collection = collection
        self.tenant = tenant
        self.user_id = user_id
        self.failures = failures
        self.timeout_s = timeout_s
        self.headers = {"Content-Type": "application/json", **dict(endpoint.headers)}
        self._local = threading.local()
        self._opened: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is not None and not fresh:
            return conn
        if conn is not None:
            conn.close()
        conn = http.client.HTTPConnection(self.endpoint.host, self.endpoint.port,
                                          timeout=self.timeout_s)
        self._local.conn = conn
        with self._lock:
            self._opened.append(conn)
        return conn

    def __call__(self, item: tuple[str, dict[str, Any]]) -> None:
        mid, props = item
        body: dict[str, Any] = {"class": self.collection, "properties": props}
        if self.tenant is not None:
            body["tenant"] = self.tenant
        payload = json.dumps(body).encode()
        path = f"/v1/objects/{self.collection}/{object_uuid(self.user_id, mid)}{self.query}"
        reused = getattr(self._local, "conn", None) is not None
        for attempt in (0, 1):
            conn = self._connection(fresh=attempt > 0)
            try:
                conn.request("PATCH", path, body=payload, headers=self.headers)
                response = conn.getresponse()
                text = response.read()
            except (OSError, http.client.HTTPException) as err:
                conn.close()
                self._local.conn = None
                if attempt == 0 and reused:
                    continue
                self.failures.append((mid, f"update object: {type(err).__name__}: {err}"))
                return
            if response.status not in (200, 204):
                self.failures.append((mid, f"update object: HTTP {response.status}: "
                                           f"{text[:300].decode(errors='replace')}"))
            return

    def close(self) -> None:
        with self._lock:
            for conn in self._opened:
                conn.close()
            self._opened.clear()


def _prefetched(items: Iterator[Any], bound: int) -> Iterator[Any]:
    """``items`` produced by a background thread, at most ``bound`` ahead of the consumer."""
    import queue
    import threading

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


def to_uuid(value: str) -> str:
    """Normalise a UUID string (used when comparing reference targets)."""
    return str(uuidlib.UUID(value))
