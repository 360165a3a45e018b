"""The store statistics behind ``/metrics``, computed at a bounded share of the GIL.

:class:`scanner.metrics.StoreStatsCollector` refreshes the store-wide figures on a thread of
its own by streaming every ledger entry of every tenant (:meth:`scanner.service.Service.stats`).
That thread is CPU-bound Python: while it runs it holds the GIL whenever the event loop does not,
and every time the loop gives the GIL up (to wait for sockets) it waits up to the interpreter's
switch interval (5 ms) to get it back. Measured with 200 clients on a store of 200k ledger
entries (``benchmarks.bench_service``): ``/healthz`` p99 115-170 ms while a refresh ran against
48-82 ms outside it.

:class:`PacedStats` computes the same statistics (the same calls, in the same order, as
:meth:`~scanner.service.Service.stats`) but sleeps after every :data:`CHUNK` entries for as long
as they took times ``(1 - busy_share) / busy_share``, so the refresh holds the GIL at most
``busy_share`` of the time and the loop gets it at once in between. The refresh takes longer by
``1 / busy_share`` at most; :data:`scanner.metrics.MAX_REFRESH_SHARE` then spaces refreshes
further apart in proportion, so the figures are that much older.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scanner.core.ledger_stats import compute_stats

if TYPE_CHECKING:
    from scanner.service import Service

BUSY_SHARE = 0.5
"""Share of the time a refresh computes; it sleeps the rest."""
CHUNK = 100
"""Entries between two pauses (~10 ms of work on a busy two-core machine)."""


class PacedStats:
    """What :func:`scanner.metrics.register` reads (``.stats()``), paced (module docstring).

    Args:
        service: the sidecar's service.
        busy_share: in (0, 1]; 1 = no pauses.

    Raises:
        ValueError: ``busy_share`` out of range.
    """

    def __init__(self, service: Service, busy_share: float = BUSY_SHARE):
        if not 0 < busy_share <= 1:
            raise ValueError(f"busy_share must be in (0, 1], got {busy_share}")
        self._service = service
        self._pause_per_busy = (1 - busy_share) / busy_share

    def stats(self) -> Any:
        """:meth:`scanner.service.Service.stats` of every tenant, paced."""
        service = self._service
        service.flush_stats()
        users = service.store.user_ids()
        imported: dict[tuple[str, str], str] = {}
        for uid in users:
            imported.update(((uid, mid), t) for mid, t in service.store.import_times(uid).items())
        entries = (e for uid in users for e in service.ledger.iterate(uid))
        return compute_stats(self.paced(entries), imported)

    def paced(self, items: Iterable[Any]) -> Iterator[Any]:
        """``items``, with a pause after every :data:`CHUNK` of them."""
        started = time.perf_counter()
        for i, item in enumerate(items, 1):
            yield item
            if i % CHUNK == 0 and self._pause_per_busy:
                time.sleep((time.perf_counter() - started) * self._pause_per_busy)
                started = time.perf_counter()
