"""``GET /healthz`` and ``GET /metrics``: open to probes and scrapers (no API key)."""

from __future__ import annotations

import time

from fastapi import Request
from fastapi.responses import PlainTextResponse, Response
from fastapi.routing import APIRouter
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from scanner.api.dependencies import json_response
from scanner.api.schemas import HealthResponse

router = APIRouter()


@router.get("/healthz", response_model=HealthResponse, tags=["operations"],
            responses={503: {"model": HealthResponse, "description": "Weaviate does not "
                                                                     "answer, or a collection "
                                                                     "or tenant is gone "
                                                                     "(`problem`)."}})
async def healthz(request: Request) -> Response:
    """Ready (200) only while the service is started, Weaviate answers and every collection
    and tenant the sidecar has seen is still there; else 503, with the `problem` when known."""
    # Weaviate's readiness as checked in the background at most a second ago
    # (scanner.health): the probe never waits behind scans, nor on a busy Weaviate
    readiness = getattr(request.app.state, "readiness", None)
    ok = bool(request.app.state.started and readiness is not None and readiness.ready)
    problem = None if ok or readiness is None else readiness.problem
    return json_response(HealthResponse(status="ready" if ok else "unavailable", weaviate=ok,
                                        problem=problem), 200 if ok else 503)


@router.get("/metrics", response_class=PlainTextResponse, tags=["operations"],
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "Prometheus text exposition format."}})
async def metrics_endpoint(request: Request) -> Response:
    """Prometheus metrics (see :class:`SidecarMetrics`)."""
    # on the event loop: counters and cached figures (scanner.metrics never computes in the
    # scrape), so no wait for a worker thread behind scans. Rendering the exposition takes
    # ~1 ms of the loop's CPU (15 kB, ~400 samples); scrapes within metrics_max_age_s of the
    # last rendering get the same bytes, so many scrapers cost the loop one rendering
    state = request.app.state
    max_age_s = state.settings.metrics_max_age_s
    now = time.monotonic()
    last = getattr(state, "metrics_exposition", None)
    if last is not None and now - last[0] < max_age_s:
        body = last[1]
    else:
        body = generate_latest(state.metrics.registry)
        state.metrics_exposition = (now, body)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
