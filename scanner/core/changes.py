"""One change, one conflict: the resolved pairs of a report that one memory won against the
same subject, shown as a single conflict whose ``superseded`` lists every memory it retired.

SPEC §3 decides per pair, and every scan path keeps its verdicts per pair (the ledger, the
``supersedes`` edges and the effects all read them so). A memory stream states a fact many
times before it changes: "Maria volunteers at a homeless shelter" five times, then "Maria has
stepped away from volunteering at the homeless shelter". Per pair that is five resolved
conflicts about one change; :func:`grouped_report` shows it as one, with the five earlier
memories in ``members`` and ``superseded`` (SPEC §5 gives both as lists), before the report
leaves the product (the CLI's report, the HTTP responses).

Pure: it imports nothing but :mod:`scanner.models`.

Which pairs merge: ``resolved`` pairs not settled by a re-observation, with the same scope
(user, group, properties), subject, winner, rule and policy configuration. A chain of changes
is one conflict per change: "deadline moved to January 20", "… to January 31", "… to
February 1" are two changes, and the pair (January 20, February 1), which the change to
January 31 had already settled, is not shown (its loser stays withheld, through the pair
that retired it first); otherwise the change to February 1 would be read as the one that
retired January 20. Quarantined,
epoch-change, escalated and ``possible`` pairs stay one per pair: each asks its own question.
The merged conflict's ``key.relation`` and ``kind`` are those of its most frequent relation
(ties: the alphabetically first); each member retired under another relation is named in
``reasons`` as ``relation:<relation>@<member>``. ``cite``, ``withhold`` and ``unresolved`` do
not change: the same memories are retired.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from scanner.models import Conflict, ScanReport

_SEVERITY_RANK = {"low": 0, "medium": 1, "high": 2}


def _merge_key(c: Conflict) -> tuple | None:
    """What two resolved pairs must share to be one change; None for a pair shown alone."""
    if c.verdict != "resolved" or c.settled_by or c.winner is None or len(c.members) != 2:
        return None
    k = c.key
    return (k.user_id, k.group, tuple(sorted(k.properties.items())), k.subject, c.winner,
            c.rule, c.kind, json.dumps(c.config, sort_keys=True, default=str))


def _loser(c: Conflict) -> str:
    return next(m for m in c.members if m != c.winner)


def merge_change(pairs: Sequence[Conflict]) -> Conflict:
    """One conflict from resolved pairs that share a :func:`_merge_key`.

    Args:
        pairs: at least one conflict; all ``resolved`` for one winner, subject and scope.

    Returns:
        The pair itself when there is one; else a conflict whose ``members`` and
        ``superseded`` are the sorted union, ``values`` and ``inputs`` the union, ``severity``
        the highest, and ``key``/``kind`` those of the most frequent relation.
    """
    if len(pairs) == 1:
        return pairs[0]
    counts = Counter(c.key.relation for c in pairs)
    relation = min(counts, key=lambda r: (-counts[r], r))
    main = next(c for c in pairs if c.key.relation == relation)
    members = sorted({m for c in pairs for m in c.members})
    reasons: list[str] = []
    for c in pairs:
        reasons.extend(r for r in c.reasons if r not in reasons)
    reasons.extend(f"relation:{c.key.relation}@{_loser(c)}"
                   for c in sorted(pairs, key=_loser) if c.key.relation != relation)
    values: dict[str, str] = {}
    inputs: dict = {}
    for c in pairs:
        values.update((m, v) for m, v in c.values.items() if m != c.winner)
        inputs.update(c.inputs)
    values[main.winner] = main.values.get(main.winner, "")  # (its value of the key shown)
    return main.model_copy(update={
        "members": members,
        "values": {m: values[m] for m in members if m in values},
        "superseded": sorted({m for c in pairs for m in c.superseded}),
        "reasons": reasons,
        "severity": max((c.severity for c in pairs), key=_SEVERITY_RANK.__getitem__),
        "inputs": {m: inputs[m] for m in members if m in inputs}})


def group_changes(conflicts: Sequence[Conflict]) -> list[Conflict]:
    """The conflicts with the resolved pairs of one change merged (:func:`merge_change`),
    sorted by members as in every report."""
    groups: dict[tuple, list[Conflict]] = {}
    alone: list[Conflict] = []
    for c in conflicts:
        key = _merge_key(c)
        if key is None:
            alone.append(c)
        else:
            groups.setdefault(key, []).append(c)
    beaten = _beaten(conflicts)
    merged = list(alone)
    for group in groups.values():
        losers = {_loser(c) for c in group}
        # a member another of them had retired was retired by that change, not by this one
        first = [c for c in group if not beaten.get(_loser(c), set()) & losers]
        merged.append(merge_change(first or group))  # (none left only in a cycle of wins)
    return sorted(merged, key=lambda c: c.members)


def _beaten(conflicts: Sequence[Conflict]) -> dict[str, set[str]]:
    """member -> the members that won a resolved pair against it."""
    out: dict[str, set[str]] = {}
    for c in conflicts:
        if c.verdict == "resolved" and c.winner is not None and len(c.members) == 2:
            out.setdefault(_loser(c), set()).add(c.winner)
    return out


_RELATION = "relation:"


def split_change(conflict: Conflict) -> list[Conflict]:
    """The pairs a reported conflict decided: the conflict itself, or for a merged change
    (:func:`merge_change`) one resolved pair of the winner with each member it superseded
    (the memories it retired were never compared with one another), keyed by that member's
    own relation (``relation:<relation>@<member>`` in ``reasons``). A pair under another
    relation than the key shown carries the winner's value of the key shown (the merged
    conflict keeps no other)."""
    if len(conflict.members) == 2 or conflict.winner is None:
        return [conflict]
    relation_of = {}
    for reason in conflict.reasons:
        if reason.startswith(_RELATION) and "@" in reason:
            relation, member = reason[len(_RELATION):].rsplit("@", 1)
            relation_of[member] = relation
    kept = [r for r in conflict.reasons if not r.startswith(_RELATION)]
    winner = conflict.winner
    out = []
    for loser in conflict.superseded:
        members = sorted((winner, loser))
        key = conflict.key.model_copy(update={
            "relation": relation_of.get(loser, conflict.key.relation)})
        out.append(conflict.model_copy(update={
            "key": key, "members": members,
            "values": {m: conflict.values[m] for m in members if m in conflict.values},
            "superseded": [loser], "reasons": [r for r in kept if r.endswith(
                tuple(f"@{m}" for m in members)) or "@" not in r],
            "inputs": {m: conflict.inputs[m] for m in members if m in conflict.inputs}}))
    return out


def grouped_report(report: ScanReport) -> ScanReport:
    """The report as it leaves the product: :func:`group_changes` applied to its conflicts;
    every other field as it was."""
    conflicts = group_changes(report.conflicts)
    if len(conflicts) == len(report.conflicts):
        return report
    return report.model_copy(update={"conflicts": conflicts})
