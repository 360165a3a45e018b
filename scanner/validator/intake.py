"""Reading a memory log and its bodies (issue 7): line-numbered, lossless, body-free.

A bad line never costs the good ones: it is reported with its number, the row id when one could
be read, and the field at fault, and every other line is still checked. Reasons are pydantic's
messages or our own and never quote a value from the line.

Text that must not travel (a body, a transcript, an answer; see
:data:`scanner.validator.models.RAW_TEXT_FIELDS`) is removed from a row the moment it is
decoded; only the field *names* are kept, so the intake check can quarantine the row. Supplied
bodies are hashed on reading and only their sha256 is kept.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scanner.errors import faults
from scanner.validator.errors import LogInputError
from scanner.validator.models import (
    RAW_TEXT_FIELDS,
    ROW_KINDS,
    MalformedLine,
    ParsedRow,
)


def sha256_hex(data: bytes | str) -> str:
    """sha256 of bytes, or of a string's UTF-8 encoding, as 64 lower-case hex characters."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def canonical_rows_sha256(rows: Iterable[Mapping[str, Any]]) -> str:
    """sha256 of rows given as objects: one canonical JSON line each (sorted keys, no spaces)."""
    lines = [json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
             for r in rows]
    return sha256_hex("\n".join(lines))


def _read_id(data: Mapping[str, Any]) -> str | None:
    rid = data.get("id")
    return rid if isinstance(rid, str) and 0 < len(rid) <= 256 else None


def _field(loc: tuple) -> str:
    return ".".join(str(p) for p in loc) or "<row>"


def _reason(error: Mapping[str, Any]) -> str:
    if error["type"] == "timezone_aware":
        return "naive timestamp: give a UTC offset such as 'Z' or '+00:00'"
    if error["type"] == "missing":
        return "required field is missing"
    return str(error["msg"])


def parse_row(data: object, *, line: int) -> ParsedRow | MalformedLine:
    """Validate one decoded JSON value as a log row.

    Args:
        data: a decoded JSON value.
        line: its 1-based line (or row) number.

    Returns:
        The parsed row with the names of any raw text fields removed from it, or the
        malformed-line report (the first field at fault, and every other one in its reason).
    """
    if not isinstance(data, dict):
        return MalformedLine(line=line, field="<line>", reason="expected a JSON object")
    data = dict(data)
    raw = tuple(sorted(k for k in RAW_TEXT_FIELDS if data.pop(k, None) not in (None, "", [])))
    rid = _read_id(data)
    kind = data.get("kind")
    model = ROW_KINDS.get(kind) if isinstance(kind, str) else None
    if model is None:
        return MalformedLine(line=line, id=rid, field="kind",
                             reason="expected one of " + ", ".join(ROW_KINDS))
    try:
        row = model.model_validate(data)
    except ValidationError as err:
        field, reason, _ = faults(err.errors(), field=_field, reason=_reason)
        return MalformedLine(line=line, id=rid, field=field, reason=reason)
    return ParsedRow(line=line, row=row, raw_text_fields=raw)


def parse_items(items: Iterable[tuple[int, object]]) -> tuple[list[ParsedRow], list[MalformedLine]]:
    """Parse numbered decoded values; a repeated ``id`` or ``sequence`` is malformed.

    Args:
        items: ``(line number, decoded JSON value or MalformedLine)`` in input order.

    Returns:
        ``(rows, malformed)``; every item ends up in exactly one of the two.
    """
    rows: list[ParsedRow] = []
    malformed: list[MalformedLine] = []
    first_id: dict[str, int] = {}
    first_seq: dict[int, int] = {}
    for line, data in items:
        parsed = data if isinstance(data, MalformedLine) else parse_row(data, line=line)
        if isinstance(parsed, MalformedLine):
            malformed.append(parsed)
            continue
        row = parsed.row
        if row.id in first_id:
            malformed.append(MalformedLine(line=line, id=row.id, field="id", reason=(
                f"duplicate id (first seen on line {first_id[row.id]})")))
            continue
        if row.sequence in first_seq:
            malformed.append(MalformedLine(line=line, id=row.id, field="sequence", reason=(
                f"duplicate sequence (first seen on line {first_seq[row.sequence]})")))
            continue
        first_id[row.id] = line
        first_seq[row.sequence] = line
        rows.append(parsed)
    return rows, malformed


