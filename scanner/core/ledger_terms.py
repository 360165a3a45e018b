"""The ledger's shared terms: entry ids and statuses. Pure; :mod:`scanner.core.ledger` (entries)
and :mod:`scanner.core.open_state` (a key's open state) both build on them, and
:mod:`scanner.core.ledger` re-exports every name."""

from __future__ import annotations

import hashlib
import uuid

NAMESPACE = uuid.UUID("6f1c1f0e-9a57-5c1b-8d8e-63a0c7a1b2d4")
"""uuid5 namespace of ledger entry ids."""

STATUS_APPLIED = "applied"
STATUS_OPEN = "open"
STATUS_SETTLED = "settled"
STATUS_RECORDED = "recorded"
STATUS_DISMISSED = "dismissed"
STATUS_MOOT = "moot"
"""A quarantine or epoch change nothing settles, one of whose members a settlement of another
pair retired (:func:`scanner.core.report.is_moot`)."""
STATUS_WITHDRAWN = "withdrawn"
"""An entry of a scan type that a full-view scan (a batch scan of the whole tenant) no longer
makes: its pair is gone, decided under another rule, or no longer the one that records a
key's decision. Kept as history, never deleted; the state it described is undone
(:func:`scanner.core.convergence.withdrawals`)."""
CLOSED_STATUSES = frozenset({STATUS_SETTLED, STATUS_DISMISSED, STATUS_MOOT})
"""Statuses a partial-view scan never turns back to ``open``
(:func:`scanner.core.ledger.should_replace`)."""

REVIEW_ROUND = "review_round"
"""``data`` field of an open entry a person closed and a new value of its key reopened: how
many reviews closed it before (absent = none; :func:`review_entry_id`)."""

_NAMESPACE_BYTES = NAMESPACE.bytes


def entry_id(user_id: str, *parts: str) -> str:
    """Deterministic entry id: uuid5 of the tenant's user id and ``parts`` (unit-separated).

    ``str(uuid.uuid5(NAMESPACE, name))`` computed directly (RFC 4122 §4.3: SHA-1 of namespace
    and name, version 5, variant RFC 4122): a batch scan derives two ids per conflict, and
    the ``UUID`` object cost half of that (``tests/unit/test_ledger.py`` checks equality)."""
    raw = bytearray(hashlib.sha1(
        _NAMESPACE_BYTES + "\x1f".join((user_id, *parts)).encode()).digest()[:16])
    raw[6] = (raw[6] & 0x0F) | 0x50
    raw[8] = (raw[8] & 0x3F) | 0x80
    h = raw.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def review_entry_id(user_id: str, item_id: str, review_round: int = 0) -> str:
    """The id of the review of one entry: one review per entry and round, so a repeated
    request (a double click) finds the first and writes nothing.

    Args:
        user_id: the tenant's user.
        item_id: the reviewed entry's id.
        review_round: the reviews that closed the entry before (``data["review_round"]``,
            :data:`REVIEW_ROUND`): 0 until a new value of the key reopened it.
    """
    if review_round:
        return entry_id(user_id, "review", item_id, str(review_round))
    return entry_id(user_id, "review", item_id)
