"""The review actions over the store: the inbox of open entries, one entry with its memories,
and the three actions (see :mod:`scanner.review`).

An action holds the service's write lock from its idempotency check to its last write, so two
requests for the same entry (a double click) record one review: the second finds the first's
``review`` entry and writes nothing.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from scanner.core.ledger import (
    STATUS_DISMISSED,
    STATUS_OPEN,
    STATUS_SETTLED,
    STATUS_WITHDRAWN,
    LedgerEntry,
    review_round,
)
from scanner.errors import UnknownMemory
from scanner.models import MemoryRecord
from scanner.review.decisions import (
    OPEN_TYPES,
    EntryClosed,
    ReviewAction,
    ReviewError,
    UnknownEntry,
    check_reviewer,
    review_entry,
    review_entry_id,
    review_record,
)
from scanner.store.memories import StoredMemory, object_uuid
from scanner.store.reviews import ledger_users, open_entries

if TYPE_CHECKING:
    from scanner.service import Service


@dataclass
class ReviewItem:
    """One ledger entry as a reviewer sees it.

    Attributes:
        entry: the entry (open, or closed when looked up after a review).
        memories: member id -> the stored memory (absent when it vanished).
        review: the ``review`` entry that closed it, if any.
        settlement: the ``settlement`` entry named by ``settled_by``, if any.
    """

    entry: LedgerEntry
    memories: dict[str, StoredMemory] = field(default_factory=dict)
    review: LedgerEntry | None = None
    settlement: LedgerEntry | None = None


INBOX_MEMBERS = 3
"""Members of an item whose texts the inbox shows (:func:`members_in_order`: the recommended
one first); the item's page shows every member."""


@dataclass
class Inbox:
    """Open entries, newest first, and their counts.

    Attributes:
        items: the entries shown (after every filter).
        counts: ``{"total": n, "verdict": {...}, "severity": {...}, "relation": {...},
            "user": {...}}`` over the shown entries.
        users: every user with a ledger (for the user filter).
        texts: entry id -> member id -> the memory's text, for the first
            :data:`INBOX_MEMBERS` members of each item in :func:`members_in_order` (a member
            no longer stored is absent).
    """

    items: list[LedgerEntry]
    counts: dict[str, Any]
    users: list[str]
    texts: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass
class ReviewOutcome:
    """What one action did.

    Attributes:
        review: the ``review`` entry (the stored one when ``already``).
        item: the reviewed entry as stored afterwards.
        record: the review record written by ``current`` (None otherwise).
        already: True when the entry had been reviewed before: nothing was written.
        ledger: the entries the action left for this pair: the item, the review, the
            settlement named by the item and every verdict about the review record (a
            settlement, or a resolution where the record represents the chosen value).
    """

    review: LedgerEntry
    item: LedgerEntry
    record: MemoryRecord | None
    already: bool
    ledger: list[LedgerEntry]


def _known_form(entry_id: str, user_id: str) -> None:
    """Ledger entry ids are UUIDs (uuid5, :func:`scanner.core.ledger.entry_id`); anything else
    names no entry.

    Raises:
        UnknownEntry: ``entry_id`` is not a UUID.
    """
    try:
        uuid.UUID(entry_id)
    except (ValueError, TypeError, AttributeError):
        raise UnknownEntry(str(entry_id), user_id) from None


