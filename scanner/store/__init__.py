"""Weaviate store: the only package of the product that imports weaviate.

What the service needs of a store is :mod:`scanner.store.protocols`;
:func:`scanner.store.wiring.weaviate_stores` builds the Weaviate implementations over one
client. By concern:

* stores: :mod:`~scanner.store.memories` (the memory store, assembled from
  :mod:`~scanner.store.schema`, :mod:`~scanner.store.tenants`, :mod:`~scanner.store.writes`,
  :mod:`~scanner.store.status_updates` and :mod:`~scanner.store.queries`),
  :mod:`~scanner.store.ledger`, :mod:`~scanner.store.scan_state`,
  :mod:`~scanner.store.reviews` (ledger queries of the review inbox),
  :mod:`~scanner.store.attached` (collections of other applications);
* formats and errors: :mod:`~scanner.store.codec` (a memory's properties, encoded and
  decoded; pure), :mod:`~scanner.store.failures` (client, httpx and gRPC errors as ours),
  :mod:`~scanner.store.batching` (batch inserts);
* the server: :mod:`~scanner.store.server` (:func:`~scanner.store.server.open_client` and every
  public name of) :mod:`~scanner.store.binary`, :mod:`~scanner.store.processes`,
  :mod:`~scanner.store.locks`, :mod:`~scanner.store.embedded`, :mod:`~scanner.store.connection`,
  and :mod:`~scanner.store.access` (keys and file permissions).

This file imports nothing, so the pure :mod:`scanner.store.codec` loads without the client.
"""
