"""Back-pressure for the HTTP sidecar: bounded work in flight, a bounded wait, probes that never
queue.

:class:`InFlightLimit` is an ASGI middleware that runs at most ``max_in_flight`` requests under
``/v1/`` at a time. One more waits its turn, first come first served, for at most
``queue_timeout_s`` seconds, and at most ``max_queued`` requests wait; a request past either
bound is answered ``503`` with ``Retry-After`` (RFC 9110 §15.6.4 and §10.2.3: the server is
temporarily overloaded; retry after the given seconds) and the stable error code
``overloaded``. A waiting request holds no worker thread and no CPU, so a burst of a few clients
per core is served rather than refused (issue 36: 8 clients on two cores were refused two
requests in three when every request past the limit was refused at once), while a flood still
meets a bounded queue (issue 18: at 200 concurrent scans p50 was 8.3 s and ``/healthz`` up to
10 s when all of them ran at once). ``/healthz``, ``/metrics`` and the OpenAPI document are never
counted and never wait. The sidecar exposes the counts and the refusals, by route and reason
(:class:`scanner.metrics.SidecarMetrics`: ``on_counts`` and :data:`REFUSED`).

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
from collections import deque
from collections.abc import Callable
from typing import Any

import anyio

DEFAULT_MAX_IN_FLIGHT = min(32, 2 * (os.cpu_count() or 1))
"""Requests under ``/v1/`` admitted at once by default (see the module docstring)."""
DEFAULT_MAX_QUEUED = 64
"""Requests under ``/v1/`` that may wait for a turn at once by default: 8 clients per core
of a two-core machine, each with one request outstanding, wait instead of being refused."""
DEFAULT_QUEUE_TIMEOUT_S = 5.0
"""Seconds a request waits for its turn by default before ``503``: about 100 scans' time at
the measured 20 scans/s of two cores (docs/benchmarks.md), well inside an agent's own
deadline for a memory lookup."""
RETRY_AFTER_S = 1
"""Seconds a refused client is asked to wait (``Retry-After``): about one scan's time."""
REFUSED = "contrascan.refused"
"""Key of the ASGI scope under which :class:`InFlightLimit` notes why it refused a request:
:data:`QUEUE_FULL` or :data:`QUEUE_TIMEOUT` (read by :class:`scanner.api.middleware.
RequestMetrics`, which counts the refusal under the request's route)."""
QUEUE_FULL = "queue_full"
"""A refusal's reason: ``max_queued`` requests already waited, so it was refused at once."""
QUEUE_TIMEOUT = "queue_timeout"
"""A refusal's reason: its turn did not come within ``queue_timeout_s`` seconds."""


class InFlightLimit:
    """ASGI middleware: at most ``max_in_flight`` ``/v1/`` requests at once, at most
    ``max_queued`` more waiting for a turn for up to ``queue_timeout_s`` seconds; 503 beyond.

    Runs on the event loop only (every count changes between two awaits), so it needs no lock.

    Args:
        app: the wrapped ASGI app.
        max_in_flight: requests admitted at once.
        on_refused: called once per refused request (e.g. a metrics counter).
        max_queued: requests that may wait for a turn (0: refuse at once, the earlier
            behaviour).
        queue_timeout_s: seconds a request waits for its turn before it is refused.
        on_counts: called with ``(in_flight, queued)`` each time either changes (e.g. two
            metrics gauges).

    A refused request's scope carries the reason under :data:`REFUSED`.
    """

    def __init__(self, app: Any, max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
                 on_refused: Callable[[], None] | None = None,
                 max_queued: int = DEFAULT_MAX_QUEUED,
                 queue_timeout_s: float = DEFAULT_QUEUE_TIMEOUT_S,
                 on_counts: Callable[[int, int], None] | None = None):
        self.app = app
        self.max_in_flight = max_in_flight
        self.max_queued = max_queued
        self.queue_timeout_s = queue_timeout_s
        self.on_refused = on_refused
        self.on_counts = on_counts
        self._in_flight = 0
        self._waiting: deque[anyio.Event] = deque()

    @property
    def in_flight(self) -> int:
        """Requests admitted and not yet answered."""
        return self._in_flight

    @property
    def queued(self) -> int:
        """Requests waiting for a turn."""
        return len(self._waiting)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope.get("type") != "http" or not str(scope.get("path", "")).startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        line_full = len(self._waiting) >= self.max_queued  # (before _admit joins the line)
        if not await self._admit():
            scope[REFUSED] = QUEUE_FULL if line_full else QUEUE_TIMEOUT
            if self.on_refused is not None:
                self.on_refused()
            await _overloaded(send, self.max_in_flight,
                              None if line_full else self.queue_timeout_s)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self._release()

    async def _admit(self) -> bool:
        """Take a turn: at once when one is free and nobody waits, else after waiting in line
        (False: the line is full, or the turn did not come within ``queue_timeout_s``)."""
        if self._in_flight < self.max_in_flight and not self._waiting:
            self._in_flight += 1
            self._counted()
            return True
        if len(self._waiting) >= self.max_queued:
            return False
        turn = anyio.Event()
        self._waiting.append(turn)
        self._counted()
        try:
            with anyio.move_on_after(self.queue_timeout_s):
                await turn.wait()
        except BaseException:  # the client went away while waiting: pass on a turn it got
            if turn.is_set():
                self._release()
            else:
                self._waiting.remove(turn)
                self._counted()
            raise
        if not turn.is_set():
            self._waiting.remove(turn)
            self._counted()
            return False
        return True

    def _release(self) -> None:
        """End a turn: it passes to the first request waiting, else the count drops."""
        if self._waiting:
            self._waiting.popleft().set()  # (the in-flight count is unchanged: handed over)
        else:
            self._in_flight -= 1
        self._counted()

    def _counted(self) -> None:
        """Report the counts after a change (:attr:`on_counts`)."""
        if self.on_counts is not None:
            self.on_counts(self._in_flight, len(self._waiting))


async def _overloaded(send: Callable, limit: int, waited_s: float | None) -> None:
    """Answer 503 ``overloaded``: the line was full (``waited_s`` None) or the request's turn
    did not come within ``waited_s`` seconds."""
    busy = f"{limit} request{'s are' if limit != 1 else ' is'} in progress"
    why = "and the line of waiting requests is full" if waited_s is None else \
        f"and no turn came within {waited_s:g} s"
    body = json.dumps({"error": {
        "code": "overloaded",
        "message": f"{busy} {why}; retry after {RETRY_AFTER_S} s",
        "fields": []}}).encode()
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(RETRY_AFTER_S).encode())]})
    await send({"type": "http.response.body", "body": body})
