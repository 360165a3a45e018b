"""Writes to the memory collection (the client's ``data`` namespace): imports and verdicts.

Imports insert new memories and never overwrite a stored one (a correction is a new record
under its own id). Verdicts are written as ``supersedes`` references (winner -> loser, added
with the validated ``reference_add_many`` after every member was read, python-client#1008,
weaviate#1185) and ``status`` merge updates (:mod:`scanner.store.status_updates`). Nothing is
ever deleted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np
from weaviate.classes.data import DataObject, DataReference
from weaviate.classes.query import Filter, QueryReference

from extractors import Triple
from scanner.core.effects import Effects, verdict_effects
from scanner.errors import StoreWriteError, UnknownMemory
from scanner.models import Conflict, MemoryRecord
from scanner.store import replication
from scanner.store.batching import insert_objects
from scanner.store.codec import (
    BODY_PROPERTIES,
    STATUS_ACTIVE,
    STATUS_SUPERSEDED,
    STATUS_UNRESOLVED,
    encode_memory,
    record_body,
    stored_body,
)
from scanner.store.connection import import_lock
from scanner.store.failures import translate_unreachable
from scanner.store.status_updates import update_many
from scanner.store.tenants import TenantCollection, object_uuid, tenant_name


_EMPTIED_REFS = "is present, but not a ref"
"""Weaviate's batch-reference error for a reference property emptied by a delete or a
replace (probed on 1.39.0: a later ``reference_add_many`` fails, ``reference_add`` works)."""


@dataclass
class AppliedEffects:
    """What writing verdict effects changed in the memory collection."""

    edges_added: int = 0
    statuses_changed: int = 0
    duplicates_removed: int = 0
    edges_removed: int = 0
    """``supersedes`` edges no verdict holds any more, removed (``Effects.unlink``)."""
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


def stored_bodies(col: Any, uuids: list[str]) -> dict[str, dict[str, Any]]:
    """object UUID -> :data:`~scanner.store.codec.BODY_PROPERTIES` of the stored ones of
    ``uuids`` in one tenant (one query)."""
    res = col.query.fetch_objects(filters=Filter.by_id().contains_any(uuids),
                                  limit=len(uuids), return_properties=list(BODY_PROPERTIES))
    return {str(o.uuid): o.properties for o in res.objects}


@translate_unreachable
class MemoryWrites(TenantCollection):
    """Imports and verdicts of the memory store (:class:`scanner.store.memories.MemoryStore`).

    Raises:
        WeaviateUnavailable: from any method, when the server does not answer.
    """

    def import_memories(self, records: Sequence[MemoryRecord],
                        triples: Sequence[Sequence[Triple]], vectors: np.ndarray, *,
                        progress: Callable[[int], None] | None = None,
                        batch_size: int = 200,
                        imported_at: datetime | None = None) -> ImportResult:
        """Store new memories; ids already stored are left untouched (status and edges kept).

        A batch insert replaces an object that exists (an upsert), so each batch is checked
        and inserted under :func:`scanner.store.connection.import_lock`: of two imports of the
        same ids, in any processes on this machine, exactly one writes each id.

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
                    existing = stored_bodies(col, uuids)
                    todo = [(i, u) for i, u in zip(chunk, uuids) if u not in existing]
                    failed = dict(insert_objects(replication.for_writes(self.client, col), [
                        DataObject(properties=encode_memory(records[i], triples[i], now),
                                   vector=vectors[i].tolist(), uuid=u) for i, u in todo],
                        batch_size=batch_size)) if todo else {}
                result.unchanged += len(chunk) - len(todo)
                result.differing.extend(
                    records[i].id for i, u in zip(chunk, uuids)
                    if u in existing and record_body(records[i]) != stored_body(existing[u]))
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
            for u, props in stored_bodies(self._tenant(user_id), list(by_uuid)).items():
                r = by_uuid[u]
                found[(user_id, r.id)] = record_body(r) == stored_body(props)
        return found

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
        """Write the edges and statuses of :func:`scanner.core.effects.verdict_effects`, in batches.

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
                ``active``): every memory gets the status the verdicts give it, so one left
                ``unresolved`` or ``superseded`` that nothing holds or retires any more
                returns to ``active``, and a ``superseded`` one an open pair holds becomes
                ``unresolved`` (issue 18: the state of one scan over the final set).
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
                                     if st != STATUS_ACTIVE})
        if not ids:
            return applied
        col = self._tenant(user_id)
        self._read_states(col, user_id, [i for i in ids if i not in known], known, chunk)
        absent = [i for i in ids if i not in known]
        if absent:
            raise UnknownMemory(absent[0], user_id)
        self._add_edges(col, user_id, effects, edges_stored, chunk, applied)
        updates = _status_updates(ids, known, effects, full_view)
        update_many(self.client, replication.for_writes(self.client, col), user_id, updates,
                    workers)
        applied.statuses_changed = len(updates)
        applied.statuses = {mid: props["status"] for mid, props in updates}
        return applied

    @staticmethod
    def _read_states(col: Any, user_id: str, missing: Sequence[str],
                     known: dict[str, tuple[str, str | None]], chunk: int) -> None:
        """Add ``(status, retired_rule)`` of the stored ones of ``missing`` to ``known``."""
        for start in range(0, len(missing), chunk):
            part = missing[start:start + chunk]
            res = col.query.fetch_objects(
                filters=Filter.by_id().contains_any([object_uuid(user_id, m) for m in part]),
                limit=len(part), return_properties=["memory_id", "status", "retired_rule"])
            for o in res.objects:
                known[o.properties["memory_id"]] = (o.properties.get("status") or STATUS_ACTIVE,
                                                    o.properties.get("retired_rule") or None)

    def _add_edges(self, col: Any, user_id: str, effects: Effects,
                   edges_stored: Mapping[str, Iterable[str]] | None, chunk: int,
                   applied: AppliedEffects) -> None:
        """Add the ``supersedes`` edges of ``effects`` not stored yet, then remove any
        duplicate a concurrent scanner added at the same time (counted in ``applied``)."""
        skip = {w: set(losers) for w, losers in (edges_stored or {}).items()}
        unknown = {w: losers - skip.get(w, set()) for w, losers in effects.edges.items()}
        winners = sorted(w for w, losers in unknown.items() if losers)
        stored = _edges(col, user_id, sorted(set(winners) | effects.exact), chunk)
        applied.edges_removed = _exact_edges(col, user_id, effects, stored)
        refs = [DataReference(from_uuid=object_uuid(user_id, w), from_property="supersedes",
                              to_uuid=object_uuid(user_id, loser))
                for w in winners for loser in sorted(unknown[w])
                if object_uuid(user_id, loser) not in stored.get(w, ())]
        writes = replication.for_writes(self.client, col)
        for start in range(0, len(refs), chunk):
            part = refs[start:start + chunk]
            res = replication.through_election(writes.data.reference_add_many, part)
            failed = []
            for index, e in (res.errors.items() if res.has_errors else ()):
                if _EMPTIED_REFS in e.message:  # Weaviate 1.39: a reference property whose
                    # last reference was removed is an empty array the batch endpoint
                    # rejects; the single-reference endpoint accepts it
                    writes.data.reference_add(from_uuid=part[index].from_uuid,
                                              from_property="supersedes",
                                              to=part[index].to_uuid)
                else:
                    failed.append((str(e.reference.from_object_uuid), e.message))
            if failed:
                raise StoreWriteError(failed, applied.edges_added)
            applied.edges_added += len(part)
        if not refs:
            return
        touched = sorted({w for w in winners
                          if any(object_uuid(user_id, x) not in stored.get(w, ())
                                 for x in effects.edges[w])})
        for w, targets in _edges(col, user_id, touched, chunk).items():
            if len(targets) != len(set(targets)):  # a concurrent scanner added it too
                replication.through_election(
                    writes.data.reference_replace, from_uuid=object_uuid(user_id, w),
                    from_property="supersedes", to=list(dict.fromkeys(targets)))
                applied.duplicates_removed += len(targets) - len(set(targets))


def _status_updates(ids: Sequence[str], known: Mapping[str, tuple[str, str | None]],
                    effects: Effects, full_view: bool) -> list[tuple[str, dict[str, Any]]]:
    """``(memory id, properties)`` of every status that differs from what ``effects`` want
    (see :meth:`MemoryWrites.apply_effects`)."""
    updates: list[tuple[str, dict[str, Any]]] = []
    for mid in ids:
        status, rule = known[mid]
        if mid in effects.retire:
            want = (STATUS_SUPERSEDED, effects.retire[mid] or None)
            if (status, rule) != want:
                updates.append((mid, {"status": STATUS_SUPERSEDED,
                                      "retired_rule": effects.retire[mid]}))
        elif mid in effects.unresolved:
            if status == STATUS_ACTIVE or (full_view and status != STATUS_UNRESOLVED):
                updates.append((mid, {"status": STATUS_UNRESOLVED, "retired_rule": ""}))
        elif full_view and status != STATUS_ACTIVE:
            updates.append((mid, {"status": STATUS_ACTIVE, "retired_rule": ""}))
    return updates


def _exact_edges(col: Any, user_id: str, effects: Effects,
                 stored: dict[str, list[str]]) -> int:
    """Remove the stored ``supersedes`` edges of :attr:`Effects.exact` memories that
    ``effects.edges`` does not hold (``reference_replace`` with what remains, before the
    missing edges are added); ``stored`` (memory id -> target UUIDs, as read) is updated.
    Returns how many edges were removed."""
    removed = 0
    for w in sorted(effects.exact):
        targets = stored.get(w, [])
        wanted = {object_uuid(user_id, loser) for loser in effects.edges.get(w, ())}
        keep = [t for t in dict.fromkeys(targets) if t in wanted]
        if len(keep) != len(targets):
            col.data.reference_replace(from_uuid=object_uuid(user_id, w),
                                       from_property="supersedes", to=keep)
            removed += len(targets) - len(keep)
            stored[w] = keep
    return removed


def _edges(col: Any, user_id: str, memory_ids: Sequence[str],
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
