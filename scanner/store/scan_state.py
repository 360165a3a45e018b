"""Where a batch scan records the state it converged on, per tenant (``<memory collection>ScanState``).

A batch scan that finds a tenant exactly as the last complete scan of it left it — the same
stored memories, the same statuses, the same ledger, under the same configuration and code —
would decide the same verdicts and write nothing (every write is idempotent and compared
first). The :class:`~scanner.batch.ScanCheckpoint` stored here lets the next scan see that
after its cursor pass, without deciding again (``Service.scan_tenant``).

Layout, mirroring the ledger (:mod:`scanner.store.ledger`): one multi-tenant collection, one
tenant per user (the same tenant names), no vectors, one object per tenant whose UUID is
derived from the tenant name, so two scanners of one tenant overwrite the same object. It holds
only digests and counts, never memory content; deleting the collection only makes the next
scan of every tenant a full one.
"""

from __future__ import annotations

import json
from typing import Any

import weaviate
from weaviate.classes.data import DataObject
from weaviate.util import generate_uuid5

from scanner.batch import ScanCheckpoint
from scanner.errors import ConfigurationError, StoreWriteError
from scanner.store import replication
from scanner.store.batching import insert_objects
from scanner.store.failures import classify, store_failure
from scanner.store.schema import create_scan_state_collection, drop_auto_made
from scanner.store.tenants import DEFAULT_COLLECTION, open_tenant, tenant_name

SCAN_STATE_SUFFIX = "ScanState"


def scan_state_collection_name(memory_collection: str = DEFAULT_COLLECTION) -> str:
    """The scan-state collection that belongs to a memory collection (``<name>ScanState``)."""
    return memory_collection + SCAN_STATE_SUFFIX


class ScanStateStore:
    """The last converged batch scan of every tenant.

    Args:
        client: a connected ``weaviate.WeaviateClient``.
        memory_collection: the memory collection whose tenants are scanned.

    Raises:
        WeaviateUnavailable: from :meth:`ensure_schema` and :meth:`put`, when the server
            does not answer (:meth:`get` returns None instead).
    """

    def __init__(self, client: weaviate.WeaviateClient,
                 memory_collection: str = DEFAULT_COLLECTION):
        self.client = client
        self.name = scan_state_collection_name(memory_collection)
        self._known_tenants: set[str] = set()
        self._listed = False  # the tenants were listed once (then unknown = absent)
        self._exists = False

    def ensure_schema(self) -> None:
        """Create the collection if it does not exist (idempotent). An empty collection of its
        name without tenants is what Weaviate's auto-schema made of a checkpoint written after
        the collection was deleted: it is replaced (checkpoints only save work).

        Raises:
            ConfigurationError: a collection of its name without tenants holds objects.
        """
        if self._exists:
            return
        try:
            create_scan_state_collection(self.client, self.name)
        except ConfigurationError:
            if not drop_auto_made(self.client, self.name):
                raise
            create_scan_state_collection(self.client, self.name)
        self._exists = True

    def forget_schema(self) -> None:
        """Check the collection and tenants again on next use (after a failed write: the
        collection may have been deleted)."""
        self._exists = False
        self._listed = False
        self._known_tenants.clear()

    @staticmethod
    def _uuid(user_id: str) -> str:
        return generate_uuid5(tenant_name(user_id), "contrascan-scan-state")

    def get(self, user_id: str) -> ScanCheckpoint | None:
        """The tenant's checkpoint, or None when none was recorded or it cannot be read (a
        checkpoint only ever saves work: an unreadable one means a full scan)."""
        try:
            if not self._exists and not self.client.collections.exists(self.name):
                return None
            self._exists = True
            if tenant_name(user_id) not in self._known_tenants:
                if self._listed:  # created since by another process: decided in full once
                    return None
                self._known_tenants.update(
                    replication.tenant_names(self.client.collections.use(self.name)))
                self._listed = True
                if tenant_name(user_id) not in self._known_tenants:
                    return None
            obj = open_tenant(self.client, self.name, user_id, self._known_tenants) \
                .query.fetch_object_by_id(self._uuid(user_id))
        except Exception as err:
            if classify(err) is None:
                raise
            # deleted meanwhile, or the server is gone (then the scan's own reads fail next)
            self.forget_schema()
            return None
        if obj is None:
            return None
        try:
            return ScanCheckpoint.from_json(json.loads(obj.properties["checkpoint_json"]))
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, user_id: str, checkpoint: ScanCheckpoint, recorded_at: Any) -> None:
        """Record ``checkpoint`` for the tenant (replaces the previous one).

        Raises:
            StoreWriteError: Weaviate rejected the object.
        """
        self.ensure_schema()
        props = {"user_id": user_id, "recorded_at": recorded_at,
                 "checkpoint_json": json.dumps(checkpoint.to_json(), sort_keys=True)}
        with store_failure(f"cannot write {self.name}"):
            col = open_tenant(self.client, self.name, user_id, self._known_tenants,
                              create=True)
            # a batch insert replaces an object of the same uuid: two scanners both succeed
            failed = insert_objects(replication.for_writes(self.client, col),
                                    [DataObject(properties=props, uuid=self._uuid(user_id))])
        if failed:
            raise StoreWriteError(failed, 0)