class ReviewService:
    """Inbox and actions over one :class:`scanner.service.Service`.

    Args:
        service: the sidecar's service (its store, ledger, write lock and scans).
    """

    def __init__(self, service: Service):
        self.service = service

    # -- reads ----------------------------------------------------------------------------
    def users(self) -> list[str]:
        """Users with a ledger, sorted."""
        return ledger_users(self.service.ledger)

    def inbox(self, user_id: str | None = None, *, relation: str | None = None,
              verdict: str | None = None, severity: str | None = None,
              limit: int = 500) -> Inbox:
        """Open entries of one user (or of every user), newest first.

        Args:
            user_id: one user's tenant, or None for every tenant.
            relation, verdict, severity: exact filters (None or empty = any).
            limit: most items returned (counts cover them).

        Raises:
            WeaviateUnavailable: the store does not answer.
        """
        users = self.users()
        wanted = [user_id] if user_id else users
        items: list[LedgerEntry] = []
        for uid in wanted:
            items.extend(open_entries(self.service.ledger, uid, OPEN_TYPES,
                                      relation=relation or None, verdict=verdict or None))
        if severity:
            items = [e for e in items if e.severity == severity]
        items.sort(key=lambda e: (e.recorded_at or datetime.min.replace(tzinfo=timezone.utc),
                                  e.entry_id), reverse=True)
        items = items[:limit]
        counts = {"total": len(items),
                  "verdict": dict(Counter(e.verdict or "?" for e in items).most_common()),
                  "severity": dict(Counter(e.severity or "?" for e in items).most_common()),
                  "relation": dict(Counter(e.key.relation if e.key else "?"
                                           for e in items).most_common()),
                  "user": dict(Counter(e.user_id for e in items).most_common())}
        return Inbox(items=items, counts=counts, users=users, texts=self._texts(items))

    def _texts(self, items: Sequence[LedgerEntry]) -> dict[str, dict[str, str]]:
        """:attr:`Inbox.texts` of ``items``: one store query per tenant and per 1,000 members
        shown."""
        shown = {e.entry_id: list(members_in_order(e))[:INBOX_MEMBERS] for e in items}
        wanted: dict[str, dict[str, None]] = {}
        for e in items:
            wanted.setdefault(e.user_id, {}).update(dict.fromkeys(shown[e.entry_id]))
        found: dict[tuple[str, str], str] = {}
        for uid, members in wanted.items():
            ids = [object_uuid(uid, m) for m in members]
            for start in range(0, len(ids), 1000):
                for m in self.service.store.iterate_by_uuid(uid, ids[start:start + 1000]):
                    found[(uid, m.record.id)] = m.record.text
        return {e.entry_id: {m: found[(e.user_id, m)] for m in shown[e.entry_id]
                             if (e.user_id, m) in found} for e in items}

    def item(self, user_id: str, entry_id: str) -> ReviewItem:
        """One entry with its members' stored memories, its review and its settlement.

        Raises:
            UnknownEntry: no such entry in the user's tenant, or it is no reviewable type.
        """
        _known_form(entry_id, user_id)
        ledger = self.service.ledger
        entry = ledger.fetch(user_id, [entry_id]).get(entry_id)
        if entry is None or entry.entry_type not in OPEN_TYPES:
            raise UnknownEntry(entry_id, user_id)
        rid = review_entry_id(user_id, entry_id, review_round(entry))
        found = ledger.fetch(user_id, [rid])
        settlement = None
        if entry.settled_by and entry.settled_by != rid:
            settlement = ledger.fetch(user_id, [entry.settled_by]).get(entry.settled_by)
        ids = [object_uuid(user_id, m) for m in entry.members]
        memories = {m.record.id: m for m in self.service.store.iterate_by_uuid(user_id, ids)}
        return ReviewItem(entry=entry, memories=memories, review=found.get(rid),
                          settlement=settlement)

    # -- the actions ----------------------------------------------------------------------
    def act(self, user_id: str, entry_id: str, action: ReviewAction | str, reviewer: str, *,
            chosen: str | None = None, now: datetime | None = None) -> ReviewOutcome:
        """Record one reviewer's decision on one open entry.

        Args:
            user_id: the entry's user (its tenant).
            entry_id: the open entry.
            action: ``current``, ``both_true`` or ``dismiss``.
            reviewer: who decides (:data:`scanner.review.decisions.REVIEWER_PATTERN`).
            chosen: for ``current``, the member id that is current.
            now: the decision time (UTC; default now).

        Returns:
            The outcome; ``already`` when the entry was reviewed before (nothing written).

        Raises:
            ReviewError: an invalid action, reviewer or chosen member (names the field).
            UnknownEntry: no such entry for the user.
            EntryClosed: the entry is not open (and was not reviewed).
            WeaviateUnavailable, StoreWriteError: the store failed; a repeated request
                completes the action (every write is idempotent).
        """
        try:
            action = ReviewAction(action)
        except ValueError:
            raise ReviewError("action", f"{action!r} is not one of "
                                        f"{', '.join(a.value for a in ReviewAction)}") from None
        check_reviewer(reviewer)
        _known_form(entry_id, user_id)
        svc = self.service
        with svc.writes:
            item = svc.ledger.fetch(user_id, [entry_id]).get(entry_id)
            if item is None or item.entry_type not in OPEN_TYPES:
                raise UnknownEntry(entry_id, user_id)
            rid = review_entry_id(user_id, entry_id, review_round(item))
            found = svc.ledger.fetch(user_id, [rid])
            if rid in found:
                return self._outcome(user_id, found[rid], already=True)
            if item.status != STATUS_OPEN:
                raise EntryClosed(entry_id, item.entry_type, item.status)
            now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
            record = None
            if action is ReviewAction.current:
                if chosen not in item.members:
                    raise ReviewError("chosen", "'current' needs the id of one member of the "
                                                f"entry ({', '.join(item.members)})")
                try:
                    member = svc.store.get(user_id, chosen).record
                except UnknownMemory:
                    raise ReviewError("chosen", f"member {chosen!r} is no longer stored") \
                        from None
                record = review_record(item, member, reviewer, now)
                svc.import_records([record])
            review = review_entry(item, action, reviewer, now, chosen=chosen, record=record)
            svc.ledger.write(user_id, [review])
            svc.reviews.forget(user_id)
            if action is not ReviewAction.current:
                status = STATUS_DISMISSED if action is ReviewAction.dismiss else STATUS_SETTLED
                self._close(user_id, item, status, rid)
            # a full pass over the tenant: the settlement rule (or the decision) settles the
            # pair, and members nothing holds open any more return to active
            svc.scan_tenant(user_id, keep_report=False, full=True)
            if action is ReviewAction.current:
                after = svc.ledger.fetch(user_id, [entry_id]).get(entry_id)
                if after is not None and after.status in (STATUS_OPEN, STATUS_WITHDRAWN):
                    # the scan no longer forms this pair (e.g. a member's key changed, or the
                    # review record decides it under another rule): the decision closes it
                    self._close(user_id, after, STATUS_SETTLED, rid)
            return self._outcome(user_id, review, already=False)

    def _close(self, user_id: str, item: LedgerEntry, status: str, by: str) -> None:
        closed = item.model_copy(update={"status": status, "settled_by": by, "question": None})
        self.service.ledger.write(user_id, [closed], existing={item.entry_id: item})

    def _outcome(self, user_id: str, review: LedgerEntry, *, already: bool) -> ReviewOutcome:
        ledger = self.service.ledger
        item_id = review.settles or ""
        item = ledger.fetch(user_id, [item_id]).get(item_id)
        if item is None:  # never: a review names the entry it was recorded for
            raise UnknownEntry(item_id, user_id)
        ids = [item.entry_id, review.entry_id]
        if item.settled_by and item.settled_by not in ids:
            ids.append(item.settled_by)
        stored = ledger.fetch(user_id, ids)
        if review.settler:  # what the review record's verdicts wrote (settlement, resolution)
            for e in ledger.for_memories(user_id, [review.settler]):
                if e.entry_id not in stored:
                    stored[e.entry_id] = e
                    ids.append(e.entry_id)
        record = None
        if review.settler:
            try:
                record = self.service.store.get(user_id, review.settler).record
            except UnknownMemory:
                record = None
        return ReviewOutcome(review=stored.get(review.entry_id, review), item=item,
                             record=record, already=already,
                             ledger=[stored[i] for i in ids if i in stored])


def recommended_member(entry: LedgerEntry) -> str | None:
    """The member the policy would keep (an escalation's ``recommended["keep"]``), or None:
    a quarantine, an epoch change or a ``possible`` pair recommends none (an epoch change's
    ``latest`` is no winner, SPEC §3)."""
    keep = (entry.recommended or {}).get("keep")
    return keep if keep in entry.members else None


def members_in_order(entry: LedgerEntry) -> Sequence[str]:
    """The entry's members as the review pages list them: the recommended one
    (:func:`recommended_member`) first, then by id with the ``latest`` one last."""
    keep = recommended_member(entry)
    return sorted(entry.members, key=lambda m: (m != keep, m == entry.latest, m))
