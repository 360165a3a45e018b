"""The ledger collection in Weaviate: one object per :class:`scanner.core.ledger.LedgerEntry`.

Layout, mirroring the memory collection (see ``../shared/WEAVIATE.md`` §4–5):

* one multi-tenant collection, one tenant per ``user_id`` (the same tenant names as the
  memories), so the ledger of a user is read and written with the user's memories and a
  request without a tenant is rejected;
* objects carry no vector; the object UUID is the entry's deterministic uuid5 id, so writes are
  upserts that two scanners of one tenant agree on;
* a ``concerns`` reference to the memories an entry is about (a reference between two
  multi-tenant collections stays inside one tenant, weaviate ``batch_references_add.go``); the
  same ids as ``concerns_ids`` (``FIELD`` tokenization) for filtering without reference joins;
* the whole entry as ``body_json``, and the fields people filter on as properties;
* ``digest`` (sha256 of the content without timestamps): an unchanged entry is not written
  again, so a re-run of a scan writes nothing. Nothing is ever deleted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import weaviate
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, QueryReference

from scanner.core.ledger import LedgerEntry, combined, content_digest
from scanner.errors import StoreWriteError
from scanner.store import replication
from scanner.store.batching import insert_objects
from scanner.store.schema import create_ledger_collection
from scanner.store.tenants import DEFAULT_COLLECTION, object_uuid, open_tenant, tenant_name

LEDGER_SUFFIX = "Ledger"
_CHUNK = 1000  # ids per filter query


def ledger_collection_name(memory_collection: str = DEFAULT_COLLECTION) -> str:
    """The ledger collection that belongs to a memory collection (``<name>Ledger``)."""
    return memory_collection + LEDGER_SUFFIX


@dataclass
class LedgerWrite:
    """Outcome of writing entries: how many were new, replaced, or already stored as is."""

    written: int = 0
    replaced: int = 0
    unchanged: int = 0
    by_type: dict[str, int] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)
    """entry id -> content digest of every entry this call stored (new or replaced)."""


class LedgerStore:
    """Ledger entries of every user in one multi-tenant collection.

    Args:
        client: a connected ``weaviate.WeaviateClient``.
        memory_collection: the memory collection the entries reference.
        collection: ledger collection name (default ``<memory_collection>Ledger``).

    Raises:
        WeaviateUnavailable: from any method, when the server does not answer.
    """

    def __init__(self, client: weaviate.WeaviateClient,
                 memory_collection: str = DEFAULT_COLLECTION, collection: str | None = None):
        self.client = client
        self.memory_collection = memory_collection
        self.name = collection or ledger_collection_name(memory_collection)
        self._known_tenants: set[str] = set()

    # -- schema ---------------------------------------------------------------------------
    def ensure_schema(self) -> None:
        """Create the collection if it does not exist (idempotent; the memory collection must
        exist first, since ``concerns`` points at it)."""
        create_ledger_collection(self.client, self.name, self.memory_collection)

    def _tenant(self, user_id: str, *, create: bool = False):
        return open_tenant(self.client, self.name, user_id, self._known_tenants, create=create)

    def tenants(self) -> list[str]:
        """Tenant names that have a ledger, sorted."""
        return replication.tenant_names(self.client.collections.use(self.name))

    def _has(self, user_id: str) -> bool:
        name = tenant_name(user_id)
        if name in self._known_tenants:
            return True
        present = name in set(self.tenants())
        if present:
            self._known_tenants.add(name)
        return present

    # -- writes ---------------------------------------------------------------------------
    def write(self, user_id: str, entries: Iterable[LedgerEntry], *, batch_size: int = 500,
              existing: dict[str, LedgerEntry] | None = None,
              digests: Mapping[str, str] | None = None,
              on_written: Callable[[int], None] | None = None,
              full_view: bool = False) -> LedgerWrite:
        """Upsert entries of one tenant in batches; unchanged entries are not written.

        An entry replaces a stored one only when :func:`scanner.core.ledger.should_replace` says
        so (a settled entry never reopens; a settlement keeps its latest settler), so scans
        with a partial view (read-time) never undo what a full scan recorded; such a scan's
        dispute or settlement is merged into the stored one, never removing a member
        (:func:`scanner.core.ledger.combined`).

        Args:
            user_id: the tenant's user.
            entries: entries of that user (duplicates by id are written once).
            batch_size: objects per batch request.
            existing: the stored entries by id, when the caller already fetched them.
            digests: entry id -> stored digest for every stored entry of the tenant, when the
                caller already read them (:meth:`all_digests`).
            on_written: called with the number of objects after each batch request.
            full_view: the entries come from a scan of every memory of the tenant, whose
                verdicts replace what is stored (:func:`scanner.core.ledger.should_replace`).

        Returns:
            Counts.

        Raises:
            StoreWriteError: Weaviate rejected objects or references (every one listed).
        """
        todo = {e.entry_id: e for e in entries}
        result = LedgerWrite()
        if not todo:
            return result
        col = self._tenant(user_id, create=True)
        if existing is None:
            # digests first: an unchanged entry costs neither its body nor a comparison
            stored = ({eid: digests[eid] for eid in todo if eid in digests}
                      if digests is not None else self.digests(user_id, list(todo)))
            differ = [eid for eid, digest in stored.items() if digest != todo[eid].digest()]
            # (each new entry's digest is computed once more when written: few are)
            existing = self.fetch(user_id, differ)
            result.unchanged += len(stored) - len(differ)
            todo = {eid: e for eid, e in todo.items() if eid not in stored or eid in existing}
        now = datetime.now(timezone.utc)
        rows = []
        for eid in sorted(todo):
            new, old = todo[eid], existing.get(eid)
            if old is not None:
                new = combined(new, old, full_view=full_view)
                if new is None:
                    result.unchanged += 1
                    continue
            rows.append((new, old))
        for start in range(0, len(rows), batch_size):
            part = rows[start:start + batch_size]
            objects = [
                DataObject(properties=self._properties(
                    new, old.recorded_at if old is not None and old.recorded_at else now, now),
                    uuid=new.entry_id,
                    references={"concerns": [object_uuid(user_id, m) for m in new.concerns()]})
                for new, old in part]
            failed = insert_objects(replication.for_writes(self.client, col), objects,
                                    batch_size=batch_size)
            if failed:
                raise StoreWriteError(failed, result.written + result.replaced)
            result.digests.update((str(o.uuid), o.properties["digest"]) for o in objects)
            for new, old in part:
                if old is None:
                    result.written += 1
                else:
                    result.replaced += 1
                result.by_type[new.entry_type] = result.by_type.get(new.entry_type, 0) + 1
            if on_written:
                on_written(len(part))
        return result

    @staticmethod
    def _properties(e: LedgerEntry, recorded_at: datetime, now: datetime) -> dict[str, Any]:
        body = e.content()
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        # the digest hashes the ASCII-escaped dump: the same text when there is nothing to
        # escape (DEL is escaped there and not here)
        digest = hashlib.sha256(text.encode()).hexdigest() \
            if text.isascii() and "\x7f" not in text else content_digest(body)
        return {
            "entry_type": e.entry_type, "user_id": e.user_id, "status": e.status,
            "verdict": e.verdict or "", "rule": e.rule or "", "kind": e.kind or "",
            "severity": e.severity or "",
            "subject": e.key.subject if e.key else "", "relation": e.key.relation if e.key
            else "", "scope_group": (e.key.group or "") if e.key else "",
            "members": list(e.members), "concerns_ids": e.concerns(),
            "settled_by": e.settled_by or "", "settles": e.settles or "",
            "digest": digest, "recorded_at": recorded_at, "updated_at": now,
            "body_json": text,
        }

    # -- reads ----------------------------------------------------------------------------
    @staticmethod
    def _entry(obj) -> LedgerEntry:
        p = obj.properties
        body = json.loads(p["body_json"])
        return LedgerEntry.model_validate({**body, "recorded_at": p.get("recorded_at"),
                                           "updated_at": p.get("updated_at")})

    def all_digests(self, user_id: str, entry_types: Iterable[str] | None = None
                    ) -> dict[str, str]:
        """entry id -> stored digest of every entry of a tenant (one cursor pass), or of
        those of ``entry_types`` only."""
        if not self._has(user_id):
            return {}
        objects = self._tenant(user_id).iterator(
            return_properties=["digest"] if entry_types is None else ["digest", "entry_type"],
            cache_size=2 * _CHUNK)
        if entry_types is None:
            return {str(o.uuid): o.properties.get("digest") or "" for o in objects}
        wanted = frozenset(entry_types)
        return {str(o.uuid): o.properties.get("digest") or "" for o in objects
                if o.properties.get("entry_type") in wanted}

    def digests(self, user_id: str, entry_ids: Sequence[str]) -> dict[str, str]:
        """entry id -> stored content digest, for the stored ones among ``entry_ids``."""
        if not entry_ids or not self._has(user_id):
            return {}
        col = self._tenant(user_id)
        out = {}
        ids = sorted(set(entry_ids))
        if len(ids) > _CHUNK:  # many: one cursor pass over the tenant's ledger is cheaper
            wanted = set(ids)
            for o in col.iterator(return_properties=["digest"], cache_size=2 * _CHUNK):
                if str(o.uuid) in wanted:
                    out[str(o.uuid)] = o.properties.get("digest") or ""
            return out
        for start in range(0, len(ids), _CHUNK):
            part = ids[start:start + _CHUNK]
            res = col.query.fetch_objects(filters=Filter.by_id().contains_any(part),
                                          limit=len(part), return_properties=["digest"])
            out.update((str(o.uuid), o.properties.get("digest") or "") for o in res.objects)
        return out

    def fetch(self, user_id: str, entry_ids: Sequence[str]) -> dict[str, LedgerEntry]:
        """The stored entries among ``entry_ids`` (missing ones are absent from the result)."""
        if not entry_ids or not self._has(user_id):
            return {}
        col = self._tenant(user_id)
        out = {}
        ids = sorted(set(entry_ids))
        for start in range(0, len(ids), _CHUNK):
            part = ids[start:start + _CHUNK]
            res = col.query.fetch_objects(filters=Filter.by_id().contains_any(part),
                                          limit=len(part),
                                          return_properties=["body_json", "recorded_at",
                                                             "updated_at"])
            for obj in res.objects:
                out[str(obj.uuid)] = self._entry(obj)
        return out

    def references(self, user_id: str, entry_id: str) -> list[str]:
        """Memory ids the stored entry's ``concerns`` references resolve to, sorted."""
        if not self._has(user_id):
            return []
        obj = self._tenant(user_id).query.fetch_object_by_id(
            entry_id, return_references=QueryReference(link_on="concerns",
                                                       return_properties=["memory_id"]))
        if obj is None or not obj.references or "concerns" not in obj.references:
            return []
        return sorted(o.properties["memory_id"] for o in obj.references["concerns"].objects)

    def for_memories(self, user_id: str, memory_ids: Sequence[str], *,
                     limit: int = 10_000) -> list[LedgerEntry]:
        """Entries that concern any of ``memory_ids`` (members or settler), oldest first."""
        if not memory_ids or not self._has(user_id):
            return []
        res = self._tenant(user_id).query.fetch_objects(
            filters=Filter.by_property("concerns_ids").contains_any(sorted(set(memory_ids))),
            limit=limit, return_properties=["body_json", "recorded_at", "updated_at"])
        entries = [self._entry(o) for o in res.objects]
        return sorted(entries, key=lambda e: (e.recorded_at or datetime.min.replace(
            tzinfo=timezone.utc), e.entry_type, e.entry_id))

    def iterate(self, user_id: str, *, cache_size: int = 1000) -> Iterator[LedgerEntry]:
        """Every entry of one tenant, streamed with the cursor API."""
        if not self._has(user_id):
            return
        for obj in self._tenant(user_id).iterator(
                cache_size=cache_size,
                return_properties=["body_json", "recorded_at", "updated_at"]):
            yield self._entry(obj)

    def count(self, user_id: str | None = None, *, entry_type: str | None = None) -> int:
        """Entries in one tenant or in all, optionally of one type."""
        names = [tenant_name(user_id)] if user_id else self.tenants()
        present = set(self.tenants())
        total = 0
        for name in names:
            if name not in present:
                continue
            col = self.client.collections.use(self.name).with_tenant(name)
            filters = (Filter.by_property("entry_type").equal(entry_type) if entry_type
                       else None)
            total += col.aggregate.over_all(total_count=True,
                                            filters=filters).total_count or 0
        return total
