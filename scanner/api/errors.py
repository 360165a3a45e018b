"""Errors of the sidecar: every error answer is ``{"error": {"code", "message", "fields"}}``
with a stable :class:`ErrorCode`; :func:`classify` maps the service's exceptions to a status
and a code, and :func:`add_error_handlers` installs the handlers that render them."""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from scanner.errors import (
    ConfigurationError,
    RecordError,
    ScannerError,
    StoreDamaged,
    StoreWriteError,
    UnknownMemory,
    WeaviateUnavailable,
)
from scanner.backpressure import RETRY_AFTER_S
from scanner.records import missing_text_reason
from scanner.scan_workers import ScanWorkerUnavailable

logger = logging.getLogger("scanner.api")


class ErrorCode(str, enum.Enum):
    """Stable error codes of the sidecar, with the HTTP status each comes with."""

    validation_error = "validation_error"  # 422: a field is missing or invalid
    request_too_large = "request_too_large"  # 413: body over ApiSettings.max_body_bytes
    unauthorized = "unauthorized"  # 401: API key missing or wrong
    not_found = "not_found"  # 404: no such route
    method_not_allowed = "method_not_allowed"  # 405
    unknown_memory = "unknown_memory"  # 404: no such memory for that user
    unknown_job = "unknown_job"  # 404: no such batch-scan job for that user
    too_many_jobs = "too_many_jobs"  # 429: ApiSettings.max_jobs jobs queued or running
    too_many_attempts = "too_many_attempts"  # 429: failed keys, scanner.api.attempts
    http_error = "http_error"  # other 4xx from the HTTP layer
    not_ready = "not_ready"  # 503: the service has not started (or is stopping)
    weaviate_unavailable = "weaviate_unavailable"  # 503: Weaviate does not answer
    store_damaged = "store_damaged"  # 503: a collection or tenant was deleted from outside
    store_write_failed = "store_write_failed"  # 502: Weaviate rejected some writes
    store_error = "store_error"  # 502: Weaviate failed a request
    configuration_error = "configuration_error"  # 500: a setting or table is invalid
    internal_error = "internal_error"  # 500: a bug; the traceback is in the server log


class ErrorField(BaseModel):
    """One invalid field of a request."""

    field: str = Field(description="Dotted path in the request, e.g. records.0.observed_at; "
                                   "'body' for a body that is not JSON at all.")
    message: str
    type: str = Field(description="Machine-readable reason (pydantic's error type).")


class ErrorDetail(BaseModel):
    """What went wrong."""

    code: ErrorCode
    message: str = Field(description="For a person; names the field for 422 answers.")
    fields: list[ErrorField] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    """Body of every error answer."""

    error: ErrorDetail


class Problem(Exception):
    """An HTTP answer other than success, raised inside the app and rendered by a handler."""

    def __init__(self, status: int, code: ErrorCode, message: str,
                 fields: list[ErrorField] | None = None, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or []
        self.headers = dict(headers or {})


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """The methods some route of the app answers at ``request``'s path, for a 405's
    ``Allow`` header (RFC 9110 §15.5.6: the methods the target resource supports). The
    router's own 405 names only the first route that matched the path ("GET" for
    ``/v1/reviews``, which answers GET and POST)."""
    routes = request.app.router.routes
    out = []
    for method in _METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in routes):
            out.append(method)
    return out


def error_response(status: int, code: ErrorCode, message: str,
                    fields: list[ErrorField] | None = None,
                    headers: Mapping[str, str] | None = None) -> JSONResponse:
    body = ErrorResponse(error=ErrorDetail(code=code, message=message, fields=fields or []))
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def _field_path(loc: tuple | list) -> str:
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:] if len(parts) > 1 else parts
    return ".".join(str(p) for p in parts)


def invalid_field(field_path: tuple, message: str,
                  kind: str = "value_error") -> RequestValidationError:
    """A 422 naming one field, in the shape pydantic would have reported it."""
    return RequestValidationError([{"loc": ("body", *field_path), "msg": message, "type": kind}])


def validation_fields(errors: list[dict[str, Any]], body: Any = None) -> list[ErrorField]:
    """The fields of a 422 answer, worded for a person.

    Args:
        errors: pydantic's errors (``RequestValidationError.errors()``).
        body: the request's decoded JSON body, when there is one: a missing ``text`` beside
            a field another memory system keeps the text in (Mem0's ``memory``) says so
            (:func:`scanner.records.missing_text_reason`).
    """
    out = []
    for err in errors:
        if err.get("type") == "json_invalid":
            path = "body"
        else:
            path = _field_path(err.get("loc", ()))
        message = str(err.get("msg", "invalid"))
        if err.get("type") == "timezone_aware":
            message = "naive timestamp: give a UTC offset such as 'Z' or '+00:00' (SPEC §4)"
        if err.get("type") == "missing" and tuple(err.get("loc", ()))[-1:] == ("text",):
            message = _text_elsewhere(body, tuple(err["loc"])[:-1]) or message
        out.append(ErrorField(field=path, message=message, type=str(err.get("type", "invalid"))))
    return out


