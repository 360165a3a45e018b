"""``POST /v1/memories``: add records, optionally checked at once (write-time check)."""

from __future__ import annotations

import time
from fastapi import Request
from fastapi.responses import Response

from scanner.api.dependencies import json_response, require_service, v1_router
from scanner.api.errors import ErrorCode, ErrorField, Problem, invalid_field
from scanner.api.priority import lower_thread_priority
from scanner.api.schemas import AddMemoriesRequest, AddMemoriesResponse

router = v1_router()


@router.post("/memories", response_model=AddMemoriesResponse, tags=["memories"])
def add_memories(body: AddMemoriesRequest, request: Request) -> Response:
    """Add records of one user: provenance validated, triples extracted, embedded, stored.

    Ids already stored are left as they are (`unchanged`). With `check`, the new records
    are scanned at once against stored memories sharing their keys, the verdicts are
    recorded and the report is returned.
    """
    settings = request.app.state.settings
    lower_thread_priority(settings.work_nice)  # the event loop answers probes first
    if len(body.records) > settings.max_records:
        raise invalid_field(("records",), f"List should have at most {settings.max_records} "
                                          "items", "too_long")
    seen: set[str] = set()
    for i, record in enumerate(body.records):
        if record.user_id != body.user_id:
            raise invalid_field(("records", i, "user_id"),
                                f"record user_id {record.user_id!r} differs from the request's "
                                f"user_id {body.user_id!r}: one request writes one tenant")
        if record.id in seen:
            raise invalid_field(("records", i, "id"), f"duplicate id {record.id!r}")
        seen.add(record.id)
    svc = require_service(request)
    metrics = request.app.state.metrics
    started = time.perf_counter()
    result, report = svc.add_memories(body.records, check=body.check)
    if report is not None:
        metrics.observe_scan("write_time", report, time.perf_counter() - started)
    metrics.memories_written.inc(result.written)
    if result.failures:
        index = {r.id: i for i, r in enumerate(body.records)}
        raise Problem(502, ErrorCode.store_write_failed,
                      f"Weaviate rejected {len(result.failures)} of {len(body.records)} "
                      f"records ({result.written} stored, {result.unchanged} unchanged); "
                      "posting them again is safe",
                      [ErrorField(field=f"records.{index.get(mid, '?')}", message=msg,
                                  type="store_rejected") for mid, msg in result.failures])
    return json_response(AddMemoriesResponse(written=result.written, unchanged=result.unchanged,
                                             differing=result.differing, report=report,
                                             ignored_fields=body.ignored_fields))
