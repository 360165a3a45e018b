"""What changed around one memory, and why (issue 4): the ``supersedes`` chain and the ledger
entries about it, walked from one memory (:func:`read_history`), with a readable story."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from extractors.state_changes import ENDED_RULE
from scanner.core.ledger import CONFLICT_TYPES, SCAN_TYPES, STATUS_WITHDRAWN, LedgerEntry
from scanner.errors import UnknownMemory
from scanner.narration import narrate
from scanner.store.ledger import LedgerStore
from scanner.store.memories import STATUS_SUPERSEDED, MemoryStore, StoredMemory, tenant_name


@dataclass
class HistoryEntry:
    """One memory in a supersedes chain."""

    id: str
    text: str
    values: list[str]
    source: str | None
    source_class: str
    epoch: str | None
    observed_at: str | None
    status: str
    retired_rule: str | None
    supersedes: list[str] = field(default_factory=list)
    superseded_by: list[str] = field(default_factory=list)
    retired_by: str | None = None
    """The memory whose verdict retired this one (a winner, or a settling re-observation)."""
    ledger: list[str] = field(default_factory=list)
    """Ids of the ledger entries that concern this memory."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


@dataclass
class History:
    """What changed around one memory, and why: the chain and the ledger (issue 4).

    Attributes:
        chain: the memories linked to ``memory_id`` by ``supersedes`` edges or by ledger
            entries (an epoch-change partner, a quarantined partner, a settler), oldest
            observation first; each with value, source, source class, epoch, observed_at,
            status and the rule that retired it.
        ledger: the entries about those memories, in the order they arose.
        story: one line per memory and per entry, readable without anything else.
        collection: the collection the memories were read from: contrascan's memory
            collection, or an attached source's triple cache (``ContrascanSource<Name>``,
            the objects as last read from the agent's collection).
    """

    memory_id: str
    user_id: str
    chain: list[HistoryEntry]
    ledger: list[LedgerEntry]
    story: list[str]
    collection: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {"memory_id": self.memory_id, "user_id": self.user_id,
                "collection": self.collection,
                "chain": [e.to_dict() for e in self.chain],
                "ledger": [e.to_json_dict() for e in self.ledger], "story": self.story}


def read_history(store: MemoryStore, ledger_store: LedgerStore, memory_id: str,
                 user_id: str | None = None, *, max_memories: int = 200) -> History:
    """Walk the ``supersedes`` chain and the ledger from one memory.

    The walk follows ``supersedes`` edges both ways and every ledger entry about a memory
    it reached (the other member of an epoch change or a quarantine, the record that
    settled it), so "why did the timeout change?" is answered by the result alone: each
    value with its source, source class, epoch and observed_at, the rule and the memory
    that retired it, and the entries (epoch-change events, quarantines with their
    re-observation requests, escalations, settlements) in the order they arose.

    Args:
        store, ledger_store: the memory and ledger stores.
        memory_id: where to start.
        user_id: its user (found by searching every tenant when omitted).
        max_memories: most memories the walk visits (a guard for very busy keys).

    Raises:
        UnknownMemory: the id is not stored (for that user).
    """
    if user_id is not None and tenant_name(user_id) not in store.tenants():
        raise UnknownMemory(memory_id, user_id)
    user_id = user_id or store.find_user(memory_id)
    seen: dict[str, HistoryEntry] = {}
    supersedes: dict[str, list[str]] = {}
    entries: dict[str, LedgerEntry] = {}
    asked: set[str] = set()
    todo = [memory_id]
    while todo or set(seen) - asked:
        while todo and len(seen) < max_memories:
            mid = todo.pop()
            if mid in seen:
                continue
            mem = store.get(user_id, mid)
            later = store.superseded_by(user_id, mid)
            entry = _entry(mem)
            entry.superseded_by = sorted(m.record.id for m in later)
            seen[mid] = entry
            supersedes[mid] = sorted(_ids_for(store, mem.supersedes, user_id))
            todo.extend(m.record.id for m in later)
            todo.extend(supersedes[mid])
        fresh = sorted(set(seen) - asked)
        if not fresh or len(seen) >= max_memories:
            break
        asked.update(fresh)
        for e in ledger_store.for_memories(user_id, fresh):
            entries[e.entry_id] = e
            if e.entry_type in (*CONFLICT_TYPES, "settlement"):
                todo.extend(m for m in e.concerns() if m not in seen)
    for mid, entry in seen.items():
        entry.supersedes = supersedes[mid]
    ledger = sorted(entries.values(), key=_entry_order)
    for e in ledger:
        retired = e.superseded if e.entry_type in ("resolution", "settlement") else []
        by = e.winner if e.entry_type == "resolution" else e.settler
        for mid in e.concerns():
            if mid in seen:
                seen[mid].ledger.append(e.entry_id)
        for mid in retired:
            if mid in seen and seen[mid].status == STATUS_SUPERSEDED:
                seen[mid].retired_by = by
    chain = sorted(seen.values(), key=lambda e: (e.observed_at or "", e.id))
    return History(memory_id=memory_id, user_id=user_id, chain=chain, ledger=ledger,
                   story=story_of(chain, ledger), collection=store.name)


def _ids_for(store: MemoryStore, uuids: Iterable[str], user_id: str) -> list[str]:
    out = []
    for mem in store.iterate_by_uuid(user_id, list(uuids)):
        out.append(mem.record.id)
    return out


