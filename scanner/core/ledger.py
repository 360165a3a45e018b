"""The resolution ledger, as values: what each verdict, epoch change, quarantine, escalation,
settlement and import leaves behind. Pure; the Weaviate side is :mod:`scanner.store.ledger`.
What the verdicts do to the memories is :mod:`scanner.core.effects`, the statistics counted
from entries :mod:`scanner.core.ledger_stats`, and an entry told as a sentence
:mod:`scanner.narration`.

Seed 000's failure to prevent is "a memory that is confident, consistent, and unable to explain
itself": so every verdict becomes a :class:`LedgerEntry` that keeps its rule, the provenance it
read, the configuration it ran under and the memories it concerns. Entry ids are uuid5 values of
``(tenant, entry type, pair, rule)``, or for a key's dispute ``(tenant, entry type, key, rule)``:
the same verdict always has the same id, so a re-run writes nothing new and two scanners of
one tenant converge on the same objects.

Entry types (``entry_type``) and their ``status``:

====================  =====================================================  ==============
``resolution``        a pair resolved; the loser is superseded                ``applied``
``quarantine``        a key's values left unresolved, each member once;      ``open`` /
                      carries a re-observation request and a clarification    ``settled`` /
                      question                                                ``moot``
``epoch_change``      a key's values across epochs, each member once: old     ``open`` /
                      and new value, epochs and sources; re-observation       ``settled`` /
                      requested                                               ``moot``
``escalation``        queued for a person, with a recommended resolution      ``open``
``possible``          unknown relation cardinality: reported, never decided   ``open``
``settlement``        a later record settled pairs of a quarantine or epoch   ``applied``
                      change
``import``            one import of memories into the tenant                  ``recorded``
``read_scans``        read-time scans of one process: how many, how many      ``recorded``
                      held incompatible values for one key
``review``            a person's decision on an open entry (this one is       ``recorded``
                      current / both are true / dismiss), see
                      :mod:`scanner.review`
====================  =====================================================  ==============

A pair nothing settles, one of whose members the settlement of another pair retired, is
``moot`` (:func:`scanner.core.report.is_moot`: a record never settles a pair it belongs to). An open
entry a person dismissed has status ``dismissed``; one a person declared several-valued
("both are true") is ``settled`` by its ``review`` entry.

A settled entry names its ``settlement`` (``settled_by``) and the settlement names it back
(``settles``): the ledger shows both steps.

A key's resolutions are recorded once per superseded member
(:func:`scanner.core.key_decision.deciding_resolutions`), and its quarantined or epoch-change
pairs as one dispute listing each member once (:mod:`scanner.core.open_state`), not once per
pair: O(values) entries per key resolved, quarantined or changed across epochs (an escalated
or possible pair, which a person reads on its own, keeps an entry of its own). An entry of a
scan type
that a batch scan of the whole tenant no longer makes keeps its content with status
``withdrawn`` (:func:`scanner.core.convergence.withdrawals`): history, not state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scanner.core.key_decision import deciding_resolutions
from scanner.core.ledger_terms import (
    CLOSED_STATUSES,
    NAMESPACE,
    REVIEW_ROUND,
    STATUS_APPLIED,
    STATUS_DISMISSED,
    STATUS_MOOT,
    STATUS_OPEN,
    STATUS_RECORDED,
    STATUS_SETTLED,
    STATUS_WITHDRAWN,
    entry_id,
    review_entry_id,
)
from scanner.core.open_state import (
    MERGED_TYPES,
    STATE_TYPES,
    key_content,
    merged,
    settlement_id,
    state_contents,
    state_entry_id,
)
from scanner.core.report import is_moot
from scanner.core.settlement import REOBSERVATION
from scanner.models import Conflict, ConflictKey, EpochChangeEvent

__all__ = ["CLOSED_STATUSES", "CONFLICT_TYPES", "NAMESPACE", "REVIEW_ROUND", "SCAN_TYPES",
           "STATUS_APPLIED", "STATUS_DISMISSED", "STATUS_MOOT", "STATUS_OPEN",
           "STATUS_RECORDED", "STATUS_SETTLED", "STATUS_WITHDRAWN", "LedgerEntry",
           "closed_by_person", "combined", "conflict_entry_id", "content_digest",
           "entries_for", "entry_contents", "entry_id", "import_entry", "read_scans_entry",
           "reconcile_settled", "review_entry_id", "review_round", "settlement_entry_id",
           "should_replace"]

EntryType = Literal["resolution", "quarantine", "epoch_change", "escalation", "possible",
                    "settlement", "import", "read_scans", "review"]
CONFLICT_TYPES = ("resolution", "quarantine", "epoch_change", "escalation", "possible")
"""Entry types that record conflicting pairs (a quarantine or an epoch change: a key's
dispute, :mod:`scanner.core.open_state`)."""
SCAN_TYPES = (*CONFLICT_TYPES, "settlement")
"""Entry types a scan writes (:func:`entry_contents`); ``import`` and ``read_scans`` entries
are statistics, written by imports and read-time scans."""
_TYPE_OF_VERDICT = {"resolved": "resolution", "quarantined": "quarantine",
                    "epoch_change": "epoch_change", "escalated": "escalation",
                    "possible": "possible"}


_DIGEST_JSON = json.JSONEncoder(sort_keys=True, check_circular=False)
"""``json.dumps(content, sort_keys=True)``'s encoder, built once and without the circular
reference check (a content is a tree of plain JSON types): the same text, and a batch scan
encodes one content per conflict."""


def content_digest(content: Mapping[str, Any]) -> str:
    """sha256 of an entry's content (:meth:`LedgerEntry.content`, plain JSON types): equal
    digests mean nothing to write."""
    return hashlib.sha256(_DIGEST_JSON.encode(content).encode()).hexdigest()


class LedgerEntry(BaseModel):
    """One object of the ledger collection (see the module docstring for the types).

    Attributes:
        entry_id: uuid5 of ``(user_id, entry_type, *members, rule)``; of a key's dispute
            :func:`scanner.core.open_state.state_entry_id`.
        members: memory ids of the pair, or of every pair of a dispute (each once), sorted;
            the settler too is listed in :meth:`concerns`.
        values: member id -> value as the scan read it.
        inputs: member id -> the provenance fields the policy read (source, source class,
            observed_at, epoch, confidence); for a settlement also the settler's.
        config: the policy settings the verdict ran under (strategy, ``single_epoch``,
            ``epoch_property``, ``recency_override``, safety relation).
        request: for quarantines and epoch changes, what to re-observe: ``{"what", "subject",
            "relation", "scope", "why", "missing", "in_epoch", "after"}``.
        recommended: for escalations, ``{"keep", "retire", "value", "because"}``.
        event: for epoch changes, ``{"from": {...}, "to": {...}}`` with value, epoch, source,
            observed_at of each side.
        settled_by / settles: the settlement entry id that closed this entry, and the entry a
            settlement closed.
        data: counts of ``import`` and ``read_scans`` entries; for a dispute a person
            closed and a new value reopened, the reviews before (``review_round``).
        recorded_at / updated_at: UTC, set by the store on the first and the latest write.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    entry_id: str
    entry_type: EntryType
    user_id: str
    status: str
    key: ConflictKey | None = None
    kind: str | None = None
    members: list[str] = Field(default_factory=list)
    values: dict[str, str] = Field(default_factory=dict)
    verdict: str | None = None
    rule: str | None = None
    reasons: list[str] = Field(default_factory=list)
    severity: str | None = None
    winner: str | None = None
    latest: str | None = None
    superseded: list[str] = Field(default_factory=list)
    confirmed: list[str] = Field(default_factory=list)
    settler: str | None = None
    inputs: dict[str, dict[str, Any]] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)
    question: str | None = None
    request: dict[str, Any] | None = None
    recommended: dict[str, Any] | None = None
    event: dict[str, Any] | None = None
    settled_by: str | None = None
    settles: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    recorded_at: datetime | None = None
    updated_at: datetime | None = None

    def concerns(self) -> list[str]:
        """Memory ids this entry references (members and, for a settlement, the settler)."""
        ids = list(self.members)
        if self.settler and self.settler not in ids:
            ids.append(self.settler)
        return ids

    def content(self) -> dict[str, Any]:
        """Every field but the timestamps, as plain JSON types (what :meth:`digest` hashes and
        the store keeps as the entry's body)."""
        return self.model_dump(mode="json", exclude={"recorded_at", "updated_at"})

    def digest(self) -> str:
        """sha256 of the content without timestamps: equal digests mean nothing to write."""
        return content_digest(self.content())

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return self.model_dump(mode="json")


