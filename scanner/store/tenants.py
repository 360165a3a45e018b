"""Tenants: one per ``user_id`` in every contrascan collection (SPEC §1, WEAVIATE.md §5).

A request without a tenant is rejected by the server, so a forgotten filter cannot leak another
user's memories. :func:`tenant_name` maps a user id to its tenant, :func:`open_tenant` gives a
collection handle bound to it (the client's ``collections.use(...).with_tenant(...)``,
cached), and :class:`TenantCollection` is what the memory store's parts share: the client, the
collection name and the tenants this process has seen. :func:`object_uuid` is the object id
of a memory inside its tenant.
"""

from __future__ import annotations

import hashlib
import re
import threading
import weakref
from collections import OrderedDict

import weaviate
from weaviate.classes.tenants import Tenant
from weaviate.util import generate_uuid5

from scanner.store import replication
from scanner.store.failures import translate_unreachable

DEFAULT_COLLECTION = "ContrascanMemory"
_TENANT_OK = re.compile(r"[A-Za-z0-9\-_]{1,64}")
_HASHED_SHAPE = re.compile(r".*-[0-9a-f]{16}", re.DOTALL)


def tenant_name(user_id: str) -> str:
    """The tenant that holds ``user_id``'s memories; one-to-one, so no user reaches another's.

    Tenant names must match ``[A-Za-z0-9\\-_]{1,64}`` (weaviate ``entities/schema/
    validation.go``; names are case-sensitive). A user id that is such a name and does not
    end in ``-`` plus 16 lowercase hex digits is its own tenant ("ops-1", "demo-user-3").
    Every other id is *hashed*: ``<id with other characters as _, first 40>-<first 16 hex
    digits of sha256(id)>`` (at most 57 characters).

    Injective (sha256 collisions aside): an identity name never ends in ``-<16 hex>`` and a
    hashed name always does, so the two kinds never meet; two hashed names are equal only if
    their digests are, i.e. two distinct ids share a 64-bit sha256 prefix, and forging the
    digest of a given id (a second preimage) is infeasible. So ``alice_example_com-<digest>``,
    sent as a user id, is hashed again instead of naming alice@example.com's tenant, and ids
    over 64 characters, or differing only in characters mapped to ``_``, differ in the digest.
    (Before this rule a valid id of hashed shape was its own tenant; such a user's memories
    must be re-imported to be found.)
    """
    if _TENANT_OK.fullmatch(user_id) and not _HASHED_SHAPE.fullmatch(user_id):
        return user_id
    digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:16]
    prefix = re.sub(r"[^A-Za-z0-9\-_]", "_", user_id)[:40]
    return f"{prefix}-{digest}"


def open_tenant(client: weaviate.WeaviateClient, collection: str, user_id: str,
                known: set[str], *, create: bool = False):
    """``collection`` scoped to ``user_id``'s tenant.

    Args:
        client: a connected client.
        collection: a multi-tenant collection name.
        user_id: the user; mapped with :func:`tenant_name`.
        known: tenant names this caller already created (updated in place), so the create
            call is made once per tenant and process.
        create: create the tenant when it is not known yet (the server treats a repeated
            create as a no-op).
    """
    name = tenant_name(user_id)
    if create and name not in known:
        replication.through_election(client.collections.use(collection).tenants.create,
                                     [Tenant(name=name)])
        known.add(name)
    key = (collection, name)
    with _TENANT_HANDLES_LOCK:
        handles = _TENANT_HANDLES.setdefault(client, OrderedDict())
        col = handles.get(key)
        if col is not None:
            handles.move_to_end(key)
            return col
    # building a handle costs ~0.4 ms (measured): once per tenant, not once per query
    col = replication.for_reads(client, client.collections.use(collection).with_tenant(name))
    with _TENANT_HANDLES_LOCK:
        handles[key] = col
        while len(handles) > _TENANT_HANDLES_KEPT:
            handles.popitem(last=False)
    return col


_TENANT_HANDLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Per client: (collection, tenant) -> tenant-bound collection handle, least recent first.
Handles hold no state of their own beyond the names, so threads share them."""
_TENANT_HANDLES_KEPT = 4096
_TENANT_HANDLES_LOCK = threading.Lock()


def object_uuid(user_id: str, memory_id: str) -> str:
    """Deterministic object UUID (uuid5) for a memory: re-imports address the same object."""
    return generate_uuid5(f"{user_id}\x1f{memory_id}")


@translate_unreachable
class TenantCollection:
    """One multi-tenant collection of a client, and the tenants this object has seen.

    Args:
        client: a connected ``weaviate.WeaviateClient`` (see :mod:`scanner.store.server`).
        collection: collection name (tests use unique names).

    Raises:
        WeaviateUnavailable: from any public method, when the server does not answer
            (:mod:`scanner.store.failures`).
    """

    def __init__(self, client: weaviate.WeaviateClient, collection: str = DEFAULT_COLLECTION):
        self.client = client
        self.name = collection
        self._known_tenants: set[str] = set()

    def _tenant(self, user_id: str, *, create: bool = False):
        return open_tenant(self.client, self.name, user_id, self._known_tenants, create=create)

    def tenants(self) -> list[str]:
        """Tenant names, sorted."""
        col = self.client.collections.use(self.name)
        return replication.tenant_names(col)

    def known_tenants(self) -> frozenset[str]:
        """The tenant names this object created or found, without a request (what
        :class:`scanner.store.presence.StorePresence` counts as seen)."""
        return frozenset(self._known_tenants)

    def has_tenant(self, user_id: str) -> bool:
        """Whether ``user_id``'s tenant exists. A tenant once seen is remembered (nothing is
        ever deleted), so a read-time scan of a known user costs no tenant listing."""
        name = tenant_name(user_id)
        if name in self._known_tenants:
            return True
        if name in set(self.tenants()):
            self._known_tenants.add(name)
            return True
        return False
