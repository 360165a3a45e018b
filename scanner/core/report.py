"""Assembling a SPEC §5 report: the one place that decides ``cite``, ``withhold`` and
``unresolved``.

Pure: it imports nothing but :mod:`scanner.models`, and every scan path (``scan-file``, the
read-time, write-time and batch scans of stored memories) builds its report here, once its
verdicts are final (after review decisions and ledger settlements are applied).

The rule (SPEC §5):

* ``withhold``: the members a verdict retired — the ``superseded`` of ``resolved`` pairs and of
  pairs settled by a later re-observation — plus memories already stored as superseded
  (``retired``: retired by an earlier verdict, whatever this scan saw);
* ``unresolved``: the members of ``quarantined``, ``epoch_change`` and ``escalated`` pairs that
  are not settled, less ``withhold``;
* ``cite``: every scanned id in neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from scanner.models import Conflict, EpochChangeEvent, RejectedLine, ScanReport

UNRESOLVED_VERDICTS = frozenset({"quarantined", "epoch_change", "escalated"})
"""Verdicts whose unsettled members nobody may present as current (SPEC §3)."""


MOOT = "moot"
"""The reason prefix of a pair nothing settles whose member another pair's settlement
retired (``moot:<member>@<settler>``, :func:`scanner.core.settlement.settle_conflicts`)."""


def is_moot(conflict: Conflict) -> bool:
    """Whether an unsettled pair is moot (:func:`scanner.core.settlement.settle_conflicts`): it
    holds nobody ``unresolved``, and its ledger entry is closed as ``moot``."""
    return not conflict.settled_by and any(r.startswith(MOOT + ":") for r in conflict.reasons)


def assemble_report(ids: Iterable[str], by_pair: Mapping[tuple[str, ...], Conflict],
                    events: Iterable[EpochChangeEvent] = (),
                    duplicates: Sequence[Sequence[str]] = (),
                    rejected: Sequence[RejectedLine] = (), *, retired: Iterable[str] = (),
                    scanned: int | None = None, keep_ids: bool = True) -> ScanReport:
    """The report over scanned memories and their final verdicts.

    Args:
        ids: ids of every memory scanned (the universe of ``cite``).
        by_pair: the verdicts, keyed by their members (a tuple of ids); the report lists them
            in key order.
        events: epoch-change events; listed by (from id, to id).
        duplicates: groups of ids holding the same memory, as found.
        rejected: input lines that were not scanned.
        retired: ids already stored as superseded (withheld whatever this scan decided).
        scanned: memories scanned; default the number of ``ids``.
        keep_ids: False gives a report of counts and verdicts only: ``cite``, ``withhold`` and
            ``unresolved`` empty (a batch scan of many tenants keeps its memory bounded).

    Returns:
        The report, every id list sorted.
    """
    ids = set(ids)
    conflicts = [by_pair[k] for k in sorted(by_pair)]
    cite: set[str] = set()
    withhold: set[str] = set()
    unresolved: set[str] = set()
    if keep_ids:
        withhold = {rid for c in conflicts if c.verdict == "resolved" or c.settled_by
                    for rid in c.superseded} | set(retired)
        unresolved = {rid for c in conflicts
                      if c.verdict in UNRESOLVED_VERDICTS and not c.settled_by
                      and not is_moot(c) for rid in c.members} - withhold
        cite = ids - withhold - unresolved
    return ScanReport(scanned=len(ids) if scanned is None else scanned, conflicts=conflicts,
                      duplicates=[list(d) for d in duplicates], cite=sorted(cite),
                      withhold=sorted(withhold), unresolved=sorted(unresolved),
                      events=sorted(events, key=lambda e: (e.from_["id"], e.to["id"])),
                      rejected=list(rejected))


def by_members(conflicts: Iterable[Conflict]) -> dict[tuple[str, ...], Conflict]:
    """Verdicts keyed by their members, as :func:`assemble_report` takes them."""
    return {tuple(c.members): c for c in conflicts}


def merge_reports(reports: Sequence[ScanReport]) -> ScanReport:
    """One report from per-tenant reports (scopes never overlap across tenants)."""
    conflicts = sorted((c for r in reports for c in r.conflicts), key=lambda c: c.members)
    return ScanReport(
        scanned=sum(r.scanned for r in reports), conflicts=conflicts,
        duplicates=sorted(d for r in reports for d in r.duplicates),
        cite=sorted(i for r in reports for i in r.cite),
        withhold=sorted(i for r in reports for i in r.withhold),
        unresolved=sorted(i for r in reports for i in r.unresolved),
        events=sorted((e for r in reports for e in r.events),
                      key=lambda e: (e.from_["id"], e.to["id"])))