# -- entries from a scan ----------------------------------------------------------------------

def conflict_entry_id(user_id: str, conflict: Conflict) -> str:
    """The id of the entry that records a conflict: the pair under its rule, or for a
    quarantined or epoch-change pair its key's dispute
    (:func:`scanner.core.open_state.state_entry_id`)."""
    if conflict.verdict in STATE_TYPES:
        return state_entry_id(user_id, conflict)
    etype = _TYPE_OF_VERDICT[conflict.verdict]
    return entry_id(user_id, etype, *conflict.members, conflict.rule or "")


def settlement_entry_id(user_id: str, conflict: Conflict) -> str:
    """The id of the settlement of a pair: for a quarantined or epoch-change pair, its
    dispute's settlement by the pair's settler (``settled_by``), otherwise the pair's under
    rule ``reobservation``."""
    if conflict.verdict in STATE_TYPES:
        return settlement_id(user_id, state_entry_id(user_id, conflict),
                             conflict.settled_by or "")
    return entry_id(user_id, "settlement", *conflict.members, REOBSERVATION)


def _recommended(c: Conflict) -> dict[str, Any] | None:
    if not c.recommended:
        return None
    other = [m for m in c.members if m != c.recommended]
    classes = {c.inputs.get(m, {}).get("source_class") for m in c.members}
    return {"keep": c.recommended, "retire": other, "value": c.values.get(c.recommended),
            "because": "source_class" if len(classes) > 1 else "recency"}


