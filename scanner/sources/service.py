"""Scans over an attached source (issue 16): the agent's own collection is read, never copied
into the memory collection, and nothing is written into its objects by default.

Three read-time and batch calls, shared by the CLI (``contrascan source …``), the HTTP sidecar
(``/v1/sources/{name}/…``) and the framework wrappers (:mod:`scanner.integrations`):

* :meth:`AttachedSource.search`: a scoped hybrid search on the attached collection (its own
  vectors; the mapping's named vector when it names one), then the scan of the hits;
* :meth:`AttachedSource.scan_hits`: "scan these hits": the ids (or the objects) the agent's own
  search returned, scanned with no second search;
* :meth:`AttachedSource.batch_scan_source`: every object of the collection, after a bulk import.

Triples are extracted on first sight and cached in the source's
:class:`~scanner.store.attached.TripleCache` (keyed by object uuid and text digest); verdicts,
``supersedes`` edges and history live there and in its ledger, which the inherited
:class:`~scanner.service.Service` methods (history, stats, the batch scan's checkpoints) read.
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scanner import metrics
from scanner.embeddings import Embedder, unit_vector
from scanner.engine import Engine
from scanner.models import MemoryRecord, RejectedLine, ScanReport
from scanner.scan import ScanConfig
from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.service import BatchScanResult, Service
from scanner.sources.mapping import SourceMapping, SourceRecordError, object_id
from scanner.store.attached import AttachedCollection, AttachedObject, TripleCache
from scanner.store.memories import STATUS_ACTIVE, STATUS_SUPERSEDED, STATUS_UNRESOLVED, StoredMemory
from scanner.store.wiring import weaviate_stores


@dataclass
class SourceScan:
    """A read-time scan of an attached source.

    Attributes:
        report: the SPEC §5 report; ids are the agent objects' uuids (or
            :func:`~scanner.sources.mapping.object_id` for objects passed without one); its
            ``declared`` lists the source's declarations (:attr:`AttachedSource.declarations`).
        hits: the scanned memories in the order given (search: best first, each with its
            fused hybrid score in [0, 1]; None for hits passed in), with the status stored
            before this scan.
        extracted: hits whose triples were extracted now (not found in the cache).
        timings: seconds per stage: ``search`` or ``fetch`` (absent for objects passed in),
            ``cache`` (cache lookup), ``extract`` (only when something was extracted),
            ``scan``, ``ledger_read`` and ``write`` (only with conflicts).
    """

    report: ScanReport
    hits: list[StoredMemory]
    extracted: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def status(self, memory_id: str) -> str:
        """``superseded`` (withheld), ``unresolved`` or ``active`` (cite)."""
        if memory_id in self._withhold:
            return STATUS_SUPERSEDED
        return STATUS_UNRESOLVED if memory_id in self._unresolved else STATUS_ACTIVE

    def __post_init__(self) -> None:
        self._withhold = set(self.report.withhold)
        self._unresolved = set(self.report.unresolved)


@dataclass
class SyncResult:
    """The cache pass of a batch scan over an attached collection.

    Attributes:
        read: objects read; cached: found unchanged in the cache; extracted: extracted and
            written now; rejected: objects that are not readable memories (id, field, reason).
        extract_seconds: seconds spent extracting; seconds: the whole pass.
    """

    read: int = 0
    cached: int = 0
    extracted: int = 0
    rejected: list[RejectedLine] = field(default_factory=list)
    extract_seconds: float = 0.0
    seconds: float = 0.0

    @property
    def extraction_rate(self) -> float | None:
        """Memories extracted per second of extraction (None when nothing was extracted)."""
        return self.extracted / self.extract_seconds if self.extracted and \
            self.extract_seconds > 0 else None

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {"read": self.read, "cached": self.cached, "extracted": self.extracted,
                "extract_seconds": round(self.extract_seconds, 3),
                "extraction_rate_per_s": None if self.extraction_rate is None
                else round(self.extraction_rate, 1),
                "seconds": round(self.seconds, 3),
                "rejected": [r.model_dump(mode="json") for r in self.rejected]}


@dataclass
class SourceBatchScan:
    """A batch scan of an attached source: the cache pass, then the scan of every user;
    ``declared``: the source's declarations, as every report of it states them."""

    sync: SyncResult
    scan: BatchScanResult
    statuses_written: int = 0
    declared: tuple[str, ...] = ()


