"""The checkpoint of a batch scan of one tenant (:class:`~scanner.batch.ScanCheckpoint`): whether
the tenant is exactly as the last complete scan left it, and recording the state a scan left.
Used by :meth:`scanner.batch_scan.BatchScans.scan_tenant`.
"""

from __future__ import annotations

import logging
from collections import Counter
from concurrent.futures import Future
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from scanner.batch import ScanCheckpoint, TenantPass, ledger_digest, states_digest
from scanner.errors import ConfigurationError, StoreWriteError, WeaviateUnavailable
from scanner.store.memories import STATUS_ACTIVE, STATUS_SUPERSEDED

if TYPE_CHECKING:
    from scanner.batch_scan import TenantScan, _TenantDecision
    from scanner.store.scan_state import ScanStateStore

logger = logging.getLogger("scanner.service")


def unchanged(tenant: TenantPass, last: ScanCheckpoint, stored: Future, decision: str) -> bool:
    """Whether the tenant just read is exactly as the scan that recorded ``last`` left
    it (see :meth:`scanner.batch_scan.BatchScans.scan_tenant`); ``stored``: the pending read of
    the ledger's digests; ``decision``: the digest of the configuration and code the service
    decides with."""
    if last.scanned != tenant.scanned or last.decision != decision \
            or last.inputs != tenant.inputs_digest \
            or last.states != states_digest(tenant.states):
        return False
    try:
        ledger = stored.result()
    except (StoreWriteError, WeaviateUnavailable):
        return False  # decided in full, which reads the ledger again when it needs it
    return last.ledger == ledger_digest(ledger)


def record_checkpoint(scan_state: ScanStateStore, decision: str, d: _TenantDecision,
                      result: TenantScan, inputs: str, stored: Future) -> None:
    """Record the state a complete scan of one tenant left
    (see :meth:`scanner.batch_scan.BatchScans.scan_tenant`): the statuses and ledger digests it
    read (``stored``: the pending read of the digests), with its own writes applied. Never
    raises: without a checkpoint the next scan decides in full."""
    states = dict(d.states)
    retire = d.effects.retire if d.effects is not None else {}
    for mid, status in result.applied.statuses.items():
        if status == STATUS_ACTIVE:
            states.pop(mid, None)
        else:
            states[mid] = (status, retire.get(mid) if status == STATUS_SUPERSEDED else None)
    conflicts = Counter((c.verdict, c.rule or "") for c in d.report.conflicts)
    try:
        ledger = {**stored.result(), **result.ledger.digests}
        scan_state.put(d.user_id, ScanCheckpoint(
            decision=decision, inputs=inputs, states=states_digest(states),
            ledger=ledger_digest(ledger), scanned=d.scanned, conflicts=dict(conflicts)),
            datetime.now(timezone.utc))
    except (StoreWriteError, WeaviateUnavailable, ConfigurationError) as err:
        # the scan's own writes are all stored; without a checkpoint the next scan of
        # this tenant decides in full
        scan_state.forget_schema()
        logger.warning("checkpoint of tenant %r not recorded: %s", d.user_id, err)
