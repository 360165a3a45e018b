"""``GET /v1/stats``: the conflict statistics of the ledger, as ``contrascan stats --json``
prints them."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import JSONResponse, Response

from scanner.api.dependencies import require_service, v1_router
from scanner.api.priority import lower_thread_priority
from scanner.api.schemas import StatsResponse
from scanner.api.settings import MAX_ID_CHARS

router = v1_router()


@router.get("/stats", response_model=StatsResponse, tags=["stats"])
def stats(
    request: Request,
    user_id: Annotated[str | None, Query(min_length=1, max_length=MAX_ID_CHARS,
                                         description="Only this user (default: every "
                                                     "user, as `contrascan stats`).")] = None,
) -> Response:
    """Conflict statistics from the ledger: by relation, verdict and rule; open, settled and
    moot pairs; the conflicts each import introduced; the share of read-time scans whose hits
    held incompatible values.

    The document `contrascan stats --json` prints, from the same call
    (`Service.stats`, then `Stats.to_json_dict`). It streams the ledger of one tenant, or of
    every tenant without `user_id`: seconds on a large store, so it is for a person or a
    dashboard, not for every request (`GET /metrics` serves the store-wide figures cached).
    """
    lower_thread_priority(request.app.state.settings.work_nice)  # probes first
    document = require_service(request).stats(user_id).to_json_dict()
    return JSONResponse(document)
