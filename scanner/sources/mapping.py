"""Sources: how to read a memory record out of a collection someone else writes (issue 16).

A :class:`SourceMapping` names an existing Weaviate collection (Mem0's, LangChain's,
LlamaIndex's or the agent's own) and says, per SPEC §1 field, where the value comes from: the
property holding the text, how the user scope is found (the tenant, or a property), and where
provenance comes from (properties for ``source``, ``source_class``, ``observed_at``, ``epoch``;
or a declared default such as ``single_epoch``). Pure: no I/O besides reading a TOML file.

Time rules (SPEC §1: ``observed_at`` is "when it was observed, UTC — never the import or update
time"):

* a property named like an update time (``updated_at``, ``_lastUpdateTimeUnix``, …) is never
  accepted as ``observed_at`` (:data:`UPDATE_TIME_PROPERTIES`);
* a store-wide write time such as Mem0's ``created_at`` serves as ``observed_at`` only when the
  mapping declares it (``store_time_as_observed_at``); like SPEC §3's declared epochs, that
  declaration (``declared:observed_at=<property>``) is recorded in every verdict of the source;
* naive times are rejected, not guessed (SPEC §4).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from scanner.errors import ConfigurationError, ScannerError, faults
from scanner.models import MAX_SOURCE_CHARS, MemoryRecord, RejectedLine, SourceClass

UPDATE_TIME_PROPERTIES = frozenset({"updated_at", "updatedAt", "last_updated", "modified_at",
                                    "_lastUpdateTimeUnix", "last_update_time"})
"""Property names that hold a write's update time: never an observation time (SPEC §1)."""
STORE_TIME_PROPERTIES = frozenset({"created_at", "createdAt", "_creationTimeUnix",
                                   "creation_time", "inserted_at", "imported_at"})
"""Property names that hold a store-wide write time: ``observed_at`` only when declared."""


