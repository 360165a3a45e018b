"""Review decisions as values: the record a reviewer's choice writes, the ``review`` ledger
entry that keeps the decision, and what decisions do to a scan's verdicts. Pure.

The rules (issue 17):

* ``current`` settles through the existing settlement rule wherever it applies: the review
  record is a later observation of the key, with intact provenance, of source class ``user``,
  in the pair's epoch (:func:`pair_epoch`, the epoch :func:`scanner.core.settlement.settlement`
  requires). Where the rule cannot settle (escalations, ``possible`` pairs, identity questions,
  a member more trusted than a person), :func:`apply_reviews` settles the pair by the review
  record itself, so the verdict reads the same as a re-observation's (``settled_by`` = the
  review record, ``superseded`` = the members not holding the chosen value) and carries the
  reason ``settled:review@<record>``. A resolution that would retire the chosen value in
  favour of a value observed before the review is overridden (rule ``review``, reason
  ``override:review``), as SPEC §3 logs a recency override.
* ``both_true`` makes the key several-valued for this user: value mismatches on the key are no
  conflict (SPEC §2, multi-valued row), and the reviewed pair is dropped whatever its kind.
* ``dismiss`` changes no verdict: the pair stays unresolved and only its entry is closed.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from scanner.core.ledger import STATUS_RECORDED, LedgerEntry, review_entry_id, review_round
from scanner.errors import ScannerError
from scanner.models import Conflict, ConflictKey, EpochChangeEvent, MemoryRecord, SourceClass

REVIEW_SOURCE_PREFIX = "review:"
"""Source of a review record: ``review:<reviewer>``."""
REVIEW_RULE = "review"
"""Rule recorded on a resolution a reviewer's decision overrode."""
REVIEWER_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")
"""A reviewer name: 1-64 characters, letters, digits and ``. _ @ -`` (it becomes part of a
memory's ``source``)."""
OPEN_TYPES = ("quarantine", "epoch_change", "escalation", "possible")
"""Ledger entry types a person can review (those whose status can be ``open``)."""


class ReviewAction(str, enum.Enum):
    """What a reviewer decided about one open entry."""

    current = "current"
    """This member is current: a review record restating it settles the pair."""
    both_true = "both_true"
    """Both values hold: the key is several-valued for this user."""
    dismiss = "dismiss"
    """Closed without choosing."""


class ReviewError(ScannerError):
    """A review that cannot be recorded as asked (names the field at fault)::

        ScannerError
        └── ReviewError        a review request is invalid (names the field)
            ├── UnknownEntry   no such ledger entry for that user
            └── EntryClosed    the entry is not open (nothing to review)

    Attributes:
        field: the request field (``action``, ``chosen``, ``reviewer``, ``entry_id``).
        reason: what is wrong with it.
    """

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class UnknownEntry(ReviewError):
    """No ledger entry with this id in the user's tenant."""

    def __init__(self, entry_id: str, user_id: str):
        super().__init__("entry_id", f"no ledger entry {entry_id!r} for user {user_id!r}")
        self.entry_id = entry_id
        self.user_id = user_id


class EntryClosed(ReviewError):
    """The entry is not an open quarantine, epoch change, escalation or possible conflict."""

    def __init__(self, entry_id: str, entry_type: str, status: str):
        super().__init__("entry_id", f"entry {entry_id} ({entry_type}) is {status}, "
                                     "not open: nothing to review")
        self.entry_id = entry_id
        self.status = status


def check_reviewer(reviewer: str) -> str:
    """The reviewer name, checked against :data:`REVIEWER_PATTERN`.

    Raises:
        ReviewError: on field ``reviewer``.
    """
    if not isinstance(reviewer, str) or not REVIEWER_PATTERN.match(reviewer):
        raise ReviewError("reviewer", "1-64 characters: letters, digits and . _ @ - "
                                      "(starting with a letter or digit)")
    return reviewer


def review_record_id(item_id: str) -> str:
    """The memory id of the record a ``current`` review of ``item_id`` writes."""
    return f"review-{item_id}"


def _when(value: Any) -> datetime | None:
    if not value:
        return None
    try:
        t = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def pair_epoch(item: LedgerEntry) -> str | None:
    """The epoch a review record of ``item`` is written in: for an epoch change the
    ``latest`` member's, otherwise the newest dated member's (the target epoch of
    :func:`scanner.core.settlement.settlement`), else any member's, else None."""
    inputs = item.inputs
    if item.entry_type == "epoch_change" and item.latest in inputs:
        epoch = inputs[item.latest].get("epoch")
        if epoch:
            return epoch
    dated = [(_when(inputs[m].get("observed_at")), m) for m in item.members
             if m in inputs and inputs[m].get("epoch")]
    dated.sort(key=lambda tm: (tm[0] is not None, tm[0] or datetime.min.replace(
        tzinfo=timezone.utc), tm[1]))
    if dated:
        return inputs[dated[-1][1]]["epoch"]
    return None


