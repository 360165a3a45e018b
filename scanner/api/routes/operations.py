"""``GET /healthz`` and ``GET /metrics``: open to probes and scrapers (no API key)."""

from __future__ import annotations

import anyio
from fastapi import Request
from fastapi.responses import PlainTextResponse, Response
from fastapi.routing import APIRouter
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from scanner.api.dependencies import json_response
from scanner.api.schemas import HealthResponse

router = APIRouter()


@router.get("/healthz", response_model=HealthResponse, tags=["operations"],
            responses={503: {"model": HealthResponse, "description": "Weaviate does not "
                                                                     "answer."}})
async def healthz(request: Request) -> Response:
    """Ready (200) only while the service is started and Weaviate answers; else 503."""
    svc = getattr(request.app.state, "service", None)
    # its own threads: the probe never waits behind scans for a worker thread
    ok = bool(svc is not None and request.app.state.started
              and await anyio.to_thread.run_sync(
                  svc.store.ready, limiter=request.app.state.probe_limiter))
    return json_response(HealthResponse(status="ready" if ok else "unavailable", weaviate=ok),
                         200 if ok else 503)


@router.get("/metrics", response_class=PlainTextResponse, tags=["operations"],
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "Prometheus text exposition format."}})
def metrics_endpoint(request: Request) -> Response:
    """Prometheus metrics (see :class:`SidecarMetrics`)."""
    return Response(generate_latest(request.app.state.metrics.registry),
                    media_type=CONTENT_TYPE_LATEST)