class SourceMapping(BaseModel):
    """How a memory record is read from one object of an attached collection.

    Every ``*_properties`` field lists property names tried in order; the first one present
    and non-empty on an object gives the value. A ``*_default`` is a declared constant used
    when none is present.

    Attributes:
        name: the source's name (used in cache collection names, CLI and HTTP paths).
        collection: the attached collection's name, exactly as in Weaviate.
        preset: ``mem0``, ``langchain``, ``llamaindex`` or None (where the defaults came from).
        text_property: the property holding the memory's text.
        user_property: the property holding ``user_id`` when users are not tenants.
        tenant_scope: True = one tenant per user (the tenant name is the ``user_id``); None =
            decided from the collection's multi-tenancy setting when attached.
        group_property: the property holding the scope's ``group``, if any.
        scope_properties: properties that narrow the scope (SPEC §1 ``properties``).
        source_properties, source_default: where ``source`` comes from; a declared
            ``source_default`` (not blank, at most :data:`~scanner.models.MAX_SOURCE_CHARS`
            characters) is recorded in every verdict as ``declared:source=<value>`` (a preset
            declares the collection; ``""`` declares none).
        source_class_properties, source_class_default: where ``source_class`` comes from;
            ``source_class_values`` maps stored values (e.g. Mem0's ``role``) to a class.
        observed_at_properties: properties holding the event time (ISO 8601 text or DATE).
        store_time_as_observed_at: a store-wide write time (e.g. Mem0's ``created_at``, the
            ``mem0`` preset's default) declared to serve as ``observed_at`` when no event time
            is present; recorded in every verdict as ``declared:observed_at=<property>``
            (``""``: declare none).
        epoch_properties: properties holding the epoch; single_epoch: declare one epoch for
            the records that carry none (every preset does; recorded as
            ``declared:single_epoch``).
        confidence_property: a number in [0, 1], if the store keeps one.
        query_properties: properties the BM25 half of a hybrid search reads (default: text).
        target_vector: the named vector a hybrid search uses (None = the collection's only
            vector).
        status_property: opt-in: write each scanned object's status (``active``,
            ``superseded``, ``unresolved``) into this property of the agent's objects. None
            (the default) writes nothing into the agent's objects.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_\-]*$")
    collection: str = Field(min_length=1)
    preset: str | None = None
    text_property: str = "text"
    user_property: str | None = "user_id"
    tenant_scope: bool | None = None
    group_property: str | None = None
    scope_properties: tuple[str, ...] = ()
    source_properties: tuple[str, ...] = ("source",)
    source_default: str | None = Field(default=None, min_length=1, max_length=MAX_SOURCE_CHARS)
    source_class_properties: tuple[str, ...] = ("source_class",)
    source_class_default: SourceClass | None = None
    source_class_values: dict[str, SourceClass] = Field(default_factory=dict)
    observed_at_properties: tuple[str, ...] = ("observed_at",)
    store_time_as_observed_at: str | None = None
    epoch_properties: tuple[str, ...] = ("epoch",)
    single_epoch: bool = False
    confidence_property: str | None = None
    query_properties: tuple[str, ...] = ()
    target_vector: str | None = None
    status_property: str | None = None

    @field_validator("observed_at_properties")
    @classmethod
    def _no_write_times(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        for name in names:
            if name in UPDATE_TIME_PROPERTIES:
                raise ValueError(f"{name!r} is an update time, never an observation time "
                                 "(SPEC §1)")
            if name in STORE_TIME_PROPERTIES:
                raise ValueError(f"{name!r} is a store-wide write time: declare it with "
                                 "store_time_as_observed_at instead")
        return names

    @field_validator("source_default", "store_time_as_observed_at", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        # "" in a TOML table or an HTTP body turns a preset's declaration off
        return None if value == "" else value

    @field_validator("source_default")
    @classmethod
    def _source_named(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("a blank source declares nothing: give a name, or \"\" to declare "
                             "none")
        return value

    @field_validator("store_time_as_observed_at")
    @classmethod
    def _not_update_time(cls, name: str | None) -> str | None:
        if name in UPDATE_TIME_PROPERTIES:
            raise ValueError(f"{name!r} is an update time, never an observation time (SPEC §1)")
        return name

    @model_validator(mode="after")
    def _user_scope(self) -> SourceMapping:
        if self.tenant_scope is False and not self.user_property:
            raise ValueError("a source without tenant scope needs user_property")
        return self

    # -- what the mapping declares ---------------------------------------------------------
    def declarations(self) -> tuple[str, ...]:
        """Declarations every verdict over this source carries, besides the epoch ones the
        policy records itself (``declared:single_epoch``, SPEC §3)."""
        out = []
        if self.store_time_as_observed_at:
            out.append(f"declared:observed_at={self.store_time_as_observed_at}")
        if self.source_default is not None:
            out.append(f"declared:source={self.source_default}")
        return tuple(out)

    def read_properties(self) -> list[str]:
        """Every property of the agent's objects this mapping reads, sorted."""
        names = {self.text_property, *self.scope_properties, *self.source_properties,
                 *self.source_class_properties, *self.observed_at_properties,
                 *self.epoch_properties}
        for name in (self.user_property, self.group_property, self.store_time_as_observed_at,
                     self.confidence_property):
            if name:
                names.add(name)
        return sorted(names)

    def search_properties(self) -> list[str]:
        """The properties the BM25 half of a hybrid search reads."""
        return list(self.query_properties or (self.text_property,))

    # -- reading one object ----------------------------------------------------------------
    def to_record(self, uuid: str, properties: Mapping[str, Any], *,
                  tenant: str | None = None, user_id: str | None = None) -> MemoryRecord:
        """The SPEC §4 record of one object; its ``id`` is the object's uuid.

        Args:
            uuid: the object's uuid (or, for an object passed without one, a stable id).
            properties: the object's properties as the client returns them (DATE values as
                datetimes, TEXT as str).
            tenant: the tenant the object was read from (the user when ``tenant_scope``).
            user_id: the user, when the caller already knows it (overrides both).

        Raises:
            SourceRecordError: a required value is missing or malformed (names the object and
                the field).
        """
        text = properties.get(self.text_property)
        if not isinstance(text, str) or not text.strip():
            raise SourceRecordError(uuid, self.text_property, "no text")
        user = user_id or (tenant if self.tenant_scope else None) or \
            _text(properties, (self.user_property,) if self.user_property else ())
        if not user:
            raise SourceRecordError(uuid, self.user_property or "tenant", "no user scope")
        values: dict[str, Any] = {"id": uuid, "text": text, "user_id": user}
        if self.group_property:
            values["group"] = _text(properties, (self.group_property,))
        scope = {name: _scalar(properties[name]) for name in self.scope_properties
                 if properties.get(name) not in (None, "")}
        if scope:
            values["properties"] = scope
        values["source"] = _text(properties, self.source_properties) or self.source_default
        cls = _text(properties, self.source_class_properties)
        if cls is not None:
            mapped = self.source_class_values.get(cls)
            try:
                values["source_class"] = mapped or SourceClass(cls)
            except ValueError:
                raise SourceRecordError(uuid, "source_class", f"unknown class {cls!r}") from None
        elif self.source_class_default is not None:
            values["source_class"] = self.source_class_default
        observed, field = None, None
        for name in self.observed_at_properties:
            if properties.get(name) not in (None, ""):
                observed, field = properties[name], name
                break
        if observed is None and self.store_time_as_observed_at:
            field = self.store_time_as_observed_at
            observed = properties.get(field)
            if observed in ("", None):
                observed = None
        if observed is not None:
            values["observed_at"] = _utc(uuid, field or "observed_at", observed)
        values["epoch"] = _text(properties, self.epoch_properties)
        if self.confidence_property and properties.get(self.confidence_property) is not None:
            values["confidence"] = properties[self.confidence_property]
        try:
            return MemoryRecord.model_validate(values)
        except ValidationError as err:
            field, reason, _ = faults(err.errors(),
                                      field=lambda loc: ".".join(map(str, loc)) or "record",
                                      reason=lambda e: e["msg"])
            raise SourceRecordError(uuid, field, reason) from err

    def records(self, objects: Sequence[tuple[str, Mapping[str, Any], str | None]]
                ) -> tuple[list[MemoryRecord], list[RejectedLine]]:
        """Records of ``(uuid, properties, tenant)`` objects; bad ones are rejected (with
        their position, uuid and field) and the rest still read."""
        out, rejected = [], []
        for i, (uuid, props, tenant) in enumerate(objects, start=1):
            try:
                out.append(self.to_record(uuid, props, tenant=tenant))
            except SourceRecordError as err:
                rejected.append(RejectedLine(line=i, id=uuid, field=err.field, reason=err.reason))
        return out, rejected


