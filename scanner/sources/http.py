"""HTTP routes for attached sources (issue 16), mounted by :func:`scanner.api.create_app` when
it is given ``sources``:

* ``POST /v1/sources/{name}/scan``: scoped hybrid search on the attached collection + scan;
* ``POST /v1/sources/{name}/scan-hits``: scan the ids (or objects) the agent's search returned;
  both answer in the shape of ``POST /v1/scan`` (:class:`SourceScanResponse`);
* ``POST /v1/sources/{name}/batch-scans``: the batch scan of the whole collection (runs in the
  request; returns the summary with the extraction rate);
* ``GET /v1/sources/{name}/memories/{id}/history``: what changed around one of its memories
  (the answer of ``GET /v1/memories/{id}/history``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from scanner.api.dependencies import json_response, require_service
from scanner.api.errors import ErrorCode, ErrorResponse, Problem, invalid_field
from scanner.api.priority import lower_thread_priority
from scanner.api.routes.scans import server_timing
from scanner.api.schemas import Hit, HistoryEntryModel, HistoryResponse
from scanner.api.settings import MAX_ID_CHARS
from scanner.api.wire import SourceScanResponse
from scanner.core.changes import grouped_report
from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.errors import UnknownSource

if TYPE_CHECKING:
    from scanner.sources.registry import AttachedSources
    from scanner.sources.service import AttachedSource, SourceScan


class SourceScanRequest(BaseModel):
    """A read-time search on the attached collection."""

    model_config = ConfigDict(extra="forbid")
    user_id: str = Field(min_length=1)
    query: str = Field(min_length=1)
    limit: int = Field(default=DEFAULT_LIMIT, ge=1, le=1000)
    alpha: float = Field(default=DEFAULT_ALPHA, ge=0.0, le=1.0)
    vector: list[float] | None = None
    apply: bool = True


class ScanHitsRequest(BaseModel):
    """The hits of the agent's own search: object uuids, or the objects (their properties,
    the uuid under ``_id``)."""

    model_config = ConfigDict(extra="forbid")
    user_id: str = Field(min_length=1)
    ids: list[str] | None = Field(default=None, max_length=1000)
    objects: list[dict[str, Any]] | None = Field(default=None, max_length=1000)
    apply: bool = True

    @model_validator(mode="after")
    def _one_of(self) -> ScanHitsRequest:
        if (self.ids is None) == (self.objects is None):
            raise ValueError("give either ids or objects")
        return self


def scan_response(scan: SourceScan) -> Response:
    """The answer of a scan of an attached source, in :class:`SourceScanResponse`'s shape;
    ids are the agent objects' uuids (SPEC §5 report of :class:`SourceScan`)."""
    hits = [Hit(id=h.record.id, score=h.score, status=h.status, memory=h.record)
            for h in scan.hits]
    shown = grouped_report(scan.report)
    return json_response(SourceScanResponse.model_construct(**dict(shown), hits=hits,
                                                            extracted=scan.extracted),
                         headers={"Server-Timing": server_timing(scan.timings)})


def source_router(sources: AttachedSources) -> APIRouter:
    """Routes over ``sources``; each source is attached on first use with the app's
    service's Weaviate client, engine configuration and embedder
    (:class:`~scanner.sources.registry.AttachedSources`, shared with the review pages)."""
    router = APIRouter(prefix="/v1/sources", tags=["sources"])

    def source(request: Request, name: str) -> AttachedSource:
        service = require_service(request)
        lower_thread_priority(request.app.state.settings.work_nice)  # probes first
        try:
            return sources.get(service, name)
        except UnknownSource as err:
            raise Problem(404, ErrorCode.not_found, str(err)) from None

    @router.post("/{name}/scan", response_model=SourceScanResponse)
    def scan(name: str, body: SourceScanRequest, request: Request) -> Response:
        """Scoped hybrid search on the attached collection, then the SPEC §5 report over
        the hits, in the shape of `POST /v1/scan`."""
        attached_source = source(request, name)
        try:
            result = attached_source.search(body.user_id, body.query, limit=body.limit,
                                            alpha=body.alpha, vector=body.vector,
                                            apply=body.apply)
        except ValueError as err:  # (a query vector of another length, all zeros, …)
            raise invalid_field(("vector",), str(err)) from None
        return scan_response(result)

    @router.post("/{name}/scan-hits", response_model=SourceScanResponse)
    def scan_hits(name: str, body: ScanHitsRequest, request: Request) -> Response:
        """Scan the hits the agent's own search returned, with no second search; the
        answer has the shape of `POST /v1/scan`."""
        result = source(request, name).scan_hits(body.user_id, ids=body.ids,
                                                 objects=body.objects, apply=body.apply)
        return scan_response(result)

    @router.post("/{name}/batch-scans")
    def batch_scan(name: str, request: Request) -> dict[str, Any]:
        """Batch scan of the whole attached collection (a re-run writes nothing)."""
        result = source(request, name).batch_scan_source()
        return {"sync": result.sync.to_json_dict(), "scanned": result.scan.scanned,
                "conflicts": sum(t.conflicts for t in result.scan.tenants),
                "statuses_written": result.statuses_written}

    @router.get("/{name}/memories/{memory_id:path}/history", response_model=HistoryResponse,
                responses={404: {"model": ErrorResponse,
                                 "description": "`unknown_memory`, or no such source."}})
    def history(
        name: str, request: Request,
        memory_id: Annotated[str, Path(min_length=1, max_length=MAX_ID_CHARS)],
        user_id: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS,
                                      description="The memory's user.")],
    ) -> Response:
        """What changed around one memory of the attached collection (its object's uuid),
        and why: the answer of `GET /v1/memories/{id}/history`, read from the source's
        triple cache and ledger."""
        report = source(request, name).history_report(memory_id, user_id)
        return json_response(HistoryResponse(
            memory_id=memory_id, user_id=user_id, collection=report.collection,
            chain=[HistoryEntryModel.model_validate(e.to_dict()) for e in report.chain],
            ledger=report.ledger, story=report.story))

    return router
