"""HTTP routes for attached sources (issue 16), mounted by :func:`scanner.api.create_app` when
it is given ``sources``:

* ``POST /v1/sources/{name}/scan``: scoped hybrid search on the attached collection + scan;
* ``POST /v1/sources/{name}/scan-hits``: scan the ids (or objects) the agent's search returned;
* ``POST /v1/sources/{name}/batch-scans``: the batch scan of the whole collection (runs in the
  request; returns the summary with the extraction rate).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, model_validator

from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.sources.mapping import SourceMapping


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


def _response(scan) -> dict[str, Any]:
    return {"report": scan.report.to_json_dict(), "extracted": scan.extracted,
            "hits": [h.record.id for h in scan.hits],
            "timings_ms": {k: round(v * 1e3, 3) for k, v in scan.timings.items()}}


def source_router(sources: Mapping[str, SourceMapping]) -> APIRouter:
    """Routes over ``sources`` (name -> mapping); each source is attached on first use with
    the app's service's Weaviate client and engine configuration."""
    router = APIRouter(prefix="/v1/sources", tags=["sources"])
    attached: dict[str, Any] = {}
    lock = threading.Lock()

    def source(request: Request, name: str):
        if name not in sources:
            raise HTTPException(404, f"no source {name!r} (known: {sorted(sources)})")
        with lock:
            if name not in attached:
                from scanner.sources.service import AttachedSource

                service = request.app.state.service
                if service is None or not getattr(request.app.state, "started", False):
                    raise HTTPException(503, "the service is not started")
                attached[name] = AttachedSource(service.store.client, sources[name],
                                                config=service.engine.config,
                                                embedder=service.embedder)
            return attached[name]

    @router.post("/{name}/scan")
    def scan(name: str, body: SourceScanRequest, request: Request) -> dict[str, Any]:
        """Scoped hybrid search on the attached collection, then the SPEC §5 report."""
        result = source(request, name).search(body.user_id, body.query, limit=body.limit,
                                              alpha=body.alpha, vector=body.vector,
                                              apply=body.apply)
        return _response(result)

    @router.post("/{name}/scan-hits")
    def scan_hits(name: str, body: ScanHitsRequest, request: Request) -> dict[str, Any]:
        """Scan the hits the agent's own search returned, with no second search."""
        result = source(request, name).scan_hits(body.user_id, ids=body.ids,
                                                 objects=body.objects, apply=body.apply)
        return _response(result)

    @router.post("/{name}/batch-scans")
    def batch_scan(name: str, request: Request) -> dict[str, Any]:
        """Batch scan of the whole attached collection (a re-run writes nothing)."""
        result = source(request, name).batch_scan_source()
        return {"sync": result.sync.to_json_dict(), "scanned": result.scan.scanned,
                "conflicts": sum(t.conflicts for t in result.scan.tenants),
                "statuses_written": result.statuses_written}

    return router
