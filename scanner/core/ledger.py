"""The resolution ledger, as values: what each verdict, epoch change, quarantine, escalation,
settlement and import leaves behind. Pure; the Weaviate side is :mod:`scanner.store.ledger`.
What the verdicts do to the memories is :mod:`scanner.core.effects`, the statistics counted
from entries :mod:`scanner.core.ledger_stats`, and an entry told as a sentence
:mod:`scanner.narration`.

Seed 000's failure to prevent is "a memory that is confident, consistent, and unable to explain
itself": so every verdict becomes a :class:`LedgerEntry` that keeps its rule, the provenance it
read, the configuration it ran under and the memories it concerns. Entry ids are uuid5 values of
``(tenant, entry type, pair, rule)``: the same pair under the same rule always has the same id,
so a re-run writes nothing new and two scanners of one tenant converge on the same objects.

Entry types (``entry_type``) and their ``status``:

====================  =====================================================  ==============
``resolution``        a pair resolved; the loser is superseded                ``applied``
``quarantine``        a pair left unresolved; carries a re-observation        ``open`` /
                      request and a clarification question                    ``settled`` /
                                                                              ``moot``
``epoch_change``      a value changed across epochs: old and new value,       ``open`` /
                      both epochs and sources; re-observation requested       ``settled`` /
                                                                              ``moot``
``escalation``        queued for a person, with a recommended resolution      ``open``
``possible``          unknown relation cardinality: reported, never decided   ``open``
``settlement``        a later record settled a quarantine or epoch change     ``applied``
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
(:func:`scanner.core.key_decision.deciding_resolutions`), not once per pair. An entry of a scan type
that a batch scan of the whole tenant no longer makes keeps its content with status
``withdrawn`` (:func:`scanner.core.convergence.withdrawals`): history, not state.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scanner.core.key_decision import deciding_resolutions
from scanner.core.questions import FIRST_PERSON
from scanner.core.report import is_moot
from scanner.core.settlement import REOBSERVATION
from scanner.models import Conflict, ConflictKey, EpochChangeEvent

NAMESPACE = uuid.UUID("6f1c1f0e-9a57-5c1b-8d8e-63a0c7a1b2d4")
"""uuid5 namespace of ledger entry ids."""

EntryType = Literal["resolution", "quarantine", "epoch_change", "escalation", "possible",
                    "settlement", "import", "read_scans", "review"]
CONFLICT_TYPES = ("resolution", "quarantine", "epoch_change", "escalation", "possible")
"""Entry types that record one conflicting pair."""
SCAN_TYPES = (*CONFLICT_TYPES, "settlement")
"""Entry types a scan writes (:func:`entry_contents`); ``import`` and ``read_scans`` entries
are statistics, written by imports and read-time scans."""
_TYPE_OF_VERDICT = {"resolved": "resolution", "quarantined": "quarantine",
                    "epoch_change": "epoch_change", "escalated": "escalation",
                    "possible": "possible"}
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
"""Statuses a partial-view scan never turns back to ``open`` (:func:`should_replace`)."""


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
        entry_id: uuid5 of ``(user_id, entry_type, *members, rule)``.
        members: memory ids of the pair, sorted; the settler too is listed in
            :meth:`concerns`.
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
        data: counts of ``import`` and ``read_scans`` entries.
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
    """The id of a conflict's entry: the pair under its rule."""
    etype = _TYPE_OF_VERDICT[conflict.verdict]
    return entry_id(user_id, etype, *conflict.members, conflict.rule or "")


def settlement_entry_id(user_id: str, conflict: Conflict) -> str:
    """The id of the settlement of a pair (rule ``reobservation``)."""
    return entry_id(user_id, "settlement", *conflict.members, REOBSERVATION)


def _subject_phrase(key: ConflictKey) -> str:
    if key.subject in FIRST_PERSON:
        return f"your {key.relation}"
    return f"the {key.relation} of {key.subject}"


def _newest_time(inputs: Mapping[str, Mapping[str, Any]]) -> str | None:
    times = [i.get("observed_at") for i in inputs.values() if i.get("observed_at")]
    return max(times) if times else None


def _request(c: Conflict) -> dict[str, Any]:
    missing = [r.split(":", 1)[1] for r in c.reasons if r.startswith("missing_provenance:")]
    in_epoch = None
    if c.verdict == "epoch_change" and c.latest:
        in_epoch = c.inputs.get(c.latest, {}).get("epoch")
    why = [r for r in c.reasons if not r.startswith(("declared:", "settled:"))]
    return {"what": f"re-check {_subject_phrase(c.key)}", "subject": c.key.subject,
            "relation": c.key.relation,
            "scope": {"group": c.key.group, "properties": dict(c.key.properties)},
            "why": why, "missing": missing, "in_epoch": in_epoch,
            "after": _newest_time(c.inputs)}


def _recommended(c: Conflict) -> dict[str, Any] | None:
    if not c.recommended:
        return None
    other = [m for m in c.members if m != c.recommended]
    classes = {c.inputs.get(m, {}).get("source_class") for m in c.members}
    return {"keep": c.recommended, "retire": other, "value": c.values.get(c.recommended),
            "because": "source_class" if len(classes) > 1 else "recency"}


def _event(events_by_pair: Mapping[tuple[str, ...], EpochChangeEvent],
           c: Conflict) -> dict[str, Any] | None:
    found = events_by_pair.get(tuple(c.members))
    if found is None:
        return None
    return {"from": dict(found.from_), "to": dict(found.to)}


