"""One stored set, one state (issue 18, item 10): what a batch scan that sees every memory of
a tenant does with the state earlier scans left. Pure; :meth:`scanner.service.Service.scan_tenant`
applies it.

Its verdicts replace stored ledger entries (:func:`scanner.core.ledger.should_replace` with
``full_view``), the entries it no longer makes are withdrawn (:func:`withdrawals`), every memory
gets the status its verdicts give (:meth:`scanner.store.memories.MemoryStore.apply_effects`
with ``full_view``) and the edges of every memory in a verdict are set to exactly what the
verdicts hold (:func:`exact_edges`). So the stored state after any sequence of imports and scans
is that of one scan over the final set (``tests/integration/test_scan_order.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from scanner.core.effects import Effects
from scanner.core.ledger import SCAN_TYPES, STATUS_WITHDRAWN, LedgerEntry, closed_by_person
from scanner.models import Conflict


def exact_edges(effects: Effects, conflicts: Iterable[Conflict]) -> Effects:
    """Mark every member and settler of ``conflicts`` for exact edges (:attr:`Effects.exact`).

    For a scan of every memory of a tenant: edges are only ever written between members of a
    pair and its settler, and a pair, once formed, stays formed as memories are added (they
    are never changed nor deleted), so these memories hold every edge a verdict of this
    tenant ever wrote, including those of partial-view scans (read-time, write-time) and of
    verdicts since decided otherwise. Returns ``effects``.
    """
    for c in conflicts:
        effects.exact.update(c.members)
        if c.settled_by:
            effects.exact.add(c.settled_by)
    return effects


def withdrawals(stale: Iterable[LedgerEntry], effects: Effects) -> list[LedgerEntry]:
    """What a full-view scan does with stored entries it no longer makes (issue 18).

    Args:
        stale: stored entries of the tenant whose ids the scan's entries do not include.
        effects: the scan's effects; the winners and settlers of the withdrawn resolutions
            and settlements join :attr:`Effects.exact`, so the edges they implied and no
            current verdict holds are removed.

    Returns:
        The entries to write: each stale entry of a scan type, not yet ``withdrawn`` and not
        closed by a person (:func:`closed_by_person`; a review's decision stands), with
        status ``withdrawn``. Withdrawn entries stay in the ledger, so ``history`` still
        shows what was decided then; the edges and statuses go back to what the current
        verdicts say.
    """
    out = []
    for e in sorted(stale, key=lambda x: x.entry_id):
        if (e.entry_type not in SCAN_TYPES or e.status == STATUS_WITHDRAWN
                or closed_by_person(e)):
            continue
        by = e.winner if e.entry_type == "resolution" else e.settler
        if by and e.entry_type in ("resolution", "settlement"):
            effects.exact.add(by)
        out.append(e.model_copy(update={"status": STATUS_WITHDRAWN, "question": None}))
    return out