_ORDER = {"import": 0, "resolution": 1, "possible": 1, "quarantine": 1, "escalation": 1,
          "epoch_change": 1, "settlement": 2, "read_scans": 3}


def _entry_order(e: LedgerEntry) -> tuple:
    """When an entry's situation arose: its newest input observation (imports by time)."""
    times = [i.get("observed_at") or "" for i in e.inputs.values()]
    when = max(times) if times else str(e.data.get("imported_at") or "")
    return (when, _ORDER.get(e.entry_type, 9), e.entry_id)


def refiled(ledger: Sequence[LedgerEntry]) -> dict[str, LedgerEntry]:
    """Withdrawn entries whose decision a live entry still records, under another id.

    A scan of every memory withdraws the stored entries whose ids it no longer writes
    (:func:`scanner.core.convergence.withdrawals`). When the way ids are formed changes (one
    entry per key's dispute instead of one per pair, :mod:`scanner.core.open_state`), the same
    decision comes back under a new id and the old entry is withdrawn: the ledger holds it
    twice, once marked as no longer decided. That is no change of the decision.

    Args:
        ledger: the entries of one history.

    Returns:
        withdrawn entry id -> the live entry of the same type, key, kind, verdict, rule,
        winner, retired members and settler whose members include the withdrawn one's.
    """
    live = [e for e in ledger if e.status != STATUS_WITHDRAWN and e.entry_type in SCAN_TYPES]
    out = {}
    for old in ledger:
        if old.status != STATUS_WITHDRAWN:
            continue
        same = next((new for new in live if _same_decision(old, new)), None)
        if same is not None:
            out[old.entry_id] = same
    return out


def _same_decision(old: LedgerEntry, new: LedgerEntry) -> bool:
    return ((old.entry_type, old.key, old.kind, old.verdict, old.rule, old.winner,
             sorted(old.superseded), old.settler)
            == (new.entry_type, new.key, new.kind, new.verdict, new.rule, new.winner,
                sorted(new.superseded), new.settler)
            and set(old.members) <= set(new.members))


def story_of(chain: Sequence[HistoryEntry], ledger: Sequence[LedgerEntry]) -> list[str]:
    """Readable lines: every memory as observed, then every ledger entry as it arose; an entry
    withdrawn only because its decision was filed again under a new id (:func:`refiled`) is
    told once, as the live entry, with the time it was first recorded."""
    lines = []
    for e in chain:
        value = "; ".join(e.values) or e.text
        fate = e.status
        if e.status == STATUS_SUPERSEDED:
            fate += f" by {e.retired_by or ', '.join(e.superseded_by) or '?'}" \
                    f" (rule {e.retired_rule or '?'})"
        lines.append(f"{e.observed_at or 'time unknown'}  {e.id}: “{e.text}” [{value}] — "
                     f"source {e.source or 'unknown'} ({e.source_class}), epoch "
                     f"{e.epoch or 'unknown'}; now {fate}")
    again = refiled(ledger)
    first: dict[str, LedgerEntry] = {}
    for old_id, new in again.items():
        old = next(e for e in ledger if e.entry_id == old_id)
        seen = first.get(new.entry_id)
        if seen is None or _recorded(old) < _recorded(seen):
            first[new.entry_id] = old
    for entry in ledger:
        if entry.entry_type in ("import", "read_scans") or entry.entry_id in again:
            continue
        line = narrate(entry)
        old = first.get(entry.entry_id)
        if old is not None and old.recorded_at is not None:
            when = old.recorded_at.astimezone(timezone.utc)
            line += (f" (first recorded {when:%Y-%m-%d %H:%M:%S}Z, under an entry id the "
                     "ledger no longer uses)")
        lines.append(line)
    return lines


def _recorded(entry: LedgerEntry) -> datetime:
    return entry.recorded_at or datetime.max.replace(tzinfo=timezone.utc)


def readings(triples) -> list[str]:
    """A memory's readings as history lists them: ``[not ]subject · relation · object`` each,
    and the states an ending ends (:data:`extractors.state_changes.ENDED_RULE`: "quit smoking"
    ends smoking under every relation an activity is said with) once per subject and object
    ("not user · smoke (and 54 more relations) · …" would fill a screen): ``subject · ended
    (N relations) · object``."""
    out, ended = [], {}
    for t in triples:
        if t.rule == ENDED_RULE and t.negated:
            ended.setdefault((t.subject, t.object), []).append(t.relation)
            continue
        out.append(f"{'not ' if t.negated else ''}{t.subject} · {t.relation} · {t.object}"
                   .strip(" ·"))
    for (subject, obj), relations in ended.items():
        which = relations[0] if len(relations) == 1 else f"{len(relations)} relations"
        out.append(f"{subject} · ended ({which}) · {obj}".strip(" ·"))
    return out


def _entry(mem: StoredMemory) -> HistoryEntry:
    r = mem.record
    values = readings(mem.triples)
    observed = r.observed_at.isoformat() if isinstance(r.observed_at, datetime) else None
    return HistoryEntry(id=r.id, text=r.text, values=values, source=r.source,
                        source_class=r.source_class.value, epoch=r.epoch, observed_at=observed,
                        status=mem.status, retired_rule=mem.retired_rule)
