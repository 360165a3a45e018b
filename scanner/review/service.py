"""The review actions over the store: the inbox of open entries, one entry with its memories,
and the three actions (see :mod:`scanner.review`).

An action holds the service's write lock from its idempotency check to its last write, so two
requests for the same entry (a double click) record one review: the second finds the first's
``review`` entry and writes nothing.

Besides contrascan's own ledger, the inbox reads the ledger of every attached source that has
one (``serve --sources FILE``, :class:`scanner.sources.registry.AttachedSources`): each item
says which source it is from (``source``: its name, None for contrascan's own memories), and
an item, its actions and its members' history are looked up under that source. An attached
source is a :class:`~scanner.service.Service` over its triple cache and ledger, so the same
actions apply to it; the review record of ``current`` is kept in its triple cache
(``ContrascanSource<Name>``), never in the agent's collection.
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
from pydantic import Field

from scanner.errors import UnknownMemory, UnknownSource
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
    from scanner.sources.registry import AttachedSources


class InboxEntry(LedgerEntry):
    """An open ledger entry as the inbox lists it: the entry, and the ledger it is kept in."""

    source: str | None = Field(None, description="The attached source whose ledger holds the "
                                                 "entry (its name in `serve --sources`); null "
                                                 "for contrascan's own memory collection. "
                                                 "Give it back to `POST /v1/reviews`.")


def sourced(entry: LedgerEntry, source: str | None) -> InboxEntry:
    """``entry`` marked with the ledger it came from (``source``: None = contrascan's own)."""
    return InboxEntry.model_construct(**dict(entry), source=source)


@dataclass
class ReviewItem:
    """One ledger entry as a reviewer sees it.

    Attributes:
        entry: the entry (open, or closed when looked up after a review).
        memories: member id -> the stored memory (absent when it vanished); for an
            attached source, the memory as its triple cache holds it: the text and
            provenance read from the agent's object when it was last scanned.
        review: the ``review`` entry that closed it, if any.
        settlement: the ``settlement`` entry named by ``settled_by``, if any.
    """

    entry: LedgerEntry
    memories: dict[str, StoredMemory] = field(default_factory=dict)
    review: LedgerEntry | None = None
    settlement: LedgerEntry | None = None
    source: str | None = None
    """The attached source the entry is kept for (None: contrascan's own memories)."""
    collection: str | None = None
    """The attached source's collection (the agent's, as named in Weaviate), or None."""


INBOX_MEMBERS = 3
"""Members of an item whose texts the inbox shows (:func:`members_in_order`: the recommended
one first); the item's page shows every member."""


@dataclass
class Inbox:
    """Open entries, newest first, and their counts.

    Attributes:
        items: the entries shown (after every filter), each with its ``source``.
        counts: ``{"total": n, "verdict": {...}, "severity": {...}, "relation": {...},
            "user": {...}, "source": {...}}`` over the shown entries (``source`` counts
            attached sources by name; contrascan's own entries are not in it).
        users: every user with a ledger (for the user filter).
        texts: ``(source, entry id)`` -> member id -> the memory's text, for the first
            :data:`INBOX_MEMBERS` members of each item in :func:`members_in_order` (a member
            no longer stored is absent); :meth:`texts_of` reads it.
        sources: the attached sources read (name -> the agent's collection), for the
            source filter.
    """

    items: list[InboxEntry]
    counts: dict[str, Any]
    users: list[str]
    texts: dict[tuple[str | None, str], dict[str, str]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def texts_of(self, entry: InboxEntry) -> dict[str, str]:
        """Member id -> text of the members of ``entry`` the inbox shows."""
        return self.texts.get((entry.source, entry.entry_id), {})


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
    """Inbox and actions over one :class:`scanner.service.Service` and its attached sources.

    Args:
        service: the sidecar's service (its store, ledger, write lock and scans).
        sources: the attached sources the sidecar serves; their ledgers are read with
            contrascan's own, and an item of one is looked up with its name (``source``).
    """

    def __init__(self, service: Service, sources: AttachedSources | None = None):
        self.service = service
        self.sources = sources

    def book(self, source: str | None = None) -> Service:
        """The service whose ledger keeps ``source``'s entries: contrascan's own for None,
        else the attached source of that name.

        Raises:
            UnknownSource: no attached source of that name.
            ConfigurationError: its collection cannot be attached.
        """
        if source is None:
            return self.service
        if self.sources is None:
            raise UnknownSource(source)
        return self.sources.get(self.service, source)

    def _books(self, source: str | None = None) -> list[tuple[str | None, Service]]:
        """(source name, service) of every ledger the inbox reads: contrascan's own first,
        then each attached source that has one; only ``source``'s when it is given."""
        if source is not None:
            return [(source, self.book(source))]
        books: list[tuple[str | None, Service]] = [(None, self.service)]
        if self.sources is not None:
            books.extend(sorted(self.sources.with_ledger(self.service).items()))
        return books

    # -- reads ----------------------------------------------------------------------------
    def users(self) -> list[str]:
        """Users with a ledger (contrascan's own or an attached source's), sorted."""
        return sorted({u for _, svc in self._books() for u in ledger_users(svc.ledger)})

    def inbox(self, user_id: str | None = None, *, relation: str | None = None,
              verdict: str | None = None, severity: str | None = None,
              source: str | None = None, limit: int = 500) -> Inbox:
        """Open entries of one user (or of every user), newest first, from contrascan's own
        ledger and every attached source's.

        Args:
            user_id: one user's tenant, or None for every tenant.
            relation, verdict, severity: exact filters (None or empty = any).
            source: only this attached source's entries (None = every ledger).
            limit: most items returned (counts cover them).

        Raises:
            UnknownSource: ``source`` names no attached source.
            WeaviateUnavailable: the store does not answer.
        """
        books = self._books(source or None)
        tenants = {name: ledger_users(svc.ledger) for name, svc in books}
        users = sorted({u for found in tenants.values() for u in found})
        items: list[InboxEntry] = []
        for name, svc in books:
            for uid in ([user_id] if user_id else tenants[name]):
                items.extend(sourced(e, name) for e in open_entries(
                    svc.ledger, uid, OPEN_TYPES, relation=relation or None,
                    verdict=verdict or None))
        if severity:
            items = [e for e in items if e.severity == severity]
        items.sort(key=lambda e: (e.recorded_at or datetime.min.replace(tzinfo=timezone.utc),
                                  e.entry_id, e.source or ""), reverse=True)
        items = items[:limit]
        counts = {"total": len(items),
                  "verdict": dict(Counter(e.verdict or "?" for e in items).most_common()),
                  "severity": dict(Counter(e.severity or "?" for e in items).most_common()),
                  "relation": dict(Counter(e.key.relation if e.key else "?"
                                           for e in items).most_common()),
                  "user": dict(Counter(e.user_id for e in items).most_common()),
                  "source": dict(Counter(e.source for e in items if e.source).most_common())}
        texts: dict[tuple[str | None, str], dict[str, str]] = {}
        for name, svc in books:
            mine = [e for e in items if e.source == name]
            texts.update(((name, eid), t) for eid, t in _texts(svc, mine).items())
        return Inbox(items=items, counts=counts, users=users, texts=texts,
                     sources={name: svc.mapping.collection for name, svc in books
                              if name is not None})

    def item(self, user_id: str, entry_id: str, source: str | None = None) -> ReviewItem:
        """One entry with its members' stored memories, its review and its settlement.

        Args:
            user_id, entry_id: the entry, in the user's tenant.
            source: the attached source whose ledger keeps it (None: contrascan's own).

        Raises:
            UnknownEntry: no such entry in the user's tenant, or it is no reviewable type.
            UnknownSource: ``source`` names no attached source.
        """
        _known_form(entry_id, user_id)
        svc = self.book(source)
        ledger = svc.ledger
        entry = ledger.fetch(user_id, [entry_id]).get(entry_id)
        if entry is None or entry.entry_type not in OPEN_TYPES:
            raise UnknownEntry(entry_id, user_id)
        rid = review_entry_id(user_id, entry_id, review_round(entry))
        found = ledger.fetch(user_id, [rid])
        settlement = None
        if entry.settled_by and entry.settled_by != rid:
            settlement = ledger.fetch(user_id, [entry.settled_by]).get(entry.settled_by)
        ids = [object_uuid(user_id, m) for m in entry.members]
        memories = {m.record.id: m for m in svc.store.iterate_by_uuid(user_id, ids)}
        return ReviewItem(entry=entry, memories=memories, review=found.get(rid),
                          settlement=settlement, source=source,
                          collection=svc.mapping.collection if source is not None else None)

    # -- the actions ----------------------------------------------------------------------
    def act(self, user_id: str, entry_id: str, action: ReviewAction | str, reviewer: str, *,
            chosen: str | None = None, now: datetime | None = None,
            source: str | None = None) -> ReviewOutcome:
        """Record one reviewer's decision on one open entry.

        Args:
            user_id: the entry's user (its tenant).
            entry_id: the open entry.
            action: ``current``, ``both_true`` or ``dismiss``.
            reviewer: who decides (:data:`scanner.review.decisions.REVIEWER_PATTERN`).
            chosen: for ``current``, the member id that is current.
            now: the decision time (UTC; default now).
            source: the attached source whose ledger keeps the entry (None: contrascan's
                own). Its review record goes to the source's triple cache, and in the opt-in
                status mode the new statuses onto the agent's objects
                (:meth:`scanner.sources.service.AttachedSource.after_review`).

        Returns:
            The outcome; ``already`` when the entry was reviewed before (nothing written).

        Raises:
            ReviewError: an invalid action, reviewer or chosen member (names the field).
            UnknownEntry: no such entry for the user.
            UnknownSource: ``source`` names no attached source.
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
        svc = self.book(source)
        with svc.writes:
            item = svc.ledger.fetch(user_id, [entry_id]).get(entry_id)
            if item is None or item.entry_type not in OPEN_TYPES:
                raise UnknownEntry(entry_id, user_id)
            rid = review_entry_id(user_id, entry_id, review_round(item))
            found = svc.ledger.fetch(user_id, [rid])
            if rid in found:
                return _outcome(svc, user_id, found[rid], already=True)
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
                _close(svc, user_id, item, status, rid)
            # a full pass over the tenant: the settlement rule (or the decision) settles the
            # pair, and members nothing holds open any more return to active
            svc.scan_tenant(user_id, keep_report=False, full=True)
            if action is ReviewAction.current:
                after = svc.ledger.fetch(user_id, [entry_id]).get(entry_id)
                if after is not None and after.status in (STATUS_OPEN, STATUS_WITHDRAWN):
                    # the scan no longer forms this pair (e.g. a member's key changed, or the
                    # review record decides it under another rule): the decision closes it
                    _close(svc, user_id, after, STATUS_SETTLED, rid)
            if source is not None:
                svc.after_review(user_id)  # type: ignore[attr-defined]
            return _outcome(svc, user_id, review, already=False)


def _texts(svc: Service, items: Sequence[LedgerEntry]) -> dict[str, dict[str, str]]:
    """Entry id -> member id -> text of the first :data:`INBOX_MEMBERS` members of each of
    ``items`` (all of ``svc``'s ledger): one store query per tenant and per 1,000 members."""
    shown = {e.entry_id: list(members_in_order(e))[:INBOX_MEMBERS] for e in items}
    wanted: dict[str, dict[str, None]] = {}
    for e in items:
        wanted.setdefault(e.user_id, {}).update(dict.fromkeys(shown[e.entry_id]))
    found: dict[tuple[str, str], str] = {}
    for uid, members in wanted.items():
        ids = [object_uuid(uid, m) for m in members]
        for start in range(0, len(ids), 1000):
            for m in svc.store.iterate_by_uuid(uid, ids[start:start + 1000]):
                found[(uid, m.record.id)] = m.record.text
    return {e.entry_id: {m: found[(e.user_id, m)] for m in shown[e.entry_id]
                         if (e.user_id, m) in found} for e in items}


def _close(svc: Service, user_id: str, item: LedgerEntry, status: str, by: str) -> None:
    closed = item.model_copy(update={"status": status, "settled_by": by, "question": None})
    svc.ledger.write(user_id, [closed], existing={item.entry_id: item})


def _outcome(svc: Service, user_id: str, review: LedgerEntry, *, already: bool
             ) -> ReviewOutcome:
    ledger = svc.ledger
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
            record = svc.store.get(user_id, review.settler).record
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
