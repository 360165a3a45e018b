"""``POST /v1/scan``: the read-time scan."""

from __future__ import annotations

import time
from collections.abc import Mapping

from fastapi import Request
from fastapi.responses import Response

from scanner import metrics as process_metrics
from scanner.api.dependencies import json_response, require_service, v1_router
from scanner.api.errors import invalid_field
from scanner.api.priority import lower_thread_priority
from scanner.api.schemas import Hit, ScanRequest, ScanResponse
from scanner.core.changes import grouped_report
from scanner.embeddings import unit_vector

router = v1_router()


@router.post("/scan", response_model=ScanResponse, tags=["scan"])
def scan(body: ScanRequest, request: Request) -> Response:
    """Read-time scan: scoped hybrid search, then the SPEC §5 report over the hits.

    `cite` = safe to use as current, `withhold` = superseded, `unresolved` = members of
    quarantined, epoch-change and escalated pairs. Stored triples are used; nothing is
    re-parsed. Only the tenant of `user_id` is searched.
    """
    settings = request.app.state.settings
    workers = getattr(request.app.state, "scan_workers", None)
    if workers is None:
        lower_thread_priority(settings.work_nice)  # the event loop answers probes first
    if body.limit > settings.max_limit:
        raise invalid_field(("limit",), f"Input should be less than or equal to "
                                        f"{settings.max_limit}", "less_than_equal")
    svc = require_service(request)
    vector = None
    if body.vector is not None:
        dimensions = svc.embedder.dimensions
        if len(body.vector) != dimensions:
            raise invalid_field(("vector",), f"the query vector must have {dimensions} values "
                                             f"(the sidecar's embedding model), got "
                                             f"{len(body.vector)}")
        try:
            vector = unit_vector(body.vector, dimensions)
        except ValueError as err:
            raise invalid_field(("vector",), str(err)) from None
    started = time.perf_counter()
    arguments = dict(group=body.group, properties=body.properties, limit=body.limit,
                     alpha=body.alpha, apply=body.apply, vector=vector)
    if workers is not None:
        # in a worker process (at the work's nice value there): this thread only waits on a
        # pipe, so it keeps its priority and never holds the GIL while preempted
        result = workers.scan(user_id=body.user_id, query=body.query, **arguments,
                              reviews=svc.reviews.decisions(body.user_id))
        process_metrics.PROCESS.observe_scan("read_time", result.report)
    else:
        result = svc.scan(body.user_id, body.query, **arguments)
    request.app.state.metrics.observe_scan("read_time", result.report,
                                           time.perf_counter() - started)
    hits = [Hit(id=h.record.id, score=h.score, status=h.status, memory=h.record)
            for h in result.hits]
    shown = grouped_report(result.report)
    return json_response(ScanResponse.model_construct(**dict(shown), hits=hits),
                         headers={"Server-Timing": server_timing(result.timings)})


def server_timing(timings: Mapping[str, float]) -> str:
    """The W3C ``Server-Timing`` header value: one metric per stage, durations in ms."""
    return ", ".join(f"{name};dur={seconds * 1e3:.3f}" for name, seconds in timings.items())
