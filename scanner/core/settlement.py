"""Settlement by re-observation (SPEC §3; seed 000: "quarantined as an unresolved
contradiction and re-observed against the live world before any write").

A quarantine (``missing_provenance`` or ``tie``) or an epoch change is the request to re-observe
the key. A later record of the same key with intact provenance, at least as trusted as both
members and observed after both (in the later member's epoch), is that re-observation: it
settles the pair, retiring the members it contradicts with rule ``reobservation``. The pair
keeps its verdict, so both steps stay visible. A record never settles a pair it belongs to: a
pair nothing settles whose member a settlement of another pair retired is *moot*
(:func:`scanner.core.report.is_moot`), neither settled nor open.

Pure: :func:`settle_conflicts` reads frozen records and returns new :class:`Conflict` objects.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timezone

from extractors import Cardinality
from scanner.core.detect import CandidatePair, Stance, contested, stances
from scanner.core.keys import Assertion, GroupKey
from scanner.core.names import agree_by_name
from scanner.core.policy_config import PolicyConfig, Strategy, epoch_of
from scanner.core.report import MOOT
from scanner.models import Conflict

REOBSERVATION = "reobservation"
"""The rule recorded when a later record settles a quarantined or epoch-change pair."""
SETTLEABLE_RULES = frozenset({"missing_provenance", "tie", "epoch_change"})
"""Rules whose pairs a re-observation can settle (identity questions and human reviews
cannot be settled by another observation of the value)."""


@dataclass(frozen=True)
class Settlement:
    """A later record that settles a pair: ``by`` retires ``retired`` and leaves ``confirmed``."""

    by: str
    retired: tuple[str, ...]
    confirmed: tuple[str, ...]


@dataclass(frozen=True)
class Settlers:
    """The stances of one key group that can settle a pair at all: intact provenance
    (``source``, ``observed_at``, an epoch or a declared one) and not observed in the future,
    ordered by ``observed_at``, in all (``by_epoch[None]``) and per epoch. Built once per key
    group (:func:`settlers`), so a dispute of ``n`` values settles its ``n(n-1)/2`` pairs
    without reading the group once per pair."""

    by_epoch: Mapping[str | None, Sequence[Stance]]


def settlers(group: Sequence[Stance], config: PolicyConfig | None = None) -> Settlers:
    """The :class:`Settlers` of a key group's stances."""
    config = config or PolicyConfig()
    able = sorted((s for s in group
                   if s.record.source is not None and s.record.observed_at is not None
                   and not config.is_future(s.record)
                   and epoch_of(s.record, config) is not None),
                  key=lambda s: s.record.observed_at)
    by_epoch: dict[str | None, list[Stance]] = {None: able}
    for s in able:
        by_epoch.setdefault(epoch_of(s.record, config), []).append(s)
    return Settlers(by_epoch)


def _clashes(member: Stance, other: Stance, cardinality: Cardinality) -> bool:
    """Whether two stances of one key cannot both be true (SPEC §2, as detection decides)."""
    if contested(member, other):
        return True
    if cardinality is Cardinality.multi_valued:
        return False
    mine = {v for v in member.asserted if v}
    theirs = {v for v in other.asserted if v}
    return (bool(mine) and bool(theirs) and not mine & theirs
            and not agree_by_name(member, other))  # "Lena" / "Lena Fischer"


def _target_epoch(conflict: Conflict, members: Sequence[Stance],
                  config: PolicyConfig) -> tuple[bool, str | None]:
    """``(settleable, epoch)``: the epoch a re-observation must be in (None = any)."""
    if conflict.verdict == "epoch_change":
        latest = next((m for m in members if m.record.id == conflict.latest), None)
        if latest is None:
            return False, None
        return True, epoch_of(latest.record, config)
    dated = [m.record for m in members if epoch_of(m.record, config) is not None]
    if not dated:
        return True, None
    newest = max(dated, key=lambda r: (r.observed_at is not None,
                                       r.observed_at.timestamp() if r.observed_at else 0.0,
                                       r.id))
    return True, epoch_of(newest, config)


