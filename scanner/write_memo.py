"""What this process already wrote: verdicts and ledger entries remembered per process, so a
scan that meets them again skips the store's read-before-write round trips (a sidecar's steady
state after a batch scan). Writing is idempotent; the memo only saves requests."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from scanner.models import Conflict

RECORDED_MEMO = 100_000
"""Verdicts remembered as already written, per process (oldest forgotten first)."""


def remember(memo: OrderedDict, keys: Iterable[Any]) -> None:
    """Mark ``keys`` as written by this process, most recent last; beyond
    :data:`RECORDED_MEMO` the oldest are forgotten (and written again if met again)."""
    for k in keys:
        memo[k] = None
        memo.move_to_end(k)
    while len(memo) > RECORDED_MEMO:
        memo.popitem(last=False)


def verdict_id(user_id: str, c: Conflict) -> tuple:
    """What a verdict writes, as a hashable value (two equal ids write the same)."""
    return (user_id, tuple(c.members), c.verdict, c.winner, tuple(c.superseded), c.rule)
