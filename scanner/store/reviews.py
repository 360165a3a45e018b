"""Ledger queries of the review inbox: open entries and review decisions of one tenant.

Filters run on the ledger's ``FIELD``-tokenised properties (``status``, ``entry_type``,
``verdict``, ``relation``; see :mod:`scanner.store.ledger`) inside one tenant, so a query for
one user never reads another user's entries (``../shared/WEAVIATE.md`` §5).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timezone

from weaviate.classes.query import Filter, Sort

from scanner.core.ledger import STATUS_OPEN, LedgerEntry
from scanner.store.failures import store_failure
from scanner.store.ledger import LedgerStore
from scanner.store.tenants import tenant_name

MAX_ITEMS = 1000
"""Most open entries one inbox query reads per tenant (newest first)."""
_PROPERTIES = ["body_json", "recorded_at", "updated_at"]


def _entry(obj) -> LedgerEntry:
    p = obj.properties
    return LedgerEntry.model_validate({**json.loads(p["body_json"]),
                                       "recorded_at": p.get("recorded_at"),
                                       "updated_at": p.get("updated_at")})


def _tenant(ledger: LedgerStore, user_id: str):
    # a tenant the ledger store has seen is not listed again: listing is a schema read, which
    # on a cluster waits for the Raft leader (scanner.store.replication.tenant_names)
    if not ledger._has(user_id):
        return None
    return ledger.client.collections.use(ledger.name).with_tenant(tenant_name(user_id))


def open_entries(ledger: LedgerStore, user_id: str, entry_types: Sequence[str], *,
                 relation: str | None = None, verdict: str | None = None,
                 limit: int = MAX_ITEMS) -> list[LedgerEntry]:
    """Open entries of one tenant of the given types, newest first (by ``recorded_at``).

    Args:
        ledger: the ledger store.
        user_id: the tenant's user.
        entry_types: entry types to read.
        relation, verdict: exact filters (None = any).
        limit: most entries returned.

    Raises:
        WeaviateUnavailable: the query failed.
    """
    with store_failure(f"cannot read the open entries of {user_id!r}"):
        col = _tenant(ledger, user_id)
        if col is None:
            return []
        where = (Filter.by_property("status").equal(STATUS_OPEN)
                 & Filter.by_property("entry_type").contains_any(list(entry_types)))
        if relation:
            where = where & Filter.by_property("relation").equal(relation)
        if verdict:
            where = where & Filter.by_property("verdict").equal(verdict)
        res = col.query.fetch_objects(filters=where, limit=limit,
                                      sort=Sort.by_property("recorded_at", ascending=False),
                                      return_properties=_PROPERTIES)
    return [_entry(o) for o in res.objects]


def review_entries(ledger: LedgerStore, user_id: str, *, limit: int = 10_000
                   ) -> list[LedgerEntry]:
    """Every ``review`` entry of one tenant, oldest first.

    Raises:
        WeaviateUnavailable: the query failed.
    """
    with store_failure(f"cannot read the reviews of {user_id!r}"):
        col = _tenant(ledger, user_id)
        if col is None:
            return []
        res = col.query.fetch_objects(
            filters=Filter.by_property("entry_type").equal("review"), limit=limit,
            return_properties=_PROPERTIES)
    entries = [_entry(o) for o in res.objects]
    return sorted(entries, key=lambda e: (e.recorded_at or datetime.min.replace(
        tzinfo=timezone.utc), e.entry_id))


def ledger_users(ledger: LedgerStore) -> list[str]:
    """User ids of every tenant with a ledger, sorted (read from one entry of each tenant,
    since tenant names may be hashes of the user id)."""
    users = []
    with store_failure("cannot list the ledger's users"):
        col = ledger.client.collections.use(ledger.name)
        for name in ledger.tenants():
            res = col.with_tenant(name).query.fetch_objects(limit=1,
                                                            return_properties=["user_id"])
            if res.objects:
                users.append(str(res.objects[0].properties.get("user_id") or name))
    return sorted(users)