def review_record(item: LedgerEntry, chosen: MemoryRecord, reviewer: str,
                  observed_at: datetime) -> MemoryRecord:
    """The memory a ``current`` review writes: the chosen member's text and scope, source
    ``review:<reviewer>``, source class ``user``, observed at ``observed_at`` (UTC), in the
    pair's epoch (:func:`pair_epoch`).

    Raises:
        ReviewError: ``chosen`` is not a member of ``item`` (field ``chosen``).
    """
    if chosen.id not in item.members:
        raise ReviewError("chosen", f"{chosen.id!r} is not a member of entry {item.entry_id}")
    return MemoryRecord(
        id=review_record_id(item.entry_id), text=chosen.text, user_id=item.user_id,
        group=chosen.group, properties=dict(chosen.properties),
        source=REVIEW_SOURCE_PREFIX + check_reviewer(reviewer),
        source_class=SourceClass.user, observed_at=observed_at.astimezone(timezone.utc),
        epoch=pair_epoch(item) or chosen.epoch)


def review_entry(item: LedgerEntry, action: ReviewAction, reviewer: str,
                 decided_at: datetime, *, chosen: str | None = None,
                 record: MemoryRecord | None = None) -> LedgerEntry:
    """The ``review`` ledger entry of one decision.

    Args:
        item: the open entry reviewed.
        action: the decision.
        reviewer: who decided (:data:`REVIEWER_PATTERN`).
        decided_at: when (UTC).
        chosen: for ``current``, the member chosen.
        record: for ``current``, the review record written.

    Returns:
        An entry concerning the item's members (and the review record), naming the item in
        ``settles``; for ``current``, ``superseded`` lists the members whose value differs
        from the chosen one and ``confirmed`` the chosen member; ``data`` holds action, reviewer, chosen member and value, record id,
        decision time and the item's type.

    Raises:
        ReviewError: ``current`` without a chosen member of the item or a record.
    """
    check_reviewer(reviewer)
    if action is ReviewAction.current:
        if chosen not in item.members:
            raise ReviewError("chosen", "'current' needs the id of one member of the entry "
                                        f"({', '.join(item.members)})")
        if record is None:
            raise ReviewError("chosen", "'current' needs the review record")
    values = dict(item.values)
    inputs = {m: dict(i) for m, i in item.inputs.items()}
    if record is not None and chosen is not None:
        values[record.id] = item.values.get(chosen, "")
        inputs[record.id] = {"source": record.source, "source_class": record.source_class.value,
                             "observed_at": record.observed_at.isoformat()
                             if record.observed_at else None,
                             "epoch": record.epoch, "confidence": record.confidence}
    stamp = decided_at.astimezone(timezone.utc).isoformat()
    retired: list[str] = []
    if chosen is not None:  # what the decision retires: members not holding the chosen value
        retired = [m for m in item.members
                   if m != chosen and item.values.get(m) != item.values.get(chosen)]
    return LedgerEntry(
        entry_id=review_entry_id(item.user_id, item.entry_id, review_round(item)),
        entry_type="review",
        user_id=item.user_id, status=STATUS_RECORDED, key=item.key, kind=item.kind,
        members=list(item.members), values=values, verdict=item.verdict,
        rule=f"{REVIEW_RULE}:{action.value}", reasons=[f"reviewer:{reviewer}"],
        severity=item.severity, settler=record.id if record is not None else None,
        superseded=retired, confirmed=[chosen] if chosen is not None else [],
        inputs=inputs, config=dict(item.config), question=item.question,
        settles=item.entry_id,
        data={"action": action.value, "reviewer": reviewer, "chosen": chosen,
              "value": item.values.get(chosen) if chosen else None,
              "record": record.id if record is not None else None, "decided_at": stamp,
              "item_type": item.entry_type, "item_rule": item.rule})


@dataclass(frozen=True)
class ReviewDecision:
    """A decision as scans apply it (read back from a ``review`` entry).

    Attributes:
        action: the decision.
        key: the reviewed entry's key.
        members: the reviewed entry's members (a pair, or a key's dispute), sorted.
        value: for ``current``, the chosen value.
        chosen: for ``current``, the chosen member.
        record: for ``current``, the review record's id.
        decided_at: when (UTC).
        reviewer: who.
    """

    action: ReviewAction
    key: ConflictKey
    members: tuple[str, ...]
    value: str | None
    chosen: str | None
    record: str | None
    decided_at: datetime
    reviewer: str


def decision_of(entry: LedgerEntry) -> ReviewDecision | None:
    """The decision a ``review`` entry records (None for other entries or a broken one)."""
    if entry.entry_type != "review" or entry.key is None:
        return None
    d = entry.data
    try:
        action = ReviewAction(d.get("action"))
    except ValueError:
        return None
    decided = _when(d.get("decided_at"))
    if decided is None:
        return None
    return ReviewDecision(action=action, key=entry.key, members=tuple(sorted(entry.members)),
                          value=d.get("value"), chosen=d.get("chosen"), record=d.get("record"),
                          decided_at=decided, reviewer=str(d.get("reviewer") or "?"))