def settlement(pair: CandidatePair, conflict: Conflict, group: Sequence[Stance],
               config: PolicyConfig | None = None, *,
               able: Settlers | None = None) -> Settlement | None:
    """The re-observation that settles one quarantined or epoch-change pair, if any.

    A settler is a record of the pair's key group that is not a member, has intact provenance
    (``source``, ``observed_at``, epoch or a declared one), is observed strictly after every
    member that has an ``observed_at``, lies in the target epoch (the ``latest`` member's for an
    epoch change; the newest dated member's for a quarantine), is at least as trusted as each
    member (source class), speaks about the same place, and contradicts at least one member.
    The latest such record (then the most trusted, then the highest id) settles the pair.

    Args:
        pair: the candidate the verdict was decided on.
        conflict: its verdict.
        group: the stances of the pair's key group.
        config: the policy (safety relations and manual review are never settled).
        able: :func:`settlers` of ``group``, when the caller settles many of its pairs.

    Returns:
        The settlement, or None when nothing settles the pair.
    """
    config = config or PolicyConfig()
    relation = pair.key.relation
    if (conflict.rule not in SETTLEABLE_RULES or pair.subject_unconfirmed
            or conflict.verdict not in ("quarantined", "epoch_change")
            or relation in config.safety_relations
            or config.strategies.get(relation) is Strategy.manual_review):
        return None
    members = (pair.a, pair.b)
    ok, target = _target_epoch(conflict, members, config)
    if not ok:
        return None
    able = able or settlers(group, config)
    pool = able.by_epoch.get(target, ())
    seen = [m.record.observed_at for m in members if m.record.observed_at is not None]
    # only records observed strictly after every member that has a time
    first = bisect_right(pool, max(seen), key=lambda s: s.record.observed_at) if seen else 0
    best: tuple[tuple, Settlement] | None = None
    for s in pool[first:]:
        r = s.record
        if r.id in conflict.members:
            continue
        if any(r.source_class.rank < m.record.source_class.rank for m in members):
            continue
        if any(s.place is not None and m.place is not None and s.place != m.place
               for m in members):
            continue
        retired = tuple(m.record.id for m in members if _clashes(m, s, pair.cardinality))
        if not retired:
            continue
        rank = (r.observed_at.astimezone(timezone.utc), r.source_class.rank, r.id)
        if best is None or rank > best[0]:
            confirmed = tuple(m for m in conflict.members if m not in retired)
            best = (rank, Settlement(by=r.id, retired=retired, confirmed=confirmed))
    return best[1] if best else None


def _settled(conflict: Conflict, found: Settlement) -> Conflict:
    return conflict.model_copy(update={
        "settled_by": found.by, "superseded": sorted(found.retired), "question": None,
        "reasons": [*conflict.reasons, f"settled:{REOBSERVATION}@{found.by}"]})


def settle_conflicts(by_pair: Mapping[tuple[str, str], Conflict],
                     candidates: Sequence[CandidatePair],
                     groups: Mapping[GroupKey, Sequence[Assertion]],
                     config: PolicyConfig | None = None) -> dict[tuple[str, str], Conflict]:
    """Apply :func:`settlement` to every verdict of a scan.

    Args:
        by_pair: verdicts by sorted member ids (the first candidate of each pair decided).
        candidates: the candidates in the order they were decided.
        groups: key -> assertions, as grouped for the scan.
        config: the policy.

    Returns:
        A new mapping: settled pairs carry ``settled_by`` and list the retired members in
        ``superseded``. A settlement is only ever made by a record outside the pair, observed
        after both (SPEC: "a later record … observed after both"; issue 18): a settleable
        pair that nothing settles but one of whose members a settlement of another pair
        retired (the record that retired it is often the pair's other member, which cannot
        settle its own pair) is *moot*: it keeps its verdict, is not settled, retires
        nothing, carries the reason ``moot:<retired member>@<settler>`` for each such
        member, and holds neither member ``unresolved``
        (:func:`scanner.core.report.is_moot`): the retired member is withheld, and its
        question no longer stands.
    """
    config = config or PolicyConfig()
    first: dict[tuple[str, str], CandidatePair] = {}
    for cand in candidates:
        first.setdefault(cand.ids, cand)
    out = dict(by_pair)
    cache: dict[GroupKey, tuple[list[Stance], Settlers]] = {}
    retired_by: dict[str, set[str]] = {}
    for ids in sorted(by_pair):
        conflict, cand = by_pair[ids], first.get(ids)
        if cand is None or conflict.verdict not in ("quarantined", "epoch_change"):
            continue
        if cand.key not in cache:
            group = stances(groups.get(cand.key, ()))
            cache[cand.key] = (group, settlers(group, config))
        group, able = cache[cand.key]
        found = settlement(cand, conflict, group, config, able=able)
        if found is not None:
            out[ids] = _settled(conflict, found)
            for rid in found.retired:
                retired_by.setdefault(rid, set()).add(found.by)
    for ids in sorted(out):
        conflict = out[ids]
        if (conflict.settled_by or conflict.rule not in SETTLEABLE_RULES
                or conflict.verdict not in ("quarantined", "epoch_change")
                or conflict.key.relation in config.safety_relations
                or config.strategies.get(conflict.key.relation) is Strategy.manual_review
                or (ids in first and first[ids].subject_unconfirmed)):
            continue
        moot = [f"{MOOT}:{member}@{by}" for member in ids
                for by in sorted(retired_by.get(member, ()))]
        if moot:
            out[ids] = conflict.model_copy(update={"question": None,
                                                   "reasons": [*conflict.reasons, *moot]})
    return out
