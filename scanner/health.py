"""Weaviate readiness for ``GET /healthz``, checked off the request path (issue 18, item 13).

A probe that asks Weaviate on every request waits for Weaviate: with the server's cores busy
answering scans, ``/v1/.well-known/ready`` itself took seconds (measured with 200 clients on two
cores: ``/healthz`` p99 3.2 s). :class:`ReadinessMonitor` asks once a second on a thread of its
own and keeps the answer; the endpoint reads it in O(1) and never waits. An answer older than
``max_age_s`` (the checks stalled: Weaviate hangs, or the thread died) counts as not ready, so a
hung server still turns the probe to 503 within ``max_age_s`` — the staleness a load balancer's
probe interval (Kubernetes' default ``periodSeconds`` is 10) tolerates anyway.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

CHECK_INTERVAL_S = 1.0
"""Seconds between two readiness checks."""
MAX_AGE_S = 5.0
"""Seconds after which the last successful check no longer counts."""


class ReadinessMonitor:
    """Checks ``check()`` every ``interval_s`` seconds on a daemon thread.

    Args:
        check: returns whether the dependency is ready; an exception counts as not ready, and
            its message becomes :attr:`problem` (the sidecar's check raises
            :class:`~scanner.errors.StoreDamaged` when a collection or tenant vanished,
            :meth:`scanner.service.Service.check_store`).
        interval_s: seconds between checks (from the end of one to the start of the next).
        max_age_s: the last successful check counts for this many seconds.
    """

    def __init__(self, check: Callable[[], bool], *, interval_s: float = CHECK_INTERVAL_S,
                 max_age_s: float = MAX_AGE_S):
        self._check = check
        self._interval_s = interval_s
        self._max_age_s = max_age_s
        self._ready_at: float | None = None  # monotonic time of the last successful check
        self._last_ok = False
        self._problem: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check_now(self) -> bool:
        """Check in this thread and record the answer (start-up, tests)."""
        problem = None
        try:
            ok = bool(self._check())
        except Exception as err:  # noqa: BLE001 - an error means "not ready"
            ok = False
            problem = " ".join(str(err).split())[:500] or type(err).__name__
        if self._stop.is_set():
            return ok  # stopped meanwhile: stays not ready
        self._last_ok, self._problem = ok, problem
        if ok:
            self._ready_at = time.monotonic()
        return ok

    @property
    def ready(self) -> bool:
        """Whether the last check succeeded and is at most ``max_age_s`` old. O(1)."""
        at = self._ready_at
        return self._last_ok and at is not None and time.monotonic() - at <= self._max_age_s

    @property
    def problem(self) -> str | None:
        """Why the last check failed, when it raised (its one-line message), else ``None``.
        O(1)."""
        return None if self._last_ok else self._problem

    def start(self) -> None:
        """Check now, then every ``interval_s`` seconds until :meth:`stop`."""
        self.check_now()
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="contrascan-readiness")
        self._thread.start()

    def stop(self) -> None:
        """Stop checking (waits for a check in progress at most ``interval_s``); the monitor
        then reports not ready."""
        self._stop.set()
        self._last_ok = False
        if self._thread is not None:
            self._thread.join(timeout=self._interval_s)

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            self.check_now()
