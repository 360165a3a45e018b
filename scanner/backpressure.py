"""Back-pressure for the HTTP sidecar: bounded work in flight, and probes that never queue.

:class:`InFlightLimit` is an ASGI middleware that admits at most ``max_in_flight`` requests
under ``/v1/`` at a time; one more is answered at once with ``503`` and ``Retry-After``
(RFC 9110 §15.6.4 and §10.2.3: the server is temporarily overloaded; retry after the given
seconds) and the stable error code ``overloaded``, instead of queueing behind the others
(issue 18: at 200 concurrent scans p50 was 8.3 s and ``/healthz`` up to 10 s). ``/healthz``,
``/metrics`` and the OpenAPI document are never counted.

The health probe never waits for a worker thread or for Weaviate: it reads the answer of a
readiness check made each second in the background (:mod:`scanner.health`).

The default limit, :data:`DEFAULT_MAX_IN_FLIGHT`, is two requests per CPU core, at most 32
(below anyio's 40 worker threads, so admitted requests never wait for a thread). A scan's work
is CPU on this machine (embedding, the scan, and Weaviate's search when it runs alongside), so
more requests in flight than cores add waiting inside the process, where every thread contends
for the GIL, not throughput: measured with 200 clients on two cores (``benchmarks.bench_service``
load run, ``docs/benchmarks.md``), a limit of 32 answered 3.8 scans/s at p50 3.6 s with
``/healthz`` p99 623 ms; a limit of 4 answered 11.7 scans/s at p50 0.27 s with ``/healthz`` p99
110 ms.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from typing import Any

DEFAULT_MAX_IN_FLIGHT = min(32, 2 * (os.cpu_count() or 1))
"""Requests under ``/v1/`` admitted at once by default (see the module docstring)."""
RETRY_AFTER_S = 1
"""Seconds a refused client is asked to wait (``Retry-After``): about one scan's time."""


class InFlightLimit:
    """ASGI middleware: at most ``max_in_flight`` ``/v1/`` requests at once, 503 beyond.

    Args:
        app: the wrapped ASGI app.
        max_in_flight: requests admitted at once.
        on_refused: called once per refused request (e.g. a metrics counter).
    """

    def __init__(self, app: Any, max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
                 on_refused: Callable[[], None] | None = None):
        self.app = app
        self.max_in_flight = max_in_flight
        self.on_refused = on_refused
        self._lock = threading.Lock()
        self._in_flight = 0

    @property
    def in_flight(self) -> int:
        """Requests admitted and not yet answered."""
        return self._in_flight

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope.get("type") != "http" or not str(scope.get("path", "")).startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        with self._lock:
            admitted = self._in_flight < self.max_in_flight
            if admitted:
                self._in_flight += 1
        if not admitted:
            if self.on_refused is not None:
                self.on_refused()
            await _overloaded(send, self.max_in_flight)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            with self._lock:
                self._in_flight -= 1


async def _overloaded(send: Callable, limit: int) -> None:
    body = json.dumps({"error": {
        "code": "overloaded",
        "message": f"{limit} requests are already in progress; retry after {RETRY_AFTER_S} s",
        "fields": []}}).encode()
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(RETRY_AFTER_S).encode())]})
    await send({"type": "http.response.body", "body": body})
