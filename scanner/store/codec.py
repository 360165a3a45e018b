"""The record codec: a memory as the properties of a Weaviate object, and back.

Every property name and stored format of the memory collection is written and read here:
:func:`encode_memory` gives the properties an import stores, :func:`decode_record` and
:func:`decode_memory` read them back (the store's reads and the batch scan's pass,
:class:`scanner.batch.TenantPass`, both use them). Pure: no I/O and no import of the Weaviate
client; an object read by the client is used through its ``properties``, ``uuid``,
``references`` and ``metadata`` attributes only. The collection's schema is
:mod:`scanner.store.schema`.

Stored formats:

* ``observed_at`` and ``imported_at`` are ``DATE`` properties; the client returns them as
  datetimes, naive ones meaning UTC (weaviate-client ``util.py``);
* ``properties_json`` is the scope's property map as JSON (sorted keys), kept for reading back,
  and ``scope_properties`` the same map as ``<key>=<value>`` tokens for filtering
  (:func:`scope_property_tokens`);
* ``triples_json`` is the list of :meth:`extractors.Triple.to_dict` of the record's triples,
  extracted once, at import; ``keys`` the ``"subject|relation"`` strings of those triples
  (filtered with ``ContainsAny`` by :meth:`~scanner.store.queries.MemoryQueries.sharing_keys`);
* ``status`` is one of :data:`STATUS_ACTIVE`, :data:`STATUS_SUPERSEDED`,
  :data:`STATUS_UNRESOLVED`; ``retired_rule`` the rule that retired a superseded memory.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from extractors import Triple
from scanner.models import MemoryRecord, SourceClass

STATUS_ACTIVE = "active"
STATUS_SUPERSEDED = "superseded"
STATUS_UNRESOLVED = "unresolved"
SCAN_PROPERTIES = ("memory_id", "text", "user_id", "scope_group", "properties_json", "source",
                   "source_class", "observed_at", "epoch", "confidence", "priority",
                   "source_trust", "triples_json", "status", "retired_rule")
"""The properties a scan reads (everything a :class:`StoredMemory` holds; not the search
helpers ``keys``/``scope_properties`` nor ``imported_at``)."""
BATCH_SCAN_PROPERTIES = tuple(p for p in SCAN_PROPERTIES if p != "user_id")
"""What a batch scan reads (:class:`scanner.batch.TenantPass`): :data:`SCAN_PROPERTIES`
without ``user_id``, which the tenant already names."""
BODY_PROPERTIES = ("text", "source", "source_class", "epoch", "observed_at")
"""The stored properties that say what a memory is and on whose word (compared on re-import)."""


@dataclass(frozen=True)
class StoredMemory:
    """A memory as stored: the record, its triples (extracted once, at import) and status."""

    record: MemoryRecord
    triples: list[Triple]
    status: str = STATUS_ACTIVE
    uuid: str = ""
    score: float | None = None
    supersedes: list[str] = field(default_factory=list)
    retired_rule: str | None = None


# --------------------------------------------------------------------------- encode


def encode_memory(r: MemoryRecord, triples: Sequence[Triple], now: datetime) -> dict[str, Any]:
    """The properties a new memory is stored with.

    Args:
        r: the record.
        triples: its extracted triples.
        now: UTC time of the import (``imported_at``).

    Returns:
        Every property of the memory collection's schema, ``status`` :data:`STATUS_ACTIVE`.
    """
    return {
        "memory_id": r.id, "text": r.text, "user_id": r.user_id,
        "scope_group": r.group or "", "scope_properties": scope_property_tokens(r.properties),
        "properties_json": json.dumps(r.properties, sort_keys=True),
        "source": r.source or "", "source_class": r.source_class.value,
        "observed_at": r.observed_at, "epoch": r.epoch or "",
        "confidence": r.confidence, "priority": r.priority, "source_trust": r.source_trust,
        "triples_json": json.dumps([t.to_dict() for t in triples]),
        "keys": sorted({f"{t.subject}|{t.relation}" for t in triples}),
        "status": STATUS_ACTIVE, "retired_rule": "", "imported_at": now,
    }


def scope_property_tokens(props: Mapping[str, str]) -> list[str]:
    """Scope properties as the ``scope_properties`` tokens a record is stored and filtered with.

    One token per pair, ``<key>=<value>``, unambiguous: in the key ``\\`` and ``=`` are
    escaped with ``\\`` (so the first unescaped ``=`` ends it, and ``{"site": "lab=b"}`` no
    longer matches ``{"site=lab": "b"}``); and since the index trims whitespace at both ends
    of a token (``field`` tokenization), a key starting with whitespace gets a ``\\`` before
    it and a value ending with whitespace or ``\\`` gets one ``\\`` after it. A pair with
    none of these characters keeps the plain ``k=v`` token it always had, so stored data
    still matches.
    """
    return [_property_token(k, v) for k, v in sorted(props.items())]


def _property_token(key: str, value: str) -> str:
    key = key.replace("\\", "\\\\").replace("=", "\\=")
    if key[:1].isspace():
        key = "\\" + key
    if value[-1:].isspace() or value.endswith("\\"):
        value += "\\"
    return f"{key}={value}"


def record_body(r: MemoryRecord) -> tuple:
    """What a record says and on whose word, comparable with :func:`stored_body`."""
    # MemoryRecord keeps observed_at in UTC already
    return (r.text, r.source or "", r.source_class.value, r.epoch or "", r.observed_at)


def stored_body(p: Mapping[str, Any]) -> tuple:
    """:func:`record_body` of a stored memory, from its :data:`BODY_PROPERTIES`."""
    return (p.get("text") or "", p.get("source") or "", p.get("source_class") or "inference",
            p.get("epoch") or "", stored_utc(p.get("observed_at")))


# --------------------------------------------------------------------------- decode


def stored_utc(value: Any) -> Any:
    """A stored date property as an aware UTC datetime (a naive one is UTC); anything else
    (None) as it is."""
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc) if value.tzinfo else \
            value.replace(tzinfo=timezone.utc)
    return value


def decode_record(p: Mapping[str, Any], user_id: str | None = None,
                  properties: Mapping[str, str] | None = None) -> MemoryRecord:
    """A :class:`MemoryRecord` from the properties the store keeps (no re-validation: stored
    values were validated at import, and a batch scan reads every memory of a tenant).

    Args:
        p: stored properties; ``observed_at`` a datetime (naive = UTC) or None.
        user_id: the tenant's user, when ``p`` lacks ``user_id``.
        properties: the decoded ``properties_json``, when the caller already has it (the
            record keeps this dict).
    """
    observed = stored_utc(p.get("observed_at"))
    values = {
        "id": p["memory_id"], "text": p["text"], "user_id": p.get("user_id") or user_id,
        "group": p.get("scope_group") or None,
        "properties": properties if properties is not None else json.loads(p.get("properties_json") or "{}"),
        "source": p.get("source") or None,
        "source_class": SourceClass(p.get("source_class") or "inference"),
        "observed_at": observed, "epoch": p.get("epoch") or None,
        "confidence": p.get("confidence"), "priority": p.get("priority"),
        "source_trust": p.get("source_trust")}
    return _constructed(values)


_PLAIN_MODEL = (tuple(MemoryRecord.model_fields) == (
    "id", "text", "user_id", "group", "properties", "source", "source_class", "observed_at",
    "epoch", "confidence", "priority", "source_trust")
    and not MemoryRecord.__pydantic_post_init__ and not MemoryRecord.__private_attributes__
    and MemoryRecord.model_config.get("extra") != "allow")
"""True when :class:`MemoryRecord` is a plain model whose every field
:func:`decode_record` sets (checked once, at import)."""


def _constructed(values: dict[str, Any]) -> MemoryRecord:
    """``MemoryRecord.model_construct(**values)`` with every field given, in field order: what
    pydantic's ``model_construct`` stores (``__dict__``, fields set, no extra, no private
    state), without its per-field default lookup (a fifth of the pass's time, measured)."""
    if not _PLAIN_MODEL:
        return MemoryRecord.model_construct(**values)
    record = MemoryRecord.__new__(MemoryRecord)
    object.__setattr__(record, "__dict__", values)
    object.__setattr__(record, "__pydantic_fields_set__", set(values))
    object.__setattr__(record, "__pydantic_extra__", None)
    object.__setattr__(record, "__pydantic_private__", None)
    return record


def decode_memory(obj: Any) -> StoredMemory:
    """A :class:`StoredMemory` from an object the client read (``properties`` of
    :data:`SCAN_PROPERTIES` at least; ``supersedes`` references and the ``score`` metadata
    when the query asked for them)."""
    p = obj.properties
    record = decode_record(p)
    triples = [Triple.from_dict(t) for t in json.loads(p.get("triples_json") or "[]")]
    refs = []
    if getattr(obj, "references", None) and "supersedes" in obj.references:
        refs = [str(o.uuid) for o in obj.references["supersedes"].objects]
    score = getattr(obj.metadata, "score", None) if obj.metadata is not None else None
    return StoredMemory(record=record, triples=triples, status=p.get("status") or "active",
                        uuid=str(obj.uuid), score=score, supersedes=refs,
                        retired_rule=p.get("retired_rule") or None)
