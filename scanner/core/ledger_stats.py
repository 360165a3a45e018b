"""Conflict statistics from the ledger (seed 001 "monitor conflict rates"): pairs by relation,
verdict and rule, open / settled / moot, the conflicts each import introduced, and the
read-time scans that held a conflict. Pure; :meth:`scanner.service.Service.stats` reads the
entries and import times it counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scanner.core.ledger import (
    CONFLICT_TYPES,
    STATUS_MOOT,
    STATUS_OPEN,
    STATUS_SETTLED,
    STATUS_WITHDRAWN,
    LedgerEntry,
)


@dataclass
class ImportRate:
    """Conflicts introduced by one import: pairs whose newest member came with it, and
    disputes of a key (:mod:`scanner.core.open_state`) it began or added a member to."""

    user_id: str
    imported_at: str
    memories: int
    conflicts: int

    @property
    def rate(self) -> float:
        """Conflicts introduced per imported memory."""
        return self.conflicts / self.memories if self.memories else 0.0


@dataclass
class Stats:
    """Conflict statistics of one tenant or of all (seed 001 "monitor conflict rates").

    Attributes:
        conflicts: conflicts recorded (every conflict entry type).
        by_relation, by_verdict, by_rule: counts of those conflicts.
        open: conflicts still open (quarantines, epoch changes, escalations, possibles).
        settled: conflicts settled by re-observation.
        moot: conflicts nothing settles whose member the settlement of another retired.

    As the ledger records them: resolutions once per superseded member and key
    (:func:`scanner.core.key_decision.deciding_resolutions`), a key's quarantined or
    epoch-change pairs once as its dispute (:mod:`scanner.core.open_state`), escalated and
    possible pairs once each; withdrawn entries (:data:`STATUS_WITHDRAWN`) not at all. The
    scan report counts every pair.
        imports: per import, the pairs it introduced.
        read_scans: read-time scans counted; read_scans_with_conflict: those whose top-k held
            incompatible values for one key.
    """

    users: list[str] = field(default_factory=list)
    conflicts: int = 0
    by_relation: dict[str, int] = field(default_factory=dict)
    by_verdict: dict[str, int] = field(default_factory=dict)
    by_rule: dict[str, int] = field(default_factory=dict)
    open: int = 0
    settled: int = 0
    moot: int = 0
    imports: list[ImportRate] = field(default_factory=list)
    read_scans: int = 0
    read_scans_with_conflict: int = 0

    @property
    def read_scan_conflict_share(self) -> float | None:
        """Share of read-time scans whose hits held incompatible values (None: no scans)."""
        return self.read_scans_with_conflict / self.read_scans if self.read_scans else None

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {"users": self.users, "conflicts": self.conflicts,
                "by_relation": self.by_relation, "by_verdict": self.by_verdict,
                "by_rule": self.by_rule, "open": self.open, "settled": self.settled,
                "moot": self.moot,
                "imports": [{"user_id": i.user_id, "imported_at": i.imported_at,
                             "memories": i.memories, "conflicts": i.conflicts,
                             "rate": round(i.rate, 6)} for i in self.imports],
                "read_scans": self.read_scans,
                "read_scans_with_conflict": self.read_scans_with_conflict,
                "read_scan_conflict_share": self.read_scan_conflict_share}

    @classmethod
    def from_json_dict(cls, data: Mapping[str, Any]) -> Stats:
        """The statistics back from :meth:`to_json_dict` (the derived ``rate`` and
        ``read_scan_conflict_share`` are recomputed, not read).

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not what :meth:`to_json_dict` wrote.
        """
        return cls(users=[str(u) for u in data["users"]], conflicts=int(data["conflicts"]),
                   by_relation={str(k): int(v) for k, v in data["by_relation"].items()},
                   by_verdict={str(k): int(v) for k, v in data["by_verdict"].items()},
                   by_rule={str(k): int(v) for k, v in data["by_rule"].items()},
                   open=int(data["open"]), settled=int(data["settled"]),
                   moot=int(data["moot"]),
                   imports=[ImportRate(user_id=str(i["user_id"]),
                                       imported_at=str(i["imported_at"]),
                                       memories=int(i["memories"]),
                                       conflicts=int(i["conflicts"]))
                            for i in data["imports"]],
                   read_scans=int(data["read_scans"]),
                   read_scans_with_conflict=int(data["read_scans_with_conflict"]))


def compute_stats(entries: Iterable[LedgerEntry],
                  imported_at: Mapping[tuple[str, str], str]) -> Stats:
    """Statistics from ledger entries and each memory's import time.

    Args:
        entries: ledger entries of the tenants to count.
        imported_at: ``(user_id, memory id)`` -> ISO import time of every stored memory of
            those tenants (the import a memory came with).

    Returns:
        The statistics; a conflict counts against every import after which it held two of
        its members or more: a pair against the import of its most recently imported
        member, a dispute also against each import that added a member to it.
    """
    stats = Stats()
    by_relation: Counter[str] = Counter()
    by_verdict: Counter[str] = Counter()
    by_rule: Counter[str] = Counter()
    introduced: Counter[tuple[str, str]] = Counter()
    users = {u for u, _ in imported_at}
    for e in entries:
        users.add(e.user_id)
        if e.entry_type in CONFLICT_TYPES and e.status != STATUS_WITHDRAWN:
            stats.conflicts += 1
            by_relation[e.key.relation if e.key else "?"] += 1
            by_verdict[e.verdict or "?"] += 1
            by_rule[e.rule or "?"] += 1
            if e.status == STATUS_OPEN:
                stats.open += 1
            elif e.status == STATUS_SETTLED:
                stats.settled += 1
            elif e.status == STATUS_MOOT:
                stats.moot += 1
            times = sorted(t for t in (imported_at.get((e.user_id, m)) for m in e.members)
                           if t)
            for held, t in enumerate(times, start=1):
                if (held >= 2 or len(times) == 1) and (held == len(times)
                                                       or times[held] != t):
                    introduced[(e.user_id, t)] += 1
        elif e.entry_type == "read_scans":
            stats.read_scans += int(e.data.get("scans", 0))
            stats.read_scans_with_conflict += int(e.data.get("with_conflict", 0))
    sizes = Counter((u, t) for (u, _), t in imported_at.items())
    stats.imports = [ImportRate(user_id=u, imported_at=t, memories=n,
                                conflicts=introduced.get((u, t), 0))
                     for (u, t), n in sorted(sizes.items())]
    stats.users = sorted(users)
    stats.by_relation = dict(by_relation.most_common())
    stats.by_verdict = dict(sorted(by_verdict.items()))
    stats.by_rule = dict(sorted(by_rule.items()))
    return stats