def entries_for(user_id: str, conflicts: Sequence[Conflict],
                events: Sequence[EpochChangeEvent] = ()) -> list[LedgerEntry]:
    """The ledger entries of one tenant's scan report.

    Args:
        user_id: the tenant's user.
        conflicts: the report's conflicts (all in this tenant).
        events: the report's epoch-change events (matched to their pairs).

    Returns:
        One entry per deciding resolution (:func:`scanner.core.key_decision.
        deciding_resolutions`: each superseded member of a key once), per key's dispute of
        quarantined or epoch-change pairs with one settlement per settler
        (:mod:`scanner.core.open_state`), and per escalated or possible pair with its
        settlement when a review settled it; sorted by id (:func:`entry_contents`,
        validated).
    """
    return [LedgerEntry.model_validate(c) for c in entry_contents(user_id, conflicts, events)]


def entry_contents(user_id: str, conflicts: Sequence[Conflict],
                   events: Sequence[EpochChangeEvent] = ()) -> list[dict[str, Any]]:
    """The entries of :func:`entries_for` as their contents (:meth:`LedgerEntry.content`:
    plain JSON types, no timestamps), sorted by id.

    A batch scan compares every entry's digest (:func:`content_digest`) with the stored one
    and builds a :class:`LedgerEntry` only for the few that changed; building and dumping a
    model per entry was a fifth of a converged re-scan (issue 4).
    """
    known_values: dict[tuple[str, str, str], str] = {}
    known_inputs: dict[str, dict[str, Any]] = {}
    for c in conflicts:
        for m, v in c.values.items():
            known_values[(c.key.subject, c.key.relation, m)] = v
        known_inputs.update(c.inputs)
    out = state_contents(user_id, conflicts, events, known_values=known_values,
                         known_inputs=known_inputs)
    deciding = deciding_resolutions(conflicts)
    for c in conflicts:
        if c.verdict in STATE_TYPES:
            continue
        etype = _TYPE_OF_VERDICT[c.verdict]
        if etype == "resolution" and tuple(c.members) not in deciding:
            continue
        own_id = conflict_entry_id(user_id, c)
        settled = bool(c.settled_by)
        settle_id = settlement_entry_id(user_id, c) if settled else None
        if etype == "resolution":
            status = STATUS_APPLIED
        elif settled:
            status = STATUS_SETTLED
        else:
            status = STATUS_MOOT if is_moot(c) else STATUS_OPEN
        key = key_content(c.key)
        inputs = {m: dict(i) for m, i in c.inputs.items()}
        out.append({
            "entry_id": own_id, "entry_type": etype, "user_id": user_id, "status": status,
            "key": key, "kind": c.kind, "members": list(c.members), "values": dict(c.values),
            "verdict": c.verdict, "rule": c.rule,
            "reasons": [r for r in c.reasons if not r.startswith("settled:")],
            "severity": c.severity, "winner": c.winner, "latest": c.latest,
            "superseded": list(c.superseded) if etype == "resolution" else [],
            "confirmed": [], "settler": None, "inputs": inputs, "config": dict(c.config),
            "question": c.question, "request": None,
            "recommended": _recommended(c) if etype == "escalation" else None,
            "event": None, "settled_by": settle_id, "settles": None, "data": {}})
        if settled:
            by = c.settled_by
            value = known_values.get((c.key.subject, c.key.relation, by))
            settler_inputs = {m: dict(i) for m, i in c.inputs.items()}
            if by in known_inputs:
                settler_inputs[by] = dict(known_inputs[by])
            if value is not None:
                values = {**c.values, by: value}
            else:
                values = dict(c.values)
            out.append({
                "entry_id": settle_id, "entry_type": "settlement", "user_id": user_id,
                "status": STATUS_APPLIED, "key": key_content(c.key), "kind": c.kind,
                "members": list(c.members), "values": values, "verdict": c.verdict,
                "rule": REOBSERVATION,
                "reasons": [f"settles {etype} ({c.rule})"] + (
                    [] if c.superseded else ["moot: both members retired by re-observation"]),
                "severity": c.severity, "winner": None, "latest": by,
                "superseded": list(c.superseded),
                "confirmed": [m for m in c.members if m not in c.superseded]
                if c.superseded else [], "settler": by,
                "inputs": settler_inputs, "config": dict(c.config), "question": None,
                "request": None, "recommended": None, "event": None, "settled_by": None,
                "settles": own_id, "data": {}})
    return sorted(out, key=lambda e: e["entry_id"])