def _text_elsewhere(body: Any, loc: tuple) -> str | None:
    """:func:`scanner.records.missing_text_reason` for the object at ``loc`` (``("body",
    "records", 0)``) of the request body, or None."""
    node = body
    for part in loc[1:] if loc[:1] == ("body",) else ():
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return missing_text_reason(node) if isinstance(node, dict) else None


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "The request is malformed below the body's "
                                                 "JSON, e.g. a `Content-Length` that is no "
                                                 "number (`http_error`)."},
    401: {"model": ErrorResponse, "description": "API key missing or wrong (`unauthorized`)."},
    413: {"model": ErrorResponse, "description": "Body too large (`request_too_large`)."},
    422: {"model": ErrorResponse, "description": "Invalid field (`validation_error`); the "
                                                 "message and `fields` name it. A body that "
                                                 "is not JSON is 422 too, on field `body`; "
                                                 "numbers and booleans are never coerced "
                                                 "from strings."},
    500: {"model": ErrorResponse, "description": "`internal_error`, `configuration_error`."},
    502: {"model": ErrorResponse, "description": "`store_write_failed`, `store_error`."},
    503: {"model": ErrorResponse, "description": "`not_ready`, `weaviate_unavailable`, "
                                                 "`store_damaged`."},
}


def classify(err: BaseException) -> tuple[int, ErrorCode, str]:
    """HTTP status, code and message for an exception raised by the service."""
    if isinstance(err, UnknownMemory):
        return 404, ErrorCode.unknown_memory, str(err)
    if isinstance(err, WeaviateUnavailable):
        return 503, ErrorCode.weaviate_unavailable, str(err)
    if isinstance(err, StoreDamaged):
        return 503, ErrorCode.store_damaged, str(err)
    if isinstance(err, ScanWorkerUnavailable):
        return 503, ErrorCode.not_ready, str(err)
    if isinstance(err, StoreWriteError):
        return 502, ErrorCode.store_write_failed, str(err)
    if isinstance(err, RecordError):
        return 422, ErrorCode.validation_error, str(err)
    if isinstance(err, ConfigurationError):
        return 500, ErrorCode.configuration_error, str(err)
    if isinstance(err, ScannerError):
        return 500, ErrorCode.internal_error, str(err)
    if type(err).__module__.split(".")[0] == "weaviate":
        # the store module wraps what it expects; anything else from the client is the
        # store failing a request (an outage shows up as WeaviateUnavailable or here)
        return 502, ErrorCode.store_error, f"Weaviate failed the request ({type(err).__name__})"
    return 500, ErrorCode.internal_error, "internal error; the traceback is in the server log"


def add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        fields = validation_fields(list(err.errors()), getattr(err, "body", None))
        first = fields[0] if fields else ErrorField(field="body", message="invalid", type="invalid")
        more = f" (+{len(fields) - 1} more)" if len(fields) > 1 else ""
        return error_response(422, ErrorCode.validation_error,
                               f"{first.field}: {first.message}{more}", fields)

    @app.exception_handler(Problem)
    async def on_problem(request: Request, err: Problem) -> JSONResponse:
        return error_response(err.status, err.code, err.message, err.fields, err.headers)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = {404: ErrorCode.not_found, 405: ErrorCode.method_not_allowed}.get(
            err.status_code, ErrorCode.http_error)
        headers = getattr(err, "headers", None)
        if err.status_code == 405:
            headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request))}
        return error_response(err.status_code, code, str(err.detail), headers=headers)

    @app.exception_handler(ScannerError)
    async def on_scanner_error(request: Request, err: ScannerError) -> JSONResponse:
        status, code, message = classify(err)
        if status >= 500:
            logger.error("%s %s: %s", request.method, request.url.path, err)
        # a worker restarting is temporary (RFC 9110 §10.2.3): say when to retry
        retry = ({"Retry-After": str(RETRY_AFTER_S)}
                 if isinstance(err, ScanWorkerUnavailable) else None)
        return error_response(status, code, message, headers=retry)

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, err: Exception) -> JSONResponse:
        # Starlette's ServerErrorMiddleware calls this, then re-raises for the server log.
        status, code, message = classify(err)
        return error_response(status, code, message)

