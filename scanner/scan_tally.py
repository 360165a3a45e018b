"""This process's tally of read-time scans per user, written to the ledger off the request path.

One ``read_scans`` ledger entry per user and process (:func:`scanner.core.ledger.read_scans_entry`),
so processes never race on a shared counter; statistics add them up
(:func:`scanner.core.ledger_stats.compute_stats`). A scan counts as one with a conflict by
:func:`scanner.metrics.has_conflict`.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid as uuidlib
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from scanner import metrics
from scanner.core.ledger import read_scans_entry
from scanner.models import ScanReport
from scanner.store.ledger import LedgerStore

logger = logging.getLogger("scanner.service")


class ReadScanTally:
    """Read-time scans and those with a conflict, per user, since this process started.

    Thread-safe. Counting never writes: a background thread writes a user's tally at most
    every ``flush_seconds``; :meth:`flush` writes at once and :meth:`close` waits for the
    writer, then writes what is pending.

    Args:
        ledger: where the tally is written.
        flush_seconds: least seconds between two writes of one user's tally.
    """

    def __init__(self, ledger: LedgerStore, flush_seconds: float = 5.0):
        self.ledger = ledger
        self.flush_seconds = flush_seconds
        self._lock = threading.Lock()
        self._tally: dict[str, list[int]] = {}
        self._flushed: dict[str, float] = {}
        self._pending: set[str] = set()
        self._writer: ThreadPoolExecutor | None = None
        self._token = uuidlib.uuid4().hex
        self._started_at = datetime.now(timezone.utc)

    def count(self, user_id: str, report: ScanReport) -> None:
        """Count a read-time scan of ``user_id``; schedule a write of the tally when due."""
        incompatible = metrics.has_conflict(report)
        with self._lock:
            counts = self._tally.setdefault(user_id, [0, 0])
            counts[0] += 1
            counts[1] += int(incompatible)
            due = time.monotonic() - self._flushed.get(user_id, -1e9) >= self.flush_seconds
            if due and user_id not in self._pending:
                self._pending.add(user_id)
                if self._writer is None:
                    self._writer = ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix="contrascan-tally")
                self._writer.submit(self._flush_in_background, user_id)

    def _flush_in_background(self, user_id: str) -> None:
        try:
            self.flush(user_id)
        except Exception:  # the next due scan tries again; the tally is kept
            logger.warning("writing the read-time scan tally of %r failed", user_id,
                           exc_info=True)
        finally:
            with self._lock:
                self._pending.discard(user_id)

    def flush(self, user_id: str | None = None) -> None:
        """Write the tally of one user, or of every user counted. Scans go on counting
        meanwhile: the counts are read under the lock and written outside it.

        Raises:
            StoreWriteError, WeaviateUnavailable: the ledger write failed (the tally is kept).
        """
        with self._lock:
            users = [user_id] if user_id else sorted(self._tally)
            snapshot = {uid: tuple(self._tally[uid]) for uid in users if self._tally.get(uid)}
        for uid, (scans, with_conflict) in snapshot.items():
            self.ledger.write(uid, [read_scans_entry(
                uid, self._token, scans=scans, with_conflict=with_conflict,
                started_at=self._started_at)])
            with self._lock:
                self._flushed[uid] = time.monotonic()

    def close(self) -> None:
        """Wait for the background writer, then write what is pending."""
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)
        self.flush()
