"""What a set of verdicts does to the memories of one tenant: ``supersedes`` edges, retired
members, unresolved and confirmed members (SPEC §3: nothing is deleted, the loser is kept and
linked). Pure; the memory store applies it
(:meth:`scanner.store.writes.MemoryWrites.apply_effects`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scanner.core.key_decision import deciding_resolutions
from scanner.core.report import is_moot
from scanner.core.settlement import REOBSERVATION
from scanner.models import Conflict


@dataclass
class Effects:
    """The writes a set of verdicts implies for one tenant (applied by the memory store).

    Attributes:
        edges: winner or settler id -> ids it supersedes (``supersedes`` edges).
        retire: memory id -> rule that retired it (status ``superseded``).
        unresolved: members of open quarantines, epoch changes and escalations.
        confirmed: members of settled pairs that nothing retired and no open pair holds; a
            batch scan (which sees the whole tenant) returns them to ``active``.
    """

    edges: dict[str, set[str]] = field(default_factory=dict)
    retire: dict[str, str] = field(default_factory=dict)
    unresolved: set[str] = field(default_factory=set)
    confirmed: set[str] = field(default_factory=set)
    exact: set[str] = field(default_factory=set)
    """Memories whose ``supersedes`` edges are set to exactly ``edges.get(id, set())``: the
    stored edges no verdict holds any more are removed (only a full-view scan sets it, with
    every member and settler of its verdicts and of the entries it withdraws:
    :mod:`scanner.core.convergence`)."""

    def memory_ids(self) -> set[str]:
        """Every memory id the effects touch."""
        ids = set(self.edges) | set(self.retire) | self.unresolved | self.confirmed
        ids |= self.exact
        for losers in self.edges.values():
            ids |= losers
        return ids


def verdict_effects(conflicts: Iterable[Conflict]) -> Effects:
    """Edges and statuses implied by verdicts.

    Resolutions first: the deciding ones
    (:func:`scanner.core.key_decision.deciding_resolutions`), each a ``supersedes``
    edge from a loser's first successor and the loser retired with that resolution's rule
    (one retired twice, on two keys, keeps the rule of the last in member order); then
    settlements (rule ``reobservation``, unless a resolution already retired the member).
    """
    conflicts = sorted(conflicts, key=lambda c: c.members)
    deciding = deciding_resolutions(conflicts)
    fx = Effects()
    for c in conflicts:
        if c.verdict == "resolved" and c.winner and tuple(c.members) in deciding:
            fx.edges.setdefault(c.winner, set()).update(c.superseded)
            for loser in c.superseded:
                fx.retire[loser] = c.rule or ""
    for c in conflicts:
        if c.settled_by and c.superseded:
            fx.edges.setdefault(c.settled_by, set()).update(c.superseded)
            for loser in c.superseded:
                fx.retire.setdefault(loser, REOBSERVATION)
    for c in conflicts:
        if (c.verdict in ("quarantined", "epoch_change", "escalated") and not c.settled_by
                and not is_moot(c)):
            fx.unresolved.update(m for m in c.members if m not in fx.retire)
    for c in conflicts:
        if c.settled_by or is_moot(c):
            fx.confirmed.update(m for m in (*c.members, *([c.settled_by] if c.settled_by else []))
                                if m not in fx.retire and m not in fx.unresolved)
    return fx