_UNSETTLED = ("quarantined", "epoch_change", "escalated", "possible")


def _before(c: Conflict, member: str, at: datetime) -> bool:
    """Whether a member was observed no later than ``at`` (unknown times count as before)."""
    seen = _when(c.inputs.get(member, {}).get("observed_at"))
    return seen is None or seen <= at


def _holds(c: Conflict, member: str, d: ReviewDecision) -> bool:
    return member in (d.chosen, d.record) or (d.value is not None
                                              and c.values.get(member) == d.value)


def _same_pair(c: Conflict, d: ReviewDecision) -> bool:
    """Whether the decision was about this pair: both members are among the reviewed
    entry's (a pair, or a key's dispute, :mod:`scanner.core.open_state`)."""
    return c.key.user_id == d.key.user_id and set(c.members) <= set(d.members)


def _covers(c: Conflict, d: ReviewDecision) -> bool:
    return c.key == d.key or _same_pair(c, d)


def _settle(c: Conflict, d: ReviewDecision) -> Conflict:
    if c.settled_by or d.record is None:
        return c
    if c.verdict in _UNSETTLED:
        holding = [m for m in c.members if _holds(c, m, d)]
        retire = [m for m in c.members if not _holds(c, m, d) and _before(c, m, d.decided_at)]
        if not holding or not retire:
            return c
        return c.model_copy(update={
            "settled_by": d.record, "superseded": sorted(retire), "question": None,
            "reasons": [*c.reasons, f"settled:{REVIEW_RULE}@{d.record}"]})
    if c.verdict == "resolved" and c.winner and c.superseded:
        loser = c.superseded[0]
        if (not _holds(c, c.winner, d) and _before(c, c.winner, d.decided_at)
                and _holds(c, loser, d)):
            return c.model_copy(update={
                "winner": loser, "superseded": [c.winner], "latest": loser,
                "rule": REVIEW_RULE,
                "reasons": [*c.reasons, f"override:review by {d.reviewer} at "
                                        f"{d.decided_at.isoformat()}"]})
    return c


def apply_reviews(conflicts: Sequence[Conflict], events: Sequence[EpochChangeEvent],
                  decisions: Iterable[ReviewDecision]
                  ) -> tuple[list[Conflict], list[EpochChangeEvent]]:
    """A scan's verdicts with the reviewers' decisions applied (rules in the module docstring).

    Args:
        conflicts: the scan's conflicts (one tenant).
        events: its epoch-change events.
        decisions: the tenant's review decisions (any order; applied oldest first).

    Returns:
        New lists: pairs of several-valued keys dropped (with their events), pairs a
        ``current`` decision covers settled or overridden. Inputs are not mutated.
    """
    decisions = sorted(decisions, key=lambda d: (d.decided_at, d.members))
    several = [d for d in decisions if d.action is ReviewAction.both_true]
    chosen = [d for d in decisions if d.action is ReviewAction.current]
    if not several and not chosen:
        return list(conflicts), list(events)
    out: list[Conflict] = []
    dropped: set[tuple[str, ...]] = set()
    for c in conflicts:
        pair = tuple(sorted(c.members))
        if any(_same_pair(c, d) or (c.key == d.key and c.kind == "value_mismatch")
               for d in several):
            dropped.add(pair)
            continue
        for d in chosen:
            if _covers(c, d):
                c = _settle(c, d)
        out.append(c)
    kept = [e for e in events
            if tuple(sorted((e.from_["id"], e.to["id"]))) not in dropped]
    return out, kept


def narrate_review(entry: LedgerEntry) -> str:
    """One plain sentence for ``contrascan history``."""
    d = entry.data
    key = f"{entry.key.subject} · {entry.key.relation}" if entry.key else ""
    who = d.get("reviewer") or "?"
    what = {"quarantine": "quarantine", "epoch_change": "epoch change",
            "escalation": "escalation", "possible": "possible conflict"}.get(
        d.get("item_type") or "", "entry")
    pair = " / ".join(entry.members)
    head = f"review by {who} at {d.get('decided_at')} of the {what} {pair} on {key}"
    action = d.get("action")
    if action == ReviewAction.current.value:
        return (f"{head}: {d.get('chosen')} “{d.get('value')}” is current; wrote "
                f"{d.get('record')} (source {REVIEW_SOURCE_PREFIX}{who}, user) to settle it")
    if action == ReviewAction.both_true.value:
        values = "; ".join(f"{m} “{entry.values.get(m)}”" for m in entry.members)
        return (f"{head}: both are true ({values}); {key} holds several values for this "
                f"user, so its value mismatches are no conflict")
    return f"{head}: dismissed without choosing (members stay unresolved)"
