"""The collections contrascan creates in Weaviate (the client's ``collections`` / ``config``).

Three multi-tenant collections, one tenant per user in each (:mod:`scanner.store.tenants`),
all with self-provided vectors (vectorizer ``none``) and no automatic tenant creation:

* the memories (:func:`create_memory_collection`): scope, provenance and the extracted
  triples as properties (:mod:`scanner.store.codec`); ids and enums use ``FIELD`` tokenization
  so ``Equal`` filters match whole values (weaviate#7681); our own ``observed_at`` DATE
  property, since server timestamps cannot be backdated; verdicts as a ``supersedes``
  self-reference (winner -> loser) and a ``status`` property. Nothing is ever deleted;
* the ledger (:func:`create_ledger_collection`, :mod:`scanner.store.ledger`);
* the batch scans' checkpoints (:func:`create_scan_state_collection`,
  :mod:`scanner.store.scan_state`).

Each ``create_*`` function is idempotent (nothing happens when the collection exists) and
raises :class:`~scanner.errors.WeaviateUnavailable` ``cannot create collection <name>: …``
for any client error (:func:`scanner.store.failures.store_failure`). See WEAVIATE.md
§4–5 for the reasons of the layout.

**Strict schemas under auto-schema.** The embedded server runs with Weaviate's auto-schema on
(``AUTOSCHEMA_ENABLED``, :func:`scanner.store.processes.server_environment`), as a default
Weaviate does, because LangChain, LlamaIndex and Mem0 write properties their collections never
declared, and lose the write silently without it (issue 35 item 2, docs/attached-sources.md).
Weaviate has the setting only server-wide (weaviate#4379), so contrascan keeps its own
collections strict itself: every ``create_*`` records the properties and references it
declares (:func:`declare`), and the two write paths
(:func:`scanner.store.batching.insert_objects`, :func:`scanner.store.status_updates.update_many`)
send no object naming anything else (:func:`undeclared`): such an object is a failed write
naming the property, as the server reported it with auto-schema off. An existing collection of
one of our names without multi-tenancy is refused (what auto-schema makes of a write that
reaches a deleted one).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

import weaviate
from weaviate.classes.config import Configure, DataType, Property, ReferenceProperty, Tokenization

from scanner.errors import ConfigurationError
from scanner.store import replication
from scanner.store.failures import store_failure

_DECLARED: dict[str, frozenset[str]] = {}
_DECLARED_LOCK = threading.Lock()


def declare(collection: str, names: Iterable[str]) -> None:
    """Record ``names`` (properties or references) as declared by contrascan for its
    collection ``collection``, besides those recorded before. Per process."""
    with _DECLARED_LOCK:
        _DECLARED[collection] = _DECLARED.get(collection, frozenset()) | frozenset(names)


def declared(collection: Any) -> frozenset[str]:
    """The property and reference names contrascan declared for ``collection`` (a collection
    handle, tenant-bound or not). A collection this process has not created or ensured is
    read once from the server (``config.get``)."""
    names = _DECLARED.get(collection.name)
    if names is None:
        config = collection.config.get()
        declare(collection.name, [p.name for p in config.properties]
                + [r.name for r in config.references])
        names = _DECLARED[collection.name]
    return names


def undeclared(collection: Any, properties: Mapping[str, Any] | None,
               references: Mapping[str, Any] | None = None) -> str | None:
    """Why an object of ``properties`` (and ``references``) must not be written into
    contrascan's ``collection``, or None when every name is declared.

    Returns:
        e.g. ``"property 'colour' is not declared in contrascan's collection ContrascanMemory
        (not written: Weaviate's auto-schema would have added it)"``.
    """
    names = declared(collection)
    extra = sorted(set(properties or ()) - names) + sorted(set(references or ()) - names)
    if not extra:
        return None
    listed = ", ".join(repr(n) for n in extra)
    return (f"propert{'y' if len(extra) == 1 else 'ies'} {listed} "
            f"{'is' if len(extra) == 1 else 'are'} not declared in contrascan's collection "
            f"{collection.name} (not written: Weaviate's auto-schema would have added "
            f"{'it' if len(extra) == 1 else 'them'})")


def drop_auto_made(client: weaviate.WeaviateClient, name: str) -> bool:
    """Delete collection ``name`` if auto-schema made it in place of a deleted collection of
    ours: it exists, has no multi-tenancy and holds no object (the write that made it named a
    tenant, so it failed). Only for a collection whose loss costs nothing (the batch scans'
    checkpoints, :mod:`scanner.store.scan_state`); a lost memory or ledger collection is
    reported, never replaced (docs/weaviate.md).

    Returns:
        Whether it was deleted.
    """
    with store_failure(f"cannot read collection {name}"):
        if not client.collections.exists(name):
            return False
        col = client.collections.use(name)
        if col.config.get().multi_tenancy_config.enabled or \
                col.aggregate.over_all(total_count=True).total_count:
            return False
        client.collections.delete(name)
    return True


def _create(client: weaviate.WeaviateClient, name: str, **config: Any) -> None:
    """Create multi-tenant collection ``name`` with self-provided vectors unless it exists,
    and :func:`declare` its properties and references.

    Raises:
        ConfigurationError: ``name`` exists without multi-tenancy (not a collection contrascan
            made; auto-schema makes one when a write reaches a deleted collection).
        WeaviateUnavailable: a client error.
    """
    declare(name, [p.name for p in config.get("properties", ())]
            + [r.name for r in config.get("references", ())])

    def create_unless_exists() -> None:
        if client.collections.exists(name):
            if not client.collections.use(name).config.get().multi_tenancy_config.enabled:
                raise ConfigurationError(
                    "collection", f"{name} exists without multi-tenancy, so contrascan did not "
                    "make it: Weaviate's auto-schema makes such a collection when a write "
                    "reaches one that was deleted (docs/attached-sources.md). Restore the "
                    "collection from a backup, or use another collection name")
            replication.check_collection(client, name)
            return
        client.collections.create(
            name,
            vector_config=Configure.Vectors.self_provided(),
            multi_tenancy_config=Configure.multi_tenancy(enabled=True,
                                                         auto_tenant_creation=False),
            replication_config=replication.replication_config(client),
            **config,
        )

    # A schema write goes to the Raft leader; just after a node restarts it can fail with
    # "the client connection is closing" (measured in the cluster tier). Retried through the
    # election; a create that landed before its answer was lost is found by ``exists``.
    with store_failure(f"cannot create collection {name}"):
        replication.through_election(create_unless_exists)


def memory_properties() -> list[Property]:
    """The memory collection's properties (their values: :func:`scanner.store.codec.encode_memory`)."""
    text = dict(data_type=DataType.TEXT, tokenization=Tokenization.FIELD)
    return [
        Property(name="memory_id", **text),
        Property(name="text", data_type=DataType.TEXT, tokenization=Tokenization.WORD),
        Property(name="user_id", **text),
        Property(name="scope_group", **text),
        Property(name="scope_properties", data_type=DataType.TEXT_ARRAY,
                 tokenization=Tokenization.FIELD),
        Property(name="properties_json", data_type=DataType.TEXT,
                 index_filterable=False, index_searchable=False),
        Property(name="source", **text),
        Property(name="source_class", **text),
        Property(name="observed_at", data_type=DataType.DATE, index_range_filters=True),
        Property(name="epoch", **text),
        Property(name="confidence", data_type=DataType.NUMBER),
        Property(name="priority", data_type=DataType.INT),
        Property(name="source_trust", data_type=DataType.NUMBER),
        Property(name="triples_json", data_type=DataType.TEXT,
                 index_filterable=False, index_searchable=False),
        Property(name="keys", data_type=DataType.TEXT_ARRAY, tokenization=Tokenization.FIELD),
        Property(name="status", **text),
        Property(name="retired_rule", **text),
        Property(name="imported_at", data_type=DataType.DATE),
    ]


def create_memory_collection(client: weaviate.WeaviateClient, name: str) -> None:
    """Create the memory collection ``name`` (module docstring) unless it exists."""
    _create(client, name,
            inverted_index_config=Configure.inverted_index(index_timestamps=True),
            properties=memory_properties(),
            references=[ReferenceProperty(name="supersedes", target_collection=name)])


def create_ledger_collection(client: weaviate.WeaviateClient, name: str,
                             memory_collection: str) -> None:
    """Create the ledger collection ``name`` unless it exists; ``memory_collection`` must
    exist first, since the ``concerns`` reference points at it."""
    field_text = dict(data_type=DataType.TEXT, tokenization=Tokenization.FIELD,
                      index_searchable=False)
    stored = dict(data_type=DataType.TEXT, index_filterable=False,
                  index_searchable=False)  # read back, never filtered on
    _create(client, name, properties=[
        Property(name="entry_type", **field_text),
        Property(name="status", **field_text),
        Property(name="verdict", **field_text),
        Property(name="rule", **field_text),
        Property(name="subject", **field_text),
        Property(name="relation", **field_text),
        Property(name="concerns_ids", data_type=DataType.TEXT_ARRAY,
                 tokenization=Tokenization.FIELD, index_searchable=False),
        Property(name="recorded_at", data_type=DataType.DATE, index_range_filters=True),
        Property(name="user_id", **stored),
        Property(name="kind", **stored),
        Property(name="severity", **stored),
        Property(name="scope_group", **stored),
        Property(name="members", data_type=DataType.TEXT_ARRAY,
                 index_filterable=False, index_searchable=False),
        Property(name="settled_by", **stored),
        Property(name="settles", **stored),
        Property(name="digest", **stored),
        Property(name="updated_at", data_type=DataType.DATE, index_filterable=False),
        Property(name="body_json", data_type=DataType.TEXT,
                 index_filterable=False, index_searchable=False),
    ], references=[ReferenceProperty(name="concerns", target_collection=memory_collection)])


def create_scan_state_collection(client: weaviate.WeaviateClient, name: str) -> None:
    """Create the scan-state collection ``name`` unless it exists."""
    stored = dict(data_type=DataType.TEXT, index_filterable=False, index_searchable=False)
    _create(client, name, properties=[
        Property(name="user_id", **stored),
        Property(name="checkpoint_json", **stored),
        Property(name="recorded_at", data_type=DataType.DATE, index_filterable=False),
    ])
