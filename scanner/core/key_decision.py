"""A key's decision in O(values) (issue 18, item 11): which of a key's resolved pairs the
ledger and the ``supersedes`` edges record. Pure."""

from __future__ import annotations

from collections.abc import Iterable

from scanner.models import Conflict, ConflictKey


def _key_of(key: ConflictKey) -> tuple:
    return (key.user_id, key.group, tuple(sorted(key.properties.items())), key.subject,
            key.relation)


def deciding_resolutions(conflicts: Iterable[Conflict]) -> dict[tuple[str, ...], Conflict]:
    """The resolutions a key's decision is recorded by: one per superseded member and key.

    A key holding ``n`` values observed one after another resolves ``n(n-1)/2`` pairs (each
    later value beats every earlier one), but its decision is the current value and each
    superseded member once (issue 18: 17,105 ledger entries for 500 memories of one key).
    Of the resolved pairs in which a member lost on a key, the one won by its *first
    successor* records it: the winner observed earliest after it (then the lowest id); when
    every winner was observed no later than the loser (a higher source class, or a value
    represented by a later record), the earliest of them. Each value is then retired by the
    one that replaced it, so the ledger and the ``supersedes`` edges form the chain "what
    changed, and when" (SPEC §3), and a new value adds one entry instead of rewriting the
    others. The other resolved pairs stay in the scan report
    (SPEC §5 lists every pair), and decide nothing more: their losers are retired anyway.

    Args:
        conflicts: a scan's conflicts (any verdicts; only ``resolved`` ones count).

    Returns:
        Sorted member ids -> the deciding resolution, at most one per ``(key, loser)``.
    """
    best: dict[tuple, tuple[tuple[bool, str, str], Conflict]] = {}
    for c in conflicts:
        if c.verdict != "resolved" or not c.winner:
            continue
        won = c.inputs.get(c.winner, {}).get("observed_at") or ""
        key = _key_of(c.key)
        for loser in c.superseded:
            lost = c.inputs.get(loser, {}).get("observed_at") or ""
            rank = (not won > lost, won, c.winner)
            slot = (key, loser)
            found = best.get(slot)
            if found is None or rank < found[0]:
                best[slot] = (rank, c)
    return {tuple(c.members): c for _, c in best.values()}
