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
"""

from __future__ import annotations

from typing import Any

import weaviate
from weaviate.classes.config import Configure, DataType, Property, ReferenceProperty, Tokenization

from scanner.store import replication
from scanner.store.failures import store_failure


def _create(client: weaviate.WeaviateClient, name: str, **config: Any) -> None:
    """Create multi-tenant collection ``name`` with self-provided vectors unless it exists."""
    def create_unless_exists() -> None:
        if client.collections.exists(name):
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
