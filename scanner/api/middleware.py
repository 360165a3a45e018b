"""Pure ASGI middleware of the sidecar: the body cap (413), JSON bodies that give a name twice
(422) and the request latency metric, counted (and logged) under the request's route template
(:func:`route_template`)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import routing
from starlette.routing import Match

from scanner.api.errors import ErrorCode, ErrorField, error_response
from scanner.backpressure import REFUSED
from scanner.metrics import SidecarMetrics
from scanner.records import DuplicateName, unique_names
from scanner.redaction import CURRENT_ROUTE, UNMATCHED
from scanner.serving import ANSWERED_STATUS

_DRAIN_BYTES = 64 * 1024 * 1024
"""An oversized body is read and discarded up to this many bytes before the 413 answer (so
the client, still sending, gets the answer instead of a reset connection); beyond it the
connection is answered at once."""


class BodyLimit:
    """Pure ASGI middleware: answer 413 to bodies over ``max_bytes`` (declared or streamed),
    and 422 to a JSON body that gives a name twice in one object.

    The body is buffered (the endpoints read all of it anyway) and replayed to the app.
    """

    def __init__(self, app: Any, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = value
        too_large = error_response(
            413, ErrorCode.request_too_large,
            f"request body over {self.max_bytes} bytes", headers={"Connection": "close"})
        if declared is not None:
            if not declared.isdigit():
                await error_response(400, ErrorCode.http_error, "bad Content-Length")(
                    scope, receive, send)
                return
            if int(declared) > self.max_bytes:
                if int(declared) <= _DRAIN_BYTES:
                    await _drain(receive)
                await too_large(scope, receive, send)
                return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                if more:
                    await _drain(receive)
                await too_large(scope, receive, send)
                return
        duplicate = _duplicate_name(scope, bytes(body))
        if duplicate is not None:
            message = (f"the name {duplicate!r} is given twice in one JSON object; which "
                       "value is meant is unknown (RFC 8259 §4)")
            await error_response(422, ErrorCode.validation_error, message, fields=[
                ErrorField(field="body", message=message, type="duplicate_name")])(
                scope, receive, send)
            return
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _duplicate_name(scope: dict, body: bytes) -> str | None:
    """The first name a JSON request body gives twice in one object ("user_id": "alice",
    "user_id": "bob"), or None: the body is no JSON (the endpoint says so) or has none. A
    JSON reader keeps the last value silently, so a record would be stored under another
    user than the first one written."""
    if not body or not any(name == b"content-type" and b"json" in value.lower()
                           for name, value in scope.get("headers", ())):
        return None
    try:
        json.loads(body, object_pairs_hook=unique_names)
    except DuplicateName as err:
        return err.name
    except (ValueError, RecursionError):
        return None
    return None


async def _drain(receive: Callable) -> None:
    seen = 0
    while seen <= _DRAIN_BYTES:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        seen += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def route_template(scope: dict) -> str:
    """The route template a request is counted and logged under ("/v1/scan",
    "/v1/memories/{memory_id:path}/history"): the route the router matched; for a request
    answered before routing (refused by back-pressure, a body over the limit, a name given
    twice), the route its method and path match, else the one its path matches; else
    :data:`~scanner.redaction.UNMATCHED`. Never the path itself (it carries ids and whatever
    a client chose to send)."""
    route = scope.get("route")
    if route is None:
        partial = None
        for candidate in _routes(scope.get("app")):
            match, _ = candidate.matches(scope)
            if match == Match.FULL:
                route = candidate
                break
            if match == Match.PARTIAL and partial is None:
                partial = candidate
        route = route or partial
    return getattr(route, "path", None) or UNMATCHED


def _routes(app: Any) -> Iterable[Any]:
    """Every route of ``app`` with its full path template, in the order the router tries
    them: FastAPI keeps an included router's routes inside it (``iter_route_contexts``
    flattens them, as its OpenAPI document does); a plain Starlette app lists them."""
    routes = getattr(getattr(app, "router", None), "routes", ())
    flatten = getattr(routing, "iter_route_contexts", None)
    return flatten(routes) if flatten is not None else routes


class RequestMetrics:
    """Pure ASGI middleware: the request latency histogram, by method, route template
    (:func:`route_template`) and status, and the requests back-pressure refused, by route and
    reason (:data:`scanner.backpressure.REFUSED`). Unmatched paths share one label, so label
    cardinality stays bounded."""

    _METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})

    def __init__(self, app: Any, metrics: SidecarMetrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        shown: str | None = None

        def route() -> str:
            nonlocal shown
            if shown is None:  # (the router has set its route by the response's start)
                shown = route_template(scope)
            return shown

        async def send_status(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                # the access log line is written as this response starts: it shows the route
                CURRENT_ROUTE.set(route())
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            status = scope.get(ANSWERED_STATUS, status)  # a 408 the server sent itself
            method = scope["method"] if scope["method"] in self._METHODS else "OTHER"
            self.metrics.requests.labels(method, route(), str(status)).observe(
                time.perf_counter() - started)
            refused = scope.get(REFUSED)
            if refused is not None:
                self.metrics.refused.labels(method, route(), refused).inc()

