"""``POST /v1/batch-scans`` and ``GET /v1/batch-scans/{job_id}``: batch scans as jobs
(run by :class:`scanner.api.jobs.BatchScanJobs`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request
from fastapi.responses import Response

from scanner.api.dependencies import json_response, require_service, v1_router
from scanner.api.errors import ErrorCode, ErrorResponse, Problem
from scanner.api.schemas import BatchScanJob, BatchScanRequest
from scanner.api.settings import MAX_ID_CHARS

router = v1_router()


@router.post("/batch-scans", status_code=202, response_model=BatchScanJob, tags=["batch"],
             responses={429: {"model": ErrorResponse, "description": "`too_many_jobs`."}})
def start_batch_scan(body: BatchScanRequest, request: Request) -> Response:
    """Start a batch scan of one tenant; poll `GET /v1/batch-scans/{job_id}`.

    The job runs in the server, independent of this request: closing the connection does
    not stop it.
    """
    svc = require_service(request)
    job = request.app.state.jobs.submit(svc, body.user_id)
    return json_response(job, 202, headers={"Location": f"/v1/batch-scans/{job.id}"})


@router.get("/batch-scans/{job_id}", response_model=BatchScanJob, tags=["batch"],
            responses={404: {"model": ErrorResponse, "description": "`unknown_job`."}})
def batch_scan_status(
    request: Request,
    job_id: Annotated[str, Path(min_length=1, max_length=64)],
    user_id: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS,
                                  description="The user the job scans.")],
) -> Response:
    """Progress of a batch scan and, once `done`, its report."""
    require_service(request)
    job = request.app.state.jobs.get(job_id, user_id)
    if job is None:
        raise Problem(404, ErrorCode.unknown_job,
                      f"no batch-scan job {job_id!r} for user {user_id!r}")
    return json_response(job)
