"""Adapters: other memory logs in the validator's row format (issue 7).

Two sources:

* **Mem0's SQLite ``history`` table** (``mem0/memory/storage.py``, ``SQLiteManager``): one row
  per ADD, UPDATE or DELETE with ``memory_id``, ``old_memory``, ``new_memory``, ``event``,
  ``created_at``, ``updated_at`` and ``is_deleted`` (the legacy layout with ``prev_value``,
  ``new_value`` and ``timestamp`` is read too). Mem0 updates a memory in place, so the memory id
  is the conflict group, and the table's own insertion order (``rowid``) is the sequence. The
  prior write of an UPDATE or DELETE is the previous history row of the same memory, and the
  sha256 of ``old_memory`` is carried so the recompute can check that the writer replaced what
  was really there.
* **contrascan's own verdicts**: the memory records (SPEC §4) and the scan report computed from
  them (SPEC §5, ``scan-file --json``). Per conflict key, members are taken in order of
  ``observed_at``: the first is an ADD; a later member that won its pair against the live one is
  an UPDATE carrying the conflict as its edge and the ``supersedes`` edge as its downgrade
  evidence; any other later member is a NOOP (contrascan kept the current value). contrascan
  never deletes (SPEC §3), so no DELETE appears.

Texts are hashed and dropped here: an adapted log holds digests, never bodies. A field the
source does not carry is listed in the row's ``unverifiable`` and in
:attr:`AdaptedLog.unverifiable_fields` with the reason — never filled with a guess.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scanner.core.changes import split_change
from scanner.models import MemoryRecord, ScanReport
from scanner.records import read_jsonl
from scanner.validator.errors import LogInputError
from scanner.validator.intake import sha256_hex
from scanner.validator.models import MalformedLine


class AdaptedLog(BaseModel):
    """Rows in the validator's format, converted from another source.

    Attributes:
        format: the source kind.
        name: the source as given (a path), for the result record.
        source_sha256: sha256 of the source's bytes (both files' digests, joined, for
            contrascan).
        rows: row objects (JSON types), in source order; :func:`scanner.validator.validate_log`
            parses them like lines of a log.
        unverifiable_fields: field name -> why the source cannot supply it.
        malformed: source entries that could not be converted (line = the source's own
            line or row number).
    """

    model_config = ConfigDict(frozen=True)

    format: Literal["mem0-sqlite", "contrascan"]
    name: str | None = None
    source_sha256: str
    rows: tuple[dict[str, Any], ...]
    unverifiable_fields: dict[str, str] = Field(default_factory=dict)
    malformed: tuple[MalformedLine, ...] = ()


# -- Mem0 ---------------------------------------------------------------------------------
MEM0_NOT_CARRIED: dict[str, str] = {
    "priority": "Mem0's history table has no priority column",
    "source_trust": "Mem0's history table has no source-trust column",
    "conflict_edge_ref": "Mem0 stores the outcome of its update decision, not the conflict it "
                         "resolved",
    "downgrade_evidence_ref": "Mem0 stores no evidence for demoting or deleting a memory",
    "trace_ref": "Mem0's history rows name no trace of the turn that wrote them",
}
_MEM0_LAYOUTS = (
    {"old": "old_memory", "new": "new_memory", "created": "created_at", "updated": "updated_at"},
    {"old": "prev_value", "new": "new_value", "created": "timestamp", "updated": "timestamp"},
)


def _parse_time(value: object) -> tuple[str | None, str | None]:
    """ISO text -> (UTC ISO text, None), or (None, why it cannot be used)."""
    if value is None or value == "":
        return None, "absent"
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        return None, "not an ISO 8601 timestamp"
    if parsed.tzinfo is None:
        return None, "naive timestamp (no UTC offset), not guessed"
    return parsed.astimezone(timezone.utc).isoformat(), None


def from_mem0_history(path: str | Path) -> AdaptedLog:
    """Read Mem0's SQLite ``history`` table as memory events.

    Args:
        path: the SQLite file Mem0 writes its history to (``history_db_path``).

    Returns:
        One ``memory_event`` row per history row, in ``rowid`` order. Event time is
        ``created_at`` for ADD and ``updated_at`` for UPDATE; Mem0 writes none on DELETE, which
        is then unverifiable. A ``NONE`` event (no change) becomes NOOP.

    Raises:
        LogInputError: the file is missing, is not SQLite, or has no usable ``history`` table.
    """
    p = Path(path)
    if not p.is_file():
        raise LogInputError(str(path), "no such SQLite file")
    raw = p.read_bytes()
    try:
        with contextlib.closing(sqlite3.connect(p.resolve().as_uri() + "?mode=ro",
                                                uri=True)) as conn:
            columns = {r[1] for r in conn.execute("PRAGMA table_info(history)")}
            if not columns:
                raise LogInputError(str(path), "no 'history' table (is this Mem0's history "
                                               "database?)")
            layout = next((lay for lay in _MEM0_LAYOUTS
                           if {"memory_id", "event", *lay.values()} <= columns), None)
            if layout is None:
                raise LogInputError(str(path), "the 'history' table lacks Mem0's columns")
            has_id = "id" in columns
            cursor = conn.execute(
                f"SELECT rowid, {'id' if has_id else 'NULL'}, memory_id, event, "
                f"{layout['old']}, {layout['new']}, {layout['created']}, {layout['updated']} "
                "FROM history ORDER BY rowid")
            table = cursor.fetchall()
    except sqlite3.DatabaseError as err:
        raise LogInputError(str(path), f"not a readable SQLite database ({err})") from err

    rows: list[dict[str, Any]] = []
    notes = dict(MEM0_NOT_CARRIED)
    last_by_memory: dict[str, str] = {}
    for rowid, hid, memory_id, event, old, new, created, updated in table:
        decision = str(event).strip().upper() if event is not None else None
        if decision == "NONE":
            decision = "NOOP"
        row_id = str(hid) if hid else f"mem0-rowid-{rowid}"
        stamp = created if decision == "ADD" else updated if decision == "UPDATE" else (
            updated if decision == "DELETE" else None)
        event_time, why = _parse_time(stamp)
        unverifiable = list(MEM0_NOT_CARRIED)
        if event_time is None and decision != "NOOP":
            unverifiable.append("event_time")
            notes.setdefault("event_time", "Mem0 writes no timestamp on DELETE rows; other "
                                           "rows: " + (why or "absent"))
        row: dict[str, Any] = {
            "kind": "memory_event", "id": row_id, "episode": "mem0_history",
            "episode_order": 0, "sequence": rowid, "decision": decision,
            "memory_id": memory_id, "conflict_group": memory_id, "event_time": event_time,
            "unverifiable": unverifiable,
        }
        if decision in ("UPDATE", "DELETE", "NOOP") and isinstance(memory_id, str):
            row["prior_write_ref"] = last_by_memory.get(memory_id)
            if old is not None:
                row["prior_body_sha256"] = sha256_hex(str(old))
        if new is not None and decision in ("ADD", "UPDATE"):
            row["body_sha256"] = sha256_hex(str(new))
        if isinstance(memory_id, str) and decision in ("ADD", "UPDATE", "DELETE"):
            last_by_memory[memory_id] = row_id
        rows.append(row)
    return AdaptedLog(format="mem0-sqlite", name=str(path), source_sha256=sha256_hex(raw),
                      rows=tuple(rows), unverifiable_fields=dict(sorted(notes.items())))


# -- contrascan ---------------------------------------------------------------------------
def _key_digest(key: BaseModel) -> str:
    text = json.dumps(key.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _time_key(record: MemoryRecord) -> tuple:
    t = record.observed_at
    return (t is None, t.timestamp() if t is not None else 0.0, record.id)


REPORT_EXTRAS = frozenset({"ignored", "hits"})
"""Fields printed beside a SPEC §5 report: ``scan-file --json``'s ``ignored`` and the HTTP
scan response's ``hits``; a report file carrying them is read without them."""


