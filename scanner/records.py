"""Reading memory records from JSON Lines (SPEC §4).

A bad line never costs the good ones: each rejected line is reported with its number, the
record id when it could be read, and the field at fault; the rest are returned. Fields outside
the record format are ignored, never a reason to drop a memory, and reported once per field
with the lines that carried it (:class:`IgnoredFields`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ConfigDict, ValidationError

from scanner.errors import RecordError, faults
from scanner.models import MemoryRecord, RejectedLine
from scanner.wording import counted

IGNORED_LINES_SHOWN = 5
"""Line numbers listed for each ignored field; ``count`` covers every line that carried it."""


def _field(loc: tuple) -> str:
    return ".".join(_safe_id(str(p)) for p in loc) or "<record>"


def _safe_id(value: str) -> str:
    """An id or key as it may be reported: lone surrogates and control characters escaped,
    so the report can be printed and written as UTF-8 JSON."""
    if value.isprintable():
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            pass
    return ascii(value)[1:-1]


TEXT_NAMED_OTHERWISE = {"memory": "Mem0"}
"""Names another memory system gives a memory's text, and whose name it is: an item of
Mem0's ``Memory.search`` or ``Memory.get_all`` carries it as ``memory`` (mem0ai 2.2.1,
mem0/memory/main.py), beside the ``id``, ``user_id`` and the fields ignored here."""


def missing_text_reason(names: Iterable[str]) -> str | None:
    """What to say when a record has no ``text`` but carries a field another memory system
    keeps the text in (:data:`TEXT_NAMED_OTHERWISE`), else None.

    Args:
        names: the record's field names, as given (fields outside the record format
            included).
    """
    for name in names:
        system = TEXT_NAMED_OTHERWISE.get(name)
        if system is not None:
            return (f"Field required: the memory's text goes in 'text'; this record has "
                    f"'{name}', which is what {system} calls it: rename '{name}' to 'text'")
    return None


def parse_record(data: object, *, line: int | None = None,
                 foreign: Iterable[str] = ()) -> MemoryRecord:
    """Validate one decoded JSON value as a memory record.

    Args:
        data: the decoded value (fields outside the record format already dropped).
        line: its line number, when it came from a file.
        foreign: the names of the fields dropped from it, so that a missing ``text`` can
            name the field another system keeps it in (:func:`missing_text_reason`).

    Raises:
        RecordError: naming the line, the id (if readable) and the first field at fault in
            ``field``; ``fields`` lists every field at fault and ``reason`` says what is wrong
            with each ("...; also field 'user_id': ...").
    """
    rid = data.get("id") if isinstance(data, dict) else None
    if isinstance(rid, (int, float)) and not isinstance(rid, bool):
        rid = _safe_id(json.dumps(rid))  # ("id": 7 is rejected, and reported as "7")
    elif isinstance(rid, str):
        rid = _safe_id(rid)
    else:
        rid = None
    if not isinstance(data, dict):
        raise RecordError(line=line, record_id=None, field="<line>",
                          reason="expected a JSON object")
    text_elsewhere = missing_text_reason(foreign)

    def reason(error: dict) -> str:
        if text_elsewhere and error["type"] == "missing" and tuple(error["loc"]) == ("text",):
            return text_elsewhere
        return _reason(error)

    try:
        return MemoryRecord.model_validate(data)
    except ValidationError as err:
        field, why, fields = faults(err.errors(), field=_field, reason=reason)
        raise RecordError(line=line, record_id=rid, field=field, reason=why,
                          fields=fields) from err


def _reason(error: dict) -> str:
    """A person's wording of one pydantic error (``ValidationError.errors()`` item)."""
    if error["type"] == "timezone_aware":
        return "naive timestamp: give a UTC offset such as 'Z' or '+00:00'"
    if error["type"] == "string_unicode":
        return "holds a lone surrogate (such as \\ud800), which is not valid Unicode"
    if error["type"] == "value_error":
        return error["msg"].removeprefix("Value error, ")
    return error["msg"]


RECORD_FIELDS = frozenset(MemoryRecord.model_fields)
"""The top-level fields of a memory record (SPEC §4)."""