class SourceRecordError(ScannerError):
    """An object of an attached collection cannot be read as a memory record.

    Attributes:
        uuid: the object; field: the mapping field or property; reason: what is wrong.
    """

    def __init__(self, uuid: str, field: str, reason: str):
        self.uuid, self.field, self.reason = uuid, field, reason
        super().__init__(f"object {uuid}: {field}: {reason}")


def object_id(text: str, properties: Mapping[str, Any] | None = None) -> str:
    """A stable id for an object passed without a uuid: ``sha256:`` + 32 hex digits of its
    text and properties (canonical JSON)."""
    body = json.dumps([text, properties or {}], sort_keys=True, default=str)
    return "sha256:" + hashlib.sha256(body.encode()).hexdigest()[:32]


def text_digest(text: str) -> str:
    """sha256 hex digest of a memory's text: the triple cache key besides the uuid."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)


def _text(properties: Mapping[str, Any], names: Sequence[str]) -> str | None:
    for name in names:
        value = properties.get(name)
        if value not in (None, ""):
            return _scalar(value)
    return None


def _utc(uuid: str, field: str, value: Any) -> datetime:
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise SourceRecordError(uuid, field, f"not an ISO 8601 time: {value!r}") from None
    if isinstance(value, (int, float)) and field.endswith("Unix"):
        return datetime.fromtimestamp(value / 1000, timezone.utc)
    if not isinstance(value, datetime):
        raise SourceRecordError(uuid, field, f"not a time: {value!r}")
    if value.tzinfo is None:
        raise SourceRecordError(uuid, field, "naive time (no UTC offset): rejected, not guessed")
    return value.astimezone(timezone.utc)


# -- presets ---------------------------------------------------------------------------------
PRESETS: dict[str, dict[str, Any]] = {
    # mem0ai 2.2.1, mem0/vector_stores/weaviate.py create_col: properties ids, hash, metadata,
    # data (the text), created_at, category, updated_at, user_id, agent_id, run_id (TEXT);
    # Memory.add writes metadata keys as top-level properties and, with infer=False, the
    # message's "role" and its "name" as "actor_id" (mem0/memory/main.py
    # _add_to_vector_store). No tenants: users are the user_id property. Provenance: who said
    # it is the actor, else the run (a conversation id, SPEC §1); created_at is Mem0's write
    # time (mem0/memory/main.py _create_memory: now, unless the caller's metadata sets it),
    # declared as observed_at; Mem0 has no epoch (one declared for the collection) and a
    # memory without actor or run names no source (the collection declared as its source).
    "mem0": {"text_property": "data", "user_property": "user_id", "tenant_scope": False,
             "source_properties": ("source", "actor_id", "run_id"),
             "source_class_properties": ("source_class", "role"),
             "source_class_values": {"user": SourceClass.user,
                                     "assistant": SourceClass.inference},
             "observed_at_properties": ("observed_at",), "store_time_as_observed_at":
             "created_at", "epoch_properties": ("epoch",), "single_epoch": True,
             "query_properties": ("data",)},
    # langchain-weaviate 0.0.8, langchain_weaviate/vectorstores.py: the text under text_key
    # ("text" by default), each metadata key a top-level property (add_texts), one tenant
    # per `tenant` argument when use_multi_tenancy; "source" is LangChain's conventional
    # metadata key for where a document came from (its document loaders set it). LangChain
    # keeps no time, epoch or speaker of its own: observed_at comes from the metadata, one
    # epoch is declared for the collection and the collection is the declared source of a
    # document whose metadata names none.
    "langchain": {"text_property": "text", "user_property": "user_id",
                  "source_properties": ("source",),
                  "source_class_properties": ("source_class",),
                  "observed_at_properties": ("observed_at",), "epoch_properties": ("epoch",),
                  "single_epoch": True},
    # llama-index-vector-stores-weaviate 1.7.1, llama_index/vector_stores/weaviate/utils.py
    # NODE_SCHEMA + get_data_object: "text", "ref_doc_id", "doc_id", "document_id",
    # "_node_content" (the node as JSON), "_node_type", and each node.metadata key as a
    # top-level property (node_to_metadata_dict, flat_metadata=False); the object uuid is
    # the node id. LlamaIndex's file readers name the file in "file_path" (SimpleDirectoryReader);
    # as for LangChain, one epoch and the collection as source are declared.
    "llamaindex": {"text_property": "text", "user_property": "user_id",
                   "source_properties": ("source", "file_path"),
                   "source_class_properties": ("source_class",),
                   "observed_at_properties": ("observed_at",), "epoch_properties": ("epoch",),
                   "single_epoch": True, "query_properties": ("text",)},
}
"""Defaults per framework; any field can still be set on top of a preset. Every preset also
declares the collection itself as ``source_default`` (``declared:source=<collection>``) unless
the source sets ``source_default`` (``""``: declare none)."""


def preset(name: str, collection: str, *, source_name: str | None = None,
           **overrides: Any) -> SourceMapping:
    """A mapping from a preset, with ``overrides`` on top.

    Raises:
        ConfigurationError: unknown preset, or an override the mapping rejects.
    """
    if name not in PRESETS:
        raise ConfigurationError("preset", f"unknown preset {name!r}; known: "
                                           f"{', '.join(sorted(PRESETS))}")
    return build_mapping({"preset": name, "collection": collection,
                          "name": source_name or collection, **overrides})


def build_mapping(values: Mapping[str, Any]) -> SourceMapping:
    """A mapping from plain values (a TOML table, an HTTP body); ``preset`` fills defaults.

    Raises:
        ConfigurationError: names the first bad field.
    """
    values = dict(values)
    name = values.get("preset")
    if name is not None and name not in PRESETS:
        raise ConfigurationError("preset", f"unknown preset {name!r}; known: "
                                           f"{', '.join(sorted(PRESETS))}")
    merged = {**PRESETS.get(name, {}), **values}
    merged.setdefault("name", merged.get("collection"))
    if name is not None:
        # what no framework records: the collection itself is declared the source
        merged.setdefault("source_default", merged.get("collection"))
    try:
        return SourceMapping.model_validate(merged)
    except ValidationError as err:
        field, reason, _ = faults(err.errors(), field=lambda loc: ".".join(map(str, loc)),
                                  reason=lambda e: e["msg"])
        raise ConfigurationError("source." + field, reason) from err


def load_sources(path: str | Path) -> dict[str, SourceMapping]:
    """Sources from a TOML file: one ``[sources.<name>]`` table each (or one ``[source]``).

    Example::

        [sources.support-bot]
        preset = "mem0"
        collection = "Mem0Memories"
        store_time_as_observed_at = "created_at"   # declared, recorded in every verdict
        single_epoch = true

    Raises:
        ConfigurationError: unreadable TOML, or a bad field (named with its source).
    """
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigurationError(str(path), f"cannot read sources: {err}") from err
    tables = dict(data.get("sources") or {})
    if "source" in data:
        single = dict(data["source"])
        tables[single.get("name") or single.get("collection", "source")] = single
    if not tables:
        raise ConfigurationError(str(path), "no [sources.<name>] table")
    out = {}
    for name, table in tables.items():
        if not isinstance(table, Mapping):
            raise ConfigurationError(f"sources.{name}", "not a table")
        try:
            out[name] = build_mapping({"name": name, **table})
        except ConfigurationError as err:
            raise ConfigurationError(f"{path}: sources.{name}", str(err)) from err
    return out