def entries_for(user_id: str, conflicts: Sequence[Conflict],
                events: Sequence[EpochChangeEvent] = ()) -> list[LedgerEntry]:
    """The ledger entries of one tenant's scan report.

    Args:
        user_id: the tenant's user.
        conflicts: the report's conflicts (all in this tenant).
        events: the report's epoch-change events (matched to their pairs).

    Returns:
        One entry per conflict that is not a resolution, one per deciding resolution
        (:func:`scanner.core.key_decision.deciding_resolutions`: each superseded member of a key
        once), plus one
        settlement entry per settled pair; sorted by id (:func:`entry_contents`, validated).
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
    events_by_pair = {tuple(sorted((e.from_["id"], e.to["id"]))): e for e in events}
    known_values: dict[tuple[str, str, str], str] = {}
    known_inputs: dict[str, dict[str, Any]] = {}
    for c in conflicts:
        for m, v in c.values.items():
            known_values[(c.key.subject, c.key.relation, m)] = v
        known_inputs.update(c.inputs)
    deciding = deciding_resolutions(conflicts)
    out = []
    for c in conflicts:
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
        key = _key_content(c.key)
        inputs = {m: dict(i) for m, i in c.inputs.items()}
        out.append({
            "entry_id": own_id, "entry_type": etype, "user_id": user_id, "status": status,
            "key": key, "kind": c.kind, "members": list(c.members), "values": dict(c.values),
            "verdict": c.verdict, "rule": c.rule,
            "reasons": [r for r in c.reasons if not r.startswith("settled:")],
            "severity": c.severity, "winner": c.winner, "latest": c.latest,
            "superseded": list(c.superseded) if etype == "resolution" else [],
            "confirmed": [], "settler": None, "inputs": inputs, "config": dict(c.config),
            "question": c.question,
            "request": _request(c) if etype in ("quarantine", "epoch_change") else None,
            "recommended": _recommended(c) if etype == "escalation" else None,
            "event": _event(events_by_pair, c) if etype == "epoch_change" else None,
            "settled_by": settle_id, "settles": None, "data": {}})
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
                "status": STATUS_APPLIED, "key": _key_content(c.key), "kind": c.kind,
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


def _key_content(key: ConflictKey) -> dict[str, Any]:
    return {"user_id": key.user_id, "group": key.group, "properties": dict(key.properties),
            "subject": key.subject, "relation": key.relation}


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


def closed_by_person(entry: LedgerEntry) -> bool:
    """Whether a person closed the entry in review (``dismissed``, or ``settled`` by a
    ``review`` entry rather than by the scan's own settlement of the pair)."""
    if entry.status == STATUS_DISMISSED:
        return True
    return (entry.status == STATUS_SETTLED and entry.entry_type in CONFLICT_TYPES
            and entry.settled_by is not None
            and entry.settled_by != entry_id(entry.user_id, "settlement", *entry.members,
                                             REOBSERVATION))


def should_replace(new: LedgerEntry, old: LedgerEntry, *, full_view: bool = False) -> bool:
    """Whether ``new`` should overwrite the stored ``old`` entry of the same id.

    Not when nothing changed (equal digests). A scan with a partial view (a read-time or
    write-time scan of a few memories) never turns a ``settled``, ``moot`` or dismissed entry
    back to ``open``, never overwrites a ``withdrawn`` one, and replaces a settlement only for
    a settler observed no earlier than the stored one: it may not have seen the records that
    decided. A full-view scan (a batch scan of the whole tenant) decides from every record, so
    what it makes replaces what is stored (issue 18: the stored state after any sequence of
    imports and scans is that of one scan over the final set), except an entry a person
    closed in review (:func:`closed_by_person`) that the scan would reopen.
    """
    if new.digest() == old.digest():
        return False
    if full_view:
        return not (closed_by_person(old) and new.status == STATUS_OPEN)
    if old.status == STATUS_WITHDRAWN and not closed_by_person(new):
        return False
    if old.status in CLOSED_STATUSES and new.status == STATUS_OPEN:
        return False
    if new.entry_type == "settlement" and old.entry_type == "settlement":
        return _settler_rank(new) >= _settler_rank(old)
    return True


def reconcile_settled(user_id: str, conflicts: Sequence[Conflict],
                      stored: Mapping[str, LedgerEntry]) -> list[Conflict]:
    """Open verdicts of a partial scan that the ledger already records as settled, settled.

    A read-time scan sees only its hits; when the record that settled a pair is not among
    them, the pair looks open again. ``stored`` (entries by id, including the settlements
    the settled entries name) lets the scan report what the ledger knows.

    Returns:
        The conflicts, with such pairs carrying ``settled_by`` and their retired members, and
        pairs the ledger records as ``moot`` moot (:func:`scanner.core.report.is_moot`: the
        settlement that retired a member may lie outside the hits too).
    """
    out = []
    for c in conflicts:
        entry = stored.get(conflict_entry_id(user_id, c)) if c.verdict in _TYPE_OF_VERDICT \
            else None
        if (entry is not None and entry.status == STATUS_MOOT and c.settled_by is None
                and not is_moot(c)):
            c = c.model_copy(update={"question": None, "reasons": [
                *c.reasons, *(r for r in entry.reasons if r.startswith("moot:"))]})
        done = stored.get(entry.settled_by) if entry is not None and entry.settled_by else None
        if (c.settled_by is None and entry is not None and entry.status == STATUS_SETTLED
                and done is not None and done.settler):
            c = c.model_copy(update={
                "settled_by": done.settler, "superseded": list(done.superseded),
                "question": None,
                "reasons": [*c.reasons, f"settled:{REOBSERVATION}@{done.settler}"]})
        out.append(c)
    return out