def _decode_lines(raw: bytes, source: str) -> tuple[list[tuple[int, object]], int]:
    items: list[tuple[int, object]] = []
    count = 0
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        if not chunk.strip():
            continue
        count += 1
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as err:
            items.append((number, MalformedLine(line=number, source=source, field="<line>",
                                                reason=f"not UTF-8 (byte {err.start})")))
            continue
        try:
            items.append((number, json.loads(text)))
        except json.JSONDecodeError as err:
            items.append((number, MalformedLine(
                line=number, source=source, field="<line>",
                reason=f"not valid JSON ({err.msg} at column {err.colno})")))
    return items, count


def _read_bytes(path: str | Path, what: str) -> bytes:
    p = Path(path)
    if not p.exists():
        raise LogInputError(str(path), f"no such {what}")
    if not p.is_file():
        raise LogInputError(str(path), f"the {what} is not a file")
    try:
        return p.read_bytes()
    except OSError as err:
        raise LogInputError(str(path), err.strerror or str(err)) from err


def read_log(path: str | Path) -> tuple[list[ParsedRow], list[MalformedLine], int, str]:
    """Read a JSON Lines log.

    Args:
        path: the log file (UTF-8, one object per line; blank lines are skipped).

    Returns:
        ``(rows, malformed, non-blank line count, sha256 of the file's bytes)``.

    Raises:
        LogInputError: the file is missing, not a file, or unreadable.
    """
    raw = _read_bytes(path, "log file")
    items, count = _decode_lines(raw, "log")
    rows, malformed = parse_items(items)
    return rows, malformed, count, sha256_hex(raw)


def read_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[list[ParsedRow], list[MalformedLine],
                                                          int, str]:
    """Parse rows given as objects (row ``i`` is "line" ``i + 1``).

    Returns:
        ``(rows, malformed, row count, canonical sha256 of the rows)``.
    """
    data = [dict(r) if isinstance(r, Mapping) else r for r in rows]
    parsed, malformed = parse_items(enumerate(data, start=1))
    digest = canonical_rows_sha256(d if isinstance(d, Mapping) else {"<value>": d} for d in data)
    return parsed, malformed, len(data), digest


def read_bodies(source: str | Path | Mapping[str, str]
                ) -> tuple[dict[str, str], list[MalformedLine], str]:
    """Hash supplied bodies (memory bodies and replay answers) keyed by row id.

    Args:
        source: a JSON Lines file of ``{"ref": "<row id>", "body": "<text>"}``, or a mapping
            ``row id -> text``.

    Returns:
        ``(sha256 of each body's UTF-8 bytes by row id, malformed lines, sha256 of the whole
        source)``. The texts themselves are not kept.

    Raises:
        LogInputError: the file is missing, not a file, or unreadable.
    """
    if isinstance(source, Mapping):
        digests = {str(k): sha256_hex(v) for k, v in source.items()}
        whole = canonical_rows_sha256([{"ref": k, "body_sha256": v}
                                       for k, v in sorted(digests.items())])
        return digests, [], whole
    raw = _read_bytes(source, "bodies file")
    items, _ = _decode_lines(raw, "bodies")
    digests: dict[str, str] = {}
    malformed: list[MalformedLine] = []
    first: dict[str, int] = {}
    for line, data in items:
        if isinstance(data, MalformedLine):
            malformed.append(data)
            continue
        if not isinstance(data, dict):
            malformed.append(MalformedLine(line=line, source="bodies", field="<line>",
                                           reason="expected a JSON object"))
            continue
        ref, body = data.get("ref"), data.get("body")
        if not isinstance(ref, str) or not ref:
            malformed.append(MalformedLine(line=line, source="bodies", field="ref",
                                           reason="expected a non-empty string"))
            continue
        if not isinstance(body, str):
            malformed.append(MalformedLine(line=line, source="bodies", id=ref, field="body",
                                           reason="expected a string"))
            continue
        if ref in first:
            malformed.append(MalformedLine(line=line, source="bodies", id=ref, field="ref",
                                           reason=f"duplicate ref (first seen on line "
                                                  f"{first[ref]})"))
            continue
        first[ref] = line
        digests[ref] = sha256_hex(body)
    return digests, malformed, sha256_hex(raw)