def import_entry(user_id: str, imported_at: datetime, *, written: int, unchanged: int,
                 failed: int, source: str | None = None) -> LedgerEntry:
    """The ledger entry of one import into a tenant (``imported_at`` UTC, also its id)."""
    stamp = imported_at.isoformat()
    return LedgerEntry(entry_id=entry_id(user_id, "import", stamp), entry_type="import",
                       user_id=user_id, status=STATUS_RECORDED,
                       data={"imported_at": stamp, "written": written, "unchanged": unchanged,
                             "failed": failed, "source": source})


def read_scans_entry(user_id: str, token: str, *, scans: int, with_conflict: int,
                     started_at: datetime) -> LedgerEntry:
    """The read-time scan tally of one process (``token``) for one tenant.

    Each process owns its entry, so concurrent processes never race on a counter.
    """
    return LedgerEntry(entry_id=entry_id(user_id, "read_scans", token), entry_type="read_scans",
                       user_id=user_id, status=STATUS_RECORDED,
                       data={"scans": scans, "with_conflict": with_conflict,
                             "started_at": started_at.isoformat(), "process": token})


def _settler_rank(entry: LedgerEntry) -> tuple[str, str]:
    seen = entry.inputs.get(entry.settler or "", {}).get("observed_at") or ""
    return (seen, entry.settler or "")


def review_round(entry: LedgerEntry) -> int:
    """How many reviews closed an entry before a new value of its key reopened it
    (:data:`scanner.core.ledger_terms.REVIEW_ROUND`; 0 for every other entry)."""
    return int(entry.data.get(REVIEW_ROUND) or 0)


def closed_by_person(entry: LedgerEntry) -> bool:
    """Whether a person closed the entry in review (``dismissed``, or ``settled`` by its
    ``review`` entry rather than by a settlement the scan made)."""
    if entry.status == STATUS_DISMISSED:
        return True
    return (entry.status == STATUS_SETTLED and entry.entry_type in CONFLICT_TYPES
            and entry.settled_by is not None
            and entry.settled_by == review_entry_id(entry.user_id, entry.entry_id,
                                                    review_round(entry)))


def _grown(new: LedgerEntry, old: LedgerEntry) -> bool:
    """Whether ``new`` names a member ``old`` does not (a new value joined a dispute)."""
    return not set(new.members) <= set(old.members)


