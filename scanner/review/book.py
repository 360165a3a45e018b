"""The review decisions scans apply: read from the ledger per tenant, cached briefly.

:class:`ReviewBook` is what :class:`scanner.service.Service` consults after every scan of
stored memories (read-time, write-time and batch), so a reviewed pair reads the same on every
path (see :func:`scanner.review.decisions.apply_reviews`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from scanner.models import Conflict, EpochChangeEvent
from scanner.review.decisions import ReviewDecision, apply_reviews, decision_of
from scanner.store.ledger import LedgerStore
from scanner.store.reviews import review_entries


class ReviewBook:
    """Review decisions per tenant, re-read at most every :attr:`ttl_seconds`.

    A decision this process records is seen at once (:meth:`forget`); one recorded by another
    process within :attr:`ttl_seconds` (the same bound the read-time scan gives open ledger
    entries, ``Service._OPEN_RECHECK_S``). Only scans that found a conflict read the ledger.

    Args:
        ledger: the ledger store.
    """

    ttl_seconds: float = 30.0
    max_users: int = 10_000
    """Most tenants whose decisions are cached (all are forgotten at once beyond it)."""

    def __init__(self, ledger: LedgerStore):
        self.ledger = ledger
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, list[ReviewDecision]]] = {}

    def decisions(self, user_id: str) -> list[ReviewDecision]:
        """The tenant's decisions, oldest first."""
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(user_id)
        if hit is not None and now - hit[0] < self.ttl_seconds:
            return hit[1]
        found = [d for d in (decision_of(e) for e in review_entries(self.ledger, user_id))
                 if d is not None]
        with self._lock:
            if len(self._cache) >= self.max_users:
                self._cache.clear()
            self._cache[user_id] = (now, found)
        return found

    def forget(self, user_id: str) -> None:
        """Drop the cached decisions of one tenant (after recording one)."""
        with self._lock:
            self._cache.pop(user_id, None)

    def revised(self, user_id: str, conflicts: Sequence[Conflict],
                events: Sequence[EpochChangeEvent]
                ) -> tuple[list[Conflict], list[EpochChangeEvent]] | None:
        """The verdicts and events with the tenant's decisions applied, or None when no
        decision changes them (the caller then keeps its report as it is).

        Args:
            user_id: the tenant whose records were scanned.
            conflicts, events: the scan's verdicts and epoch-change events.
        """
        if not conflicts:
            return None
        decisions = self.decisions(user_id)
        if not decisions:
            return None
        revised, revised_events = apply_reviews(conflicts, events, decisions)
        if revised == conflicts and len(revised_events) == len(events):
            return None
        return revised, revised_events