def from_contrascan(records: Sequence[MemoryRecord], report: ScanReport, *,
                    name: str | None = None, source_sha256: str | None = None,
                    malformed: Sequence[MalformedLine] = ()) -> AdaptedLog:
    """Convert contrascan's verdicts into memory events (pure).

    Args:
        records: the memory records the report was computed from (SPEC §4).
        report: the scan report (SPEC §5).
        name: how to name the source in the result record.
        source_sha256: digest of the source files; by default a digest of the rows.
        malformed: record lines that did not parse, carried into the result.

    Returns:
        One ADD per record outside any conflict (its own group) and, per conflict key (group
        ``key:<sha256 of the key, 16 hex>``, so no extracted text leaves), the members in
        ``observed_at`` order as described in the module docstring. ``priority``,
        ``source_trust`` and ``observed_at`` are taken as the records carry them; when a record
        lacks one, the field is unverifiable for that row. ``trace_ref`` is the record's
        ``source``.
    """
    by_id = {r.id: r for r in records}
    conflicts = [one for c in report.conflicts for one in split_change(c)]
    pairs = {tuple(c.members): c for c in conflicts}
    keyed: dict[str, set[str]] = {}
    for c in conflicts:
        keyed.setdefault(_key_digest(c.key), set()).update(c.members)
    bad = list(malformed)
    planned: list[tuple[tuple, dict[str, Any]]] = []
    in_conflict: set[str] = set()
    for digest, members in sorted(keyed.items()):
        live: str | None = None
        known = [m for m in members if m in by_id]
        bad.extend(MalformedLine(line=0, id=m, field="conflicts.members",
                                 reason="the report names a record the records file lacks")
                   for m in sorted(members - set(known)))
        for mid in sorted(known, key=lambda m: _time_key(by_id[m])):
            in_conflict.add(mid)
            rec = by_id[mid]
            row = _contrascan_row(rec, f"{mid}@{digest}", f"key:{digest}")
            if live is None:
                row["decision"] = "ADD"
                live = mid
            else:
                conflict = pairs.get(tuple(sorted((live, mid))))
                row["prior_write_ref"] = f"{live}@{digest}"
                row["decision"] = "NOOP"
                if conflict is not None:
                    row["conflict_edge_ref"] = "conflict:" + "|".join(conflict.members)
                    if conflict.verdict == "resolved" and conflict.winner == mid:
                        row["decision"] = "UPDATE"
                        row["downgrade_evidence_ref"] = f"supersedes:{mid}>{live}"
                        live = mid
                    elif conflict.verdict == "resolved":
                        row["downgrade_evidence_ref"] = f"supersedes:{live}>{mid}"
                if row["decision"] != "UPDATE":
                    row.pop("body_sha256")
            planned.append(((_time_key(rec), digest), row))
    for rec in records:
        if rec.id not in in_conflict:
            row = _contrascan_row(rec, rec.id, f"record:{rec.id}")
            row["decision"] = "ADD"
            planned.append(((_time_key(rec), ""), row))
    planned.sort(key=lambda item: item[0])
    rows = []
    for sequence, (_, row) in enumerate(planned, start=1):
        row["sequence"] = sequence
        rows.append(row)

    notes: dict[str, str] = {}
    for field, attr in (("event_time", "observed_at"), ("priority", "priority"),
                        ("source_trust", "source_trust"), ("trace_ref", "source")):
        lacking = sum(getattr(r, attr) is None for r in records)
        if lacking:
            notes[field] = f"{lacking} of {len(records)} records carry no {attr}"
    digest = source_sha256 or sha256_hex(json.dumps(rows, sort_keys=True, default=str))
    return AdaptedLog(format="contrascan", name=name, source_sha256=digest, rows=tuple(rows),
                      unverifiable_fields=notes, malformed=tuple(bad))


