"""The one pass of a batch scan over a tenant's stored memories (issue 4, "Batch scans that
scale"). Pure: no I/O; the store hands over the property dicts its cursor read.

A batch scan reads every memory of a tenant, yet most memories can take part in no conflict
and no duplicate. So the pass keeps per memory only what finding the candidates needs — its
id, keys, status, and a hash of its normalised text — and decodes into
:class:`~scanner.models.MemoryRecord` and :class:`~extractors.Triple` objects only the
memories that can conflict or repeat another:

* memories holding a key another memory holds (``(scope, canonical subject, relation)``,
  SPEC §1);
* memories holding a key whose subject is string-similar to another key's subject in the same
  scope and relation (``subject_unconfirmed``, :func:`scanner.keys.near_key_pairs`);
* memories whose normalised text another memory of the same scope repeats
  (:func:`scanner.detect.duplicate_groups`; equal fact sets already share keys).

Scanning that subset with :func:`scanner.scan.scan_records` gives the conflicts, events and
duplicates of scanning the whole tenant: detection only ever compares memories of one key, of
two near keys, or of one normalised text, and every such memory is in the subset
(``tests/unit/test_batch.py`` checks the equality).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from extractors import Triple
from scanner.detect import normalised_text
from scanner.keys import AliasTable, GroupKey, near_subject_pairs
from scanner.models import MemoryRecord, Scope, SourceClass

STATUS_ACTIVE = "active"
"""A memory's status when no verdict retired or held it (same value as the store's)."""

_Key = tuple[tuple[str | None, tuple[tuple[str, str], ...]], str, str]
"""``((group, sorted properties), canonical subject, relation)``: a key inside one tenant."""


@dataclass
class TenantPass:
    """Memories of one tenant fed one at a time; then the subset worth scanning.

    Args:
        user_id: the tenant's user (every record gets it; the store keeps one user per
            tenant, :func:`scanner.store.memories.tenant_name`).
        aliases: subject aliases resolved before keys are formed (the scan's own table).
        keep_ids: also keep every memory id (for a report that lists ``cite``).

    Memory: per memory one tuple (its property dict, decoded triple dicts and keys), plus the
    decoded candidates, so it is bounded by the size of one tenant, not by the number of
    memories scanned over all tenants.
    """

    user_id: str
    aliases: AliasTable = field(default_factory=AliasTable)
    keep_ids: bool = False
    scanned: int = 0
    states: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """memory id -> ``(status, retired_rule)`` of every memory that is not ``active``."""
    ids: list[str] = field(default_factory=list)
    """Every memory id, in cursor order (only with ``keep_ids``)."""
    _rows: list[tuple[Mapping[str, Any], list[dict[str, Any]], tuple[_Key, ...]]] = \
        field(default_factory=list)
    _first: dict[_Key, int] = field(default_factory=dict)
    """key -> row of the first memory holding it."""
    _shared: set[_Key] = field(default_factory=set)
    _texts: dict[int, int] = field(default_factory=dict)
    """hash of (scope, normalised text) -> row of the first memory with it."""
    _decoded: dict[int, tuple[MemoryRecord, list[Triple]]] = field(default_factory=dict)
    """row -> record and triples of the memories known to be candidates so far (decoded as
    soon as that is known, so the work overlaps the cursor's next page)."""
    _properties: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """``properties_json`` -> its items, sorted (memories of a tenant share few scopes)."""

    def add(self, props: Mapping[str, Any]) -> None:
        """One stored memory: its properties as the store holds them (``memory_id``, ``text``,
        ``scope_group``, ``properties_json``, provenance, ``triples_json``, ``status``,
        ``retired_rule``; see :data:`scanner.store.memories.BATCH_SCAN_PROPERTIES`)."""
        mid = props["memory_id"]
        row = self.scanned
        scope = (props.get("scope_group") or None, self._sorted(props))
        raw = props.get("triples_json")
        triples = json.loads(raw) if raw and raw != "[]" else []
        resolve = self.aliases.resolve
        keys = tuple({(scope, resolve(t["subject"]), t["relation"]): None
                      for t in triples})
        self._rows.append((props, triples, keys))
        first = self._first
        candidate = False
        for key in keys:
            other = first.setdefault(key, row)
            if other != row:
                self._shared.add(key)
                self._decode(other)
                candidate = True
        other = self._texts.setdefault(hash((scope, normalised_text(props["text"]))), row)
        if other != row:
            self._decode(other)
            candidate = True
        if candidate:
            self._decode(row)
        status = props.get("status") or STATUS_ACTIVE
        if status != STATUS_ACTIVE:
            self.states[mid] = (status, props.get("retired_rule") or None)
        if self.keep_ids:
            self.ids.append(mid)
        self.scanned += 1

    def candidates(self) -> tuple[list[MemoryRecord], list[list[Triple]],
                                  list[tuple[GroupKey, GroupKey]]]:
        """The memories that can take part in a conflict or a duplicate (module docstring),
        decoded, in the order they were added; their triples; and the near-key pairs of the
        tenant (for :func:`scanner.scan.scan_records`'s ``near_pairs``). Call once, after the
        last :meth:`add` (the pass's rows are released)."""
        near_pairs = self._near_pairs()
        if near_pairs:
            near = {self._key(k) for pair in near_pairs for k in pair}
            for row, (_, _, keys) in enumerate(self._rows):
                if row not in self._decoded and any(k in near for k in keys):
                    self._decode(row)
        found = [self._decoded[row] for row in sorted(self._decoded)]
        self._rows, self._decoded = [], {}
        self._first, self._shared, self._texts = {}, set(), {}
        return [r for r, _ in found], [t for _, t in found], near_pairs

    def _decode(self, row: int) -> None:
        if row not in self._decoded:
            props, raw, _ = self._rows[row]
            self._decoded[row] = (self._record(props), [Triple.from_dict(t) for t in raw])

    def _sorted(self, props: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        raw = props.get("properties_json") or "{}"
        items = self._properties.get(raw)
        if items is None:
            items = self._properties[raw] = tuple(sorted(json.loads(raw).items()))
        return items

    def _near_pairs(self) -> list[tuple[GroupKey, GroupKey]]:
        """:func:`scanner.keys.near_key_pairs` over every key of the tenant, found on the
        pass's plain key tuples (keys are built only for the pairs found)."""
        by_relation: dict[tuple[Any, str], list[str]] = {}
        for scope, subject, relation in self._first:
            names = by_relation.get((scope, relation))
            if names is None:
                by_relation[(scope, relation)] = [subject]
            else:
                names.append(subject)
        scopes: dict[Any, Scope] = {}
        pairs = []
        for (scope, relation), a, b in near_subject_pairs(by_relation):
            found = scopes.get(scope)
            if found is None:
                found = scopes[scope] = Scope.model_construct(
                    user_id=self.user_id, group=scope[0], properties=scope[1])
            pairs.append((GroupKey(found, a, relation), GroupKey(found, b, relation)))
        return pairs

    @staticmethod
    def _key(key: GroupKey) -> _Key:
        return ((key.scope.group, key.scope.properties), key.subject, key.relation)

    def _record(self, p: Mapping[str, Any]) -> MemoryRecord:
        return record_from_properties(p, self.user_id, dict(self._sorted(p)))


def stored_utc(value: Any) -> Any:
    """A stored date property as an aware UTC datetime (a naive one is UTC); anything else
    (None) as it is."""
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc) if value.tzinfo else \
            value.replace(tzinfo=timezone.utc)
    return value


def record_from_properties(p: Mapping[str, Any], user_id: str | None = None,
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
:func:`record_from_properties` sets (checked once, at import)."""


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
