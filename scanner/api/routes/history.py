"""``GET /v1/memories/{memory_id}/history``: the supersedes chain and the ledger around one
memory."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request
from fastapi.responses import Response

from scanner.api.dependencies import json_response, require_service, v1_router
from scanner.api.errors import ErrorResponse
from scanner.api.priority import lower_thread_priority
from scanner.api.schemas import HistoryEntryModel, HistoryResponse
from scanner.api.settings import MAX_ID_CHARS

router = v1_router()


@router.get("/memories/{memory_id:path}/history", response_model=HistoryResponse,
            tags=["memories"],
            responses={404: {"model": ErrorResponse, "description": "`unknown_memory`."}})
def history(
    request: Request,
    memory_id: Annotated[str, Path(min_length=1, max_length=MAX_ID_CHARS)],
    user_id: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS,
                                  description="The memory's user.")],
) -> Response:
    """What changed around a memory, and why: the supersedes chain and the ledger —
    each value with its source, source class, epoch and observed_at, the rule and the
    memory that retired it, the ledger entries, and a readable story. A memory of an
    attached collection (its object's uuid) is found in the source's triple cache;
    `collection` says where the memories were read from."""
    from scanner.sources.history import history_anywhere

    lower_thread_priority(request.app.state.settings.work_nice)  # probes first
    report = history_anywhere(require_service(request), memory_id, user_id)
    return json_response(HistoryResponse(
        memory_id=memory_id, user_id=user_id, collection=report.collection,
        chain=[HistoryEntryModel.model_validate(e.to_dict()) for e in report.chain],
        ledger=report.ledger, story=report.story))