def _contrascan_row(rec: MemoryRecord, row_id: str, group: str) -> dict[str, Any]:
    row: dict[str, Any] = {
        "kind": "memory_event", "id": row_id, "episode": "contrascan_scan", "episode_order": 0,
        "memory_id": rec.id, "conflict_group": group,
        "event_time": rec.observed_at.isoformat() if rec.observed_at else None,
        "priority": rec.priority, "source_trust": rec.source_trust,
        "body_sha256": sha256_hex(rec.text), "trace_ref": rec.source,
    }
    if rec.source is None:
        row["unverifiable"] = ["trace_ref"]
    return row


def read_contrascan(records_path: str | Path, report_path: str | Path) -> AdaptedLog:
    """Read contrascan's records (JSON Lines) and its scan report (JSON) and convert them.

    Args:
        records_path: the SPEC §4 memory records the report was computed from.
        report_path: the SPEC §5 report (``contrascan scan-file FILE --json``).

    Raises:
        LogInputError: a file is missing or unreadable, or the report is not a SPEC §5 report.
    """
    for p, what in ((records_path, "records file"), (report_path, "scan report")):
        if not Path(p).is_file():
            raise LogInputError(str(p), f"no such {what}")
    try:
        records_raw = Path(records_path).read_bytes()
        report_raw = Path(report_path).read_bytes()
    except OSError as err:
        raise LogInputError(err.filename, err.strerror or str(err)) from err
    try:
        payload = json.loads(report_raw.decode("utf-8"))
        if isinstance(payload, dict):  # what the CLI and the HTTP API print beside it
            payload = {k: v for k, v in payload.items() if k not in REPORT_EXTRAS}
        report = ScanReport.model_validate(payload)
    except (ValueError, ValidationError) as err:
        raise LogInputError(str(report_path), "not a SPEC §5 scan report "
                                              f"({type(err).__name__})") from err
    records, rejected = read_jsonl(records_path)
    malformed = [MalformedLine(line=r.line, id=r.id, field=r.field, reason=r.reason)
                 for r in rejected]
    digest = sha256_hex(sha256_hex(records_raw) + sha256_hex(report_raw))
    return from_contrascan(records, report, name=f"{records_path} + {report_path}",
                           source_sha256=digest, malformed=malformed)