class IgnoredField(BaseModel):
    """A field outside the record format, ignored on every line that carried it.

    ``lines`` are the first :data:`IGNORED_LINES_SHOWN` such line numbers (1-based, ascending);
    ``count`` is the number of such lines."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    field: str
    count: int
    lines: list[int]


class IgnoredFields:
    """Fields outside the record format met while reading a file, each with the lines that
    carried it: filled by :func:`iter_jsonl`, reported once per field (never per line).

    Example:
        >>> seen = IgnoredFields()
        >>> for line in (1, 2, 3, 4, 5, 6, 9):
        ...     seen.add("created_at", line)
        >>> seen.add("hash", 2)
        >>> seen.summary()
        'created_at on 7 lines (1, 2, 3, 4, 5 and 2 more), hash on 1 line (2)'
    """

    def __init__(self) -> None:
        self._lines: dict[str, list[int]] = {}
        self._counts: dict[str, int] = {}

    def add(self, name: str, line: int) -> None:
        """Note that line ``line`` carried the field ``name``."""
        name = _safe_id(name)
        count = self._counts.get(name, 0)
        if count < IGNORED_LINES_SHOWN:
            self._lines.setdefault(name, []).append(line)
        self._counts[name] = count + 1

    def __bool__(self) -> bool:
        return bool(self._counts)

    def counts(self) -> dict[str, int]:
        """Field name -> number of lines that carried it, by name."""
        return dict(sorted(self._counts.items()))

    def fields(self) -> list[IgnoredField]:
        """One entry per ignored field, sorted by name (as ``--json`` prints them)."""
        return [IgnoredField(field=name, count=n, lines=self._lines[name])
                for name, n in sorted(self._counts.items())]

    def summary(self) -> str:
        """One line for people: each field, how many lines carried it and which (the first
        :data:`IGNORED_LINES_SHOWN`)."""
        parts = []
        for item in self.fields():
            shown = ", ".join(str(n) for n in item.lines)
            more = item.count - len(item.lines)
            parts.append(f"{item.field} on {counted(item.count, 'line')} ({shown}"
                         + (f" and {more} more)" if more else ")"))
        return ", ".join(parts)


def _utf16_unmarked(line: bytes) -> bool:
    """Whether a first line is UTF-16 written without a byte-order mark: a JSON line opens
    with an ASCII character, which UTF-16 writes beside a zero byte ("{\\x00" little-endian,
    "\\x00{" big-endian; RFC 2781 §4.3 leaves such text to be recognised from its content)."""
    head = line[:8]
    return len(head) >= 4 and (head[1::2].count(0) == len(head[1::2])
                               or head[0::2].count(0) == len(head[0::2]))


class DuplicateName(ValueError):
    """A JSON object names one member twice (``"user_id": "alice", "user_id": "bob"``)."""

    def __init__(self, name: str, top: bool):
        super().__init__(name)
        self.name, self.top = name, top


def unique_names(pairs: list[tuple[str, object]]) -> dict:
    """``object_pairs_hook`` for :func:`json.loads` that refuses a name given twice: RFC 8259
    §4 leaves the meaning of such an object to the reader, and Python's reader keeps the last
    value silently, so a record could be stored under another user than the first one
    written. ``top`` is told by the record's fields (a nested object's names are
    ``<line>``)."""
    out: dict = {}
    for name, value in pairs:
        if name in out:
            raise DuplicateName(name, top=name in RECORD_FIELDS)
        out[name] = value
    return out


def iter_jsonl(lines: Iterable[str | bytes], *, ignored: IgnoredFields | None = None
               ) -> Iterator[MemoryRecord | RecordError]:
    """Records, or the error for each bad line, in input order. Lines may be bytes (decoded
    one by one as UTF-8, a leading byte-order mark dropped, so one bad line costs only
    itself). Blank lines are skipped and an id seen before is rejected (``id``: duplicate
    id).

    Fields outside the record format (an export from another memory system carries
    ``created_at``, ``updated_at``, ``metadata``, ``hash``) are ignored, never a reason to
    drop a memory; ``updated_at`` or ``created_at`` never becomes ``observed_at``. When
    ``ignored`` is given, it notes the kept lines that carried each ignored field (a rejected
    line is reported with its own reason). A UTF-16 file, with or without a byte-order mark,
    is one error for the whole file."""
    first_line: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes) and number == 1 and (
                raw[:2] in (b"\xff\xfe", b"\xfe\xff") or _utf16_unmarked(raw)):
            # a UTF-16 file: every line would be reported unreadable, one by one
            how = ("it opens with a UTF-16 byte-order mark" if raw[:2] in (b"\xff\xfe",
                                                                        b"\xfe\xff")
                   else "every other byte of its first line is zero")
            yield RecordError(line=1, record_id=None, field="<file>",
                              reason=f"the file is UTF-16 ({how}): convert it to UTF-8, "
                                     "e.g. iconv -f UTF-16 -t UTF-8")
            return
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as err:
                # the id the line shows, read past the bad bytes, names the record (unless
                # a bad byte is in the id itself)
                shown = _written_id(raw.decode("utf-8", errors="replace"))
                yield RecordError(line=number, field="<line>",
                                  record_id=None if shown and "\ufffd" in shown else shown,
                                  reason=f"not UTF-8 (byte {err.start + 1}: "
                                         f"{raw[err.start:err.start + 1]!r})")
                continue
        elif number == 1:
            raw = raw.removeprefix("\ufeff")
        if not raw.strip():
            continue
        raw = raw.rstrip("\r\n")  # (an error's column is then on the line as written)
        if raw.lstrip().startswith("["):
            yield RecordError(line=number, record_id=None, field="<line>",
                              reason="the line is a JSON array, not one record: JSON Lines "
                                     "holds one object per line (e.g. jq -c '.[]')")
            continue
        try:
            data = json.loads(raw, object_pairs_hook=unique_names)
        except DuplicateName as err:
            yield RecordError(line=number, record_id=_written_id(raw),
                              field=err.name if err.top else "<line>",
                              reason=f"the name {err.name!r} is given twice in one object; "
                                     "which value is meant is unknown (RFC 8259 §4)")
            continue
        except json.JSONDecodeError as err:
            yield RecordError(line=number, record_id=_written_id(raw), field="<line>",
                              reason=f"not valid JSON ({err.msg} at column {err.colno})")
            continue
        except RecursionError:
            yield RecordError(line=number, record_id=None, field="<line>",
                              reason="nested too deeply to read")
            continue
        except ValueError as err:  # an integer past sys.get_int_max_str_digits() (4300)
            yield RecordError(line=number, record_id=None, field="<line>",
                              reason=f"not readable JSON ({err})")
            continue
        if isinstance(data, dict) and not RECORD_FIELDS.issuperset(data):
            extra = [k for k in data if k not in RECORD_FIELDS]
            data = {k: v for k, v in data.items() if k in RECORD_FIELDS}
        else:
            extra = []
        try:
            record = parse_record(data, line=number, foreign=extra)
        except RecordError as err:
            yield err
            continue
        if record.id in first_line:
            yield RecordError(line=number, record_id=record.id, field="id",
                              reason=f"duplicate id (first seen on line {first_line[record.id]})")
            continue
        first_line[record.id] = number
        if ignored is not None:  # (noted for the memories kept: a rejected line is reported)
            for name in extra:
                ignored.add(name, number)
        yield record


_WRITTEN_ID = re.compile(r'[{,]\s*"id"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,')


def _written_id(raw: str) -> str | None:
    """The id a line that is not valid JSON still shows as a complete string member
    (``{"id": "m7", "text": "…``, the first such member), so that the report can name the
    memory; else None."""
    found = _WRITTEN_ID.search(raw)
    if found is None:
        return None
    try:
        value = json.loads(f'"{found.group(1)}"')
        value.encode("utf-8")  # (a lone surrogate is no id to print)
    except ValueError:
        return None
    return value if value.strip() else None


def read_jsonl(source: str | Path | IO[str] | IO[bytes], *,
               ignored: IgnoredFields | None = None
               ) -> tuple[list[MemoryRecord], list[RejectedLine]]:
    """Read a JSON Lines file of memory records.

    Args:
        source: a path (read as bytes, each line decoded as UTF-8), or an open stream.
        ignored: when given, notes the lines carrying each field outside the record
            format; such fields are ignored (:func:`iter_jsonl`).

    Returns:
        ``(records, rejected)``; every line ends up in exactly one of the two.

    Raises:
        OSError: the file cannot be opened (nothing else is raised for bad content).
    """
    if isinstance(source, (str, Path)):
        with open(source, "rb") as stream:
            return read_jsonl(stream, ignored=ignored)
    records: list[MemoryRecord] = []
    rejected: list[RejectedLine] = []
    for item in iter_jsonl(source, ignored=ignored):
        if isinstance(item, RecordError):
            rejected.append(RejectedLine(line=item.line or 0, id=item.record_id,
                                         field=item.field, reason=item.reason))
        else:
            records.append(item)
    return records, rejected
