"""How late the sidecar's event loop runs what is ready: ``contrascan_event_loop_lag_seconds``.

``/healthz`` and ``/metrics`` are answered on the event loop, so a probe's latency is the time
the app spends on it (``contrascan_http_request_duration_seconds``) plus the time its bytes wait
for the loop to get to them. That wait is not visible inside a request; :class:`LoopLag`
measures it the way Node's ``perf_hooks.monitorEventLoopDelay`` does: a timer set every
``interval_s`` seconds, and how much later than asked it fired. The lag is the loop's own
backlog plus the time its thread waits for the GIL (held by worker threads) and for a core.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from prometheus_client import CollectorRegistry, Histogram

INTERVAL_S = 0.05
"""Seconds between two timers (20 samples a second: a few microseconds of loop time each)."""
LAG_BUCKETS_S = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25,
                 0.5, 1.0, 2.5, 5.0)
"""Histogram buckets, in seconds, around the 100 ms probe target of issue 18."""


class LoopLag:
    """Samples the lag of the running event loop into a histogram of ``registry``.

    Args:
        registry: where ``contrascan_event_loop_lag_seconds`` is registered.
        interval_s: seconds between two timers.
    """

    def __init__(self, registry: CollectorRegistry, interval_s: float = INTERVAL_S):
        self.interval_s = interval_s
        self.histogram = Histogram(
            "contrascan_event_loop_lag_seconds",
            f"How much later than asked a {interval_s * 1e3:g} ms timer fired on the HTTP "
            "event loop: the wait of ready work (probes included) for the loop, the GIL and a "
            "core, seconds.", buckets=LAG_BUCKETS_S, registry=registry)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Sample from now on, on the running loop (call from a coroutine)."""
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name="contrascan-loop-lag")

    async def stop(self) -> None:
        """Stop sampling."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            asked = time.perf_counter() + self.interval_s
            await asyncio.sleep(self.interval_s)
            self.histogram.observe(max(0.0, time.perf_counter() - asked))