def should_replace(new: LedgerEntry, old: LedgerEntry, *, full_view: bool = False) -> bool:
    """Whether ``new`` should overwrite the stored ``old`` entry of the same id.

    Not when nothing changed (equal digests). A scan with a partial view (a read-time or
    write-time scan of a few memories) never turns a ``settled``, ``moot`` or dismissed entry
    back to ``open``, never overwrites a ``withdrawn`` one, and replaces a settlement only for
    a settler observed no earlier than the stored one: it may not have seen the records that
    decided. A full-view scan (a batch scan of the whole tenant) decides from every record, so
    what it makes replaces what is stored (issue 18: the stored state after any sequence of
    imports and scans is that of one scan over the final set), except an entry a person
    closed in review (:func:`closed_by_person`) that the scan would reopen. A dispute that a
    new member joined in an open pair is open again on either view, even after a review
    (:func:`combined` counts the review, so the key can be reviewed again).
    """
    if new.digest() == old.digest():
        return False
    grown = _grown(new, old)
    if full_view:
        return not (closed_by_person(old) and new.status == STATUS_OPEN and not grown)
    if old.status == STATUS_WITHDRAWN and not closed_by_person(new):
        return False
    if old.status in CLOSED_STATUSES and new.status == STATUS_OPEN and not grown:
        return False
    if new.entry_type == "settlement" and old.entry_type == "settlement":
        return _settler_rank(new) >= _settler_rank(old)
    return True


def combined(new: LedgerEntry, old: LedgerEntry, *, full_view: bool = False
             ) -> LedgerEntry | None:
    """What to store in place of the stored ``old`` entry of the same id when a scan made
    ``new``, or None to keep ``old`` (:func:`should_replace`).

    A partial view merges a dispute or a settlement into the stored one, never removing a
    member (:func:`scanner.core.open_state.merged`). A dispute keeps its count of reviews;
    one a person closed that a new member reopens counts one more, so its next review has
    an id of its own (:func:`scanner.core.ledger_terms.review_entry_id`).
    """
    if not full_view and new.entry_type in MERGED_TYPES:
        new = LedgerEntry.model_validate(merged(new.content(), old.content()))
    if new.entry_type in STATE_TYPES.values():
        rounds = review_round(old) + (new.status == STATUS_OPEN and closed_by_person(old)
                                      and _grown(new, old))
        if rounds != review_round(new):
            new = new.model_copy(update={"data": {**new.data, REVIEW_ROUND: rounds}})
    return new if should_replace(new, old, full_view=full_view) else None


def _moot_by_member(entry: LedgerEntry) -> dict[str, list[str]]:
    """The entry's ``moot:<member>@<settler>`` reasons by the member they name."""
    out: dict[str, list[str]] = {}
    for r in entry.reasons:
        if r.startswith("moot:"):
            out.setdefault(r[5:].split("@", 1)[0], []).append(r)
    return out


def reconcile_settled(user_id: str, conflicts: Sequence[Conflict],
                      stored: Mapping[str, LedgerEntry]) -> list[Conflict]:
    """Open verdicts of a partial scan that the ledger already records as settled, settled.

    A read-time scan sees only its hits; when the record that settled a pair is not among
    them, the pair looks open again. ``stored`` (entries by id, including the settlements
    the settled entries name) lets the scan report what the ledger knows.

    Returns:
        The conflicts, with such pairs carrying ``settled_by`` and their retired members
        (a pair of a dispute: when both members are among those the dispute's settlement
        settled), and pairs whose member the ledger records as retired by another pair's
        settlement moot (:func:`scanner.core.report.is_moot`: the settlement that retired
        it may lie outside the hits too).
    """
    moot: dict[str, dict[str, list[str]]] = {}
    out = []
    for c in conflicts:
        entry = stored.get(conflict_entry_id(user_id, c)) if c.verdict in _TYPE_OF_VERDICT \
            else None
        if entry is None or c.settled_by is not None or is_moot(c):
            out.append(c)
            continue
        done = stored.get(entry.settled_by) if entry.settled_by else None
        if entry.entry_id not in moot:
            moot[entry.entry_id] = _moot_by_member(entry)
        retired = [r for m in c.members for r in moot[entry.entry_id].get(m, ())]
        if (entry.status == STATUS_SETTLED and done is not None and done.settler
                and set(c.members) <= set(done.members)):
            c = c.model_copy(update={
                "settled_by": done.settler,
                "superseded": sorted(m for m in c.members if m in done.superseded),
                "question": None,
                "reasons": [*c.reasons, f"settled:{REOBSERVATION}@{done.settler}"]})
        elif retired:
            c = c.model_copy(update={"question": None, "reasons": [*c.reasons, *retired]})
        out.append(c)
    return out
