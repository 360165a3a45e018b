"""Failed authentication attempts, slowed per client (issue 38, item 4).

A wrong ``X-API-Key`` on ``/v1/*`` and a wrong key or name on the review login form each
count as a failure of the client that sent it (its address as the server sees it). A client
with :data:`MAX_FAILURES` failures in the last :data:`WINDOW_S` seconds is answered ``429 Too
Many Requests`` with ``Retry-After`` (RFC 6585 §4) until the oldest of them leaves the window,
even with the right key: guessing is slowed to :data:`MAX_FAILURES` per window, whatever the
client sends. A success does not wipe the count (a client that knows the key does not fail).

The numbers follow the advice to limit failed attempts per account or client rather than
leave guessing free (NIST SP 800-63B §5.2.2 "Rate Limiting (Throttling)", which allows at
most 100 consecutive failures; OWASP Authentication Cheat Sheet, "Protect Against Automated
Attacks"): ten a minute slows a guess of a 32-byte key to nothing and costs a person who
mistypes nothing.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

MAX_FAILURES = 10
"""Failed attempts a client may make in :data:`WINDOW_S` seconds."""
WINDOW_S = 60.0
"""The sliding window the failures are counted over, in seconds."""
MAX_CLIENTS = 10_000
"""Clients remembered at once; the one not heard from for longest is forgotten first (a
flood of addresses costs bounded memory)."""


class FailedAttempts:
    """Failures per client in a sliding window; thread-safe (the app's worker threads and its
    event loop both call it)."""

    def __init__(self, max_failures: int = MAX_FAILURES, window_s: float = WINDOW_S,
                 clock: Callable[[], float] = time.monotonic, max_clients: int = MAX_CLIENTS):
        self.max_failures, self.window_s, self.clock = max_failures, window_s, clock
        self.max_clients = max_clients
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._failures.get(client, deque())
        while times and times[0] <= now - self.window_s:
            times.popleft()
        return times

    def retry_after(self, client: str) -> int | None:
        """Whole seconds until ``client`` may try again, or None when it may now."""
        with self._lock:
            now = self.clock()
            times = self._recent(client, now)
            if len(times) < self.max_failures:
                return None
            return max(1, int(times[0] + self.window_s - now + 0.999))

    def failed(self, client: str) -> None:
        """Count one failed attempt of ``client``."""
        with self._lock:
            now = self.clock()
            times = self._recent(client, now)
            times.append(now)
            self._failures[client] = times
            self._failures.move_to_end(client)
            while len(self._failures) > self.max_clients:
                self._failures.popitem(last=False)


def client_of(scope_client: tuple[str, int] | None) -> str:
    """The key a request's client is counted under: its host as the server saw it."""
    return scope_client[0] if scope_client else "unknown"
