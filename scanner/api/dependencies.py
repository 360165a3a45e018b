"""What every route needs from the app: the API-key check, the started service, and the one
way a response model is serialised.

The service, the settings, the metrics and the batch-scan jobs live on ``app.state`` (set by
:func:`scanner.api.app.create_app` and its lifespan). Routes call :func:`require_service` where
they need the service (after their own checks of the request, so a request that is invalid is
answered 422 before a service that is not started is answered 503).
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated

from fastapi import Request, Security
from fastapi.responses import Response
from fastapi.routing import APIRouter
from fastapi.security import APIKeyHeader
from pydantic import BaseModel

from scanner.api.attempts import FailedAttempts, client_of
from scanner.api.errors import ERROR_RESPONSES, ErrorCode, Problem
from scanner.api.settings import API_KEY_ENV, API_KEY_HEADER, ApiSettings

if TYPE_CHECKING:
    from scanner.service import Service


def require_service(request: Request) -> Service:
    """The app's service.

    Raises:
        Problem: 503 ``not_ready`` before start-up finished or after shutdown began.
        StoreDamaged: (503 ``store_damaged``) the readiness check found a collection or
            tenant deleted from outside (:meth:`scanner.service.Service.check_store`): every
            answer from the store could be missing data, so none is given until it is
            restored and the sidecar restarted.
    """
    service = getattr(request.app.state, "service", None)
    if service is None or not getattr(request.app.state, "started", False):
        raise Problem(503, ErrorCode.not_ready, "the service is not started")
    damage = service.store_damage
    if damage is not None:
        raise damage
    return service


_api_key_scheme = APIKeyHeader(name=API_KEY_HEADER, auto_error=False,
                               description=f"Required when the server sets ${API_KEY_ENV}.")


async def authorize(request: Request,
                    key: Annotated[str | None, Security(_api_key_scheme)] = None) -> None:
    """The ``X-API-Key`` check of ``/v1/*``, in constant time (:func:`hmac.compare_digest`),
    with failures slowed per client (:mod:`scanner.api.attempts`).

    Raises:
        Problem: 401 ``unauthorized`` when the app has a key and the request lacks it; 429
            ``too_many_attempts`` with ``Retry-After`` when the client failed too often of
            late, whatever key it sends now.
    """
    # async: FastAPI runs a plain-def dependency in its thread pool, a thread hop per request
    # for a constant-time comparison
    settings: ApiSettings = request.app.state.settings
    if settings.api_key is None:
        return
    attempts: FailedAttempts = request.app.state.failed_attempts
    client = client_of(request.client)
    wait = attempts.retry_after(client)
    if wait is not None:
        raise too_many_attempts(wait)
    expected = settings.api_key.get_secret_value().encode("utf-8")
    given = (key or "").encode("utf-8", "surrogateescape")
    if not hmac.compare_digest(given, expected):
        attempts.failed(client)
        raise Problem(401, ErrorCode.unauthorized,
                      f"missing or wrong API key (header {API_KEY_HEADER})",
                      headers={"WWW-Authenticate": API_KEY_HEADER})


def too_many_attempts(wait: int) -> Problem:
    """The 429 of a client that failed to authenticate too often (RFC 6585 §4)."""
    return Problem(429, ErrorCode.too_many_attempts,
                   f"too many failed attempts from this client; retry in {wait} s",
                   headers={"Retry-After": str(wait)})


def json_response(model: BaseModel, status: int = 200,
                  headers: Mapping[str, str] | None = None) -> Response:
    """Serialise a response model once (FastAPI would validate it again), aliases applied."""
    return Response(model.model_dump_json(by_alias=True), status_code=status,
                    media_type="application/json", headers=headers)


def v1_router() -> APIRouter:
    """A router under ``/v1``: behind the API key (:func:`authorize`), with the error answers
    every ``/v1`` route can give documented (:data:`scanner.api.errors.ERROR_RESPONSES`).

    Each concern's routes are declared on their own one, with the full path template, which the
    request metric uses as its ``route`` label."""
    return APIRouter(prefix="/v1", dependencies=[Security(authorize)],
                     responses=ERROR_RESPONSES)