class AttachedSource(Service):
    """One attached collection, its triple cache and its ledger.

    Args:
        client: a connected ``weaviate.WeaviateClient``.
        mapping: how to read a memory from the collection (:mod:`scanner.sources.mapping`).
        config: relation table, aliases and policy; the mapping's declarations
            (``single_epoch``, a store time as ``observed_at``) are added to the policy, so
            every verdict records them (SPEC §3).
        embedder: embeds queries when the caller passes no vector (default all-MiniLM-L6-v2:
            it must be the model the agent's collection was written with).

    Raises:
        ConfigurationError: the collection or a mapped property does not exist.
        WeaviateUnavailable: the server does not answer.
    """

    def __init__(self, client, mapping: SourceMapping, *, config: ScanConfig | None = None,
                 embedder: Embedder | None = None):
        self.source = AttachedCollection(client, mapping)
        self.mapping = self.source.mapping
        config = config or ScanConfig()
        policy = config.policy.model_copy(update={
            "single_epoch": config.policy.single_epoch or self.mapping.single_epoch,
            "declared": tuple(config.policy.declared) + self.mapping.declarations()})
        super().__init__(weaviate_stores(client, memories=TripleCache(client, self.mapping.name)),
                         engine=Engine(dataclasses.replace(config, policy=policy)),
                         embedder=embedder)
        self.declarations: tuple[str, ...] = tuple(policy.declarations())
        """What this source declares instead of its memories stating it (the preset's
        single epoch, source, store time): in every report it produces (``report.declared``)
        and every verdict's reasons."""
        self._memo: OrderedDict[tuple[str, str], tuple[float, StoredMemory]] = OrderedDict()

    memo_seconds: float = 30.0
    """Seconds a cached memory read from the triple cache is reused without asking the cache
    again (its status may change meanwhile through another process's verdicts; this process's
    own verdicts drop the entries they touch)."""
    memo_size: int = 100_000
    """Most memories kept in the in-process memo (least recently read dropped first)."""

    # -- objects -> cached memories ---------------------------------------------------------
    def memories(self, objects: Sequence[AttachedObject], *, user_id: str | None = None,
                 timings: dict[str, float] | None = None, remember: bool = True
                 ) -> tuple[list[StoredMemory], list[RejectedLine], int]:
        """The cached memories of ``objects`` (extracting and caching those not cached or
        changed), the objects that are not readable memories, and how many were extracted.

        Args:
            objects: objects of the attached collection (or passed in by the agent).
            user_id: the scope they were asked for: an object of another user is rejected.
            timings: when given, ``cache`` and ``extract`` seconds are added.
            remember: keep the memories in the in-process memo (read-time scans; a batch
                pass does not, so its memory stays flat in the collection's size).
        """
        records: list[MemoryRecord] = []
        rejected: list[RejectedLine] = []
        for i, obj in enumerate(objects, start=1):
            try:
                # an object passed without its user property is taken to be in the scope the
                # agent searched; one naming another user is rejected
                given = not self.mapping.tenant_scope and \
                    self.mapping.user_property not in obj.properties
                record = self.mapping.to_record(obj.uuid, obj.properties, tenant=obj.tenant,
                                                user_id=user_id if given else None)
                if user_id is not None and record.user_id != user_id:
                    raise SourceRecordError(obj.uuid, self.mapping.user_property or "tenant",
                                            "belongs to another user")
                records.append(record)
            except SourceRecordError as err:
                rejected.append(RejectedLine(line=i, id=obj.uuid, field=err.field,
                                             reason=err.reason))
        start = time.perf_counter()
        now = time.monotonic()
        cached: dict[str, StoredMemory] = {}
        for r in records:
            hit = self._memo.get((r.user_id, r.id))
            if hit is not None and now - hit[0] <= self.memo_seconds and hit[1].record == r:
                cached[r.id] = hit[1]
        missing = [r for r in records if r.id not in cached]
        if missing:
            cached.update(self.store.lookup(missing))
        todo = [r for r in records if r.id not in cached]
        if timings is not None:
            timings["cache"] = time.perf_counter() - start
        if todo:
            start = time.perf_counter()
            triples = self.engine.extract(todo)
            with self.writes:
                self.store.store(todo, triples)
            for r, t in zip(todo, triples):
                cached[r.id] = StoredMemory(record=r, triples=list(t))
            if timings is not None:
                timings["extract"] = time.perf_counter() - start
        if remember:
            for r in missing:
                self._memo[(r.user_id, r.id)] = (now, cached[r.id])
                self._memo.move_to_end((r.user_id, r.id))
            while len(self._memo) > self.memo_size:
                self._memo.popitem(last=False)
        return [cached[r.id] for r in records], rejected, len(todo)

    # -- read time --------------------------------------------------------------------------
    def scan_hits(self, user_id: str, *, ids: Sequence[str] | None = None,
                  objects: Sequence[AttachedObject | Mapping[str, Any]] | None = None,
                  apply: bool = True) -> SourceScan:
        """"Scan these hits": the ids, or the objects, the agent's own search returned.

        Args:
            user_id: the scope the agent searched in.
            ids: object uuids; they are read from the attached collection (one query).
            objects: the objects themselves, so nothing is read from the attached collection:
                :class:`AttachedObject` or dicts of the collection's properties (an ``_id``
                or ``uuid`` key gives the uuid; without one the id is
                :func:`~scanner.sources.mapping.object_id` of the text and properties).
            apply: record verdicts (cache status and edges, ledger; the agent's objects only
                in the opt-in status mode).

        Returns:
            The scan; unreadable objects are in ``report.rejected``, ids not found are not
            scanned (``report.scanned`` counts the scanned ones).

        Raises:
            ValueError: neither or both of ``ids`` and ``objects`` given.
        """
        if (ids is None) == (objects is None):
            raise ValueError("give either ids or objects")
        timings: dict[str, float] = {}
        start = time.perf_counter()
        if ids is not None:
            found = self.source.fetch(user_id, [str(i) for i in ids])
            timings["fetch"] = time.perf_counter() - start
        else:
            found = [o if isinstance(o, AttachedObject) else self.attached_object(o, user_id)
                     for o in objects]
        return self._scan_objects(user_id, found, apply=apply, timings=timings)

    def search(self, user_id: str, query: str, *, limit: int = DEFAULT_LIMIT,
               alpha: float = DEFAULT_ALPHA, vector: Sequence[float] | np.ndarray | None = None,
               apply: bool = True) -> SourceScan:
        """Scoped hybrid search on the attached collection, then the scan of its hits.

        Args:
            user_id: the scope (the tenant, or the mapping's ``user_property``).
            query: the BM25 text.
            limit: hits (seed 004 searches with 12); alpha: 0 = BM25 only, 1 = vector only.
            vector: the query's embedding in the collection's vector space; default: the
                query embedded with this source's embedder.
            apply: as in :meth:`scan_hits`.

        Raises:
            ValueError: ``vector`` is not a finite non-zero vector of the embedder's length.
        """
        timings: dict[str, float] = {}
        start = time.perf_counter()
        if vector is None:
            query_vector = self.embedder.encode([query])[0]
            timings["embed"] = time.perf_counter() - start
            start = time.perf_counter()
        else:
            query_vector = unit_vector(vector, self.embedder.dimensions)
        found = self.source.hybrid(user_id, query, query_vector, limit=limit, alpha=alpha)
        timings["search"] = time.perf_counter() - start
        return self._scan_objects(user_id, found, apply=apply, timings=timings)

    def attached_object(self, props: Mapping[str, Any], user_id: str | None = None
                        ) -> AttachedObject:
        """An object the agent passes in (its properties; ``_id`` or ``uuid`` the uuid) as
        :meth:`scan_hits` reads it."""
        props = dict(props)
        uuid = props.pop("_id", None) or props.pop("uuid", None)
        text = props.get(self.mapping.text_property)
        uuid = str(uuid) if uuid else object_id(str(text), props)
        return AttachedObject(uuid, props, self.source.tenant_of(user_id) if user_id else None)

    def _scan_objects(self, user_id: str, objects: Sequence[AttachedObject], *, apply: bool,
                      timings: dict[str, float]) -> SourceScan:
        hits, rejected, extracted = self.memories(objects, user_id=user_id, timings=timings)
        scores = {o.uuid: o.score for o in objects if o.score is not None}
        if scores:  # a search's hits keep their fused score (the cache holds none)
            hits = [dataclasses.replace(h, score=scores.get(h.record.id)) for h in hits]
        start = time.perf_counter()
        report = self._scan_stored(hits)
        timings["scan"] = time.perf_counter() - start
        if report.conflicts:
            start = time.perf_counter()
            report = self._with_ledger_settlements(user_id, hits, report)
            timings["ledger_read"] = time.perf_counter() - start
        if apply and report.conflicts:
            start = time.perf_counter()
            self._record_verdicts(user_id, report.conflicts)
            self._record_ledger(user_id, report)
            for c in report.conflicts:
                for m in c.members:
                    self._memo.pop((user_id, m), None)
            timings["write"] = time.perf_counter() - start
        update: dict[str, Any] = {"declared": list(self.declarations)}
        if rejected:
            update["rejected"] = rejected
        report = report.model_copy(update=update)
        result = SourceScan(report=report, hits=hits, extracted=extracted, timings=timings)
        if apply and self.mapping.status_property:
            self.source.write_status(user_id, {h.record.id: result.status(h.record.id)
                                               for h in hits})
        metrics.PROCESS.observe_scan("read_time", report)
        return result

    # -- batch --------------------------------------------------------------------------------
    def sync(self, *, page_size: int = 1000,
             progress: Callable[[int], None] | None = None) -> SyncResult:
        """Bring the triple cache up to date with the whole attached collection: objects new
        or changed since the last pass are extracted and cached, the rest only compared.
        One cursor page is held at a time (memory flat in the collection's size).

        Args:
            page_size: objects per cursor page.
            progress: called with the number of objects read after each page.
        """
        result = SyncResult()
        began = time.perf_counter()
        for page in self.source.pages(page_size=page_size):
            timings: dict[str, float] = {}
            _, rejected, extracted = self.memories(page, timings=timings, remember=False)
            result.read += len(page)
            result.extracted += extracted
            result.cached += len(page) - extracted - len(rejected)
            result.extract_seconds += timings.get("extract", 0.0)
            result.rejected.extend(r.model_copy(update={"line": r.line + result.read - len(page)})
                                   for r in rejected)
            if progress:
                progress(len(page))
        result.seconds = time.perf_counter() - began
        return result

    def batch_scan_source(self, *, workers: int = 1, page_size: int = 1000,
                          progress: Callable[[int], None] | None = None,
                          phases: Callable[[str, int], Callable[[int], None]] | None = None
                          ) -> SourceBatchScan:
        """The batch scan of an attached collection: :meth:`sync`, then the batch scan of
        every user's cached memories (:meth:`Service.run_batch_scan`: verdicts, edges and
        ledger entries in contrascan's collections; a re-run over unchanged data writes
        nothing). In the status mode, the agent's objects whose status changed are updated.

        Args:
            workers: users scanned at once; page_size: objects per cursor page of the sync.
            progress: called with the objects read after each page of the sync.
            phases: called as each phase starts, with its name and size: ``"reading"`` and
                the objects of the attached collection, then ``"scanning"`` and the cached
                memories; it returns the callback the phase calls with the number done
                since the last call (a progress bar's advance).
        """
        if phases is not None:
            reading = phases("reading", self.source.count())
            progress = reading if progress is None else _both(progress, reading)
        synced = self.sync(page_size=page_size, progress=progress)
        scanning = phases("scanning", self.store.count()) if phases is not None else None
        scanned = self.run_batch_scan(None, workers=workers, progress=scanning)
        written = 0
        if self.mapping.status_property:
            for user_id in self.store.user_ids():
                written += self.publish_statuses(user_id)
        return SourceBatchScan(sync=synced, scan=scanned, statuses_written=written,
                               declared=self.declarations)

    def publish_statuses(self, user_id: str) -> int:
        """Opt-in status mode: write every cached memory's status of one user onto the
        agent's objects where it differs (1,000 objects per request). Nothing without a
        ``status_property``.

        Returns:
            Objects updated.

        Raises:
            StoreWriteError: Weaviate rejected an update (every one listed).
        """
        if not self.mapping.status_property:
            return 0
        statuses = {m.record.id: m.status for m in self.store.iterate(
            user_id, properties=["memory_id", "text", "user_id", "status"])}
        written = 0
        for start in range(0, len(statuses), 1000):
            part = dict(list(statuses.items())[start:start + 1000])
            written += self.source.write_status(user_id, part)
        return written

    def after_review(self, user_id: str) -> None:
        """What a review decision on this source's ledger (:mod:`scanner.review.service`)
        does besides contrascan's own writes: the user's memories are read again from the
        cache by the next read-time scan (the in-process memo of them is dropped), and in
        the opt-in status mode their statuses are written onto the agent's objects. The
        agent's objects are otherwise never written, and nothing is deleted.

        Raises:
            StoreWriteError: Weaviate rejected a status update.
        """
        for key in [k for k in self._memo if k[0] == user_id]:
            self._memo.pop(key, None)
        self.publish_statuses(user_id)


def _both(first: Callable[[int], None], second: Callable[[int], None]) -> Callable[[int], None]:
    def call(n: int) -> None:
        first(n)
        second(n)
    return call
